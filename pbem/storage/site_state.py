"""Facts about the whole site kept between runs (the ``site_state`` table), one JSON value
per key: e.g. the hold on sending while the SMTP server refuses the session
(:mod:`pbem.outbound.sendhold`), so that a restart neither forgets it nor hammers the server.
"""
from __future__ import annotations

from pbem.base.context import Context


def value(ctx: Context, key: str) -> str | None:
    """The stored text under ``key``, or None."""
    row = next(ctx.db["site_state"].rows_where("key = ?", [key]), None)
    return row["value"] if row else None


def put(ctx: Context, key: str, text: str, updated: str) -> None:
    ctx.db["site_state"].upsert({"key": key, "value": text, "updated": updated}, pk="key")


def drop(ctx: Context, key: str) -> None:
    ctx.db["site_state"].delete_where("key = ?", [key])
