"""The README documents every command line verb and every mail command, and
starts with the two set-up commands (settings are checked in test_config_docs)."""
import argparse
import os
import re
from pathlib import Path

from pbem.host.cli import build_parser
from pbem.handlers.catalogue import COMMANDS
from pbem.handlers.help import commands_markdown

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _verbs(parser: argparse.ArgumentParser, prefix: str = "pbem"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _verbs(sub, f"{prefix} {name}")
            return
    yield prefix


def test_every_command_line_verb_is_documented():
    verbs = list(_verbs(build_parser()))
    assert len(verbs) >= 14
    missing = [v for v in verbs if f"`{v}" not in README]
    assert not missing, f"README lacks: {missing}"


def test_every_mail_command_is_documented():
    assert commands_markdown() in README, "README's mail command table is out of date"
    assert len(COMMANDS) >= 30


def test_readme_starts_with_the_two_commands_and_they_exist():
    first = [line.split("#")[0].strip() for line in README.splitlines()[:2]]
    assert first == ["scripts/demo", "scripts/test"]
    for cmd in first:
        path = ROOT / cmd
        assert path.is_file() and os.access(path, os.X_OK), cmd


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/test" in ci


def test_every_template_is_documented():
    templates = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*") if p.is_file())
    assert len(templates) >= 10
    missing = [t for t in templates if f"`{t}`" not in README]
    assert not missing, f"README lacks: {missing}"


def builtin_games():
    import pkgutil

    import games
    from pbem.base import registry

    return [registry.get(i.name) for i in pkgutil.iter_modules(games.__path__) if not i.name.startswith("_")]


def test_every_game_s_order_forms_and_options_are_documented():
    """Read from each game itself, so a new order form or option cannot go undocumented."""
    found = builtin_games()
    assert "pax_britannica" in [g.name for g in found]
    missing = []
    for game in found:
        forms = game.order_forms()
        assert forms, f"{game.name} lists no order forms"
        missing += [f"{game.name}: {f}" for f in forms if f not in README]
        missing += [f"{game.name}: OPTION {k}" for k in game.options() if f"`{k}`" not in README]
        missing += [f"{game.name}: window {w}" for w in game.windows() if f"`{w}_duration`" not in README]
    assert not missing, f"README lacks: {missing}"


def test_pax_britannica_gm_edits_are_documented():
    from games.pax_britannica import gm

    assert len(gm.COMMANDS) >= 15
    missing = [c for c in gm.COMMANDS if f"`{c}`" not in README]
    assert not missing, f"README lacks: {missing}"


def test_the_security_section_names_every_limit():
    from pbem.base.config import SETTINGS

    section = README.split("## Security", 1)[1].split("\n## ", 1)[0]
    wanted = [s.name for s in SETTINGS if s.section == "limits"] + [
        "server.reply_rate_per_hour", "server.admin_address", "server.game_data",
        "imap.password_file", "smtp.password_file", "pbem quarantine list", "pbem quarantine release",
        "listener.max_sessions", "listener.idle_timeout", "seats_per_address"]
    missing = [name for name in wanted if f"`{name}" not in section]
    assert not missing, f"README's Security section lacks: {missing}"
def test_readme_has_an_install_section_for_ones_own_host():
    """Issue 7: the README said nothing about installing pbem on one's own host."""
    section = README.split("## Install on your own host", 1)[1].split("\n## ", 1)[0]
    for step in ("python3 -m venv .venv", ".venv/bin/pip install .", ".venv/bin/pbem init",
                 ".venv/bin/pbem serve", 'intake.kind = "imap"', 'outbound.kind = "smtp"',
                 "server.base_url", "Restart=always"):
        assert step in section, step


def test_readme_pictures_exist_and_a_script_makes_them():
    text = README
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert {"docs/images/map.png", "docs/images/phase-page.png", "docs/images/report.png"} <= set(pictures)
    root = ROOT
    for picture in pictures:
        assert (root / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", picture
    script = (root / "scripts" / "screenshots").read_text(encoding="utf-8")
    assert "`scripts/screenshots`" in text and all(p in script for p in pictures)


def test_eu_tpop_orders_options_gm_edits_and_queries_are_documented():
    from games.eu_tpop import gm, orders, queries
    from pbem.base import registry

    game = registry.get("eu_tpop")
    section = README[README.index("## Playing Europa Universalis"):README.index("## How a mail is handled")]
    missing = [f for f in orders.FORMS if f not in section]
    missing += [f"OPTION {k}" for k in game.options() if f"`{k}`" not in section]
    missing += [f"`{w}_duration`" for w in game.windows() if f"{w}_duration" not in section]
    missing += [c for c in gm.COMMANDS if f"`{c}`" not in section]
    missing += [q for q in queries.QUERIES if f"`{q}`" not in section]
    missing += [t for t in orders.TERMS if f"`{t}`" not in section]
    assert not missing, f"README lacks: {missing}"
    assert len(orders.FORMS) >= 25 and len(gm.COMMANDS) >= 40


def test_pax_britannica_diplomacy_orders_clauses_queries_and_windows_are_documented():
    from games.pax_britannica import GAME, queries
    from games.pax_britannica.core import clauses
    from games.pax_britannica.phases import diplomacy_orders

    missing = [f for f in diplomacy_orders.FORMS if f not in README]
    missing += [f for f in clauses.FORMS if f not in README]
    missing += [f"query {q}" for q in (k.lower() for k in queries._QUERIES) if f"`{q}`" not in README]
    missing += [f"window {w}" for w in GAME.windows() if f"`{w}`" not in README]
    missing += [f"HELP {topic}" for topic in ("NEGOTIATION", "CONGRESS", "CLAUSES") if f"HELP {topic}" not in README]
    assert len(diplomacy_orders.FORMS) >= 16 and len(clauses.FORMS) >= 12
    assert not missing, f"README lacks: {missing}"


def test_the_running_a_host_section_is_in_step_with_the_commands():
    """Each part an administrator needs is there; every `pbem ...` command it names
    exists with the options it gives; every setting it names exists; every
    administrator's verb is in it; the unit it names is the shipped one."""
    from pbem.base.config import BY_NAME

    section = " ".join(README.split("## Running a host", 1)[1].split("\n## ", 1)[0].split())
    for part in ("**User and files.**", "**The unit.**", "**Logs.**", "**Outgoing mail is never lost.**",
                 "**Backups.**", "**Upgrades.**", "**Monitoring.**"):
        assert part in section, part
    parser = build_parser()
    named = re.findall(r"`pbem ([a-z][^`]*)`", section)
    assert len(named) >= 12
    for command in named:
        words = [w for w in command.split() if not w.startswith(("[", "<", "$", "/")) and "..." not in w]
        try:
            parser.parse_args(_example(words))
        except SystemExit as exc:
            raise AssertionError(f"README names `pbem {command}`, which the command line refuses") from exc
    for verb in ("pbem status", "pbem config check", "pbem migrate", "pbem backup", "pbem outbox list",
                 "pbem outbox show", "pbem outbox retry", "pbem serve --once", "pbem --version",
                 "pbem verify"):
        assert f"`{verb}" in section, verb
    sections = {name.split(".")[0] for name in BY_NAME}
    for setting in set(re.findall(r"`([a-z]+\.[a-z_]+)`", section)):
        if setting.split(".")[0] in sections:  # not a file name such as pbem.toml
            assert setting in BY_NAME, setting
    assert "`docs/systemd/pbem.service`" in README and (ROOT / "docs/systemd/pbem.service").is_file()
    unit = (ROOT / "docs/systemd/pbem.service").read_text()
    assert "ExecStart=/srv/pbem/.venv/bin/pbem -c /srv/pbem/pbem.toml serve" in unit
    assert "`/srv/pbem/.venv/bin/pbem -c /srv/pbem/pbem.toml serve`" in " ".join(README.split())


def _example(words: list[str]) -> list[str]:
    """A command as README writes it, made runnable: placeholders get example values."""
    out = []
    for word in words:
        if word in ("ID", "FILE", "GAME", "NAME"):
            out.append({"ID": "1", "FILE": "backup.sqlite", "GAME": "g1", "NAME": "g1"}[word])
        else:
            out.append(word)
    return out
