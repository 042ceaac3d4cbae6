"""One Jinja environment for every template of pbem and of its games.

Mail (``templates/mail``), the archive (``templates/archive``) and each game's own
templates (``games/<name>/templates``) are folders of one environment, each under its
name: ``mail/report.txt.j2``, ``archive/phase.html.j2``, ``eu_tpop/status.txt.j2``.  A
template names its neighbours without the folder (``{% extends "base.html.j2" %}``),
as it would on its own.  One set of settings for all: an undefined name fails
(StrictUndefined), a block leaves no blank line, a trailing newline is kept, and
HTML templates (``*.html``, ``*.html.j2``) escape what they are given while text ones
do not -- so a game's template renders the same drawn by the game or by the platform.

Filters are registered by the module that needs them (:func:`filter`); a game's
templates should use Jinja's own, which every caller has.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import jinja2


class _Environment(jinja2.Environment):
    def join_path(self, template: str, parent: str) -> str:
        # A name without a folder is a neighbour of the template that names it.
        if "/" in template or "/" not in parent:
            return template
        return parent.rsplit("/", 1)[0] + "/" + template


class _Folders(jinja2.BaseLoader):
    """``<name>/<file>`` from the folder added under ``name``.  (Jinja's PrefixLoader would
    name a template by its file alone, so a template could not name its neighbours.)"""

    def get_source(self, environment: jinja2.Environment, template: str):
        name, _, file = template.partition("/")
        if name not in _folders or not file:
            raise jinja2.TemplateNotFound(template)
        return _folders[name].get_source(environment, file)


_folders: dict[str, jinja2.FileSystemLoader] = {}
_where: dict[str, Path] = {}
_env = _Environment(loader=_Folders(), undefined=jinja2.StrictUndefined,
                    autoescape=jinja2.select_autoescape(["html", "html.j2"], default_for_string=False),
                    trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def add_folder(name: str, folder: Path | str) -> None:
    """Templates in ``folder`` are ``<name>/<file>`` from now on.  Adding the same folder
    again under its name does nothing; another folder under a taken name is an error."""
    folder = Path(folder).resolve()
    if "/" in name or not name:
        raise ValueError(f"a template folder's name has no '/': {name!r}")
    if name in _where:
        if _where[name] != folder:
            raise ValueError(f"template folder {name!r} is {_where[name]}, not {folder}")
        return
    _where[name] = folder
    _folders[name] = jinja2.FileSystemLoader(str(folder))


def filter(name: str, function: Callable[..., Any]) -> None:  # noqa: A001 - Jinja's word
    """Make ``function`` the filter ``name`` in every template."""
    if _env.filters.get(name, function) is not function:
        raise ValueError(f"template filter {name!r} is taken")
    _env.filters[name] = function


def render(name: str, **values: Any) -> str:
    """Template ``<folder>/<file>`` filled with ``values``."""
    return _env.get_template(name).render(**values)
