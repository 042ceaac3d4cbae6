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

from pbem.base.context import Context
from pbem.base.crashpoints import CRASH_EXIT_STATUS
from pbem.inbound import intake
from pbem.storage import secret_checks

log = logging.getLogger(__name__)


class WorkerFailed(Exception):
    """The worker died or overran its time on one mail."""


class WorkerUnavailable(RuntimeError):
    """The worker could not be started: no mail's fault, so no mail's try is counted."""


READY_SECONDS = 120.0  # a fresh interpreter importing pbem and its games, on a loaded machine


def _child(conn, config_path: str | None, memory_mb: int, log_level: str, log_file: str = "",
           parent: int | None = None) -> None:
    """The worker: handle the row ids it is sent, one at a time, until the pipe closes
    or the daemon dies (then it stops at once and quietly: nothing of it is lost, the
    mail it was handling is tried again by the next daemon)."""
    from pbem.base import logsetup

    _die_with_parent(parent)
    logsetup.configure(log_level, log_file=log_file or None, role="worker")
    try:
        _serve(conn, config_path, memory_mb)
    except (EOFError, BrokenPipeError, ConnectionResetError, KeyboardInterrupt):
        return  # the daemon is gone: no traceback, no orphan


def _die_with_parent(parent: int | None) -> None:
    """Ask Linux to stop this process when the daemon dies (even by kill -9); elsewhere
    the closed pipe ends it once the mail under way is handled."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if parent is not None and os.getppid() != parent:  # the daemon died before the request
        os._exit(0)


def _serve(conn, config_path: str | None, memory_mb: int) -> None:
    import resource

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from pbem.base import registry
    from pbem.base.clock import SystemClock
    from pbem.base.config import load_config
    from pbem.storage.db import open_db

    cfg = load_config(config_path)
    registry.load_extras(cfg.server.games_extra)
    ctx = secret_checks.attach(Context.from_config(open_db(cfg.server.database), SystemClock(), cfg),
                               cfg.server.database)
    conn.send(("ready", None))
    while True:
        try:
            ids = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", intake.handle_batch(ctx, ids)))
        except sqlite3.OperationalError as exc:  # the database's trouble: the daemon's to handle
            conn.send(("database", str(exc)))


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

    async def _start(self) -> None:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self._process = context.Process(target=_child, name="pbem-worker", daemon=True,
                                        args=(child, self.config_path, self.memory_mb, self.log_level,
                                              self.log_file, os.getpid()))
        self._process.start()
        child.close()
        self._conn = parent
        try:
            ready = await asyncio.to_thread(parent.poll, READY_SECONDS) and parent.recv()[0] == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            reason = self._death() if not self._process.is_alive() else "it did not answer"
            self._stop()
            raise WorkerUnavailable(f"the mail-handling process could not start ({reason}); check "
                                    "limits.handling_memory_mb and the log above")

    def _stop(self) -> None:
        proc, self._process = self._process, None
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
        if self._process is None or not self._process.is_alive():
            await self._start()
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

    async def process(self, ctx: Context, msg_id: int) -> str:
        return await asyncio.to_thread(intake.process, ctx, msg_id)

    async def process_batch(self, ctx: Context, ids: list[int]) -> dict[int, str]:
        return await asyncio.to_thread(intake.process_batch, ctx, ids)

    async def close(self) -> None:
        return None
