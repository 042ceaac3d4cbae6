"""Outgoing mail as stored (the ``outbox`` table): each mail queued with its fixed
Message-ID, its recipients, its tries and its end (sent or given up).

:mod:`pbem.outbound.outbox` decides when a mail is queued, tried, sent or given up; this
module is how that is written, so "nothing is lost" rests on a few named writes.  Nothing
here commits: every write joins the caller's transaction.
"""
from __future__ import annotations

from pbem.base.context import Context


def by_id(ctx: Context, row_id: int) -> dict | None:
    return next(ctx.db["outbox"].rows_where("id = ?", [row_id]), None)


def listing(ctx: Context, *, with_sent: bool) -> list[dict]:
    """Every kept mail but those sent (or all, ``with_sent``), for `pbem outbox list`."""
    return list(ctx.db["outbox"].rows_where("1 = 1" if with_sent else "status != 'sent'", order_by="id", select=(
        "id, status, attempts, created, next_try, kind, game, recipients, stranger, last_error")))


def waiting(ctx: Context, *, with_failed: bool) -> list[dict]:
    """Mail still queued (and given up, ``with_failed``), oldest first."""
    return list(ctx.db["outbox"].rows_where(
        "status = 'queued'" + (" or status = 'failed'" if with_failed else ""), order_by="id"))


def has_message_id(ctx: Context, message_id: str) -> bool:
    """Whether a mail with this Message-ID was queued (and is still kept)."""
    return bool(ctx.db["outbox"].count_where("message_id = ?", [message_id]))


def by_message_id(ctx: Context, message_id: str) -> dict | None:
    return next(ctx.db["outbox"].rows_where("message_id = ?", [message_id]), None)


def add(ctx: Context, fields: dict) -> None:
    """Queue one mail (its row as the outbox writes it)."""
    ctx.db["outbox"].insert(fields)


def due(ctx: Context, now: str, *, after: int, limit: int) -> list[dict]:
    """Queued mail whose next try is at or before ``now``, from row ``after`` on, oldest first."""
    return list(ctx.db["outbox"].rows_where(
        "status = 'queued' and next_try <= ? and id > ?", [now, after], order_by="id", limit=limit))


def next_due(ctx: Context, now: str) -> str | None:
    """When the next queued mail that is not due yet falls due (a retry, grey press held for
    its quarter hour), or None."""
    row = ctx.db.execute("select min(next_try) from outbox where status = 'queued' and next_try > ?",
                         [now]).fetchone()
    return row[0] if row else None


def update(ctx: Context, row_id: int, fields: dict) -> None:
    ctx.db["outbox"].update(row_id, fields)


def forget_finished_before(ctx: Context, before: str) -> int:
    """Delete mail sent or given up before ``before``; how many were deleted."""
    return ctx.db.execute("delete from outbox where status in ('sent', 'failed') and created < ?",
                          [before]).rowcount


def queued_count(ctx: Context) -> int:
    return ctx.db["outbox"].count_where("status = 'queued'")


def summary(ctx: Context) -> tuple[int, str | None, int]:
    """(mail queued, when the oldest was queued, mail given up), for `pbem status`."""
    queued, oldest = ctx.db.execute("select count(*), min(created) from outbox where status = 'queued'").fetchone()
    return queued, oldest, ctx.db["outbox"].count_where("status = 'failed'")


def stranger_replies_since(ctx: Context, since: str, address: str | None = None) -> tuple[int, int]:
    """(replies, bytes) queued since ``since`` to addresses that had not signed on: to
    ``address`` alone, or to all of them."""
    query = ("select count(*), coalesce(sum(length(raw)), 0) from outbox "
             "where stranger = 1 and kind = 'reply' and created >= ?")
    args: list = [since]
    if address is not None:
        query += " and instr(recipients, ?) > 0"
        args.append(f'"{address}"')
    count, size = ctx.db.execute(query, args).fetchone()
    return count, size
