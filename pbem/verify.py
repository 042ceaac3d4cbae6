"""``pbem verify GAME``: re-run every stored phase from its snapshot, its
orders and its dice, and report any difference; once the seed is revealed,
check it against the hash published when the game started."""
from __future__ import annotations

from dataclasses import dataclass, field

from . import store
from .context import Context
from .db import dumps, loads
from .dice import SeededDice, commitment
from .engine import resolve_one
from .gameapi import Order


@dataclass
class Report:
    game: str
    phases: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(ctx: Context, name: str) -> Report:
    rec = store.get_game(ctx, name)
    report = Report(rec.name)
    game, seed = rec.rules, rec.row["seed"]
    if not seed:
        report.problems.append("the game has not started: nothing to verify")
        return report
    if commitment(seed) != rec.row["seed_hash"]:
        report.problems.append("the seed does not match the hash published at the start")
    # State edits between phases (GM edits, treaty records) break the chain
    # legitimately; they are in the GM log for everyone to see.
    edited = _edited(ctx, rec.name)
    previous_after = None
    for snap in ctx.db["snapshots"].rows_where("game = ? and rolled_back = 0", [rec.name], order_by="seq"):
        report.phases += 1
        before = loads(snap["before"])
        if previous_after is not None and not edited and dumps(before) != dumps(previous_after):
            report.problems.append(f"{snap['label']}: its starting state is not where the previous phase ended")
        orders = {p: [Order.from_json(o) for o in os] for p, os in loads(snap["orders"], {}).items()}
        dice = SeededDice(seed=seed, context=f"{rec.name}:{snap['phase_key']}")
        step = resolve_one(game, before, orders, dice)
        if dumps(step.after) != snap["after"]:
            report.problems.append(f"{snap['label']}: replaying it gives a different result than the one stored")
        if dumps(step.events) != snap["events"]:
            report.problems.append(f"{snap['label']}: replaying it gives different events")
        if dumps(step.dice) != snap["dice"]:
            report.problems.append(f"{snap['label']}: the stored dice are not the ones the seed gives")
        previous_after = loads(snap["after"])
    if previous_after is not None and not edited and dumps(previous_after) != dumps(rec.state):
        report.problems.append("the game's current state is not where its last phase ended")
    return report


def _edited(ctx: Context, game: str) -> bool:
    return bool(ctx.db["gm_log"].count_where(
        "game = ? and action in ('state edit', 'ruling', 'rollback', 'treaty record')", [game]))
