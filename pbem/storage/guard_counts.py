"""The counts that guard the moderator against abuse and dead addresses, as stored: wrong
secrets per counter (``throttle``), commands per sender and hour (``command_log``), bounces
per address (``bounces``).

The rules (how many are free, how long a pause lasts, when an address is dead) live with
those who apply them (:mod:`pbem.handlers.throttle`, :mod:`pbem.handlers.budget`,
:mod:`pbem.outbound.bounces`); this module only keeps the counts, inside the caller's
transaction.
"""
from __future__ import annotations

from pbem.base.context import Context

# -- wrong secrets (throttle) ----------------------------------------------


def throttle_row(ctx: Context, key: str) -> dict | None:
    return next(ctx.db["throttle"].rows_where("key = ?", [key]), None)


def save_throttle(ctx: Context, row: dict) -> None:
    """Write the counter ``row["key"]`` whole (made if new)."""
    ctx.db["throttle"].upsert(row, pk="key")


def clear_throttle(ctx: Context, key: str) -> None:
    ctx.db.execute("delete from throttle where key = ?", [key])


def mark_throttle_told(ctx: Context, key: str, at: str) -> None:
    ctx.db["throttle"].update(key, {"told": at})


# -- commands per hour (command_log) ---------------------------------------


def commands_since(ctx: Context, who: str, kind: str, since: str) -> int:
    """How many commands of ``kind`` were counted against ``who`` since ``since``."""
    return ctx.db.execute("select count(*) from command_log where who = ? and kind = ? and at >= ?",
                          [who, kind, since]).fetchone()[0]


def count_command(ctx: Context, who: str, kind: str, at: str) -> None:
    ctx.db["command_log"].insert({"who": who, "kind": kind, "at": at})


def forget_commands_before(ctx: Context, before: str) -> int:
    """Delete the commands counted before ``before``; how many were deleted."""
    return ctx.db.execute("delete from command_log where at < ?", [before]).rowcount


# -- bounces ---------------------------------------------------------------


def bounce_row(ctx: Context, address: str) -> dict | None:
    return next(ctx.db["bounces"].rows_where("address = ?", [address]), None)


def save_bounce(ctx: Context, row: dict) -> None:
    """Write the bounce count of ``row["address"]`` whole (made if new)."""
    ctx.db["bounces"].upsert(row, pk="address")


def bouncing(ctx: Context) -> list[dict]:
    """Every address with bounces counted, worst first."""
    return list(ctx.db["bounces"].rows_where("score > 0", order_by="score desc, address",
                                             select="address, score, hard, soft, state, first, last"))
