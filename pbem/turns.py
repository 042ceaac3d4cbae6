"""Starting games, keeping each phase's orders, and running phases.

Running a phase is one transaction: the game's pure rules resolve it (via
:func:`pbem.engine.run_phases`) with dice derived from the game's secret seed
and the phase's key; every resolved phase becomes a snapshot with its orders,
dice and events; each power's report and the public report are queued.
"""
from __future__ import annotations

import copy
import logging
from datetime import datetime

from . import render, store
from .context import Context
from .crashpoints import reached
from .db import atomic, dumps, loads, utcnow_iso
from .deadlines import next_deadline
from .dice import SeededDice, commitment, new_seed
from .engine import Step, run_phases
from .gameapi import Order
from .outbox import queue

log = logging.getLogger(__name__)


def dice_for(seed: str, game: str):
    return lambda phase: SeededDice(seed=seed, context=f"{game}:{phase.key}")


# -- orders ----------------------------------------------------------------

def store_orders(ctx: Context, game: str, phase_key: str, power: str, orders: list[Order],
                 text: str, message: int | None) -> None:
    """A new set replaces the power's earlier set for the phase."""
    ctx.db.execute("update orders set current = 0 where game = ? and phase_key = ? and power = ?",
                   [game, phase_key, power])
    ctx.db["orders"].insert({"game": game, "phase_key": phase_key, "power": power,
                             "orders": dumps([o.to_json() for o in orders]), "text": text,
                             "submitted": utcnow_iso(ctx.now()), "message": message, "current": 1})


def clear_orders(ctx: Context, game: str, phase_key: str, power: str) -> None:
    ctx.db.execute("update orders set current = 0 where game = ? and phase_key = ? and power = ?",
                   [game, phase_key, power])


def current_orders(ctx: Context, game: str, phase_key: str) -> dict[str, list[Order]]:
    out: dict[str, list[Order]] = {}
    for row in ctx.db["orders"].rows_where("game = ? and phase_key = ? and current = 1",
                                           [game, phase_key], order_by="id"):
        out[row["power"]] = [Order.from_json(o) for o in loads(row["orders"], [])]
    return out


def waiting_for(ctx: Context, rec: store.GameRecord) -> list[str]:
    """Powers that owe orders this phase and have sent none (never what others sent)."""
    if rec.status != "active" or rec.state is None:
        return []
    phase = rec.rules.phase(rec.state)
    sent = set(current_orders(ctx, rec.name, phase.key))
    return [p for p in phase.owes if p not in sent]


# -- starting --------------------------------------------------------------

def start_game(ctx: Context, name: str) -> store.GameRecord:
    rec = store.get_game(ctx, name)
    game = rec.rules
    powers = [p["power"] for p in store.players(ctx, name)]
    if not game.min_players <= len(powers) <= game.max_players:
        raise ValueError(f"{game.title} needs {game.min_players}-{game.max_players} players; "
                         f"{len(powers)} have joined")
    seed = new_seed()
    dice = SeededDice(seed=seed, context=f"{name}:setup")
    state = game.setup(powers, rec.options, dice)
    phase = game.phase(state)
    deadline = next_deadline(rec.policy, ctx.now()) if phase.owes else None
    store.update_game(ctx, name, status="active", state=state, phase_key=phase.key,
                      seed=seed, seed_hash=commitment(seed),
                      deadline=utcnow_iso(deadline) if deadline else None, warnings_sent=[],
                      token_key=new_seed())
    store.gm_log(ctx, name, "GM", "start", f"seed commitment sha256={commitment(seed)}")
    return store.get_game(ctx, name)


# -- running ---------------------------------------------------------------

def _orders_with_defaults(ctx: Context, rec: store.GameRecord) -> tuple[dict, list[str]]:
    """The stored orders, grouped by the power each order is for (a player
    may write orders for a power it runs, e.g. Germany for Austria-Hungary),
    plus the game's defaults for every owing power that sent nothing."""
    state, game = rec.state, rec.rules
    phase = game.phase(state)
    submitted = current_orders(ctx, rec.name, phase.key)
    missing = [p for p in phase.owes if p not in submitted]
    orders: dict[str, list[Order]] = {}
    for power, given in submitted.items():
        for order in given:
            orders.setdefault(order.power or power, []).append(order)
    for power in missing:
        for order in game.defaults(state, power):
            orders.setdefault(order.power or power, []).append(order)
    return orders, missing


def _record_steps(ctx: Context, rec: store.GameRecord, steps: list[Step]) -> int:
    seq = rec.row["seq"]
    for step in steps:
        seq += 1
        ctx.db["snapshots"].insert({
            "game": rec.name, "seq": seq, "phase_key": step.phase.key, "label": step.phase.label,
            "before": dumps(step.before),
            "orders": dumps({p: [o.to_json() for o in os] for p, os in step.orders.items()}),
            "after": dumps(step.after), "events": dumps(step.events), "dice": dumps(step.dice),
            "created": utcnow_iso(ctx.now()), "rolled_back": 0,
        })
        ctx.db["events"].insert_all(({"game": rec.name, "seq": seq, "kind": e.get("kind", ""),
                                      "data": dumps(e)} for e in step.events))
        ctx.db["dice"].insert({"game": rec.name, "seq": seq, "phase_key": step.phase.key,
                               "rolls": dumps(step.dice)})
    return seq


def run_phase(ctx: Context, name: str, *, reason: str = "deadline") -> list[Step]:
    """Resolve the current phase (and the phases after it that owe no orders)."""
    with atomic(ctx.db):
        rec = store.get_game(ctx, name)
        if rec.status != "active":
            raise ValueError(f"game {name} is {rec.status}, not active")
        game = rec.rules
        orders, missing = _orders_with_defaults(ctx, rec)
        steps = run_phases(game, rec.state, orders, dice_for(rec.row["seed"], name))
        seq = _record_steps(ctx, rec, steps)
        after = steps[-1].after
        phase = game.phase(after)
        over = game.is_over(after)
        deadline = None if over or not phase.owes else next_deadline(rec.policy, ctx.now())
        store.update_game(ctx, name, state=after, phase_key=phase.key, seq=seq,
                          status="over" if over else "active",
                          deadline=utcnow_iso(deadline) if deadline else None,
                          warnings_sent=[], extensions=[], process_requested=0,
                          seed_revealed=1 if over else rec.row["seed_revealed"])
        _flag_missing(ctx, rec, missing, steps[0].phase.label)
        store.gm_log(ctx, name, "moderator", "process",
                     f"{steps[0].phase.label} resolved ({reason}); defaults for: {', '.join(missing) or 'none'}")
        events = [e for s in steps for e in s.events]
        render.queue_reports(ctx, store.get_game(ctx, name), steps, events, deadline)
        reached("turns.before_commit")
    reached("turns.after_commit")
    return steps


def _flag_missing(ctx: Context, rec: store.GameRecord, missing: list[str], label: str) -> None:
    limit = rec.policy.missed_before_replacement
    for row in store.players(ctx, rec.name):
        if row["power"] not in rec.rules.phase(rec.state).owes:
            continue
        if row["power"] in missing:
            if _absent(row, ctx.now()):
                continue
            missed = row["missed"] + 1
            store.update_player(ctx, row["id"], missed=missed)
            store.gm_log(ctx, rec.name, "moderator", "missed", f"{row['power']} sent no orders for {label}")
            if missed >= limit:
                queue(ctx, key=f"replace:{rec.name}:{row['power']}:{rec.row['seq']}",
                      to=[rec.row["gm_address"]], game=rec.name, kind="notice",
                      subject=f"[{rec.name}] {row['power']} missed {missed} phases in a row",
                      text=render.render("replacement_needed.txt.j2", game=rec.name, power=row["power"],
                                         missed=missed, site=ctx.site_name))
        elif row["missed"]:
            store.update_player(ctx, row["id"], missed=0)


def _absent(row: dict, now: datetime) -> bool:
    if not row["absent_from"] or not row["absent_to"]:
        return False
    day = now.date().isoformat()
    return row["absent_from"] <= day <= row["absent_to"]


def preview(ctx: Context, name: str) -> list[Step]:
    """What processing now would do, computed on a copy and stored nowhere."""
    rec = store.get_game(ctx, name)
    orders, _ = _orders_with_defaults(ctx, rec)
    return run_phases(rec.rules, copy.deepcopy(rec.state), orders, dice_for(rec.row["seed"], name))


def rollback(ctx: Context, name: str, phase_key: str) -> store.GameRecord:
    """Put the game back to the start of ``phase_key`` (its latest resolution).
    Later snapshots are kept but marked rolled back.  The orders of the
    rolled-back phases are withdrawn (kept in the history), so the phase does
    not simply run again at once: players resend, or the GM edits the state
    first.  A re-run draws the same dice, since dice follow the seed and the
    phase key — a rollback can never be used to re-roll."""
    with atomic(ctx.db):
        rec = store.get_game(ctx, name)
        rows = list(ctx.db["snapshots"].rows_where(
            "game = ? and lower(phase_key) = lower(?) and rolled_back = 0", [name, phase_key],
            order_by="seq desc", limit=1))
        if not rows:
            raise ValueError(f"no resolved phase {phase_key!r} in game {name}")
        snap = rows[0]
        keys = [r["phase_key"] for r in ctx.db["snapshots"].rows_where(
            "game = ? and seq >= ? and rolled_back = 0", [name, snap["seq"]])]
        ctx.db.execute("update snapshots set rolled_back = 1 where game = ? and seq >= ?", [name, snap["seq"]])
        for key in keys:
            ctx.db.execute("update orders set current = 0 where game = ? and phase_key = ?", [name, key])
        state = loads(snap["before"])
        phase = rec.rules.phase(state)
        deadline = next_deadline(rec.policy, ctx.now()) if phase.owes else None
        store.update_game(ctx, name, state=state, phase_key=phase.key, status="active",
                          deadline=utcnow_iso(deadline) if deadline else None, warnings_sent=[],
                          extensions=[])
        store.gm_log(ctx, name, "GM", "rollback", f"back to the start of {snap['label']}")
        return store.get_game(ctx, name)


def history(ctx: Context, name: str) -> list[dict]:
    return list(ctx.db["snapshots"].rows_where("game = ? and rolled_back = 0", [name], order_by="seq"))
