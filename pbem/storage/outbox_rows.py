"""Outgoing mail as stored (the ``outbox`` table): each mail queued with its fixed
Message-ID, its recipients, its tries and its end (sent or given up).

:mod:`pbem.outbound.outbox` decides when a mail is queued, tried, sent or given up; this
module is how that is written, so "nothing is lost" rests on a few named writes.  Nothing
here commits: every write joins the caller's transaction.

A report is kept packed (:mod:`pbem.storage.packed_mail`): its inline parts once for every
mail that shows them (``outbox_parts``), the rest compressed.  Every row read here carries
the whole mail in ``raw``, as built; :func:`mail_bytes` gives it for a row read elsewhere.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from pbem.base.context import Context
from pbem.storage import packed_mail
from pbem.storage.db import insert_row, set_fields, synced_later
from pbem.storage.values import dumps, loads


def mail_bytes(ctx: Context, row: dict) -> bytes:
    """The whole mail of an outbox row as it was built (a packed one put together again)."""
    stored = row["raw"]
    if not packed_mail.is_packed(stored):
        return stored
    return packed_mail.unpack(stored, loads(row.get("parts"), []), lambda key: _part(ctx, key))


def _part(ctx: Context, key: str) -> bytes:
    found = ctx.db.execute("select data from outbox_parts where digest = ?", [key]).fetchone()
    if found is None:
        raise LookupError(f"the outbox has lost the inline part {key}")
    return found[0]


def _whole(ctx: Context, rows: Iterable[dict]) -> list[dict]:
    return [dict(r, raw=mail_bytes(ctx, r)) if "raw" in r else r for r in rows]


def by_id(ctx: Context, row_id: int) -> dict | None:
    return next(iter(_whole(ctx, ctx.db["outbox"].rows_where("id = ?", [row_id]))), None)


def listing(ctx: Context, *, with_sent: bool) -> list[dict]:
    """Every kept mail but those sent (or all, ``with_sent``), for `pbem outbox list`."""
    return list(ctx.db["outbox"].rows_where("1 = 1" if with_sent else "status != 'sent'", order_by="id", select=(
        "id, status, attempts, created, next_try, kind, game, recipients, stranger, last_error")))


def waiting(ctx: Context, *, with_failed: bool) -> list[dict]:
    """Mail still queued (and given up, ``with_failed``), oldest first."""
    return _whole(ctx, ctx.db["outbox"].rows_where(
        "status = 'queued'" + (" or status = 'failed'" if with_failed else ""), order_by="id"))


def has_message_id(ctx: Context, message_id: str) -> bool:
    """Whether a mail with this Message-ID was queued (and is still kept)."""
    return ctx.db.execute("select 1 from outbox where message_id = ? limit 1", [message_id]).fetchone() is not None


def by_message_id(ctx: Context, message_id: str) -> dict | None:
    return next(iter(_whole(ctx, ctx.db["outbox"].rows_where("message_id = ?", [message_id]))), None)


def add(ctx: Context, fields: dict, *, pack: bool = False, inline: Sequence[bytes] = ()) -> None:
    """Queue one mail (its row as the outbox writes it).  ``pack``: keep it packed, each of
    the ``inline`` parts' bytes once for all mails (a report and its map)."""
    if pack:
        stored, where, parts = packed_mail.pack(fields["raw"], inline)
        for key, data in parts.items():
            ctx.db.execute("insert or ignore into outbox_parts (digest, data) values (?, ?)", [key, data])
        fields = dict(fields, raw=stored, parts=dumps(where) if where else None)
    insert_row(ctx.db, "outbox", fields)


def due(ctx: Context, now: str, *, after: int, limit: int) -> list[dict]:
    """Queued mail whose next try is at or before ``now``, from row ``after`` on, oldest first."""
    return _whole(ctx, ctx.db["outbox"].rows_where(
        "status = 'queued' and next_try <= ? and id > ?", [now, after], order_by="id", limit=limit))


def next_due(ctx: Context, now: str) -> str | None:
    """When the next queued mail that is not due yet falls due (a retry, grey press held for
    its quarter hour), or None."""
    row = ctx.db.execute("select min(next_try) from outbox where status = 'queued' and next_try > ?",
                         [now]).fetchone()
    return row[0] if row else None


def mark_sent(ctx: Context, row_id: int, fields: dict) -> None:
    """Mark one mail sent (``fields``: its status, tries, time, masked copy), not waited
    for on the disk (:func:`pbem.storage.db.synced_later`): lost at a power cut, the
    mail would go out again under its own Message-ID, as after a crash between sending
    and marking."""
    with synced_later(ctx.db):
        update(ctx, row_id, fields)


def update(ctx: Context, row_id: int, fields: dict) -> None:
    if "raw" in fields:  # a whole mail written again (masked): kept as it is given
        fields = dict(fields, parts=None)
    set_fields(ctx.db, "outbox", row_id, fields)


def forget_finished_before(ctx: Context, before: str) -> int:
    """Delete mail sent or given up before ``before``, and the inline parts no mail kept
    shows any more; how many mails were deleted."""
    forgotten = ctx.db.execute("delete from outbox where status in ('sent', 'failed') and created < ?",
                               [before]).rowcount
    if forgotten:
        ctx.db.execute("delete from outbox_parts where digest not in (select json_extract(p.value, '$[1]') "
                       "from outbox, json_each(outbox.parts) as p where outbox.parts is not null)")
    return forgotten


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
