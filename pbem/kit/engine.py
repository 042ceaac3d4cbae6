"""Running phases: the one place that calls a game's ``resolve``.

Both the daemon and the scenario runner go through :func:`run_phases`, so a
phase resolves the same way in a test as in a live game.  Each resolved phase
is one :class:`Step` (the state before, the orders, the dice drawn, the events
and the state after): the daemon stores one snapshot per step, which is what
makes every phase replayable.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from pbem.kit.gameapi import Event, Game, Input, Order, PhaseInfo, State
from pbem.kit.state_copy import fingerprint


class EngineError(RuntimeError):
    """The game misbehaved (mutated its input, returned unserialisable state, looped)."""


@dataclass
class Step:
    phase: PhaseInfo
    before: State
    orders: dict[str, list[Order]]
    after: State
    events: list[Event]
    dice: list = field(default_factory=list)
    input: Input | None = None   # set for the step of a typed input (no orders then)


def _checked(game: Game, phase: PhaseInfo, state: State, before: str, after: State,
             events: list[Event], what: str) -> list[Event]:
    # The input's fingerprint, not a deep copy kept beside it: as sure (any change
    # shows, key order included) and far cheaper on a large state.
    if fingerprint(state) != before:
        raise EngineError(f"{game.name}: {what} changed its input state in phase {phase.key}")
    # Every event says who may see it (the game's catalogue gives what it did not tag) and
    # which phase produced it, so reports and the archive can group events exactly,
    # whatever phases ran between two deadlines.
    events = game.stamp(after, list(events))
    events = [e if "phase_key" in e else {**e, "phase_key": phase.key} for e in events]
    try:
        json.dumps(after)
        json.dumps(events)
    except (TypeError, ValueError) as exc:
        raise EngineError(f"{game.name}: {what} in phase {phase.key} produced data that is not JSON: "
                          f"{exc}") from None
    return events


def resolve_one(game: Game, state: State, orders: Mapping[str, Sequence[Order]], dice) -> Step:
    phase = game.phase(state)
    before = fingerprint(state)
    drawn_from = len(dice.log)
    after, events = game.resolve(state, {p: list(o) for p, o in orders.items()}, dice)
    events = _checked(game, phase, state, before, after, events, "resolve()")
    # ``state`` is proven untouched, so the step keeps it rather than a copy.
    return Step(phase, state, {p: list(o) for p, o in orders.items()}, after, list(events),
                list(dice.log[drawn_from:]))


def apply_one(game: Game, state: State, inp: Input, dice) -> Step:
    """Apply one typed input (a treaty action, a ruling, a GM edit).  Raises
    :class:`~pbem.kit.gameapi.Refused` when the game refuses it."""
    phase = game.phase(state)
    before = fingerprint(state)
    drawn_from = len(dice.log)
    after, events = game.apply(state, inp, dice)
    events = _checked(game, phase, state, before, after, events, "apply()")
    return Step(phase, state, {}, after, list(events), list(dice.log[drawn_from:]), inp)


def run_phases(game: Game, state: State, orders: Mapping[str, Sequence[Order]],
               dice_for: Callable[[PhaseInfo], object], *, one: bool = False,
               max_steps: int = 200) -> list[Step]:
    """Resolve the current phase with ``orders``, then every following phase
    that takes no orders, stopping at the next phase that takes orders from
    someone (or after one phase when ``one``), or when the game is over."""
    steps: list[Step] = []
    current = orders
    while True:
        step = resolve_one(game, state, current, dice_for(game.phase(state)))
        steps.append(step)
        state, current = step.after, {}
        if one or game.is_over(state) or game.phase(state).open:
            return steps
        if len(steps) >= max_steps:
            raise EngineError(f"{game.name}: {max_steps} phases in a row owed no orders")
