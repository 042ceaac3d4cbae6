"""What every game must do, checked on every game the registry knows (the test
game included): played with its bots' random legal orders for a few phases,
each phase replays to the same state and events, every event says who may see
it, states stay plain JSON, and a report can be made for every reader (the
public one included).  A new game is checked by registering it: nothing here
names a game."""
from __future__ import annotations

import json
import random

import pytest

from pbem.base import registry
from pbem.kit import audience
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases

registry.load_extra("tests.testgame:GAME")

#: phases each game is played for (it may end sooner)
PHASES = 14


def _orders(game, state, rng):
    orders = {}
    for power in game.phase(state).owes:
        try:
            lines = game.bot_orders(state, power, rng)
        except NotImplementedError:  # a game without bots: its defaults stand
            continue
        parsed = game.parse_orders(state, power, list(enumerate(lines, 1)))
        assert not [p for p in parsed.problems if p.kind == "invalid"], (power, lines, parsed.problems)
        orders[power] = parsed.orders
    return orders


@pytest.mark.parametrize("rules", registry.names())
def test_every_game_plays_replays_and_tells_each_reader_only_what_it_may_see(rules):
    game = registry.get(rules)
    players, options = game.demo_setup()
    state = game.setup(players, options, SeededDice(seed="conformance", context="setup"))
    assert json.loads(json.dumps(state)) == state, "a state is plain JSON"
    rng = random.Random(7)
    ordered = 0
    for _ in range(PHASES):
        if game.is_over(state):
            break
        orders = _orders(game, state, rng)
        ordered += bool(orders)
        dice = lambda phase: SeededDice(seed="conformance", context=phase.key)  # noqa: E731
        steps = run_phases(game, state, orders, dice)
        again = run_phases(game, state, orders, dice)
        assert [(s.after, s.events) for s in steps] == [(s.after, s.events) for s in again], \
            "the same phase with the same orders and dice gives the same state and events"
        for step in steps:
            assert json.loads(json.dumps(step.after)) == step.after
            for event in step.events:
                assert "audience" in event, f"{rules}: an event without an audience: {event}"
                assert audience.of(event) is not None, f"{rules}: an audience of no known form: {event}"
            for reader in [None, *players]:
                report = game.report(step.after, step.events, reader)
                assert isinstance(report.text, str), (rules, reader)
        state = steps[-1].after
    assert ordered >= 1, f"{rules} never reached a phase that takes orders"


def test_the_registry_holds_every_game_of_the_games_package():
    import pkgutil

    import games

    packages = {m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg}
    assert packages and packages <= set(registry.names())
