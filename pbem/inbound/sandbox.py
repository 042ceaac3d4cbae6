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


class IsolatedHandler:
    """Handles stored mail in a worker process under ``limits``."""

    #: the worker has a database connection of its own, so the daemon may read while it works
    separate_process = True

    def __init__(self, config_path: Path | None, *, timeout: float, memory_mb: int,
                 log_level: str = "INFO", log_file: str = ""):
        self.config_path = str(config_path) if config_path else None
        self.timeout, self.memory_mb, self.log_level = timeout, memory_mb, log_level
        self.log_file = log_file
        self._process: multiprocessing.Process | None = None
        self._conn = None
        self._ready = False

    def start_soon(self) -> None:
        """Start the worker process now and return: it imports pbem and the site's games
        while the daemon starts and reads its first mail, not once that mail is handed to
        it.  A worker that cannot start is told when the first mail is handed to it."""
        if self._process is None:
            try:
                self._launch()
            except OSError as exc:
                log.warning("the mail-handling process could not be started yet: %s", exc)
                self._stop()

    def _launch(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self._process = context.Process(target=worker.main, name="pbem-worker", daemon=True,
                                        args=(child, self.config_path, self.memory_mb, self.log_level,
                                              self.log_file, os.getpid()))
        self._ready = False
        self._process.start()
        child.close()
        self._conn = parent

    async def _ready_worker(self) -> None:
        """A worker ready for mail: the one :meth:`start_soon` started once it says it is
        ready, else a new one (none yet, or the last died after it was ready)."""
        if self._process is not None and self._ready and self._process.is_alive():
            return
        if self._process is None or self._ready:
            self._stop()
            self._launch()
        parent = self._conn
        try:
            ready = await asyncio.to_thread(parent.poll, READY_SECONDS) and parent.recv()[0] == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            reason = self._death() if not self._process.is_alive() else "it did not answer"
            self._stop()
            raise WorkerUnavailable(f"the mail-handling process could not start ({reason}); check "
                                    "limits.handling_memory_mb and the log above")
        self._ready = True

    def _stop(self) -> None:
        proc, self._process = self._process, None
        self._ready = False
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if proc is not None:
            if proc.is_alive():
                proc.kill()
            proc.join(5)

    async def process(self, ctx: Context, msg_id: int) -> str:
        """Handle one mail in the worker; returns its status as intake.process does."""
        return (await self.process_batch(ctx, [msg_id]))[msg_id]

    async def process_batch(self, ctx: Context, ids: list[int]) -> dict[int, str]:
        """Handle a group of mails in the worker, in one transaction; their
        statuses as intake.process_batch gives them.  The tries are counted
        here, before the worker gets the mails, so a worker that dies on them
        cannot keep them from being counted; the group gets the time one mail
        may take, and when it overruns or kills the worker each of its mails
        is tried again alone (:func:`pbem.inbound.intake.batches`)."""
        from pbem.inbound import intake

        await self._ready_worker()
        todo, statuses = intake.begin_batch(ctx, ids)
        if not todo:
            return statuses
        conn = self._conn
        try:
            conn.send(todo)
            ready = await asyncio.to_thread(conn.poll, self.timeout)
            if not ready:
                raise WorkerFailed(f"handling took longer than {self.timeout:g} seconds")
            kind, value = conn.recv()
        except (EOFError, OSError, WorkerFailed) as exc:
            reason = str(exc) if isinstance(exc, WorkerFailed) else self._death()
            self._stop()
            which = f"mail {todo[0]}" if len(todo) == 1 else f"mails {todo[0]}-{todo[-1]} (a batch of {len(todo)})"
            log.error("%s: %s; the worker was restarted", which, reason)
            statuses.update({msg_id: intake.failed(ctx, msg_id, reason) for msg_id in todo})
            return statuses
        if kind == "database":
            raise sqlite3.OperationalError(value)
        statuses.update(value)
        return statuses

    def _death(self) -> str:
        proc = self._process
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

    async def close(self) -> None:
        self._stop()


class InProcessHandler:
    """Handles stored mail in the daemon's own process, off the event loop
    (``limits.handling_timeout = 0``, or a test's injected clock)."""

    #: the handling thread shares the daemon's database connection: nothing else may use it meanwhile
    separate_process = False

    def start_soon(self) -> None:
        return None  # nothing to start

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
                               log_file=str(cfg.path_of(cfg.server.log_file)) if cfg.server.log_file else "")
    return InProcessHandler()
