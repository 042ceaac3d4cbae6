"""``pbem verify GAME``: re-run every stored step — each phase from its
snapshot, its orders and its dice, each typed input (treaty action, ruling,
GM edit) likewise — and report any difference; check the seed against the
hash published when the game started.

Each snapshot records the version of the rules that made it.  A step made by
the rules of this installation must replay exactly: a difference there is a
damaged or tampered record (or a rules change that forgot to raise the
version).  A step made by another version of the rules may replay
differently because the rules changed since; such steps are named with the
version that made them, apart from the real differences, and do not fail the
check: the game goes on from what was stored (its chain of states and its
dice are still checked)."""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.base.context import Context
from pbem.kit.dice import SeededDice, commitment
from pbem.kit.engine import apply_one, resolve_one
from pbem.kit.gameapi import Order, Refused, input_from_json
from pbem.play.turns import input_dice, rules_version
from pbem.storage import snapshots, store
from pbem.storage.db import dumps, loads

UNRECORDED = "an earlier version (before versions were recorded)"


@dataclass
class Report:
    game: str
    phases: int = 0      # every replayed step: phases and inputs
    inputs: int = 0      # of which treaty actions, rulings and GM edits
    problems: list[str] = field(default_factory=list)
    version: str = ""    # the rules version of this installation
    #: steps made by another rules version that replay differently: version -> labels
    changed: dict[str, list[str]] = field(default_factory=dict)
    other_version: int = 0   # steps made by another rules version (identical or not)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """What `pbem verify` prints: every difference, then the summary."""
        out = [f"DIFFERENT: {problem}" for problem in self.problems]
        for made_by, labels in self.changed.items():
            out.append(f"RULES CHANGED: {len(labels)} step(s) made by {made_by} give another result "
                       f"under {self.version}: {', '.join(labels)}")
        inputs = f" and {self.inputs} treaty actions, rulings and GM edits" if self.inputs else ""
        changed = sum(len(v) for v in self.changed.values())
        verdict = "all identical" if self.ok and not changed else (
            f"{len(self.problems)} differences" if self.problems else "no difference under the rules "
            "that made them")
        out.append(f"{self.game}: {self.phases - self.inputs} phases{inputs} re-run, {verdict}")
        if changed:
            out.append(f"{changed} step(s) were made by rules that have changed since; the game goes on "
                       "from their stored results, which start where the step before ended")
        return out


def verify(ctx: Context, name: str) -> Report:
    """Replay every snapshot — each resolved phase and each typed input
    (treaty actions, rulings, GM edits) — and check that each starts where
    the previous one ended and that the game stands where the last one ended."""
    rec = store.get_game(ctx, name)
    report = Report(rec.name, version=rules_version(rec.rules))
    game, seed = rec.rules, rec.row["seed"]
    if not seed:
        report.problems.append("the game has not started: nothing to verify")
        return report
    if commitment(seed) != rec.row["seed_hash"]:
        report.problems.append("the seed does not match the hash published at the start")
    previous_after = None
    for snap in snapshots.standing(ctx, rec.name):
        report.phases += 1
        report.inputs += snap["kind"] == "input"
        made_by = snap.get("rules_version") or UNRECORDED
        report.other_version += made_by != report.version
        before = loads(snap["before"])
        if previous_after is not None and dumps(before) != previous_after:
            report.problems.append(f"{snap['label']}: its starting state is not where the previous step ended")
        previous_after = snap["after"]
        found = _differences(game, rec.name, seed, snap, before)
        if not found:
            continue
        if made_by != report.version:
            report.changed.setdefault(made_by, []).append(snap["label"])
        else:
            report.problems.extend(f"{snap['label']}: {what}" for what in found)
    if previous_after is not None and previous_after != dumps(rec.state):
        report.problems.append("the game's current state is not where its last step ended")
    return report


def _differences(game, name: str, seed: str, snap: dict, before: dict) -> list[str]:
    try:
        step = _replay(game, name, seed, snap, before)
    except Refused as exc:
        return [f"replaying it was refused: {exc}"]
    found = []
    if dumps(step.after) != snap["after"]:
        found.append("replaying it gives a different result than the one stored")
    if dumps(step.events) != snap["events"]:
        found.append("replaying it gives different events")
    if dumps(step.dice) != snap["dice"]:
        found.append("the stored dice are not the ones the seed gives")
    return found


def _replay(game, name: str, seed: str, snap: dict, before: dict):
    if snap["kind"] == "input":
        inp = input_from_json(loads(snap["input"]))
        return apply_one(game, before, inp, input_dice(seed, name, snap["seq"]))
    orders = {p: [Order.from_json(o) for o in os] for p, os in loads(snap["orders"], {}).items()}
    return resolve_one(game, before, orders, SeededDice(seed=seed, context=f"{name}:{snap['phase_key']}"))
