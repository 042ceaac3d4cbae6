"""``pbem verify GAME``: re-run every stored step — each phase from its
snapshot, its orders and its dice, each typed input (treaty action, ruling,
GM edit) likewise — and report any difference; check the seed against the
hash published when the game started."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import store
from .context import Context
from .db import dumps, loads
from .dice import SeededDice, commitment
from .engine import apply_one, resolve_one
from .gameapi import Order, Refused, input_from_json
from .turns import input_dice


@dataclass
class Report:
    game: str
    phases: int = 0      # every replayed step: phases and inputs
    inputs: int = 0      # of which treaty actions, rulings and GM edits
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(ctx: Context, name: str) -> Report:
    """Replay every snapshot — each resolved phase and each typed input
    (treaty actions, rulings, GM edits) — and check that each starts where
    the previous one ended and that the game stands where the last one ended."""
    rec = store.get_game(ctx, name)
    report = Report(rec.name)
    game, seed = rec.rules, rec.row["seed"]
    if not seed:
        report.problems.append("the game has not started: nothing to verify")
        return report
    if commitment(seed) != rec.row["seed_hash"]:
        report.problems.append("the seed does not match the hash published at the start")
    previous_after = None
    for snap in ctx.db["snapshots"].rows_where("game = ? and rolled_back = 0", [rec.name], order_by="seq"):
        report.phases += 1
        report.inputs += snap["kind"] == "input"
        before = loads(snap["before"])
        if previous_after is not None and dumps(before) != previous_after:
            report.problems.append(f"{snap['label']}: its starting state is not where the previous step ended")
        try:
            step = _replay(game, rec.name, seed, snap, before)
        except Refused as exc:
            report.problems.append(f"{snap['label']}: replaying it was refused: {exc}")
            previous_after = snap["after"]
            continue
        if dumps(step.after) != snap["after"]:
            report.problems.append(f"{snap['label']}: replaying it gives a different result than the one stored")
        if dumps(step.events) != snap["events"]:
            report.problems.append(f"{snap['label']}: replaying it gives different events")
        if dumps(step.dice) != snap["dice"]:
            report.problems.append(f"{snap['label']}: the stored dice are not the ones the seed gives")
        previous_after = snap["after"]
    if previous_after is not None and previous_after != dumps(rec.state):
        report.problems.append("the game's current state is not where its last step ended")
    return report


def _replay(game, name: str, seed: str, snap: dict, before: dict):
    if snap["kind"] == "input":
        inp = input_from_json(loads(snap["input"]))
        return apply_one(game, before, inp, input_dice(seed, name, snap["seq"]))
    orders = {p: [Order.from_json(o) for o in os] for p, os in loads(snap["orders"], {}).items()}
    return resolve_one(game, before, orders, SeededDice(seed=seed, context=f"{name}:{snap['phase_key']}"))
