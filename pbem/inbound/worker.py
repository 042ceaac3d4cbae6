"""The worker process's side of :mod:`pbem.inbound.sandbox`: started with ``spawn`` (a fresh
interpreter), it opens the database itself, says it is ready, then takes two requests:
``("read", ids)``, read these mails now (:func:`pbem.inbound.intake.prepare_batch`: no
transaction, while another worker holds the write lock), answered by nothing; and
``("handle", ids)``, handle them in one transaction
(:func:`pbem.inbound.intake.handle_batch`, with what was read ahead of them), answered
with their statuses.

This module imports nothing heavy at its top: the fresh interpreter imports it first,
and the mail path's own imports are all it should pay for before it is ready.
"""
from __future__ import annotations

import os
import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.base.context import Context


def main(conn, config_path: str | None, memory_mb: int, log_level: str, log_file: str = "",
         parent: int | None = None) -> None:
    """The worker: handle the batches of row ids it is sent, one after another, until the
    pipe closes or the daemon dies (then it stops at once and quietly: nothing of it is
    lost, the mail it was handling is tried again by the next daemon)."""
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
    from pbem.base.context import Context
    from pbem.inbound import intake
    from pbem.storage import secret_checks
    from pbem.storage.db import open_db

    cfg = load_config(config_path)
    registry.load_extras(cfg.server.games_extra)
    ctx = secret_checks.attach(Context.from_config(open_db(cfg.server.database), SystemClock(), cfg),
                               cfg.server.database)
    _warm(ctx)
    conn.send(("ready", None))
    read: dict = {}  # the batch read ahead, while another worker handled the one before
    while True:
        try:
            kind, ids = conn.recv()
        except EOFError:
            return
        if kind == "read":
            read = _read(ctx, ids)
            continue
        try:
            conn.send(("ok", intake.handle_batch(ctx, ids, {i: read[i] for i in ids if i in read})))
        except sqlite3.OperationalError as exc:  # the database's trouble: the daemon's to handle
            conn.send(("database", str(exc)))
        read = {}


def _read(ctx: Context, ids: list[int]) -> dict:
    """The mails of the batch to come, read while no write lock is held; nothing when the
    database cannot be read now (the mails are then read in their transaction)."""
    from pbem.inbound import intake

    try:
        return intake.prepare_batch(ctx, ids)
    except sqlite3.OperationalError:
        return {}


def _warm(ctx: Context) -> None:
    """What the first mail would pay for otherwise, done before the worker says it is
    ready: the rules of the site's games imported and their data read (a game's modules take
    longer to import than a batch of mail takes to handle) and the command grammar built."""
    from pbem.base import registry
    from pbem.commands import grammar
    from pbem.storage import store

    for rules in store.rules_in_use(ctx):
        try:
            registry.get(rules).roster({})  # its modules imported, its data read
        except Exception:  # a game that fails to load is told when its mail is handled
            pass
    grammar.parser()
