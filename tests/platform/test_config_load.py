"""Loading: defaults, types, paths relative to the file, read-only access."""
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.base.config import Config, load_config, SETTINGS
from pbem.base.deadlines import DeadlinePolicy
from pbem.base.identity import hash_secret


def write(tmp_path, text, name="pbem.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_every_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = load_config(None)
    assert isinstance(cfg, Config) and cfg.path is None and cfg.base_dir == tmp_path
    assert cfg.server.address == "pbem@localhost" and cfg.server.domain == "localhost"
    assert cfg.server.database == tmp_path / "var" / "pbem.sqlite"
    assert cfg.imap.port == 993 and cfg.smtp.port == 587 and cfg.listener.port == 2525
    assert cfg.server.games_extra == [] and cfg.server.gm_secret_hash == ""
    assert cfg.deadlines.warnings == ["48h", "12h"]
    assert cfg.identity.reply_token is False
    for s in SETTINGS:
        assert s.key in cfg[s.section]


def test_an_empty_file_is_all_defaults(tmp_path):
    cfg = load_config(write(tmp_path, ""))
    assert cfg.path == tmp_path / "pbem.toml" and cfg.base_dir == tmp_path
    assert cfg.outbound.max_attempts == 8


def test_values_from_the_file(tmp_path):
    stored = hash_secret("gm secret")
    cfg = load_config(write(tmp_path, f"""
[server]
address = "moderator@example.org"
gm_secret_hash = "{stored}"
games_extra = ["mygames.dip:GAME"]
[intake]
kind = "imap"
poll_interval = 2
[imap]
host = "imap.example.org"
user = "moderator"
password = "s3cret"
[deadlines]
timezone = "Europe/London"
hour = "18:00"
"""))
    assert cfg.server.address == "moderator@example.org"
    assert cfg.server.gm_secret_hash == stored
    assert cfg.server.games_extra == ["mygames.dip:GAME"]
    assert cfg.intake.kind == "imap" and cfg.imap.host == "imap.example.org"
    assert cfg.intake.poll_interval == 2.0 and isinstance(cfg.intake.poll_interval, float)
    policy = cfg.deadline_policy()
    assert isinstance(policy, DeadlinePolicy) and policy.timezone == "Europe/London"
    assert policy.hour.hour == 18 and policy.duration == timedelta(hours=72)


def test_relative_paths_resolve_against_the_files_folder(tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    conf_dir = tmp_path / "etc"
    conf_dir.mkdir()
    cfg = load_config(write(conf_dir, f"""
[server]
database = "db/pbem.sqlite"
archive_dir = "{tmp_path / 'public'}"
[outbound]
maildir = "~/outbox"
"""))
    assert cfg.server.database == conf_dir / "db" / "pbem.sqlite"
    assert cfg.server.archive_dir == tmp_path / "public"
    assert cfg.server.data_dir == conf_dir / "var"
    assert cfg.intake.maildir == conf_dir / "var" / "mail" / "inbox"
    assert cfg.outbound.maildir == Path("~/outbox").expanduser()


def test_a_relative_config_path_still_resolves_its_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, '[server]\ndata_dir = "state"\n')
    cfg = load_config("pbem.toml")
    assert cfg.base_dir == tmp_path and cfg.server.data_dir == tmp_path / "state"


def test_sections_are_read_only_mappings_with_helpful_misses():
    cfg = load_config(None)
    assert dict(cfg.smtp)["starttls"] is True and cfg["smtp"] is cfg.smtp
    assert len(cfg.listener) == 6 and set(cfg.listener) == {"enabled", "host", "port", "required",
                                                             "max_sessions", "idle_timeout"}
    with pytest.raises(AttributeError, match="read-only"):
        cfg.smtp.host = "x"
    with pytest.raises(AttributeError, match=r"smtp.hots: no such setting \(did you mean smtp.host\?\)"):
        cfg.smtp.hots
    with pytest.raises(AttributeError, match=r"smpt: no such section \(did you mean smtp\?\)"):
        cfg.smpt
    assert set(cfg.as_dict()) == {s.section for s in SETTINGS}


def test_defaults_are_not_shared_between_loads():
    first = load_config(None)
    first.server.games_extra.append("x:y")
    assert load_config(None).server.games_extra == []


def test_secrets_do_not_show_in_reprs(tmp_path):
    cfg = load_config(write(tmp_path, '[imap]\npassword = "hunter2"\n[smtp]\npassword = "pw9"\n'))
    assert cfg.imap.password == "hunter2"
    shown = repr(cfg)
    assert "hunter2" not in shown and "pw9" not in shown and "***" in shown
    assert "'host': ''" in shown
