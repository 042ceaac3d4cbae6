"""Faults beyond the crash points, against real servers and real files: the
IMAP and SMTP servers restarted while the daemon runs, a full disk under the
database (a small tmpfs), a damaged or locked database, a recipient refused
among several."""
from __future__ import annotations

import asyncio
import email
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from helpers_loop import Loop
from pbem.storage import store
from pbem.host.daemon import Daemon, STEPS
from pbem.storage.db import open_db
from pbem.mail.imap_source import ImapSource
from pbem.mail.maildir_source import MaildirSource, deliver_to_maildir
from pbem.mail.sender import SmtpSender
from pbem.outbound.outbox import deliver_due, queue

ROOT = Path(__file__).resolve().parents[2]


def _mail(sender: str, body: str, n: int, to: str = "pbem@example.test") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: orders {n}\r\n"
            f"Message-ID: <fault-{n}@players.test>\r\n\r\n{body}").replace("\n", "\r\n").replace("\r\r", "\r").encode()


def _pass(daemon: Daemon):
    return asyncio.run(_apass(daemon))


async def _apass(daemon: Daemon):
    for backoff in daemon.backoff.values():
        backoff.retry_at = None  # a test does not sleep out a back-off
    return await daemon.run_pass()


@pytest.mark.mail
def test_imap_and_smtp_servers_restarted_mid_run_lose_no_mail(clean_mailboxes, tmp_path):
    servers = clean_mailboxes
    moderator = servers.address("moderator")
    loop = Loop(tmp_path)
    loop.ctx.address = moderator
    loop.start_beacon(addresses={"North": servers.address("alice"), "South": servers.address("bob")})
    alice, bob = servers.address("alice"), servers.address("bob")
    north = f"SIGNON North@g1 {loop.secrets['North']}\n"
    south = f"SIGNON South@g1 {loop.secrets['South']}\n"

    async def run() -> None:
        source = ImapSource(servers.imap_host, servers.imap_port, "moderator", servers.password("moderator"),
                            idle=False, timeout=10, backoff=(0.01, 0.01))
        daemon = Daemon(loop.ctx, source, SmtpSender(servers.smtp_host, servers.smtp_port, timeout=10),
                        retry_base=0.0)
        servers.append("moderator", _mail(alice, north + "STATUS\n", 1, moderator))
        assert (await _apass(daemon)).handled == 1

        await asyncio.to_thread(servers.restart_dovecot)  # the IMAP connection dies under the daemon
        servers.append("moderator", _mail(alice, north + "ORDERS\nBID 3\n", 2, moderator))
        handled = 0
        for _ in range(5):
            handled += (await _apass(daemon)).handled
            await asyncio.sleep(0.05)
        assert handled == 1

        servers.stop_relay()                               # replies cannot leave; mail still comes in
        servers.append("moderator", _mail(bob, south + "ORDERS\nBID 1\n", 3, moderator))
        result = await _apass(daemon)
        assert result.handled == 1 and "outbox" in result.failed
        servers.start_relay()
        await _apass(daemon)
        await _apass(daemon)
        await source.close()

    asyncio.run(run())
    statuses = [r["status"] for r in loop.db["messages"].rows_where("source_key like 'imap:%'", order_by="id")]
    assert statuses == ["done", "done", "done"]
    assert store.get_game(loop.ctx, "g1").state["round"] == 2  # both bids in: the round ran
    assert loop.db["outbox"].count_where("status != 'sent'") == 0
    ids = [email.message_from_bytes(m)["Message-ID"] for m in servers.wait_for_messages("alice", 3)]
    assert len(ids) == len(set(ids)), "nothing delivered twice"
    assert len(servers.messages("moderator", "Processed")) == 3


@pytest.mark.mail
def test_a_recipient_refused_for_now_among_several_is_retried_alone(clean_mailboxes, tmp_path):
    servers = clean_mailboxes
    loop = Loop(tmp_path)
    alice, bob, carol = (servers.address(u) for u in ("alice", "bob", "carol"))
    queue(loop.ctx, key="notice:1", to=[alice, bob, carol, "ghost@example.test"], subject="news", text="hello\n")
    sender = SmtpSender(servers.smtp_host, servers.smtp_port, timeout=10)
    servers.defer(bob)
    asyncio.run(deliver_due(loop.ctx, sender, retry_base=0.0))
    row = loop.db["outbox"].get(1)
    assert row["status"] == "queued" and row["recipients"] == f'["{bob}"]'
    assert "ghost@example.test" in row["last_error"]          # refused for good: given up
    servers.defer()
    asyncio.run(deliver_due(loop.ctx, sender, retry_base=0.0))
    assert loop.db["outbox"].get(1)["status"] == "sent"
    for user in ("alice", "bob", "carol"):
        assert len(servers.wait_for_messages(user, 1)) == 1


# -- the database -------------------------------------------------------------------------------

def _pbem(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_EXTRA_GAMES": "tests.beacon:GAME"}
    return subprocess.run([sys.executable, "-m", "pbem", "-c", str(folder / "pbem.toml"), *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)


def test_a_damaged_database_gives_one_line(tmp_path):
    assert _pbem(tmp_path, "init").returncode == 0
    database = tmp_path / "var" / "pbem.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{database}{extra}").unlink(missing_ok=True)
    database.write_bytes(b"this is no database, it was overwritten" * 200)
    for verb in (["game", "list"], ["serve", "--once"]):
        proc = _pbem(tmp_path, *verb)
        assert proc.returncode == 1 and proc.stdout == ""
        assert proc.stderr.count("\n") == 1, proc.stderr
        assert "the database file is damaged" in proc.stderr and "restore it from a backup" in proc.stderr


def test_a_locked_database_gives_one_line_and_the_daemon_goes_on_when_it_is_free(tmp_path, caplog):
    assert _pbem(tmp_path, "init").returncode == 0
    database = tmp_path / "var" / "pbem.sqlite"
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program writing, and taking its time
    try:
        proc = _pbem(tmp_path, "game", "new", "g1", "--rules", "beacon")
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1, proc.stderr
        assert "the database is locked by another program" in proc.stderr

        loop = Loop(tmp_path / "loop")
        inbox = tmp_path / "inbox"
        daemon = Daemon(loop.ctx, MaildirSource(inbox), loop.sender)
        daemon.ctx.db = open_db(database, timeout=0.2)
        deliver_to_maildir(inbox, _mail("x@players.test", "HELP\n", 1))
        with caplog.at_level(logging.ERROR, logger="pbem"):
            assert "intake" in _pass(daemon).failed
        lines = [r.getMessage() for r in caplog.records if "intake failed" in r.getMessage()]
        assert len(lines) == 1 and "database is locked" in lines[0]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _pass(daemon).handled == 1


@pytest.fixture
def small_disk(tmp_path):
    """A 16 MB tmpfs: needs root (as CI has); a refused mount fails the test, never skips it."""
    mount = tmp_path / "disk"
    mount.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"cannot mount a tmpfs for the full-disk test (it needs root): {proc.stderr.strip()}",
                    pytrace=False)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    # Unbuffered: a write the full disk refuses is refused there, and closing the
    # file has nothing left to write (a buffered close would raise ENOSPC again).
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 65536)
        except OSError:
            pass
    return filler


def test_a_full_disk_stops_the_daemon_with_one_line_and_it_goes_on_when_there_is_space(
        small_disk, tmp_path, caplog):
    loop = Loop(small_disk)
    loop.start_beacon()
    inbox = tmp_path / "inbox"
    daemon = Daemon(loop.ctx, MaildirSource(inbox), loop.sender)
    north = f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 3\n"
    big = "PRESS TO South\n" + "A long declaration of friendship.\n" * 12_000 + "ENDPRESS\n"
    filler = _fill(small_disk)
    deliver_to_maildir(inbox, _mail("north@example.test", north + big, 1))
    with caplog.at_level(logging.WARNING, logger="pbem"):
        first, second = _pass(daemon), _pass(daemon)
    assert first.failed == ["intake"] and second.failed == list(STEPS)  # the first failure stops them all
    full = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(full) == 1, [r.getMessage() for r in full]
    assert "disk holding the database is full" in full[0].getMessage()
    assert "stops reading mail" in full[0].getMessage()
    assert daemon.disk_full

    filler.unlink()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="pbem"):
        result = _pass(daemon)
    assert result.handled == 1 and not result.failed
    assert any("written again" in r.getMessage() for r in caplog.records)
    assert [r["status"] for r in loop.db["messages"].rows_where("source_key like 'maildir:%'")] == ["done"]
