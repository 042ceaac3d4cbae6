"""No game changes the state it is given, and the engine proves it on every
phase and input: the moderator keeps no spare copy of a state, so this is
what makes sharing it safe."""
from __future__ import annotations

import random

import pytest

from pbem.base import registry
from pbem.kit.capabilities import supports
from pbem.kit.dice import SeededDice
from pbem.kit.engine import apply_one, EngineError, resolve_one, run_phases
from pbem.kit.gameapi import Edit
from pbem.kit.state_copy import copy_state, fingerprint
from tests.beacon import Beacon

registry.load_extra("tests.beacon:GAME")
registry.load_extra("tests.testgame:GAME")


def _read_everything(game, state, powers):
    """Every method that only reads a state, for every power."""
    phase = game.phase(state)
    game.is_over(state)
    game.charts(state)
    game.view(state, None)
    game.report(state, [], None)
    if supports(game, "maps"):
        game.map_text(state, None)
    for power in powers:
        game.view(state, power)
        game.report(state, [], power)
        if supports(game, "maps"):
            game.map_text(state, power)
            game.map_svg(state, power)
        if supports(game, "treaties"):
            game.treaty_records(state, power)
        if supports(game, "guide"):
            game.options_now(state, power)
        game.defaults(state, power)
        game.describe_defaults(state, power)
        if phase.takes_orders_from(power):
            parsed = game.parse_orders(state, power, list(enumerate(_lines(game, state, power, random.Random(1)), 1)))
            game.validate(state, power, parsed.orders)
            game.order_summary(state, power, parsed.orders)


def _lines(game, state, power, rng):
    """What a bot would order, or the defaults written out for a game without bots."""
    if supports(game, "bots"):
        return game.bot_orders(state, power, rng)
    return [o.canonical for o in game.defaults(state, power)]


@pytest.mark.parametrize("rules", registry.names())
def test_no_game_changes_the_state_it_is_given(rules, phases=25):
    game = registry.get(rules)
    players, options = game.demo_setup(2) if supports(game, "bots") else (list(game.roster({}).powers), {})
    state = game.setup(players, options, SeededDice(seed="u", context="setup"))
    rng = random.Random(5)
    ordered = 0
    for _ in range(phases):
        if game.is_over(state):
            break
        mark = fingerprint(state)
        _read_everything(game, state, players)
        assert fingerprint(state) == mark, "a method that reads the state changed it"
        phase = game.phase(state)
        orders = {}
        ordered += bool(phase.owes)
        for power in phase.owes:
            lines = _lines(game, state, power, rng)
            orders[power] = game.parse_orders(state, power, list(enumerate(lines, 1))).orders
        steps = run_phases(game, state, orders, lambda ph: SeededDice(seed="u", context=ph.key))
        assert fingerprint(state) == mark, "resolve changed its input"
        assert steps[0].before is state and fingerprint(steps[0].before) == mark
        state = steps[-1].after
    assert ordered >= 2, "the game never reached phases that take orders"


class Meddler(Beacon):
    """Changes its input: in place, and by reordering keys only."""
    name = "meddler"

    def resolve(self, state, orders, dice):
        after, events = super().resolve(state, orders, dice)
        state["meddled"] = True
        return after, events

    def gm_command(self, state, text, dice):
        moved = state.pop("phase")
        state["phase"] = moved   # the same values, in another order
        return copy_state(state), []


def test_the_engine_refuses_a_game_that_changes_its_input():
    game = Meddler()
    state = game.setup(["North", "South"], {}, SeededDice(seed="m", context="setup"))
    with pytest.raises(EngineError, match="changed its input state"):
        resolve_one(game, copy_state(state), {}, SeededDice(seed="m", context="x"))
    with pytest.raises(EngineError, match="changed its input state"):
        apply_one(game, copy_state(state), Edit(text="anything"), SeededDice(seed="m", context="y"))


def test_copy_state_is_deep_and_takes_anything():
    state = {"a": [1, {"b": [2, 3]}], "c": {"d": None, "e": 1.5, "f": True}, "g": "text"}
    copied = copy_state(state)
    assert copied == state
    copied["a"][1]["b"].append(4)
    copied["c"]["d"] = 0
    assert state == {"a": [1, {"b": [2, 3]}], "c": {"d": None, "e": 1.5, "f": True}, "g": "text"}

    class Tagged(dict):
        pass

    odd = {"set": {1, 2}, "tagged": Tagged(x=[1])}
    copied = copy_state(odd)
    assert copied == odd and type(copied["tagged"]) is Tagged
    copied["tagged"]["x"].append(2)
    assert odd["tagged"]["x"] == [1]
