"""The daemon: the only impure part.  It reads the intake, hands each mail to
the intake module, ticks the clock, delivers the outbox and keeps the archive
up to date.

Order of one pass: fetch -> store the mail verbatim (one commit for the
batch) -> for every batch of stored, unhandled mail: handle it (one transaction);
while the worker process handles the next batch, move this one's intake copies
(to Processed/Rejected) and send what is due, its replies first, marking them in
the sent journal (:mod:`pbem.outbound.sent_journal`) until the worker commits ->
reminders and due phases -> deliver queued mail -> rebuild the archive pages of
games that changed (during a backlog at most every ARCHIVE_BACKLOG_SECONDS).
During a backlog (a pass fetched all it asked for) the next pass's mail is read during
the pass and stored before its last batch, whose handling a second worker overlaps by
reading the next pass's first batch; the last batch is finished by the next pass.  A
crash anywhere repeats at most the last step of the last mails, which every step
tolerates (dedupe by source key and Message-ID; fixed Message-IDs on queued mail).

The steps (intake, deadlines, outbox, and the archive pages) are independent: a step that
fails (the IMAP server down, the SMTP server unreachable, a bug) logs one
line and sits out a growing, capped pause, while the others go on; its
first success resets the pause.  Everything a failed step left undone is
still stored, so its next try picks it up.  An SMTP server that refuses the
session itself (login, sender, quota) holds sending instead, with a pause of
its own kept in the database (:mod:`pbem.outbound.sendhold`): no mail is given up.

One line is logged per mail handled, per phase resolved and per mail sent,
and at start and stop; `pbem status` reads the last pass from the heartbeat
file (:mod:`pbem.host.heartbeat`).

Mail is handled by a ``handler`` (:mod:`pbem.inbound.sandbox`): in a worker process
under time and memory limits, or in this process off the event loop.

A full disk under the database stops every step: each would fail the same
way, and the outbox would send mail it cannot mark as sent.  The daemon
says so in one line, tries a small write every few seconds, and goes on
where it stopped once there is space again (:mod:`pbem.host.diskspace`).

The daemon as the configuration wires it (which transports) is :mod:`pbem.host.wiring`.
"""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

from pbem.base import registry
from pbem.base.context import Context
from pbem.base.crashpoints import reached
from pbem.handlers import budget
from pbem.host.backoff import Backoff
from pbem.host.diskspace import SPACE_PROBE_SECONDS, space_again, stopped_for_space
from pbem.host.handled_log import log_handled
from pbem.host.intake_copies import move_handled, store_next_pass
from pbem.host.wakeup import next_timeout
from pbem.inbound import intake
from pbem.inbound.sandbox import InProcessHandler
from pbem.mail.source import PermanentFailure, SessionRefused, TemporaryFailure
from pbem.outbound import outbox, sendhold, undelivered
from pbem.outbound.sent_journal import SentJournal
from pbem.play import scheduler
from pbem.storage import inbound_mail, store
from pbem.storage.db import atomic, is_disk_full
from pbem.web import archive

log = logging.getLogger(__name__)

STEPS = ("intake", "deadlines", "outbox", "archive")


@dataclass
class PassResult:
    fetched: int = 0
    handled: int = 0
    resolved: int = 0
    sent: int = 0
    pending: int = 0   # stored mail still to be tried again (a try failed)
    carried: bool = False  # the last batch is finished by the next pass (a backlog)
    failed: list[str] = field(default_factory=list)  # the steps that failed in this pass


PRUNE_EVERY_SECONDS = 3600.0
#: while a backlog lasts (a pass fetched all it asks for), the archive site is brought up
#: to date this often, not after every pass, from the run's start: rebuilding the pages of
#: the games the last batches touched kept the worker waiting between passes
ARCHIVE_BACKLOG_SECONDS = 30.0


class Daemon:
    def __init__(self, ctx: Context, source, sender, *, listener=None, max_attempts: int = 8,
                 retry_base: float = 30.0, poll_interval: float = 5.0,
                 backoff: tuple[float, float] = (1.0, 60.0), handler=None, keep_sent_days: float = 30.0,
                 held_retry_max: float = 900.0, heartbeat=None, description: str = "",
                 listener_required: bool = False, config_name: str = "pbem.toml",
                 sent_journal: SentJournal | None = None):
        self.ctx, self.source, self.sender, self.listener = ctx, source, sender, listener
        self.listener_required, self.config_name = listener_required, config_name
        self.max_attempts, self.retry_base, self.poll_interval = max_attempts, retry_base, poll_interval
        self.held_retry_max = held_retry_max
        self.heartbeat = heartbeat            # pbem.host.heartbeat.Heartbeat, or None (tests)
        self.description = description        # where mail comes from and goes, for the start line
        self.failing: dict[str, dict] = {}    # failing steps: since when, the last error, tries
        self.backoff = {name: Backoff(*backoff) for name in STEPS}
        self.handler = handler or InProcessHandler()
        self.disk_full: str | None = None   # the log line said when the database's disk filled up
        self.keep_sent_days = keep_sent_days
        self.clock_seconds = time.monotonic
        self._pruned_at = -PRUNE_EVERY_SECONDS
        self._archived_at: float | None = None  # when this run last rebuilt the archive
        # where replies sent while the worker process holds the write lock are marked
        # (pbem.outbound.sent_journal); without one they wait for its commit
        self.journal = sent_journal if self.handler.separate_process else None
        # mail read in one pass: whole batches (limits.batch_mails) for the worker
        self.fetch_size = 4 * max(1, ctx.limits.batch_mails)
        # during a backlog, the last batch of a pass, handled, and its intake copies: they
        # are moved and its replies sent while the worker handles the next pass's first batch
        self._carried: tuple[list[int], dict] = ([], {})
        self._prefetched: asyncio.Future | None = None  # the next pass's mail, read meanwhile

    async def run_pass(self) -> PassResult:
        result = PassResult()
        if self.disk_full:
            if not space_again(self.ctx):
                result.failed.extend(STEPS)
                self._beat(result)
                return result
            self.disk_full = None
        # The archive goes last, after the mail is out: the public site follows the games it shows.
        for name, action in (("intake", self._intake), ("deadlines", self._deadlines),
                             ("outbox", self._outbox), ("archive", self._archive)):
            await self._step(name, action, result)
            if self.disk_full:
                break
        self._beat(result)
        return result

    def _beat(self, result: PassResult) -> None:
        if self.heartbeat is not None:
            failing = dict(self.failing)
            if self.disk_full:
                failing["database"] = {"error": self.disk_full}
            self.heartbeat.beat(failing, fetched=result.fetched, handled=result.handled,
                                resolved=result.resolved, sent=result.sent, failed=result.failed)

    async def _intake(self, result: PassResult) -> None:
        previous, carried = self._carried
        # the carried batch's copies are still in the intake: fetched again, but not new
        moving = {raw.key for raw in carried.values()}
        prefetched, self._prefetched = self._prefetched, None
        batch = [raw for raw in await (prefetched or self.source.fetch(self.fetch_size + len(moving)))
                 if raw.key not in moving][:self.fetch_size]
        self._carried = ([], {})
        result.fetched = len(batch)
        with atomic(self.ctx.db):  # every copy stored (one commit) before any is acted on
            for raw in batch:
                intake.store_raw(self.ctx, raw)
        ids = intake.pending(self.ctx)
        if ids:
            reached("intake.stored")
        rows = inbound_mail.ids_by_source_key(self.ctx, [raw.key for raw in batch])
        fetched = {**carried, **{row["id"]: raw for raw in batch if (row := rows.get(raw.key))}}
        acked: set[str] = set()
        # Batches of one transaction each (group commit): the first players of a backlog do
        # not wait for the whole of it.  Finishing the batch before (moving its copies, sending
        # its replies) writes nothing the worker holds: the marks wait in the journal.  A
        # handler in this process shares the connection: it finishes each batch before the next.
        separate = self.handler.separate_process
        groups = intake.batches(self.ctx, ids)
        backlog = separate and result.fetched >= self.fetch_size
        for k, group in enumerate(groups):
            if not separate:
                await self._ack_batch(previous, fetched, acked)
            # before the last batch, the next pass's mail stored: its first batch is read
            # ahead while the last is handled (the pass boundary costs the workers nothing)
            ahead = await self._store_next(fetched) if self._prefetched and k == len(groups) - 1 else []
            handling = asyncio.ensure_future(self.handler.process_batch(self.ctx, group))
            try:
                if separate:
                    await asyncio.sleep(0)  # the batch goes to the worker first
                    following = groups[k + 1] if k + 1 < len(groups) else ahead
                    if following:  # the next read by another worker meanwhile
                        self.handler.read_ahead(following)
                    await self._finish(previous, fetched, acked, result)
                    if backlog and self._prefetched is None and k >= len(groups) - 2:
                        # the next pass's mail read while the worker handles this batch (this
                        # pass's copies still in the intake come again: as many more are asked)
                        self._prefetched = asyncio.ensure_future(
                            self.source.fetch(self.fetch_size + sum(map(len, groups[k:]))))
            finally:
                statuses = await handling
            for msg_id in group:
                log_handled(self.ctx, msg_id, statuses[msg_id])
            if self.heartbeat is not None:
                self.heartbeat.busy()
            # its replies now, or (with a journal) its marks of the last batch's replies
            await self._step("outbox", self._outbox if self.journal is None else self._settle, result)
            previous = group
        if backlog and ids:
            # More mail waits: the next pass's first batch goes to the worker before this
            # one is finished, so the worker does not wait for its moves and replies.
            self._carried = (previous, {i: fetched[i] for i in previous if i in fetched})
            acked.update(raw.key for raw in self._carried[1].values())
            result.carried = True
        else:
            if previous and self.journal is not None:  # the worker is idle: the replies first
                await self._step("outbox", self._outbox, result)
            await self._ack_batch(previous, fetched, acked)
        result.handled = len(ids)
        result.pending = len(intake.pending(self.ctx))
        # copies handled before (a crash between handling and moving them)
        await move_handled(self.ctx, self.source, [raw for raw in batch if raw.key not in acked])

    async def _store_next(self, fetched: dict) -> list[int]:
        """The next pass's mail, read during this pass, stored before its last batch
        (:func:`pbem.host.intake_copies.store_next_pass`); nothing when it could not be
        read (the next pass reads it again, and says why)."""
        try:
            raws = await self._prefetched
        except Exception:
            self._prefetched = None
            return []
        new, first = store_next_pass(self.ctx, raws, fetched, self.fetch_size)
        self._prefetched = asyncio.get_running_loop().create_future()
        self._prefetched.set_result(new)
        return first

    async def _finish(self, ids: list[int], fetched: dict, acked: set[str], result: PassResult) -> None:
        """While the worker handles the next batch, a handled batch's intake copies moved
        and (with a journal) its replies sent, at once: each waits on its own server."""
        if self.journal is None or not ids:
            await self._ack_batch(ids, fetched, acked)
            return
        sending = asyncio.ensure_future(self._step("outbox", self._send_journaled, result))
        try:
            await self._ack_batch(ids, fetched, acked)
        finally:
            await sending

    async def _ack_batch(self, ids: list[int], fetched: dict, acked: set[str]) -> None:
        """Move the intake copies of handled mails fetched in this pass."""
        copies = [fetched[msg_id] for msg_id in ids if msg_id in fetched]
        await move_handled(self.ctx, self.source, copies)
        acked.update(raw.key for raw in copies)

    async def _deadlines(self, result: PassResult) -> None:
        result.resolved = len(scheduler.tick(self.ctx))

    async def _archive(self, result: PassResult) -> None:
        now = self.clock_seconds()
        if result.fetched >= self.fetch_size:  # a backlog: its players are answered first
            if self._archived_at is None:
                self._archived_at = now
            if now - self._archived_at < ARCHIVE_BACKLOG_SECONDS:
                return
        archive.refresh(self.ctx)
        self._archived_at = now

    async def _outbox(self, result: PassResult) -> None:
        if result.carried:
            return  # sent while the worker handles the next pass's first batch
        await self._settle(result)
        sent = await self._send(result)
        sendhold.release(self.ctx, sent)
        if self.clock_seconds() - self._pruned_at >= PRUNE_EVERY_SECONDS:
            outbox.prune(self.ctx, keep_days=self.keep_sent_days)
            with atomic(self.ctx.db):
                budget.prune(self.ctx)
            self._pruned_at = self.clock_seconds()

    async def _send(self, result: PassResult, journal: SentJournal | None = None) -> int:
        if not sendhold.ready(self.ctx):
            raise sendhold.Held()
        try:
            sent = await outbox.deliver_due(self.ctx, self.sender, max_attempts=self.max_attempts,
                                            retry_base=self.retry_base, on_failed=undelivered.tell,
                                            journal=journal)
        except SessionRefused as exc:
            sendhold.refused(self.ctx, exc, first=self.retry_base, cap=self.held_retry_max)
            raise sendhold.Held() from None
        result.sent += sent
        return sent

    async def _send_journaled(self, result: PassResult) -> None:
        """Send what is due while the worker process handles a batch: the marks go to the
        journal, and the rest of the outbox's work (ending a hold, pruning) waits for
        :meth:`_outbox`."""
        await self._send(result, self.journal)

    async def _settle(self, result: PassResult) -> None:
        """Write the journal's marks into the database (none without a journal)."""
        if self.journal is not None:
            outbox.settle_journal(self.ctx, self.journal)

    async def _step(self, name: str, action, result: PassResult) -> None:
        """Run one step unless it is pausing after failures; a failure never leaves it."""
        backoff = self.backoff[name]
        if not backoff.ready():
            return
        try:
            await action(result)
        except sendhold.Held:  # logged by pbem.outbound.sendhold, paced by its own pause, shown as held
            if name not in result.failed:
                result.failed.append(name)
            self.failing.pop(name, None)  # an earlier failure (server unreachable) is over
            return
        except Exception as exc:  # any failure of one step must leave the others running
            if is_disk_full(exc):
                self.disk_full = stopped_for_space(self.ctx, exc)
            else:
                self._failed(name, exc)
            result.failed.append(name)
            return
        if backoff.failures:
            log.warning("%s works again after %d failed tries", name, backoff.failures)
        backoff.succeeded()
        self.failing.pop(name, None)

    def _failed(self, name: str, exc: Exception) -> None:
        backoff = self.backoff[name]
        delay = backoff.failed()
        others = " and ".join(s for s in STEPS if s != name)
        # Transport failures are expected and say all in their message; anything else is
        # a bug whose traceback is logged once per run of failures, not on every try.
        trace = not isinstance(exc, (TemporaryFailure, PermanentFailure)) and backoff.failures == 1
        since = self.failing.get(name, {}).get("since") or self.ctx.now().isoformat(timespec="seconds")
        self.failing[name] = {"since": since, "error": f"{type(exc).__name__}: {exc}"[:300],
                              "tries": backoff.failures}
        log.error("%s failed: %s: %s; %s go on; next try in %.0fs", name, type(exc).__name__, exc,
                  others, delay, exc_info=exc if trace else None)

    def _next_timeout(self) -> float:
        """How long to wait for mail (:func:`pbem.host.wakeup.next_timeout`)."""
        if self.disk_full:
            return SPACE_PROBE_SECONDS
        return next_timeout(self.ctx, self.poll_interval, self.backoff.values())

    async def _wait_for_mail(self, timeout: float) -> None:
        if not self.backoff["intake"].ready():
            await asyncio.sleep(timeout)  # the source failed: leave it alone for its pause
            return
        try:
            await self.source.wait(timeout)
        except Exception as exc:  # waiting is part of the intake step
            self._failed("intake", exc)

    async def _start_listener(self) -> None:
        """Start the built-in SMTP listener, or go on without it (:func:`start_or_say`)."""
        from pbem.mail.smtp_listener import start_or_say

        if not await start_or_say(self.listener, config=self.config_name, required=self.listener_required):
            self.listener = None
            self.description = self.description.replace(" (fed by the SMTP listener on", " (the SMTP listener could not listen on")

    async def serve(self, stop: asyncio.Event | None = None, once: bool = False) -> set[str]:
        """Run passes until ``stop`` is set (or, with ``once``, until nothing is left
        to do).  Returns the steps that failed in the passes of a ``once`` run."""
        from pbem import __version__

        stop = stop or asyncio.Event()
        failed: set[str] = set()
        self.handler.start_soon()
        # the games imported while this process waits for its first mail, not while the worker waits
        preloading = asyncio.ensure_future(asyncio.to_thread(registry.preload, store.rules_in_use(self.ctx)))
        try:
            if self.listener is not None:
                await self._start_listener()
            log.info("pbem %s started%s%s", __version__, " (one run: --once)" if once else "",
                     f": {self.description}" if self.description else "")
            if self.heartbeat is not None:
                self.heartbeat.started(once=once, description=self.description, version=__version__)
            while not stop.is_set():
                result = await self.run_pass()
                failed.update(result.failed)
                if once:
                    if result.fetched or result.resolved or result.sent or \
                            (result.pending and "intake" not in result.failed):
                        continue  # drain: replies of this pass, phases they made due, tries left
                    break
                if result.fetched:
                    continue
                waiter = asyncio.ensure_future(self._wait_for_mail(self._next_timeout()))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in (waiter, stopper):
                    task.cancel()
        finally:
            await preloading
            if self.listener is not None:
                await self.listener.stop()
            prefetched, self._prefetched = self._prefetched, None
            if prefetched is not None:  # read for a pass that will not come: still in the intake
                prefetched.cancel()
                await asyncio.gather(prefetched, return_exceptions=True)
            await self.source.close()
            await self.handler.close()
            if self.journal is not None:
                self.journal.close()
            close = getattr(self.sender, "close", None)
            if close is not None:
                await close()
        return failed
