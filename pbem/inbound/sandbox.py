"""Mail is handled in a child process with a time and a memory limit, so one
mail cannot take the daemon down.

The daemon hands stored mails' row ids (one mail, or a batch of them handled in
one transaction) to one long-lived worker process
(started with ``spawn``: a fresh interpreter sharing nothing but the
database file) and waits for its answer without blocking the event loop —
the SMTP listener, IMAP IDLE and the slow secret checks of other mail go on.
The worker's address space is capped (``limits.handling_memory_mb``): a mail
that makes handling grow fails with MemoryError inside the worker, which
counts as a failed try.  A mail whose handling takes longer than
``limits.handling_timeout`` seconds, or that kills the worker, has the worker
killed and restarted; its try was counted before it started
(:func:`pbem.inbound.intake.begin`), so after ``limits.max_attempts`` such tries it
is set aside (:mod:`pbem.inbound.quarantine`) and the queue moves on.
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.base.crashpoints import CRASH_EXIT_STATUS
from pbem.inbound import worker

if TYPE_CHECKING:  # this module stays light to import: the daemon starts its worker first
    from pbem.base.context import Context

log = logging.getLogger(__name__)


class WorkerFailed(Exception):
    """The worker died or overran its time on one mail."""


class WorkerUnavailable(RuntimeError):
    """The worker could not be started: no mail's fault, so no mail's try is counted."""


READY_SECONDS = 120.0  # a fresh interpreter importing pbem and its games, on a loaded machine


class _Worker:
    """One worker process and its pipe."""

    def __init__(self, handler: IsolatedHandler, name: str):
        self.handler, self.name = handler, name
        self.process: multiprocessing.Process | None = None
        self.conn = None
        self.ready = False
        self.reading: tuple[int, ...] | None = None  # the batch it was asked to read ahead
        self.busy = False                            # handling a batch
        self.waiting = False                         # for the word that it is ready

    def start_soon(self) -> None:
        if self.process is None:
            try:
                self.launch()
            except OSError as exc:
                log.warning("the mail-handling process could not be started yet: %s", exc)
                self.stop()

    def launch(self) -> None:
        h = self.handler
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self.process = context.Process(target=worker.main, name=self.name, daemon=True,
                                       args=(child, h.config_path, h.memory_mb, h.log_level,
                                             h.log_file, os.getpid()))
        self.ready, self.reading = False, None
        self.process.start()
        child.close()
        self.conn = parent

    def ready_now(self) -> bool:
        """Whether it has said it is ready, without waiting."""
        # while :meth:`ready_up` waits for the word it alone reads it: read here as well, its
        # wait would see the word come and then wait to read it for ever, holding the daemon
        if not self.ready and not self.waiting and self.process is not None and self.process.is_alive():
            try:
                self.ready = bool(self.conn.poll(0)) and self.conn.recv()[0] == "ready"
            except (EOFError, OSError):
                self.ready = False
        return self.ready and self.process is not None and self.process.is_alive()

    async def ready_up(self) -> None:
        """Ready for mail: the process :meth:`start_soon` started once it says it is
        ready, else a new one (none yet, or the last died after it was ready)."""
        if self.process is not None and self.ready and self.process.is_alive():
            return
        if self.process is None or self.ready:
            self.stop()
            self.launch()
        parent = self.conn
        self.waiting = True
        try:
            ready = await asyncio.to_thread(parent.poll, READY_SECONDS) and parent.recv()[0] == "ready"
        except (EOFError, OSError):
            ready = False
        finally:
            self.waiting = False
        if not ready:
            reason = self.death() if not self.process.is_alive() else "it did not answer"
            self.stop()
            raise WorkerUnavailable(f"the mail-handling process could not start ({reason}); check "
                                    "limits.handling_memory_mb and the log above")
        self.ready = True

    def died(self) -> bool:
        """Whether it said it was ready and has died since."""
        return self.ready and self.process is not None and not self.process.is_alive()

    def read_ahead(self, ids: list[int]) -> bool:
        try:
            self.conn.send(("read", list(ids)))
        except (OSError, ValueError):
            return False
        self.reading = tuple(ids)
        return True

    async def handle(self, ids: list[int], timeout: float):
        """Its answer for a batch: ("ok", statuses) or ("database", message); raises
        :class:`WorkerFailed` (the process stopped) when it dies or overruns."""
        self.reading, self.busy = None, True
        conn = self.conn
        try:
            conn.send(("handle", ids))
            if not await asyncio.to_thread(conn.poll, timeout):
                raise WorkerFailed(f"handling took longer than {timeout:g} seconds")
            return conn.recv()
        except (EOFError, OSError, WorkerFailed) as exc:
            reason = str(exc) if isinstance(exc, WorkerFailed) else self.death()
            self.stop()
            raise WorkerFailed(reason) from None
        finally:
            self.busy = False

    def stop(self) -> None:
        proc, self.process = self.process, None
        self.ready, self.reading = False, None
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            proc.join(5)

    def death(self) -> str:
        proc = self.process
        if proc is not None:
            proc.join(5)
            code = proc.exitcode
            if code == CRASH_EXIT_STATUS and os.environ.get("PBEM_CRASH_AT"):
                os._exit(CRASH_EXIT_STATUS)  # a crash test stopped the worker: the daemon stops with it
            if code is not None and code < 0:
                return f"the handling process was killed by signal {-code}"
            if code is not None:
                return f"the handling process stopped with exit code {code}"
        return "the handling process stopped"


class IsolatedHandler:
    """Handles stored mail in worker processes under ``limits``.

    With more than one worker (``limits.handling_workers``), the batches take turns: while
    one worker handles a batch in its transaction, the next batch goes to another, which
    reads its mails meanwhile (:meth:`read_ahead`) and handles them once told to, after
    the batch before is committed.  So one game's mail is still handled in order and the
    database has one writer at a time, and the reading (the mails, and what the game says
    of their orders: about half of a mail's handling) is done in parallel."""

    #: the workers have database connections of their own, so the daemon may read while they work
    separate_process = True

    def __init__(self, config_path: Path | None, *, timeout: float, memory_mb: int,
                 log_level: str = "INFO", log_file: str = "", workers: int = 1):
        self.config_path = str(config_path) if config_path else None
        self.timeout, self.memory_mb, self.log_level = timeout, memory_mb, log_level
        self.log_file = log_file
        self._workers = [_Worker(self, f"pbem-worker-{n + 1}") for n in range(max(1, workers))]

    def start_soon(self) -> None:
        """Start the worker processes now and return: each imports pbem and the site's
        games while the daemon starts and reads its first mail, not once that mail is
        handed to it.  A worker that cannot start is told when mail is handed to it."""
        for w in self._workers:
            w.start_soon()

    def read_ahead(self, ids: list[int]) -> None:
        """Have an idle worker read the next batch now, while another handles this one;
        nothing with a single worker, or none idle and ready.  A worker that died after it
        was ready (reading ahead, say) is started again, for the batches after."""
        if len(self._workers) < 2:
            return
        for w in self._workers:
            if w.died():
                w.stop()
                w.start_soon()
        idle = [w for w in self._workers if w.reading is None and not w.busy and w.ready_now()]
        if idle and not idle[0].read_ahead(ids):
            idle[0].stop()

    def _pick(self, ids: list[int]) -> _Worker:
        """The worker that read these mails ahead, else one that read nothing, ready first.
        A read ahead of another batch is out of date (the batches came otherwise than the
        daemon foresaw, say at a pass's end): its worker is free again."""
        key = tuple(ids)
        for w in self._workers:
            if w.reading is not None and w.reading != key:
                w.reading = None
        for w in self._workers:
            if w.reading == key and w.ready_now():
                return w
        free = [w for w in self._workers if w.reading is None] or self._workers
        return next((w for w in free if w.ready_now()), free[0])

    async def process(self, ctx: Context, msg_id: int) -> str:
        """Handle one mail in a worker; returns its status as intake.process does."""
        return (await self.process_batch(ctx, [msg_id]))[msg_id]

    async def process_batch(self, ctx: Context, ids: list[int]) -> dict[int, str]:
        """Handle a group of mails in a worker, in one transaction; their
        statuses as intake.process_batch gives them.  The tries are counted
        here, before the worker is told to handle the mails, so a worker that
        dies on them (reading them ahead, or in their transaction) cannot keep
        them from being counted; the group gets the time one mail
        may take, and when it overruns or kills the worker each of its mails
        is tried again alone (:func:`pbem.inbound.intake.batches`)."""
        from pbem.inbound import intake

        w = self._pick(ids)
        await w.ready_up()
        todo, statuses = intake.begin_batch(ctx, ids)
        if not todo:
            w.reading = None
            return statuses
        try:
            kind, value = await w.handle(todo, self.timeout)
        except WorkerFailed as exc:
            which = f"mail {todo[0]}" if len(todo) == 1 else f"mails {todo[0]}-{todo[-1]} (a batch of {len(todo)})"
            log.error("%s: %s; the worker was restarted", which, exc)
            statuses.update({msg_id: intake.failed(ctx, msg_id, str(exc)) for msg_id in todo})
            return statuses
        if kind == "database":
            raise sqlite3.OperationalError(value)
        log.debug("%s handled mails %s", w.name, ", ".join(map(str, todo)))
        statuses.update(value)
        return statuses

    async def close(self) -> None:
        for w in self._workers:
            w.stop()


class InProcessHandler:
    """Handles stored mail in the daemon's own process, off the event loop
    (``limits.handling_timeout = 0``, or a test's injected clock)."""

    #: the handling thread shares the daemon's database connection: nothing else may use it meanwhile
    separate_process = False

    def start_soon(self) -> None:
        return None  # nothing to start

    def read_ahead(self, ids: list[int]) -> None:
        return None  # one thread: the mails are read in their transaction

    async def process(self, ctx: Context, msg_id: int) -> str:
        from pbem.inbound import intake

        return await asyncio.to_thread(intake.process, ctx, msg_id)

    async def process_batch(self, ctx: Context, ids: list[int]) -> dict[int, str]:
        from pbem.inbound import intake

        return await asyncio.to_thread(intake.process_batch, ctx, ids)

    async def close(self) -> None:
        return None


def handler_for(cfg, *, clock=None) -> IsolatedHandler | InProcessHandler:
    """The handler the configuration asks for: a worker process under ``[limits]``, or
    this process when ``limits.handling_timeout`` is 0.  A worker process cannot share an
    injected (test) clock: such a daemon handles mail itself."""
    if cfg.limits.handling_timeout and clock is None:
        return IsolatedHandler(cfg.path, timeout=cfg.limits.handling_timeout,
                               memory_mb=cfg.limits.handling_memory_mb, log_level=cfg.server.log_level,
                               workers=cfg.limits.handling_workers,
                               log_file=str(cfg.path_of(cfg.server.log_file)) if cfg.server.log_file else "")
    return InProcessHandler()
