"""Starting games, keeping each phase's orders, and running phases.

Running a phase is one transaction: the game's pure rules resolve it (via
:func:`pbem.kit.engine.run_phases`) with dice derived from the game's secret seed
and the phase's key; every resolved phase becomes a snapshot with its orders,
dice and events; each power's report and the public report are queued.
"""
from __future__ import annotations

import logging
from datetime import datetime

from pbem.base.context import Context
from pbem.base.crashpoints import reached
from pbem.base.deadlines import next_deadline
from pbem.kit.audience import public
from pbem.kit.dice import SeededDice, commitment, new_seed
from pbem.kit.engine import Step, apply_one, run_phases
from pbem.kit.gameapi import Edit, GMError, Input, Order, PhaseInfo, input_to_json
from pbem.outbound.outbox import queue
from pbem.reporting import render, reports
from pbem.storage import phase_orders, snapshots, store
from pbem.storage.db import atomic, dumps, loads, utcnow_iso

log = logging.getLogger(__name__)


def dice_for(seed: str, game: str):
    return lambda phase: SeededDice(seed=seed, context=f"{game}:{phase.key}")


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
    store.update_game(ctx, name, status="active", state=state, seed=seed, seed_hash=commitment(seed),
                      token_key=new_seed())
    store.gm_log(ctx, name, "GM", "start", f"seed commitment sha256={commitment(seed)}", seen_by=public())
    return _enter_phase(ctx, store.get_game(ctx, name))


def _enter_phase(ctx: Context, rec: store.GameRecord) -> store.GameRecord:
    """The game stands at a new phase: its key, and the deadline of its order
    window (none when it takes no orders or the game is over)."""
    phase = rec.rules.phase(rec.state)
    over = rec.rules.is_over(rec.state)
    deadline = None if over or not phase.open else next_deadline(rec.policy_for(phase), ctx.now())
    store.update_game(ctx, rec.name, phase_key=phase.key, deadline=utcnow_iso(deadline) if deadline else None,
                      warnings_sent=[], extensions=[], process_requested=0, hold_early=0,
                      phase_opened=utcnow_iso(ctx.now()))
    return store.get_game(ctx, rec.name)


# -- running ---------------------------------------------------------------

def _orders_with_defaults(ctx: Context, rec: store.GameRecord) -> tuple[dict, list[str]]:
    """The stored orders, grouped by the power each order is for (a player
    may write orders for a power it runs, e.g. Germany for Austria-Hungary),
    plus the game's defaults for every owing power that sent nothing at all
    (neither orders nor DONE)."""
    state, game = rec.state, rec.rules
    phase = game.phase(state)
    rows = {row["power"]: row for row in phase_orders.current_rows(ctx, rec.name, phase.key)}
    missing = [p for p in phase.owes if p not in rows]
    orders: dict[str, list[Order]] = {}
    for power, row in rows.items():
        if not phase.takes_orders_from(power):
            continue  # stored while the power was owing in a phase since rolled over
        for order in (Order.from_json(o) for o in loads(row["orders"], [])):
            orders.setdefault(order.power or power, []).append(order)
    for power in missing:
        for order in game.defaults(state, power):
            orders.setdefault(order.power or power, []).append(order)
    return orders, missing


def rules_version(game) -> str:
    """The version of a game's rules as snapshots record it: the game's own
    ``rules_version``, else pbem's version."""
    from pbem import __version__

    return f"{game.name} {game.rules_version}" if game.rules_version else f"{game.name} (pbem {__version__})"


def _record(ctx: Context, rec: store.GameRecord, seq: int, step: Step) -> None:
    kind = "input" if step.input is not None else "phase"
    label = (unique_label(ctx, rec.name, step.phase) if kind == "phase"
             else f"{step.phase.label}: {describe_input(step.input)}")
    snapshots.record(ctx, rec.name, seq, step.phase.key, {
        "label": label, "kind": kind, "before": dumps(step.before),
        "orders": dumps({p: [o.to_json() for o in os] for p, os in step.orders.items()}),
        "input": dumps(input_to_json(step.input)) if step.input is not None else None,
        "after": dumps(step.after), "events": dumps(step.events), "dice": dumps(step.dice),
        "created": utcnow_iso(ctx.now()), "rolled_back": 0, "rules_version": rules_version(rec.rules),
    }, step.events, step.dice)


def unique_label(ctx: Context, name: str, phase: PhaseInfo) -> str:
    """The phase's label as its snapshot keeps it: HISTORY lists every phase under its own
    label, so a game's label that an earlier phase of another key already has (a phase the
    game repeats under one name) is numbered: "1884 War: Alliance Determination (2)"."""
    label = phase.label or phase.key
    taken = {t.lower() for t in snapshots.phase_labels(ctx, name, other_than=phase.key)}
    number, unique = 1, label
    while unique.lower() in taken:
        number += 1
        unique = f"{label} ({number})"
    return unique


def describe_input(inp: Input) -> str:
    data = input_to_json(inp)
    if data["type"] == "edit":
        return f"GM edit {inp.text}"
    if data["type"] == "ruling":
        return f"GM ruling on {inp.question}"
    return f"treaty {inp.treaty} {inp.action} by {inp.power}"


def input_dice(seed: str, game: str, seq: int) -> SeededDice:
    """The dice of a typed input: derived from the seed and the input's place."""
    return SeededDice(seed=seed or "", context=f"{game}:input:{seq}")


def apply_input(ctx: Context, name: str, inp: Input) -> list[dict]:
    """Apply a treaty action, ruling or GM edit to a running game, as one
    snapshot: replayable by ``pbem verify`` like any phase.  Raises
    :class:`~pbem.kit.gameapi.Refused` (nothing is stored) when the game refuses.
    The caller holds the transaction."""
    rec = store.get_game(ctx, name)
    if rec.state is None:
        raise ValueError(f"game {name} has not started")
    seq = rec.row["seq"] + 1
    step = apply_one(rec.rules, rec.state, inp, input_dice(rec.row["seed"], rec.name, seq))
    if isinstance(inp, Edit) and step.after == rec.state:
        # An edit the game took but that left it as it stood: said so, and nothing stored, so
        # the GM never reads "applied" of a no-op (a misread power, a figure already so).
        raise GMError(f"{inp.text}: this changes nothing (the game already stands so)", "no-change")
    _record(ctx, rec, seq, step)
    store.update_game(ctx, name, state=step.after, seq=seq)
    rec = store.get_game(ctx, name)
    if rec.rules.phase(rec.state).key != rec.row["phase_key"]:
        _enter_phase(ctx, rec)  # an input that settled the phase's question moved the game on
    return step.events


def run_phase(ctx: Context, name: str, *, reason: str = "deadline") -> list[Step]:
    """Resolve the current phase (and the phases after it that take no orders)."""
    with atomic(ctx.db):
        rec = store.get_game(ctx, name)
        if rec.status != "active":
            raise ValueError(f"game {name} is {rec.status}, not active")
        game = rec.rules
        orders, missing = _orders_with_defaults(ctx, rec)
        missed = {p: game.describe_defaults(rec.state, p) for p in missing}
        steps = run_phases(game, rec.state, orders, dice_for(rec.row["seed"], name))
        seq = rec.row["seq"]
        for step in steps:
            seq += 1
            _record(ctx, rec, seq, step)
        after = steps[-1].after
        over = game.is_over(after)
        store.update_game(ctx, name, state=after, seq=seq, status="over" if over else "active",
                          seed_revealed=1 if over else rec.row["seed_revealed"])
        new = _enter_phase(ctx, store.get_game(ctx, name))
        _flag_missing(ctx, rec, missing, steps[0].phase)
        store.gm_log(ctx, name, "moderator", "process",
                     f"{steps[0].phase.label} resolved ({reason}); defaults for: {', '.join(missing) or 'none'}",
                     seen_by=public())
        reports.queue_reports(ctx, new, steps, new.deadline, missed)
        reached("turns.before_commit")
    reached("turns.after_commit")
    for number, step in enumerate(steps):
        log.info("%s: %s resolved (%s)", name, step.phase.label, reason if number == 0 else "no orders due")
    return steps


def _flag_missing(ctx: Context, rec: store.GameRecord, missing: list[str], phase: PhaseInfo) -> None:
    limit, label = rec.policy.missed_before_replacement, phase.label
    for row in store.players(ctx, rec.name):
        if row["power"] not in phase.owes:
            continue
        if row["power"] in missing:
            if _absent(row, ctx.now()):
                continue
            missed = row["missed"] + 1
            store.update_player(ctx, row["id"], missed=missed)
            store.gm_log(ctx, rec.name, "moderator", "missed", f"{row['power']} sent no orders for {label}",
                         seen_by=public())
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
    # The engine proves the game leaves the state it is given alone: no copy needed.
    return run_phases(rec.rules, rec.state, orders, dice_for(rec.row["seed"], name))


def rollback(ctx: Context, name: str, phase_key: str) -> store.GameRecord:
    """Put the game back to the start of ``phase_key`` (its latest resolution).
    Later snapshots (phases and inputs) are kept but marked rolled back.  The
    orders of the rolled-back phases are withdrawn (kept in the history), so
    the phase does not simply run again at once: players resend, or the GM
    edits the state first.  A re-run draws the same dice, since dice follow
    the seed and the phase key — a rollback can never be used to re-roll."""
    with atomic(ctx.db):
        snap = snapshots.latest_resolution(ctx, name, phase_key)
        if snap is None:
            raise ValueError(f"no resolved phase {phase_key!r} in game {name}")
        for key in snapshots.roll_back_from(ctx, name, snap["seq"]):
            phase_orders.withdraw_phase(ctx, name, key)
        store.update_game(ctx, name, state=loads(snap["before"]), status="active")
        store.gm_log(ctx, name, "GM", "rollback", f"back to the start of {snap['label']}", seen_by=public())
        return _enter_phase(ctx, store.get_game(ctx, name))
