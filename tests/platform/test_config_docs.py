"""The settings table is the one source: the example file and the README follow it."""
import re
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:
    import tomli as tomllib

from pbem.base.config import check_data, load_config, SETTINGS, settings_markdown, toml_value

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config.example.toml"


def readme_settings() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- settings:begin -->(.*)<!-- settings:end -->", text, re.S)
    assert match, "README.md lost its settings markers"
    return match.group(1)


def test_every_setting_has_help_and_a_default_that_passes_its_own_checks():
    names = [s.name for s in SETTINGS]
    assert len(names) == len(set(names))
    for s in SETTINGS:
        assert s.help.strip().endswith("."), s.name
        assert s.type_name
    defaults = {}
    for s in SETTINGS:
        defaults.setdefault(s.section, {})[s.key] = s.default
    assert check_data(defaults) == []

def test_every_setting_is_in_the_example_file_and_nothing_else():
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    in_file = {f"{section}.{key}" for section, table in data.items() for key in table}
    assert in_file == {s.name for s in SETTINGS}


def test_the_example_file_loads_without_problems_and_is_the_embedded_default():
    cfg = load_config(EXAMPLE)
    assert cfg.intake.kind == "maildir" and cfg.outbound.kind == "maildir"
    assert cfg.listener.enabled and cfg.listener.host == "127.0.0.1"
    assert cfg.server.database == ROOT / "var" / "pbem.sqlite"
    assert cfg.server.database.suffix == ".sqlite"


def test_every_setting_is_in_the_readme_settings_section():
    section = readme_settings()
    for s in SETTINGS:
        assert f"`{s.name}`" in section, f"{s.name} is not documented in README.md"


def test_the_readme_table_is_the_generated_one():
    assert settings_markdown() in readme_settings(), \
        "README.md settings table is stale: paste the output of `python -m pbem.base.config`"


def test_markdown_table_rows():
    rows = settings_markdown().splitlines()
    assert rows[0] == "| Setting | Type | Default | Meaning |"
    assert len(rows) == len(SETTINGS) + 2
    assert "| `imap.port` | integer | `993` | IMAP port. |" in rows
    assert any(r.startswith("| `deadlines.warnings` | list of durations | `[\"48h\", \"12h\"]`")
               for r in rows)
    assert all(r.count(" | ") == 3 for r in rows[2:])


def test_toml_value_writes_what_toml_reads():
    for s in SETTINGS:
        assert tomllib.loads(f"x = {toml_value(s.default)}")["x"] == s.default, s.name
