"""The orders of each phase and the history of resolved phases, as stored:
what a power sent, whether it is done, who the phase still waits for.

Kept apart from :mod:`pbem.play.turns` (which runs phases and queues reports) so
that reports, the dossier and the archive read orders and history without
reaching back into the part that runs phases.
"""
from __future__ import annotations

from pbem.base.context import Context
from pbem.kit.gameapi import DONE_ON_ORDERS, Order, PhaseInfo
from pbem.storage import snapshots, store
from pbem.storage.db import dumps, insert_row, loads, utcnow_iso


def store_orders(ctx: Context, game: str, phase_key: str, power: str, orders: list[Order],
                 text: str, message: int | None, refused: int = 0) -> None:
    """A new set replaces the power's earlier set for the phase (a DONE
    already sent stands).  An empty set is never stored: a mail whose every
    order was refused leaves the earlier orders as they were.  ``refused``:
    how many lines of the mail were refused (see :func:`answered`)."""
    if not orders:
        raise ValueError("an empty set of orders is not stored")
    done = _current_row(ctx, game, phase_key, power)
    ctx.db.execute("update orders set current = 0 where game = ? and phase_key = ? and power = ?",
                   [game, phase_key, power])
    insert_row(ctx.db, "orders", {"game": game, "phase_key": phase_key, "power": power,
                                  "orders": dumps([o.to_json() for o in orders]), "text": text,
                                  "submitted": utcnow_iso(ctx.now()), "message": message, "current": 1,
                                  "done": int(bool(done and done["done"])), "refused": refused})


def mark_done(ctx: Context, game: str, phase_key: str, power: str, message: int | None) -> None:
    """``DONE``: nothing more from this power this phase (its orders, if any, stand)."""
    row = _current_row(ctx, game, phase_key, power)
    if row:
        ctx.db["orders"].update(row["id"], {"done": 1})
        return
    ctx.db["orders"].insert({"game": game, "phase_key": phase_key, "power": power, "orders": "[]",
                             "text": "DONE", "submitted": utcnow_iso(ctx.now()), "message": message,
                             "current": 1, "done": 1})


def _current_row(ctx: Context, game: str, phase_key: str, power: str) -> dict | None:
    return next(ctx.db.query("select * from orders where game = ? and phase_key = ? and power = ? "
                             "and current = 1 order by id desc limit 1", [game, phase_key, power]), None)


def clear_orders(ctx: Context, game: str, phase_key: str, power: str) -> None:
    ctx.db.execute("update orders set current = 0 where game = ? and phase_key = ? and power = ?",
                   [game, phase_key, power])


def withdraw_phase(ctx: Context, game: str, phase_key: str) -> None:
    """Every power's orders for the phase cease to be current (they stay in the history)."""
    ctx.db.execute("update orders set current = 0 where game = ? and phase_key = ?", [game, phase_key])


def current_orders(ctx: Context, game: str, phase_key: str) -> dict[str, list[Order]]:
    """The orders stored for the phase, by the power that sent them."""
    return {row["power"]: [Order.from_json(o) for o in loads(row["orders"], [])]
            for row in current_rows(ctx, game, phase_key)}


def current_rows(ctx: Context, game: str, phase_key: str) -> list[dict]:
    return list(ctx.db.query("select * from orders where game = ? and phase_key = ? and current = 1 "
                             "order by id", [game, phase_key]))


def answered(ctx: Context, rec: store.GameRecord, phase: PhaseInfo) -> set[str]:
    """Powers that are done with the phase: they sent DONE, or (where orders
    suffice) have accepted orders stored from a mail none of whose lines was
    refused: a player whose typo was refused is not taken as finished before
    the deadline (their orders still stand at it)."""
    done = set()
    for row in current_rows(ctx, rec.name, phase.key):
        if row["done"] or (phase.done == DONE_ON_ORDERS and loads(row["orders"], []) and not row["refused"]):
            done.add(row["power"])
    return done


def waiting_for(ctx: Context, rec: store.GameRecord) -> list[str]:
    """Powers that owe an answer this phase and are not done (never what others sent)."""
    if rec.status not in ("active", "paused") or rec.row["state"] is None:
        return []
    phase = rec.phase
    done = answered(ctx, rec, phase)
    return [p for p in phase.owes if p not in done]


def history(ctx: Context, name: str) -> list[dict]:
    """The resolved phases (not the inputs between them), oldest first."""
    return list(snapshots.rows(ctx.db["snapshots"].rows_where(
        "game = ? and rolled_back = 0 and kind = 'phase'", [name], order_by="seq")))


def history_between(ctx: Context, name: str, after: int, before: int) -> list[dict]:
    """The resolved phases with ``after < seq < before``, oldest first."""
    return list(snapshots.rows(ctx.db["snapshots"].rows_where(
        "game = ? and rolled_back = 0 and kind = 'phase' and seq > ? and seq < ?", [name, after, before],
        order_by="seq")))
