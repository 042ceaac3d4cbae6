"""Every inbound mail as stored (the ``messages`` table): its verbatim copy, its status, the
tries at handling it and their outcome.

The intake, the quarantine and the daemon decide what happens to a mail; this module is how
they read and write its row, so the promise "stored before it is acted on" rests on a few
named writes instead of SQL spread over the mail path.  Every function runs inside the
caller's transaction: none commits.
"""
from __future__ import annotations

from pbem.base.context import Context
from pbem.storage.db import set_fields

_CHUNK = 500  # keys per query: well under SQLite's limit on bound parameters


def store_new(ctx: Context, source_key: str, received: str, raw: bytes) -> int | None:
    """Store a mail as it came, status "new"; None when this very copy (same source key)
    was stored before."""
    if ctx.db["messages"].count_where("source_key = ?", [source_key]):
        return None
    return ctx.db["messages"].insert({
        "source_key": source_key, "message_id": None, "sender": None, "subject": None,
        "received": received, "raw": raw, "status": "new",
    }).last_pk


def store_handled_here(ctx: Context, fields: dict) -> int:
    """Keep a mail made on this host (the GM console's commands) as if it had come in, status
    "new" until its commands have run; its row id."""
    return ctx.db["messages"].insert({**fields, "status": "new"}).last_pk


def pending_ids(ctx: Context) -> list[int]:
    """The mail still to be handled, oldest first."""
    return [r["id"] for r in ctx.db["messages"].rows_where("status = 'new'", order_by="id", select="id")]


def tried(ctx: Context, ids: list[int]) -> set[int]:
    """Those of *ids* with a try counted already."""
    found: set[int] = set()
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        found.update(r["id"] for r in ctx.db.query(
            f"SELECT id FROM messages WHERE attempts > 0 AND id IN ({marks})", chunk))
    return found


def get(ctx: Context, msg_id: int) -> dict:
    """The whole row of a mail (raises LookupError when there is none)."""
    row = next(ctx.db.query("select * from messages where id = ?", [msg_id]), None)
    if row is None:
        raise LookupError(f"no stored mail {msg_id}")
    return row


def new_raws(ctx: Context, ids: list[int]) -> dict[int, bytes]:
    """The stored copies of those of these mails not handled yet."""
    marks = ",".join("?" * len(ids))
    return {row["id"]: row["raw"] for row in ctx.db.query(
        f"select id, raw from messages where id in ({marks}) and status = 'new'", list(ids))}


def find(ctx: Context, msg_id: int) -> dict | None:
    """The whole row of a mail, or None."""
    return next(ctx.db["messages"].rows_where("id = ?", [msg_id]), None)


def update(ctx: Context, msg_id: int, fields: dict) -> None:
    set_fields(ctx.db, "messages", msg_id, fields)


def seen_before(ctx: Context, message_id: str, sender: str, but_not: int) -> bool:
    """Whether this sender's mail with this Message-ID was handled already (another row)."""
    return bool(ctx.db["messages"].count_where(
        "message_id = ? and id != ? and status != 'new' and sender = ?", [message_id, but_not, sender]))


def same_text_without_commands(ctx: Context, sender: str, body_hash: str, but_not: int, since: str) -> bool:
    """Whether the sender sent a mail of this text since ``since`` and it held no command."""
    return bool(ctx.db["messages"].count_where(
        "sender = ? and body_hash = ? and id != ? and received >= ? and outcome = 'no commands'",
        [sender, body_hash, but_not, since]))


def who_and_outcome(ctx: Context, msg_id: int) -> dict:
    """Game, power and outcome of a handled mail, for the one log line about it; {} when none."""
    return next(ctx.db["messages"].rows_where("id = ?", [msg_id], select="game, power, outcome"), None) or {}


def ids_by_source_key(ctx: Context, keys: list[str]) -> dict[str, dict]:
    """{source key: {"id", "source_key"}} of the stored copies among ``keys``."""
    rows: dict[str, dict] = {}
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start:start + _CHUNK]
        rows.update((r["source_key"], r) for r in ctx.db["messages"].rows_where(
            f"source_key in ({', '.join('?' * len(chunk))})", chunk, select="id, source_key"))
    return rows


def status_and_copy(ctx: Context, source_key: str) -> dict | None:
    """Status and stored (masked) copy of the mail fetched under ``source_key``, or None."""
    return next(ctx.db["messages"].rows_where("source_key = ?", [source_key], select="status, raw"), None)


def counts(ctx: Context) -> tuple[int, int]:
    """(mail waiting to be handled, mail set aside), for `pbem status`."""
    count = ctx.db["messages"].count_where
    return count("status = 'new'"), count("status = 'quarantined'")


def quarantined(ctx: Context) -> list[dict]:
    """The mail set aside, for ``pbem quarantine list``."""
    return list(ctx.db["messages"].rows_where("status = 'quarantined'", order_by="id",
                                              select="id, received, sender, subject, attempts, outcome"))
