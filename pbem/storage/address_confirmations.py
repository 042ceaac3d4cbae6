"""Addresses waiting to be confirmed (the ``address_confirmations`` table): each token mailed
to a new address (SET ADDRESS) or to someone asking for a seat (JOIN), and whether it was
answered, replaced by a later request, or is still pending.

Only a token's hash is kept; :mod:`pbem.handlers.addresses` decides what an answer does.
"""
from __future__ import annotations

from pbem.base.context import Context


def add_pending(ctx: Context, fields: dict) -> None:
    """Keep one token mailed out, as pending."""
    ctx.db["address_confirmations"].insert({**fields, "status": "pending"})


def replace_pending(ctx: Context, game: str, power: str, address: str | None = None) -> None:
    """Void the power's pending tokens (only those mailed to ``address``, when given):
    a later request replaces them."""
    where, args = "game = ? and power = ? and status = 'pending'", [game, power]
    if address is not None:
        where, args = "game = ? and power = ? and address = ? and status = 'pending'", [game, power, address]
    ctx.db.execute(f"update address_confirmations set status = 'replaced' where {where}", args)


def pending_with(ctx: Context, token_hash: str) -> dict | None:
    """The pending request whose token has this hash, or None."""
    return next(ctx.db["address_confirmations"].rows_where(
        "token_hash = ? and status = 'pending'", [token_hash]), None)


def set_status(ctx: Context, row_id: int, status: str) -> None:
    """End one request: "confirmed" or "replaced"."""
    ctx.db["address_confirmations"].update(row_id, {"status": status})
