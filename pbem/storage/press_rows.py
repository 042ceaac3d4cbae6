"""Press as stored (the ``press`` table): every message between powers, with its sender (kept
even for grey press, which no reader is shown), recipients, phase and audience.

The audience is stored with each row so that the dossier and the archive show a press only to
whom it was for; :mod:`pbem.handlers.player` decides that audience.
"""
from __future__ import annotations

from pbem.base.context import Context


def add(ctx: Context, fields: dict) -> None:
    """Keep one press message (inside the caller's transaction)."""
    ctx.db["press"].insert(fields)


def of_game(ctx: Context, game: str) -> list[dict]:
    """Every press message of ``game``, oldest first (each reader's view filters it by audience)."""
    return list(ctx.db["press"].rows_where("game = ?", [game], order_by="id"))
