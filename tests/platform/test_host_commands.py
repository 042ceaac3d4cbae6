"""The administrator's commands, run as an administrator runs them (another
process, a site on disk): --version, config check, migrate (a copy first;
other commands never migrate), backup (consistent while the daemon runs),
status, and an archive another user can read."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from helpers_host import Site
from pbem import __version__
from pbem.storage.db import Database, MIGRATIONS, pending_at

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_version_is_the_package_s_and_the_changelog_has_it(tmp_path):
    site = Site(tmp_path / "site")
    assert site.pbem("--version").stdout.strip() == f"pbem {__version__}"
    assert __version__ != "0.1.0"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"\n## {__version__}\n" in changelog
    assert 'dynamic = ["version"]' in (ROOT / "pyproject.toml").read_text()  # one source: pbem/__init__.py


def test_config_check_gives_every_problem_and_warning_on_its_own_line(tmp_path):
    site = Site(tmp_path / "site", **{
        'kind = "maildir"                    # production: "imap"': 'kind = "imap"',
        'host = ""                           # e.g. "imap.example.org"': 'host = "imap.example.test"',
        'user = ""                           # e.g. "pbem@example.org"': 'user = "pbem"',
        'ca_file = ""                        # e.g. "/etc/ssl/private-ca.pem"; "" = the system\'s':
            'ca_file = "no-such-ca.pem"',
        'archive_dir = "archive"             # outside var/: a web server may read it':
            'archive_dir = "var/archive"'})
    secret = site.folder / "smtp-password"
    secret.write_text("pw\n")
    secret.chmod(0o644)
    text = site.config.read_text()
    head, smtp = text.split("\n[smtp]", 1)
    site.config.write_text(head + "\n[smtp]" + smtp.replace('password_file = ""', 'password_file = "smtp-password"', 1))
    check = site.pbem("config", "check", check=False, env={**site.env, "PBEM_IMAP_PASSWORD": ""})
    assert check.returncode == 1
    lines = check.stdout.splitlines()
    assert any(ln.startswith("problem: ") and "imap.password: none given" in ln for ln in lines), lines
    assert any(ln.startswith("problem: ") and "imap.ca_file: cannot use" in ln for ln in lines), lines
    assert any(ln.startswith("warning: smtp.password_file: ") and "may be read by every user (mode 0644)" in ln
               for ln in lines), lines
    assert any(ln.startswith("warning: server.archive_dir: ") and "which pbem keeps private" in ln
               for ln in lines), lines
    assert lines[-1].endswith("2 problem(s), 2 warning(s)")
    serve = site.pbem("serve", "--once", check=False, env={**site.env, "PBEM_IMAP_PASSWORD": ""})
    errors = serve.stderr.splitlines()
    assert serve.returncode == 1 and len(errors) == 2 and all(e.startswith("pbem: error: ") for e in errors), errors

    broken = Site(tmp_path / "broken", **{"port = 993": "port = 0", 'log_level = "INFO"': 'log_level = "LOUD"'})
    proc = broken.pbem("config", "check", check=False)
    assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 2, proc.stderr  # one line each
    assert all(line.startswith("pbem: error: ") for line in proc.stderr.splitlines())


def _old_database(path: Path, upto: int = 8) -> None:
    """A database made by an earlier version: the first ``upto`` migrations, and a mail."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    db = Database(sqlite3.connect(path, isolation_level=None))
    db["migrations"].create({"name": str, "applied": str}, pk="name")
    for name, migrate in MIGRATIONS[:upto]:
        migrate(db)
        db["migrations"].insert({"name": name, "applied": "2026-01-01T00:00:00+00:00"})
    db["messages"].insert({"source_key": "maildir:old", "status": "done", "raw": b"x", "subject": "kept"})
    db.conn.close()


def test_commands_never_migrate_migrate_copies_first_and_the_daemon_too(tmp_path):
    site = Site(tmp_path / "site")
    database = site.folder / "var" / "pbem.sqlite"
    _old_database(database)
    due = pending_at(database)
    assert len(due) == len(MIGRATIONS) - 8
    for verb in (("game", "list"), ("quarantine", "list"), ("outbox", "list")):
        proc = site.pbem(*verb, check=False)
        assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1, proc.stderr
        assert "needs" in proc.stderr and "run `pbem migrate`, which backs it up first" in proc.stderr
    assert pending_at(database) == due  # untouched
    status = site.pbem("status", check=False)
    assert status.returncode == 1 and "UNHEALTHY: a database migration is due" in status.stdout
    assert "migration(s) due" in site.pbem("config", "check").stdout

    out = site.pbem("migrate").stdout
    assert f"migrated ({', '.join(due)})" in out
    copy = Path(out.rsplit("the copy made before is ", 1)[1].strip())
    assert copy.parent == database.parent and copy.name.startswith(f"pbem.before-{due[0]}-")
    assert oct(copy.stat().st_mode & 0o777) == "0o600"
    assert pending_at(copy) == due and pending_at(database) == []
    kept = sqlite3.connect(copy).execute("select subject from messages").fetchall()
    assert kept == [("kept",)]
    assert "up to date" in site.pbem("migrate").stdout
    assert site.pbem("game", "list").returncode == 0

    other = Site(tmp_path / "other")
    _old_database(other.folder / "var" / "pbem.sqlite")
    proc = other.pbem("serve", "--once", check=False, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "WARNING pbem.storage.backup: database " in proc.stderr and "the copy made before is" in proc.stderr
    assert pending_at(other.folder / "var" / "pbem.sqlite") == []


def test_backup_is_a_consistent_copy_while_the_daemon_runs(tmp_path):
    site = Site(tmp_path / "site")
    site.init()
    copies = []
    try:
        daemon = site.start()
        site.wait_for("started")
        for number in range(12):
            site.send(f"player{number}@players.test", "HELP\n", subject=f"help {number}")
        for number in range(4):
            copy = tmp_path / f"copy{number}.sqlite"
            site.pbem("backup", str(copy))
            copies.append(copy)
            time.sleep(0.3)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list((site.folder / "var" / "mail" / "out").glob("*/new/*"))) < 12:
            time.sleep(0.2)
        final = tmp_path / "final.sqlite"
        out = site.pbem("backup", str(final)).stdout
        assert daemon.poll() is None  # taken while the daemon runs
        copies.append(final)
    finally:
        site.stop_all()
    assert out.startswith(f"backup written: {final} (") and "12 messages" in out
    for copy in copies:
        assert not Path(f"{copy}-wal").exists()  # one self-contained file
        db = sqlite3.connect(copy)
        assert db.execute("pragma integrity_check").fetchone() == ("ok",)
        # One transaction handles a mail and queues its reply: a copy holds both or neither.
        handled = {r[0] for r in db.execute("select source_key from messages where status != 'new'")}
        replied = {r[0] for r in db.execute("select source from outbox where kind = 'reply'")}
        ids = {r[0] for r in db.execute("select id from messages where status != 'new'")}
        assert ids == replied, (copy, handled)
        db.close()
    live = sqlite3.connect(site.folder / "var" / "pbem.sqlite")
    final_db = sqlite3.connect(final)
    for table in ("messages", "outbox"):
        assert final_db.execute(f"select count(*) from {table}").fetchone() == \
            live.execute(f"select count(*) from {table}").fetchone()
    assert oct(final.stat().st_mode & 0o777) == "0o600"


def _readable_by_another_user(path: Path) -> bool:
    """Whether another user can read ``path``: tried as `nobody` when this is root, else
    from the modes of every folder on the way."""
    if os.geteuid() == 0:
        proc = subprocess.run(["cat", str(path)], user="nobody", capture_output=True)
        return proc.returncode == 0
    if not os.stat(path).st_mode & 0o004:
        return False
    return all(os.stat(folder).st_mode & 0o001 for folder in path.parents)


def test_the_archive_is_readable_by_a_web_server_running_as_another_user():
    folder = Path(tempfile.mkdtemp(prefix="pbem-site-", dir="/tmp"))
    try:
        folder.chmod(0o755)  # /srv/pbem: its owner's, open to others
        site = Site(folder / "site")
        site.folder.chmod(0o755)
        site.init()
        site.pbem("game", "new", "g1", "--rules", "beacon")
        site.pbem("archive", "build")
        index = site.folder / "archive" / "index.html"
        assert index.is_file()
        assert _readable_by_another_user(index)
        assert not _readable_by_another_user(site.folder / "var" / "pbem.sqlite")
        assert not _readable_by_another_user(site.config)
        assert "archive_dir" not in site.pbem("config", "check").stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_status_lists_the_addresses_mail_bounces_from_worst_first(tmp_path):
    site = Site(tmp_path / "site")
    site.init()
    assert "bouncing addresses: none" in site.pbem("status", check=False).stdout
    db = sqlite3.connect(site.folder / "var" / "pbem.sqlite")
    with db:  # what pbem.outbound.bounces records when bounces arrive (tested through the loop elsewhere)
        for address, score, hard, soft, state in (("soft@players.test", 0.5, 0, 1, "bouncing"),
                                                  ("dead@players.test", 5.0, 5, 0, "dead")):
            db.execute("insert into bounces (address, score, hard, soft, first, last, last_day, state, detail) "
                       "values (?, ?, ?, ?, '2026-11-20', '2026-11-25', '2026-11-25', ?, '')",
                       (address, score, hard, soft, state))
    db.close()
    out = site.pbem("status", check=False).stdout
    assert "bouncing addresses: 2" in out
    assert out.index("dead@players.test: dead, score 5 (5 hard, 0 soft)") < out.index("soft@players.test: bouncing")
