"""Poison mail, with the real daemon (``pbem serve --once`` in its own
process) on the embedded default: a mail that hangs, eats memory or kills the
process that handles it is tried a bounded number of times, then set aside;
its sender and the GM are told and the mail behind it is handled."""
from __future__ import annotations

import email
import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.storage.db import open_db

ROOT = Path(__file__).resolve().parents[2]


class Host:
    def __init__(self, folder: Path, **limits):
        self.folder = folder
        text = (ROOT / "config.example.toml").read_text()
        text = text.replace("enabled = true ", "enabled = false", 1)
        text = text.replace("reply_rate_per_hour = 30", "reply_rate_per_hour = 0", 1)
        head, _, section = text.partition("[limits]")
        for key, value in limits.items():  # each a line of [limits]
            section = section.replace(f"\n{key} = ", f"\n{key} = {value}\n#{key} = ", 1)
        text = head + "[limits]" + section
        (folder / "pbem.toml").write_text(text)
        self.env = {**os.environ, "PBEM_EXTRA_GAMES": "tests.buggygame:GAME", "PYTHONPATH": str(ROOT)}
        self.env.pop("PBEM_CRASH_AT", None)
        self.sent = 0

    def pbem(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pbem", "-c", str(self.folder / "pbem.toml"), *args],
                              cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=300)

    def ok(self, *args: str) -> str:
        proc = self.pbem(*args)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def send(self, sender: str, body: str) -> None:
        self.sent += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", f"orders {self.sent}"
        msg["Message-ID"] = f"<poison-{self.sent}@players.test>"
        msg.set_content(body)
        path = self.folder / f"mail{self.sent}.eml"
        path.write_bytes(bytes(msg))
        self.ok("send", str(path))

    def db(self):
        return open_db(self.folder / "var" / "pbem.sqlite")

    def delivered(self, box: str) -> list[email.message.Message]:
        folder = self.folder / "var" / "mail" / "out" / box
        return [email.message_from_bytes(p.read_bytes()) for p in sorted(folder.rglob("*"))
                if p.is_file() and p.parent.name in ("new", "cur")]

    def start_game(self) -> None:
        self.ok("game", "new", "g1", "--rules", "buggygame", "--gm", "gm@example.test")
        self.ok("game", "add-player", "g1", "North", "north@example.test", "--secret", "nn")
        self.ok("game", "add-player", "g1", "South", "south@example.test", "--secret", "ss")
        self.ok("game", "start", "g1")


def _statuses(db) -> list[str]:
    return [r["status"] for r in db["messages"].rows_where("source_key like 'maildir:%'", order_by="id")]


def test_a_mail_that_hangs_its_worker_is_set_aside_and_the_next_is_handled(tmp_path):
    host = Host(tmp_path, handling_timeout="3.0")
    host.start_game()
    host.send("north@example.test", "SIGNON North@g1 nn\nORDERS\nSPIN\n")
    host.send("south@example.test", "SIGNON South@g1 ss\nORDERS\nBID 2\n")
    served = host.pbem("serve", "--once")
    assert served.returncode == 0, served.stderr
    logged = [line for line in served.stderr.splitlines() if "set aside" in line]
    assert logged and not any("@" in line for line in logged), logged  # no address in the log
    db = host.db()
    assert _statuses(db) == ["quarantined", "done"]
    poison = next(db["messages"].rows_where("status = 'quarantined'"))
    assert poison["attempts"] == 3 and "longer than 3 seconds" in poison["outcome"]
    told = [m for m in host.delivered("north@example.test") if "not handled" in m["Subject"]]
    assert len(told) == 1 and "set aside" in told[0].get_payload(decode=True).decode()
    gm = [m for m in host.delivered("gm@example.test") if "set aside" in m["Subject"]]
    assert len(gm) == 1 and "pbem quarantine release" in gm[0].get_payload(decode=True).decode()
    rejected = tmp_path / "var" / "mail" / "inbox" / ".Rejected" / "cur"
    assert len(list(rejected.iterdir())) == 1
    listed = host.ok("quarantine", "list")
    assert "north@example.test" in listed and "1 mail set aside" in listed


def test_a_mail_that_eats_memory_fails_alone_and_the_daemon_goes_on(tmp_path):
    host = Host(tmp_path, handling_memory_mb="400")
    host.start_game()
    host.send("north@example.test", "SIGNON North@g1 nn\nORDERS\nHOG\nSTATUS\n")
    host.send("south@example.test", "SIGNON South@g1 ss\nORDERS\nBID 2\n")
    host.ok("serve", "--once")
    assert _statuses(host.db()) == ["done", "done"]
    reply = [m for m in host.delivered("north@example.test") if "received" in m["Subject"]][-1]
    text = reply.get_payload(decode=True).decode()
    assert "[internal-error]" in text and "MemoryError" in text and "Status:" in text


@pytest.mark.parametrize("restarts", [3])
def test_a_mail_that_kills_the_daemon_is_set_aside_after_three_restarts(tmp_path, restarts):
    """Handled in the daemon's own process (handling_timeout = 0), a mail that kills
    the process is met again after every restart — three times, then set aside."""
    host = Host(tmp_path, handling_timeout="0")
    host.start_game()
    host.send("north@example.test", "SIGNON North@g1 nn\nORDERS\nDIE\n")
    host.send("south@example.test", "SIGNON South@g1 ss\nORDERS\nBID 2\n")
    codes = [host.pbem("serve", "--once").returncode for _ in range(restarts + 1)]
    assert codes == [-9] * restarts + [0]
    assert _statuses(host.db()) == ["quarantined", "done"]
    assert [m for m in host.delivered("north@example.test") if "not handled" in m["Subject"]]


def test_a_released_mail_is_tried_again(tmp_path):
    host = Host(tmp_path, handling_timeout="3.0", max_attempts="1")
    host.start_game()
    host.send("north@example.test", "SIGNON North@g1 nn\nORDERS\nSPIN\n")
    host.ok("serve", "--once")
    poison = next(host.db()["messages"].rows_where("status = 'quarantined'"))
    assert "back in the queue" in host.ok("quarantine", "release", str(poison["id"]))
    assert host.db()["messages"].get(poison["id"])["status"] == "new"
    assert host.pbem("quarantine", "release", "999").returncode == 1


def test_a_worker_that_cannot_start_fails_the_step_and_charges_no_mail(tmp_path):
    import asyncio

    from pbem.inbound import intake
    from pbem.base.config import load_config
    from pbem.base.context import Context
    from pbem.base.clock import SystemClock
    from pbem.mail.source import RawMail
    from pbem.inbound.sandbox import IsolatedHandler, WorkerUnavailable

    (tmp_path / "pbem.toml").write_text('[server]\ndatabase = "pbem.sqlite"\n')
    cfg = load_config(tmp_path / "pbem.toml")
    ctx = Context.from_config(open_db(cfg.server.database), SystemClock(), cfg)
    msg_id = intake.store_raw(ctx, RawMail("t:1", b"From: a@b.test\nSubject: s\n\nHELP\n"))
    handler = IsolatedHandler(cfg.path, timeout=5, memory_mb=16)  # far too little to start Python
    with pytest.raises(WorkerUnavailable, match="could not start"):
        asyncio.run(handler.process(ctx, msg_id))
    row = ctx.db["messages"].get(msg_id)
    assert row["status"] == "new" and row["attempts"] == 0


def test_a_worker_started_before_any_mail_handles_it_or_fails_as_a_late_start_would(tmp_path):
    """The daemon starts its worker at once (start_soon), so the imports overlap its own
    start; the first batch waits for that start.  A start that fails is told at the first
    batch, as before, with no try counted; a daemon stopped while its worker starts leaves
    no process behind."""
    import asyncio

    from pbem.inbound import intake
    from pbem.base.config import load_config
    from pbem.base.context import Context
    from pbem.base.clock import SystemClock
    from pbem.mail.source import RawMail
    from pbem.inbound.sandbox import IsolatedHandler, WorkerUnavailable

    (tmp_path / "pbem.toml").write_text('[server]\ndatabase = "pbem.sqlite"\n')
    cfg = load_config(tmp_path / "pbem.toml")
    ctx = Context.from_config(open_db(cfg.server.database), SystemClock(), cfg)
    msg_id = intake.store_raw(ctx, RawMail("t:1", b"From: a@b.test\nSubject: s\n\nHELP\n"))

    async def handled(memory_mb: int) -> str:
        handler = IsolatedHandler(cfg.path, timeout=60, memory_mb=memory_mb)
        handler.start_soon()
        await asyncio.sleep(0)
        assert handler._workers[0].process is not None and handler._workers[0].process.pid  # running before any mail
        try:
            return await handler.process(ctx, msg_id)
        finally:
            await handler.close()

    with pytest.raises(WorkerUnavailable, match="could not start"):
        asyncio.run(handled(16))  # far too little to start Python
    row = ctx.db["messages"].get(msg_id)
    assert row["status"] == "new" and row["attempts"] == 0
    assert asyncio.run(handled(1024)) == "done"
    assert ctx.db["messages"].get(msg_id)["status"] == "done"

    async def stopped_while_starting():
        handler = IsolatedHandler(cfg.path, timeout=60, memory_mb=1024, workers=2)
        handler.start_soon()
        await asyncio.sleep(0)
        processes = [w.process for w in handler._workers]
        await handler.close()
        return processes

    processes = asyncio.run(stopped_while_starting())
    assert len(processes) == 2 and all(p is not None and not p.is_alive() for p in processes)
