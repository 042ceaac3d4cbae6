"""What every command line verb shares: finding and reading the
configuration, opening the database, and the one-line error."""
from __future__ import annotations

import os
from pathlib import Path

DEFAULT_CONFIG = "pbem.toml"
CLI_LOCK_WAIT = 5.0  # seconds a command waits for the database when another program writes


class CliError(Exception):
    pass


def config_path(args) -> Path | None:
    path = args.config or os.environ.get("PBEM_CONFIG")
    if path is None and Path(DEFAULT_CONFIG).exists():
        path = DEFAULT_CONFIG
    return Path(path) if path is not None else None


def load_cfg(args):
    from pbem.base.config import load_config

    return load_config(config_path(args))


def open_ctx(args):
    """The context of a command.  A command never migrates the database: one
    made by an earlier version is refused with a line naming `pbem migrate`."""
    from pbem.base import registry
    from pbem.base.clock import SystemClock
    from pbem.base.context import Context
    from pbem.storage import secret_checks
    from pbem.storage.db import open_db

    cfg = load_cfg(args)
    registry.load_extras(cfg.server.games_extra)
    # A command waits a few seconds for a daemon's transaction, not half a minute.
    db = open_db(cfg.server.database, timeout=CLI_LOCK_WAIT, migrate=False)
    return secret_checks.attach(Context.from_config(db, SystemClock(), cfg), cfg.server.database), cfg


def rules_help(what: str) -> str:
    """The games this installation knows (plug-ins of server.games_extra come from the
    configuration, read later: PBEM_EXTRA_GAMES names them here too)."""
    from pbem.base import registry

    return f"{what}: {', '.join(registry.listed()) or 'none installed'}"
