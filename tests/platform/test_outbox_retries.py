"""Outbox delivery: retries with a doubling delay, and giving up for good."""
import asyncio
import email

from helpers_loop import Loop
from pbem.outbound import outbox
from pbem.mail.source import PermanentFailure, TemporaryFailure


class Flaky:
    """Fails with the given errors in turn, then accepts every mail."""

    def __init__(self, *errors):
        self.errors = list(errors)
        self.sent = []

    async def send(self, raw, recipients):
        if self.errors:
            raise self.errors.pop(0)
        self.sent.append((list(recipients), email.message_from_bytes(raw)["Subject"]))


def deliver(loop, sender, **kw) -> int:
    return asyncio.run(outbox.deliver_due(loop.ctx, sender, **kw))


def row(loop) -> dict:
    return next(loop.db["outbox"].rows_where(order_by="id desc", limit=1))


def test_a_temporary_failure_is_retried_after_the_delay_then_sent(tmp_path):
    loop = Loop(tmp_path)
    outbox.queue(loop.ctx, key="k1", to=["a@example.test"], subject="hello", text="hi")
    sender = Flaky(TemporaryFailure("421 try later"), TemporaryFailure("421 still busy"))
    assert deliver(loop, sender, retry_base=30) == 0
    assert (row(loop)["status"], row(loop)["attempts"], row(loop)["last_error"]) == ("queued", 1, "421 try later")
    loop.clock.advance(seconds=29)
    assert deliver(loop, sender, retry_base=30) == 0 and row(loop)["attempts"] == 1  # not due yet
    loop.clock.advance(seconds=1)
    assert deliver(loop, sender, retry_base=30) == 0 and row(loop)["attempts"] == 2
    loop.clock.advance(seconds=59)  # the second delay is twice the first
    assert deliver(loop, sender, retry_base=30) == 0
    loop.clock.advance(seconds=1)
    assert deliver(loop, sender, retry_base=30) == 1
    assert (row(loop)["status"], row(loop)["attempts"]) == ("sent", 3)
    assert sender.sent == [(["a@example.test"], "hello")]
    assert outbox.pending_count(loop.ctx) == 0


def test_a_permanent_failure_marks_the_mail_failed_and_the_rest_still_go(tmp_path):
    loop = Loop(tmp_path)
    outbox.queue(loop.ctx, key="k1", to=["nobody@example.test"], subject="one", text="x")
    outbox.queue(loop.ctx, key="k2", to=["b@example.test"], subject="two", text="y")
    sender = Flaky(PermanentFailure("550 no such user"))
    assert deliver(loop, sender) == 1
    first = loop.db["outbox"].get(1)
    assert (first["status"], first["attempts"], first["last_error"]) == ("failed", 1, "550 no such user")
    loop.clock.advance(days=1)
    assert deliver(loop, sender) == 0 and sender.sent == [(["b@example.test"], "two")]


def test_temporary_failures_give_up_after_the_last_attempt(tmp_path):
    loop = Loop(tmp_path)
    outbox.queue(loop.ctx, key="k1", to=["a@example.test"], subject="one", text="x")
    sender = Flaky(*[TemporaryFailure("timeout")] * 3)
    for _ in range(3):
        deliver(loop, sender, max_attempts=3, retry_base=1)
        loop.clock.advance(hours=1)
    assert (row(loop)["status"], row(loop)["attempts"]) == ("failed", 3)
    assert deliver(loop, sender, max_attempts=3) == 0 and not sender.sent


def test_the_same_key_is_queued_once(tmp_path):
    loop = Loop(tmp_path)
    first = outbox.queue(loop.ctx, key="k1", to=["a@example.test"], subject="one", text="x")
    assert outbox.queue(loop.ctx, key="k1", to=["a@example.test"], subject="changed", text="y") == first
    assert loop.db["outbox"].count == 1
    assert outbox.queue(loop.ctx, key="k2", to=[], subject="to nobody", text="z") is None


def test_a_sent_mark_is_not_waited_for_on_the_disk_but_every_other_write_is(tmp_path):
    """Marking a mail sent commits without its own fsync (synced with the next commit
    that has one); the database goes back to syncing every commit right after, and a
    transaction already open is left as it is."""
    from pbem.storage.db import atomic, synced_later

    loop = Loop(tmp_path)
    level = lambda: loop.db.execute("PRAGMA synchronous").fetchone()[0]  # noqa: E731
    seen = []

    class Watching(Flaky):
        async def send(self, raw, recipients):
            seen.append(level())
            await super().send(raw, recipients)

    outbox.queue(loop.ctx, key="k1", to=["a@example.test"], subject="hello", text="hi")
    real = loop.db.execute
    marks = []

    def execute(sql, params=()):
        if sql.startswith('UPDATE "outbox" SET'):
            marks.append(level())
        return real(sql, params)

    loop.db.execute = execute
    assert deliver(loop, Watching()) == 1 and row(loop)["status"] == "sent"
    assert seen == [2] and marks == [1] and level() == 2   # FULL, NORMAL for the mark, FULL again
    with atomic(loop.db), synced_later(loop.db):
        assert level() == 2
