"""A backlog of mail is handled in batches (group commit) and answered batch by batch, the outbox is drained whole and
pruned, and an idle pass over the games decodes no state."""
from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from email.message import EmailMessage

from helpers_loop import Loop
from pbem.base import registry
from pbem.outbound import outbox
from pbem.play import scheduler
from pbem.storage import store
from pbem.host.daemon import Daemon
from pbem.mail.maildir_source import MaildirSource, deliver_to_maildir
from pbem.inbound import intake
from pbem.inbound.sandbox import InProcessHandler
from pbem.base.limits import Limits
from pbem.mail.source import RawMail


class Watching(InProcessHandler):
    """Handles mail as the daemon does, noting each batch and what had been sent before it."""

    def __init__(self, sender):
        self.sender, self.sent_before, self.groups = sender, [], []

    async def process_batch(self, ctx, ids):
        self.sent_before.append(len(self.sender.sent))
        self.groups.append(list(ids))
        return await super().process_batch(ctx, ids)


def _backlog(loop: Loop, inbox, count: int) -> None:
    for i in range(count):
        power = ("North", "South")[i % 2]
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{power.lower()}@example.test", loop.ctx.address, "orders"
        msg["Message-ID"] = f"<backlog{i}@players.test>"
        msg.set_content(f"SIGNON {power}@g1 {loop.secrets[power]}\nORDERS\nBID {i % 3}\n")
        deliver_to_maildir(inbox, bytes(msg))


def _five_waiting(tmp_path) -> tuple[Loop, object, int]:
    """A game with five order mails waiting in the intake, handled two a batch; and how
    many mails were sent before them."""
    loop = Loop(tmp_path, limits=Limits(batch_mails=2))
    loop.start_beacon()
    loop.flush()
    inbox = tmp_path / "inbox"
    _backlog(loop, inbox, 5)
    return loop, inbox, len(loop.sender.sent)


def test_a_backlog_is_handled_in_batches_each_answered_before_the_next(tmp_path):
    loop, inbox, already = _five_waiting(tmp_path)
    handler = Watching(loop.sender)
    daemon = Daemon(loop.ctx, MaildirSource(inbox), loop.sender, handler=handler)
    asyncio.run(daemon.run_pass())
    assert [len(g) for g in handler.groups] == [2, 2, 1]
    assert [n - already for n in handler.sent_before] == [0, 2, 4]
    replies = [m for _, m in loop.sender.sent[already:] if m["In-Reply-To"]]
    assert [m["In-Reply-To"] for m in replies] == [f"<backlog{i}@players.test>" for i in range(5)]
    assert not list((inbox / "new").iterdir()) and not list((inbox / "cur").iterdir())
    assert {r["attempts"] for r in loop.db["messages"].rows_where("source_key like 'maildir:%'")} == {1}


class Worker(InProcessHandler):
    """Handles mail as a worker process would be asked to: the daemon hands it a batch
    and goes on until the answer comes (the handling itself is done at once, in this
    thread, since a test's daemon shares its connection)."""

    separate_process = True

    def __init__(self):
        self.busy, self.groups = False, []

    async def process_batch(self, ctx, ids):
        self.groups.append(list(ids))
        self.busy = True
        statuses = intake.process_batch(ctx, ids)
        await asyncio.sleep(0.05)  # the worker's time: the daemon works meanwhile
        self.busy = False
        return statuses


class Moving(MaildirSource):
    """A Maildir intake that notes, for each copy it moves, whether a batch was being handled."""

    def __init__(self, inbox, handler):
        super().__init__(inbox)
        self.handler, self.moved, self.fetched = handler, [], []

    async def fetch(self, limit=100):
        self.fetched.append(self.handler.busy)
        return await super().fetch(limit)

    async def ack(self, key, outcome, replacement=None):
        self.moved.append(self.handler.busy)
        await super().ack(key, outcome, replacement)


def test_each_batch_is_moved_out_of_the_intake_while_the_worker_handles_the_next(tmp_path):
    loop, inbox, already = _five_waiting(tmp_path)
    worker = Worker()
    source = Moving(inbox, worker)
    asyncio.run(Daemon(loop.ctx, source, loop.sender, handler=worker).run_pass())
    assert [len(g) for g in worker.groups] == [2, 2, 1]
    # The first two batches are moved while the next is handled; the last after it.
    assert source.moved == [True, True, True, True, False]
    replies = [m for _, m in loop.sender.sent[already:] if m["In-Reply-To"]]
    assert [m["In-Reply-To"] for m in replies] == [f"<backlog{i}@players.test>" for i in range(5)]
    assert not list((inbox / "new").iterdir()) and not list((inbox / "cur").iterdir())


def _stored(loop: Loop, count: int) -> list[int]:
    ids = []
    for i in range(count):
        power = ("North", "South")[i % 2]
        raw = (f"From: {power.lower()}@example.test\nTo: {loop.ctx.address}\nSubject: orders\n"
               f"Message-ID: <b{i}@players.test>\n\nSIGNON {power}@g1 {loop.secrets[power]}\nORDERS\nBID {i}\n")
        ids.append(intake.store_raw(loop.ctx, RawMail(f"test:b{i}", raw.encode())))
    return ids


def test_a_mail_that_fails_inside_a_batch_is_undone_alone_and_tried_again_alone(tmp_path, monkeypatch):
    loop = Loop(tmp_path)
    loop.start_beacon()
    loop.flush()
    first, poison, last = _stored(loop, 3)
    real_reply = intake._reply

    def reply(ctx, session, row, secrets):
        if row["id"] == poison:
            raise RuntimeError("the reply could not be written")
        return real_reply(ctx, session, row, secrets)

    monkeypatch.setattr(intake, "_reply", reply)
    assert intake.batches(loop.ctx, [first, poison, last]) == [[first, poison, last]]
    statuses = intake.process_batch(loop.ctx, [first, poison, last])
    assert statuses == {first: "done", poison: "new", last: "done"}
    row = loop.db["messages"].get(poison)
    assert row["attempts"] == 1 and "could not be written" in row["error"]
    # Its orders were undone with it; the others' stand.
    sent_by = {o["message"] for o in loop.db["orders"].rows}
    assert first in sent_by and last in sent_by and poison not in sent_by
    monkeypatch.setattr(intake, "_reply", real_reply)
    assert intake.batches(loop.ctx, intake.pending(loop.ctx)) == [[poison]]
    assert intake.process_batch(loop.ctx, [poison]) == {poison: "done"}
    sent = loop.flush()
    answered = [m["In-Reply-To"] for _, m in sent if m["In-Reply-To"]]
    assert sorted(answered) == ["<b0@players.test>", "<b1@players.test>", "<b2@players.test>"]


def test_the_mails_of_a_batch_that_crashed_are_each_tried_alone_once(tmp_path):
    loop = Loop(tmp_path)
    loop.start_beacon()
    loop.flush()
    ids = _stored(loop, 4)
    todo, settled = intake.begin_batch(loop.ctx, ids)  # counted, then the process died
    assert todo == ids and not settled
    assert intake.batches(loop.ctx, intake.pending(loop.ctx)) == [[i] for i in ids]
    for group in intake.batches(loop.ctx, intake.pending(loop.ctx)):
        assert set(intake.process_batch(loop.ctx, group).values()) == {"done"}
    sent = loop.flush()
    answered = [m["In-Reply-To"] for _, m in sent if m["In-Reply-To"]]
    assert sorted(answered) == [f"<b{i}@players.test>" for i in range(4)]
    assert {r["attempts"] for r in loop.db["messages"].rows_where("source_key like 'test:b%'")} == {2}


def test_with_a_single_try_allowed_every_mail_is_handled_alone(tmp_path):
    loop = Loop(tmp_path, limits=Limits(max_attempts=1))
    loop.start_beacon()
    ids = _stored(loop, 3)
    assert intake.batches(loop.ctx, ids) == [[i] for i in ids]


def test_the_outbox_is_drained_whole_and_forgets_old_mail(tmp_path):
    loop = Loop(tmp_path)
    for i in range(120):
        outbox.queue(loop.ctx, key=f"bulk:{i}", to=[f"p{i}@example.test"], subject="s", text="t")
    assert len(loop.flush()) == 120 and outbox.pending_count(loop.ctx) == 0
    outbox.queue(loop.ctx, key="waiting", to=["w@example.test"], subject="s", text="t")
    loop.clock.advance(days=31)
    outbox.queue(loop.ctx, key="recent", to=["r@example.test"], subject="s", text="t")
    loop.flush()
    assert outbox.prune(loop.ctx, keep_days=30) == 121   # the 120 and "waiting", sent 31 days ago
    left = [r["message_id"] for r in loop.db["outbox"].rows]
    assert len(left) == 1
    assert outbox.prune(loop.ctx, keep_days=0) == 0


def test_a_pass_over_unchanged_games_decodes_no_state(tmp_path, monkeypatch):
    loop = Loop(tmp_path)
    loop.start_beacon()
    loop.start_beacon("g2")
    loop.tick()
    scheduler.next_wakeup(loop.ctx)
    game = registry.get("beacon")
    calls = []
    real_phase, real_state = game.phase, store.GameRecord.state
    monkeypatch.setattr(game, "phase", lambda state: calls.append("phase") or real_phase(state))
    monkeypatch.setattr(store.GameRecord, "state",
                        property(lambda rec: calls.append("decode") or real_state.fget(rec)))
    for _ in range(3):
        assert loop.tick() == []
        assert scheduler.next_wakeup(loop.ctx) > timedelta(0)
    assert calls == []
    # A change is seen at once: the state changed, so it is decoded again.
    loop.mail("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 1\n")
    loop.mail("south@example.test", f"SIGNON South@g1 {loop.secrets['South']}\nORDERS\nBID 2\n")
    calls.clear()
    assert loop.tick() != []
    assert "decode" in calls


def test_a_pass_in_a_backlog_leaves_its_last_batch_to_be_moved_during_the_next_pass(tmp_path):
    """While a backlog lasts (a pass fetched all it asked for), the last batch of a pass is
    moved while the worker handles the first batch of the next pass, not while the worker
    waits; it is fetched again meanwhile (it is still in the intake) and neither counted
    as new nor handled or moved twice.  The next pass's mail is read meanwhile too.  The
    pass that ends the backlog moves everything."""
    loop = Loop(tmp_path, limits=Limits(batch_mails=1))  # four mails a pass
    loop.start_beacon()
    loop.flush()
    inbox = tmp_path / "inbox"
    _backlog(loop, inbox, 10)
    already = len(loop.sender.sent)
    worker = Worker()
    source = Moving(inbox, worker)
    daemon = Daemon(loop.ctx, source, loop.sender, handler=worker)
    results = [asyncio.run(daemon.run_pass()) for _ in range(4)]
    assert [r.fetched for r in results] == [4, 4, 2, 0]
    assert [r.carried for r in results] == [True, True, False, False]
    assert [g for group in worker.groups for g in group] == list(range(worker.groups[0][0], worker.groups[0][0] + 10))
    assert source.moved == [True] * 9 + [False]  # each copy once; only the very last after the worker
    # the mail of the next pass is read while the worker handles the last batch of a pass
    assert source.fetched == [False, True, True, False]
    replies = [m for _, m in loop.sender.sent[already:] if m["In-Reply-To"]]
    assert [m["In-Reply-To"] for m in replies] == [f"<backlog{i}@players.test>" for i in range(10)]
    assert not list((inbox / "new").iterdir()) and not list((inbox / "cur").iterdir())


class Reading(Worker):
    """A worker that also notes each batch it is asked to read ahead, and the batch then handled."""

    def __init__(self):
        super().__init__()
        self.read: list[tuple[list[int], list[int]]] = []

    def read_ahead(self, ids):
        self.read.append((list(ids), self.groups[-1]))


def test_the_next_passs_first_batch_is_stored_and_read_ahead_while_the_last_batch_is_handled(tmp_path):
    """During a backlog the next pass's mail, read during a pass's second-to-last batch, is
    stored before its last batch, so the next pass's first batch is read ahead while the
    last is handled: every batch but the very first is read ahead by another worker."""
    loop = Loop(tmp_path, limits=Limits(batch_mails=1))  # four mails a pass
    loop.start_beacon()
    loop.flush()
    inbox = tmp_path / "inbox"
    _backlog(loop, inbox, 10)
    worker = Reading()
    source = Moving(inbox, worker)
    daemon = Daemon(loop.ctx, source, loop.sender, handler=worker)
    results = [asyncio.run(daemon.run_pass()) for _ in range(4)]
    assert [r.fetched for r in results] == [4, 4, 2, 0]
    handled = [g for group in worker.groups for g in group]
    first = handled[0]
    assert handled == list(range(first, first + 10))
    assert [(ids[0] - first, now[0] - first) for ids, now in worker.read] == [(i + 1, i) for i in range(9)]
    # the next pass's mail is read during the second-to-last batch of a pass
    assert source.fetched == [False, True, True, False]
    assert {r["status"] for r in loop.db["messages"].rows_where("source_key like 'maildir:%'")} == {"done"}
    assert not list((inbox / "new").iterdir()) and not list((inbox / "cur").iterdir())


def test_a_roster_is_worked_out_once_per_state_and_options(tmp_path, monkeypatch):
    """Every mail resolves its sign-on against its game's roster: a record of a game whose
    state and options are unchanged gets it without decoding the state; a change of either
    gives the roster worked out again."""
    loop = Loop(tmp_path)
    loop.start_beacon()
    game = registry.get("beacon")
    calls = []
    real_roster, real_state = game.roster, store.GameRecord.state
    monkeypatch.setattr(game, "roster", lambda options, state=None: calls.append("roster") or
                        real_roster(options, state))
    monkeypatch.setattr(store.GameRecord, "state",
                        property(lambda rec: calls.append("decode") or real_state.fget(rec)))
    first = store.get_game(loop.ctx, "g1").roster
    calls.clear()
    assert store.get_game(loop.ctx, "g1").roster == first  # another record of the same row
    assert calls == []
    row = store.get_game(loop.ctx, "g1").row
    other_options = store.GameRecord({**row, "options": json.dumps({**json.loads(row["options"] or "{}"), "x": 1})})
    assert other_options.roster == first and sorted(calls) == ["decode", "roster"]
    calls.clear()
    other_state = store.GameRecord({**row, "state": json.dumps({**json.loads(row["state"]), "zz": 1})})
    assert other_state.roster == first and sorted(calls) == ["decode", "roster"]
