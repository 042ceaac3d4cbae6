"""While the worker process holds the database's write lock for a batch, the daemon sends the
replies of the batch before it and marks them in the sent journal; the marks reach the
outbox rows once the batch is committed, a kill loses none of them and no mail marked there
is sent again; and during a backlog the archive is rebuilt at most every so often."""
from __future__ import annotations

import asyncio
import sqlite3

from helpers_loop import Loop
from pbem.base.limits import Limits
from pbem.host import daemon as daemon_module
from pbem.host.daemon import Daemon
from pbem.inbound import intake
from pbem.inbound.sandbox import InProcessHandler
from pbem.mail.maildir_source import MaildirSource
from pbem.outbound import outbox
from pbem.outbound.sent_journal import SentJournal
from test_daemon_backlog import _backlog, _five_waiting


class LockingWorker(InProcessHandler):
    """Holds the database's write lock from another connection for a while, as a worker
    process does for the whole of its batch (a write by the daemon meanwhile fails at
    once), then handles the batch, which a test's daemon does in its own connection."""

    separate_process = True

    def __init__(self, database):
        self.database, self.busy, self.groups = database, False, []

    async def process_batch(self, ctx, ids):
        self.groups.append(list(ids))
        other = sqlite3.connect(self.database, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        self.busy = True
        await asyncio.sleep(0.1)  # the daemon sends meanwhile
        other.execute("ROLLBACK")
        other.close()
        statuses = intake.process_batch(ctx, ids)
        self.busy = False
        return statuses


class Noting:
    """A sender noting, for each mail, whether the worker was handling a batch."""

    def __init__(self, sender, worker):
        self.sender, self.worker, self.busy = sender, worker, []

    async def send(self, raw, recipients):
        await self.sender.send(raw, recipients)
        self.busy.append((self.worker.busy, self.sender.sent[-1][1]["In-Reply-To"]))


def test_a_batchs_replies_are_sent_while_the_worker_handles_the_next_and_marked_after(tmp_path):
    loop, inbox, already = _five_waiting(tmp_path)
    loop.db.conn.execute("PRAGMA busy_timeout = 0")  # a write during the worker's batch fails
    worker = LockingWorker(tmp_path / "pbem.sqlite")
    sender = Noting(loop.sender, worker)
    journal = SentJournal(tmp_path / "pbem.sqlite.sent")
    daemon = Daemon(loop.ctx, MaildirSource(inbox), sender, handler=worker, sent_journal=journal)
    result = asyncio.run(daemon.run_pass())
    assert result.failed == []
    assert [len(g) for g in worker.groups] == [2, 2, 1]
    # The replies to the first two batches go out during the next batch, the last after it.
    assert [busy for busy, reply_to in sender.busy if reply_to] == [True, True, True, True, False]
    replies = [m for _, m in loop.sender.sent[already:] if m["In-Reply-To"]]
    assert [m["In-Reply-To"] for m in replies] == [f"<backlog{i}@players.test>" for i in range(5)]
    assert {r["status"] for r in loop.db["outbox"].rows} == {"sent"}
    assert len(journal) == 0 and journal.path.read_bytes() == b""


def test_marks_left_by_a_killed_daemon_are_written_and_their_mail_not_sent_again(tmp_path):
    loop = Loop(tmp_path)
    loop.start_beacon()
    for power in ("North", "South"):
        loop.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {loop.secrets[power]}\nORDERS\nBID 1\n")
    rows = [r for r in loop.db["outbox"].rows_where("status = 'queued'", order_by="id")]
    assert len(rows) >= 2
    taken, waiting = rows[0], rows[1:]
    path = tmp_path / "pbem.sqlite.sent"
    killed = SentJournal(path)
    killed.add(taken["id"], taken["message_id"], "2026-01-05T12:00:00+00:00")
    with open(path, "ab") as out:
        out.write(b"99")  # a line cut short by the kill
    journal = SentJournal(path)  # the next daemon
    assert journal.marks == {taken["id"]: (taken["message_id"], "2026-01-05T12:00:00+00:00")}
    before = len(loop.sender.sent)
    daemon = Daemon(loop.ctx, MaildirSource(tmp_path / "inbox"), loop.sender,
                    handler=LockingWorker(tmp_path / "pbem.sqlite"), sent_journal=journal)
    asyncio.run(daemon.run_pass())
    sent = [m["Message-ID"] for _, m in loop.sender.sent[before:]]
    assert taken["message_id"] not in sent
    assert all(r["message_id"] in sent for r in waiting)
    marked = loop.db["outbox"].get(taken["id"])
    assert (marked["status"], marked["sent"], marked["attempts"]) == ("sent", "2026-01-05T12:00:00+00:00", 1)
    # Written twice (a kill between the commit and emptying the file): nothing changes.
    again = SentJournal(path)
    again.add(taken["id"], taken["message_id"], "2026-02-01T00:00:00+00:00")
    assert outbox.settle_journal(loop.ctx, again) == 0
    assert loop.db["outbox"].get(taken["id"])["sent"] == "2026-01-05T12:00:00+00:00"


def test_a_mark_for_another_mail_in_the_same_row_marks_nothing(tmp_path):
    """A database restored from a backup beside the journal of a later one: the row may
    hold another mail now, which must still go out."""
    loop = Loop(tmp_path)
    outbox.queue(loop.ctx, key="notice:1", to=["north@example.test"], subject="a notice", text="Hello.\n")
    row = next(loop.db["outbox"].rows_where("status = 'queued'"))
    stale = SentJournal(tmp_path / "pbem.sqlite.sent")
    stale.add(row["id"], "<another@example.test>", "2026-01-05T12:00:00+00:00")
    assert outbox.settle_journal(loop.ctx, SentJournal(stale.path)) == 0
    assert loop.db["outbox"].get(row["id"])["status"] == "queued"
    asyncio.run(outbox.deliver_due(loop.ctx, loop.sender))
    assert [m["Subject"] for _, m in loop.sender.sent] == ["a notice"]


def test_a_mail_that_handed_out_a_secret_is_masked_when_its_mark_is_written(tmp_path):
    loop = Loop(tmp_path)
    secret = "wxyz-plum-harbour-42"
    outbox.queue(loop.ctx, key="welcome:1", to=["north@example.test"], subject="you play North",
                 text=f"Your secret is: {secret}\n", secrets=(secret,))
    welcome = next(loop.db["outbox"].rows_where("status = 'queued'"))
    assert secret.encode() in welcome["raw"]
    journal = SentJournal(tmp_path / "pbem.sqlite.sent")
    asyncio.run(outbox.deliver_due(loop.ctx, loop.sender, journal=journal))
    assert loop.db["outbox"].get(welcome["id"])["status"] == "queued"  # the mark waits in the journal
    assert outbox.settle_journal(loop.ctx, journal) >= 1
    row = loop.db["outbox"].get(welcome["id"])
    assert row["status"] == "sent" and row["mask"] is None
    assert secret.encode() not in row["raw"]


def test_during_a_backlog_the_archive_is_rebuilt_at_most_every_so_often(tmp_path, monkeypatch):
    loop = Loop(tmp_path, limits=Limits(batch_mails=1))  # four mails a pass
    loop.start_beacon()
    loop.flush()
    inbox = tmp_path / "inbox"
    _backlog(loop, inbox, 10)
    refreshed = []
    monkeypatch.setattr(daemon_module.archive, "refresh", lambda ctx: refreshed.append(True))
    now = [1000.0]
    daemon = Daemon(loop.ctx, MaildirSource(inbox), loop.sender)
    daemon.clock_seconds = lambda: now[0]
    fetched = []
    for _ in range(4):
        fetched.append(asyncio.run(daemon.run_pass()).fetched)
        now[0] += 10
    assert fetched == [4, 4, 2, 0]
    # The first two passes, in a backlog, answer its players first; the third ends the
    # backlog (it fetched less than it asked for) and rebuilds, and so does the fourth.
    assert len(refreshed) == 2
    now[0] += 100
    _backlog(loop, inbox, 4)
    asyncio.run(daemon.run_pass())  # a backlog again, but the last rebuild is long ago
    assert len(refreshed) == 3


def test_a_journal_beside_a_database_in_memory_is_none(tmp_path):
    assert SentJournal.beside(":memory:") is None
    assert SentJournal.beside(tmp_path / "x.sqlite").path == tmp_path / "x.sqlite.sent"
