"""pbem.kit.templating: one environment for mail, archive and game templates."""
import jinja2
import pytest

from pbem.kit import templating


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "page.html.j2").write_text('{% extends "base.html.j2" %}{% block b %}{{ x }}{% endblock %}')
    (tmp_path / "base.html.j2").write_text("<p>{% block b %}{% endblock %}</p>\n")
    (tmp_path / "note.txt.j2").write_text('{% include "part.txt.j2" %}{{ x }}\n')
    (tmp_path / "part.txt.j2").write_text("says: ")
    templating.add_folder(f"t{abs(hash(str(tmp_path)))}", tmp_path)
    return f"t{abs(hash(str(tmp_path)))}"


def test_a_template_names_its_neighbours_and_html_alone_is_escaped(folder):
    assert templating.render(f"{folder}/page.html.j2", x="<b>&") == "<p>&lt;b&gt;&amp;</p>\n"
    assert templating.render(f"{folder}/note.txt.j2", x="<b>&") == "says: <b>&\n"


def test_an_undefined_name_fails(folder):
    with pytest.raises(jinja2.UndefinedError):
        templating.render(f"{folder}/note.txt.j2")


def test_a_name_belongs_to_one_folder_and_an_unknown_one_is_not_found(folder, tmp_path_factory):
    templating.add_folder(folder, templating._where[folder])  # the same again: nothing happens
    with pytest.raises(ValueError):
        templating.add_folder(folder, tmp_path_factory.mktemp("other"))
    with pytest.raises(jinja2.TemplateNotFound):
        templating.render("nowhere/page.html.j2")
    with pytest.raises(jinja2.TemplateNotFound):
        templating.render(folder)


def test_a_filter_name_is_not_taken_twice():
    templating.filter("test_shout", str.upper)
    templating.filter("test_shout", str.upper)
    with pytest.raises(ValueError):
        templating.filter("test_shout", str.lower)
