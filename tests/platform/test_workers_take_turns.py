"""Two worker processes take turns at a backlog's batches: while one handles a batch in its
transaction, the next is read by the other, which handles it once the batch before is
committed.  Real worker processes on a real SQLite file."""
from __future__ import annotations

import asyncio
import logging
import os
import signal
from email.message import EmailMessage

from helpers_loop import Loop
from pbem.base.limits import Limits
from pbem.host.daemon import Daemon
from pbem.inbound import intake
from pbem.inbound.sandbox import IsolatedHandler
from pbem.mail.maildir_source import MaildirSource, deliver_to_maildir
from pbem.mail.source import RawMail
from pbem.storage import phase_orders


def _site(tmp_path) -> tuple[Loop, object]:
    """A Beacon game g1 (North, South), batches of two, and the configuration its workers read."""
    loop = Loop(tmp_path, limits=Limits(batch_mails=2))
    loop.start_beacon()
    loop.flush()
    config = tmp_path / "pbem.toml"
    config.write_text(f'[server]\naddress = "{loop.ctx.address}"\ndomain = "example.test"\n'
                      f'database = "{tmp_path / "pbem.sqlite"}"\n'
                      'games_extra = ["tests.beacon:GAME", "tests.testgame:GAME"]\n'
                      '[limits]\nbatch_mails = 2\nhandling_workers = 2\n')
    return loop, config


def _order(loop: Loop, i: int, bid: int) -> bytes:
    power = ("North", "South")[i % 2]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"{power.lower()}@example.test", loop.ctx.address, "orders"
    msg["Message-ID"] = f"<turn{i}@players.test>"
    msg.set_content(f"SIGNON {power}@g1 {loop.secrets[power]}\nORDERS\nBID {bid}\n")
    return bytes(msg)


def _bids(loop: Loop) -> dict[str, str]:
    return {p: [o.canonical for o in orders][0]
            for p, orders in phase_orders.current_orders(loop.ctx, "g1", "1/orders").items()}


def test_a_backlog_is_shared_by_two_workers_and_each_games_mail_stays_in_order(tmp_path, caplog):
    loop, config = _site(tmp_path)
    inbox = tmp_path / "inbox"
    # North bids 0, 2, 1 and South 1, 0, 2, in batches [N0 S1] [N2 S0] [N1 S2]: the last of
    # each power's mails stands only if the batches were committed in the order they came.
    bids = [0, 1, 2, 0, 1, 2]
    for i, bid in enumerate(bids):
        deliver_to_maildir(inbox, _order(loop, i, bid))
    handler = IsolatedHandler(config, timeout=60, memory_mb=1024, workers=2)

    async def run():
        handler.start_soon()
        await asyncio.gather(*(w.ready_up() for w in handler._workers))  # both ready before the backlog
        try:
            return await Daemon(loop.ctx, MaildirSource(inbox), loop.sender, handler=handler).run_pass()
        finally:
            await handler.close()

    with caplog.at_level(logging.DEBUG, logger="pbem.inbound.sandbox"):
        result = asyncio.run(run())
    assert result.failed == [] and result.handled == 6
    assert {r["status"] for r in loop.db["messages"].rows_where("source_key like 'maildir:%'")} == {"done"}
    assert _bids(loop) == {"North": "BID 1", "South": "BID 2"}
    # the replies were queued in the order the mails came (the workers' clock is the
    # system's, the test's daemon's an earlier one: they wait in the outbox)
    mails = [r["id"] for r in loop.db["messages"].rows_where("source_key like 'maildir:%'", order_by="id")]
    replies = loop.db["outbox"].rows_where("kind = 'reply' and source >= ?", [mails[0]], order_by="id")
    assert [r["source"] for r in replies] == mails
    handled_by = [r.getMessage().split()[0] for r in caplog.records if "handled mails" in r.getMessage()]
    assert len(handled_by) == 3 and set(handled_by) == {"pbem-worker-1", "pbem-worker-2"}


def test_what_was_read_ahead_is_read_again_when_the_stored_copy_changed(tmp_path):
    loop, _ = _site(tmp_path)
    msg_id = intake.store_raw(loop.ctx, RawMail("t:1", _order(loop, 0, 1)))
    read = intake.prepare_batch(loop.ctx, [msg_id])
    assert [c.__class__.__name__ for c in read[msg_id].parsed.commands]  # its commands were read
    loop.db.conn.execute("update messages set raw = ? where id = ?", [_order(loop, 0, 2), msg_id])
    assert intake.begin(loop.ctx, msg_id) is None
    assert intake.handle(loop.ctx, msg_id, read[msg_id]) == "done"
    assert _bids(loop)["North"] == "BID 2"


def test_a_mail_whose_reading_ahead_failed_fails_its_try_as_in_its_transaction(tmp_path, monkeypatch):
    loop, _ = _site(tmp_path)
    good, bad = (intake.store_raw(loop.ctx, RawMail(f"t:{i}", _order(loop, i, 1))) for i in range(2))
    real = intake.prepare

    def prepare(ctx, raw):
        if b"<turn1@" in raw:
            raise ValueError("unreadable")
        return real(ctx, raw)

    monkeypatch.setattr(intake, "prepare", prepare)
    read = intake.prepare_batch(loop.ctx, [good, bad])
    assert isinstance(read[bad], ValueError)
    todo, _ = intake.begin_batch(loop.ctx, [good, bad])
    assert intake.handle_batch(loop.ctx, todo, read) == {good: "done", bad: "new"}
    row = loop.db["messages"].get(bad)
    assert row["attempts"] == 1 and "unreadable" in row["error"]


def test_a_worker_killed_while_reading_ahead_costs_no_try_and_is_started_again(tmp_path):
    loop, config = _site(tmp_path)
    ids = [intake.store_raw(loop.ctx, RawMail(f"t:{i}", _order(loop, i, i % 3))) for i in range(4)]
    handler = IsolatedHandler(config, timeout=60, memory_mb=1024, workers=2)

    async def run():
        handler.start_soon()
        try:
            first = await handler.process_batch(loop.ctx, ids[:2])
            handler.read_ahead(ids[2:])
            reader = next(w for w in handler._workers if w.reading == tuple(ids[2:]))
            os.kill(reader.process.pid, signal.SIGKILL)
            reader.process.join(10)
            second = await handler.process_batch(loop.ctx, ids[2:])
            handler.read_ahead([])  # the next read ahead starts the dead worker again
            return first, second, reader.process is not None and reader.process.is_alive()
        finally:
            await handler.close()

    first, second, restarted = asyncio.run(run())
    assert first == {ids[0]: "done", ids[1]: "done"} and second == {ids[2]: "done", ids[3]: "done"}
    assert {r["attempts"] for r in loop.db["messages"].rows} == {1}
    assert restarted


def test_asking_for_a_read_ahead_while_a_worker_starts_never_steals_its_ready_word(tmp_path, monkeypatch):
    """The daemon asks for the next batch to be read ahead while its first batch waits for a
    worker to say it is ready: the word is read by the wait alone, or the wait never ends
    (and blocks the daemon).  The wait's thread is slowed after the word comes, so that the
    daemon asks in between."""
    import threading
    import time

    from pbem.inbound import sandbox

    real = asyncio.to_thread

    async def slow_to_thread(func, *args):
        def slowed():
            got = func(*args)
            time.sleep(0.3)
            return got
        return await real(slowed)

    monkeypatch.setattr(sandbox.asyncio, "to_thread", slow_to_thread)

    loop, config = _site(tmp_path)
    ids = [intake.store_raw(loop.ctx, RawMail(f"t:{i}", _order(loop, i, 1))) for i in range(4)]
    handler = IsolatedHandler(config, timeout=60, memory_mb=1024, workers=2)
    outcome: dict = {}

    async def run():
        handler.start_soon()
        first = asyncio.ensure_future(handler.process_batch(loop.ctx, ids[:2]))
        while not first.done():  # as the daemon's loop does, every moment while it waits
            handler.read_ahead(ids[2:])
            await asyncio.sleep(0.001)
        outcome["first"] = await first
        outcome["second"] = await handler.process_batch(loop.ctx, ids[2:])
        await handler.close()

    runner = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    runner.start()
    runner.join(60)
    assert not runner.is_alive(), "the daemon's loop hung waiting for a worker"
    assert outcome == {"first": {ids[0]: "done", ids[1]: "done"}, "second": {ids[2]: "done", ids[3]: "done"}}


def test_a_read_ahead_of_a_batch_that_never_comes_does_not_keep_its_worker_out_of_turn(tmp_path, caplog):
    """The daemon may foresee a batch that does not come as it foresaw (at a pass's end,
    say): the worker that read it takes its turns again from the next batch on."""
    loop, config = _site(tmp_path)
    ids = [intake.store_raw(loop.ctx, RawMail(f"t:{i}", _order(loop, i, 1))) for i in range(9)]
    handler = IsolatedHandler(config, timeout=60, memory_mb=1024, workers=2)
    groups = [ids[1:3], ids[3:5], ids[5:7], ids[7:9]]

    async def run():
        handler.start_soon()
        await asyncio.gather(*(w.ready_up() for w in handler._workers))
        try:
            handler.read_ahead(ids[:1])  # foreseen, never handled as such
            for k, group in enumerate(groups):  # as the daemon's loop hands them out
                handling = asyncio.ensure_future(handler.process_batch(loop.ctx, group))
                await asyncio.sleep(0)
                if k + 1 < len(groups):
                    handler.read_ahead(groups[k + 1])
                assert set((await handling).values()) == {"done"}
        finally:
            await handler.close()

    with caplog.at_level(logging.DEBUG, logger="pbem.inbound.sandbox"):
        asyncio.run(run())
    handled_by = [r.getMessage().split()[0] for r in caplog.records if "handled mails" in r.getMessage()]
    assert len(handled_by) == 4 and set(handled_by[1:]) == {"pbem-worker-1", "pbem-worker-2"}
