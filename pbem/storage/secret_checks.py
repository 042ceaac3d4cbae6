"""Secrets pbem made, vouched for at rest (the ``secret_checks`` table), so a
player's mail skips the slow hash even after a restart.

Each row is an HMAC-SHA256 of a stored secret hash and the secret, under the
host's check key: 32 random bytes in a file of their own beside the database
(``<database>.checkkey``, 0600, made when first needed).  The rows are useless
without that key, so a copy of the database is as safe at rest as its scrypt
hashes; see :class:`pbem.base.identity.SecretCache` for what is kept and why.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from pbem.base.context import Context
from pbem.base.private_files import create_private
from pbem.storage.db import utcnow_iso

KEY_BYTES = 32


class SecretChecks:
    """The durable half of :class:`pbem.base.identity.SecretCache`."""

    def __init__(self, ctx: Context, key: bytes):
        self.ctx, self.key = ctx, key

    def known(self, entry: bytes) -> bool:
        return bool(list(self.ctx.db.query("SELECT 1 FROM secret_checks WHERE entry = ?", [entry.hex()])))

    def remember(self, entry: bytes) -> None:
        self.ctx.db.execute("INSERT OR IGNORE INTO secret_checks (entry, created) VALUES (?, ?)",
                            [entry.hex(), utcnow_iso(self.ctx.now())])


def key_path(database: Path | str) -> Path | None:
    """Where the check key of *database* is kept (None for a database in memory)."""
    return None if str(database) == ":memory:" else Path(f"{database}.checkkey")


def load_key(path: Path) -> bytes | None:
    """The check key in *path*, made (0600) when there is none; None when it
    cannot be read or made (then every check pays the slow hash, as before).
    The key is written whole under another name and linked into place, so two
    processes starting at once agree on one key and a crash leaves none half made."""
    try:
        if not path.exists():
            spare = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
            create_private(spare)
            try:
                with open(spare, "wb") as out:
                    out.write(secrets.token_bytes(KEY_BYTES))
                    out.flush()
                    os.fsync(out.fileno())
                os.link(spare, path)
            except FileExistsError:
                pass  # another process made it first: its key is the key
            finally:
                spare.unlink(missing_ok=True)
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) == KEY_BYTES else None


def attach(ctx: Context, database: Path | str) -> Context:
    """Give *ctx*'s secret cache its durable half, keyed by *database*'s check key."""
    path = key_path(database)
    key = load_key(path) if path is not None else None
    if key is not None:
        ctx.secret_cache.durable = SecretChecks(ctx, key)
    return ctx
