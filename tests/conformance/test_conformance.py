"""What every game must do, checked on every game the registry knows (the test
games included): played with its bots' random legal orders (its defaults, for a game
without bots) for a few phases, each phase replays to the same state and events,
every event says who may see it, states stay plain JSON, and a report can be made for
every reader (the public one included).  Each capability a game declares
(pbem.kit.capabilities) is checked on the states of that play, and only for the games
that declare it.  A new game is checked by registering it: nothing here names a game."""
from __future__ import annotations

import copy
import json
import random

import pytest

from pbem.base import registry
from pbem.kit import audience
from pbem.kit.capabilities import CAPABILITIES, MUST_WRITE, capabilities, supports
from pbem.kit.dice import SeededDice
from pbem.kit.engine import apply_one, run_phases
from pbem.kit.gameapi import EFFECT, LIMIT, MUST, Game, GMError, Obligation, OrderOption, Refused, Ruling

registry.load_extra("tests.testgame:GAME")
registry.load_extra("tests.beacon:GAME")

#: phases each game is played for (it may end sooner)
PHASES = 14


def _orders(game, state, rng):
    orders = {}
    for power in game.phase(state).owes:
        if not supports(game, "bots"):  # a game without bots: its defaults, as orders sent
            orders[power] = game.defaults(state, power)
            continue
        lines = game.bot_orders(state, power, rng)
        parsed = game.parse_orders(state, power, list(enumerate(lines, 1)))
        assert not [p for p in parsed.problems if p.kind == "invalid"], (power, lines, parsed.problems)
        orders[power] = parsed.orders
    return orders


def _seats(game):
    if supports(game, "bots"):
        return game.demo_setup()
    return list(game.roster({}).powers[:game.max_players]), {}


def _played(game):
    """Every state of a short game, with the readers, as its bots (or defaults) play it."""
    players, options = _seats(game)
    state = game.setup(players, options, SeededDice(seed="conformance", context="setup"))
    states, rng = [state], random.Random(7)
    for _ in range(PHASES):
        if game.is_over(state):
            break
        orders = _orders(game, state, rng)
        state = run_phases(game, state, orders, lambda phase: SeededDice(seed="conformance", context=phase.key))[-1].after
        states.append(state)
    return players, states


@pytest.mark.parametrize("rules", registry.names())
def test_every_game_plays_replays_and_tells_each_reader_only_what_it_may_see(rules):
    game = registry.get(rules)
    players, options = _seats(game)
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


@pytest.mark.parametrize("rules", registry.names())
def test_a_power_asked_nothing_is_told_why_in_words_or_not_at_all(rules):
    """Game.nothing_due: a sentence the moderator adds to its refusal (``...: <reason>``), or None."""
    game = registry.get(rules)
    players, states = _played(game)
    for state in states:
        before = json.dumps(state, sort_keys=True)
        phase = game.phase(state)
        for power in players:
            if phase.takes_orders_from(power):
                continue
            reason = game.nothing_due(state, power)
            assert reason is None or (isinstance(reason, str) and reason.strip() and "\n" not in reason), \
                (rules, phase.key, power, reason)
        assert json.dumps(state, sort_keys=True) == before, f"{rules}: nothing_due changed the state"
    assert Game.nothing_due(game, states[0], players[0]) is None, "the default gives no reason"


def _declaring(capability):
    """The games that declare ``capability`` (the last test below makes sure there is one)."""
    return [name for name in registry.names() if supports(registry.get(name), capability)]


def test_the_required_contract_is_ten_methods_and_every_capability_is_declared_as_a_base():
    required = [n for n, f in vars(Game).items() if callable(f) and _raises_not_implemented(f)]
    assert sorted(required) == sorted(["roster", "setup", "phase", "is_over", "parse_orders", "validate",
                                       "defaults", "resolve", "report", "results"])
    for name in registry.names():
        game = registry.get(name)
        for capability, base in CAPABILITIES.items():
            assert set(MUST_WRITE[capability]) <= set(vars(base)), capability
            for method in MUST_WRITE[capability] if supports(game, capability) else ():
                assert getattr(type(game), method) is not vars(base)[method], \
                    f"{name} declares {capability} without {method}"
            assert supports(game, capability) == (capability in capabilities(game))


def _raises_not_implemented(f) -> bool:
    code = getattr(f, "__code__", None)
    return code is not None and "NotImplementedError" in code.co_names


@pytest.mark.parametrize("rules", _declaring("treaties"))
def test_treaty_records_are_lists_of_records_for_every_reader(rules):
    game = registry.get(rules)
    players, states = _played(game)
    for state in states:
        for reader in [None, *players]:
            for record in game.treaty_records(state, reader):
                assert {"id", "parties", "status"} <= set(record), (rules, record)
        assert isinstance(game.treaty_records(state, None, gm=True), list)


@pytest.mark.parametrize("rules", _declaring("gm_commands"))
def test_a_gm_command_the_game_does_not_know_is_refused_with_a_reason(rules):
    game = registry.get(rules)
    _, states = _played(game)
    with pytest.raises(GMError) as refused:
        game.gm_command(states[-1], "FROBNICATE EVERYTHING 42", SeededDice(seed="c", context="gm"))
    assert str(refused.value)


@pytest.mark.parametrize("rules", _declaring("rulings"))
def test_a_ruling_on_an_unknown_question_is_refused_or_recorded_for_its_audience(rules):
    game = registry.get(rules)
    _, states = _played(game)
    try:
        step = apply_one(game, states[-1], Ruling("no-such-question-7", "UPHELD"),
                         SeededDice(seed="c", context="rule"))
    except Refused as refused:
        assert str(refused) and refused.code
        return
    assert json.loads(json.dumps(step.after)) == step.after
    assert step.events and all(audience.of(e) is not None for e in step.events), step.events


@pytest.mark.parametrize("rules", _declaring("maps"))
def test_a_map_is_one_titled_svg_with_its_words_for_every_reader(rules):
    game = registry.get(rules)
    players, states = _played(game)
    for state in states[:3]:
        for reader in [None, *players]:
            drawing = game.map_svg(state, reader)
            if drawing is not None:
                assert drawing.lstrip().startswith("<svg") and "<title" in drawing, rules
            assert all(isinstance(line, str) for line in game.map_text(state, reader))


@pytest.mark.parametrize("rules", _declaring("scenarios"))
def test_scenario_queries_refuse_nonsense_and_set_phase_keeps_json(rules):
    game = registry.get(rules)
    _, states = _played(game)
    with pytest.raises(GMError):
        game.query(states[0], "no such query at all")
    with pytest.raises(GMError):
        game.set_phase(states[0], "no-such-phase", None)


@pytest.mark.parametrize("rules", _declaring("guide"))
def test_the_guide_lists_orders_and_forms_and_what_each_power_may_do(rules):
    game = registry.get(rules)
    players, states = _played(game)
    assert game.help_text(None).strip() and game.order_forms()
    assert all(isinstance(t, str) for t in game.help_topics(None))
    for state in states[:4]:
        for power in players:
            assert all(isinstance(o, OrderOption) for o in game.options_now(state, power))


@pytest.mark.parametrize("rules", registry.names())
def test_obligations_are_a_powers_own_in_words_with_an_audience_it_passes(rules):
    """The hook every game may write (none by default): on every state of a short game, each
    obligation is of the power asked, says something, is of a known kind, carries an audience
    its power passes (most often its power alone),
    and is plain JSON with its line in words."""
    game = registry.get(rules)
    players, states = _played(game)
    for state in states:
        for power in players:
            found = game.obligations(state, power)
            assert isinstance(found, list), (rules, power)
            for o in found:
                assert isinstance(o, Obligation) and o.text.strip() and o.kind in (MUST, LIMIT, EFFECT), o
                assert audience.Audience.from_json(o.to_json()["audience"]) is not None, o
                assert audience.admits(o.audience, power, {}), f"{rules}: {power} may not see its own {o}"
                assert all(isinstance(d, int) for d in o.dice), o
                assert json.loads(json.dumps(o.to_json())) == o.to_json()
                assert o.text in o.render()


def test_the_registry_holds_every_game_of_the_games_package():
    import pkgutil

    import games

    packages = {m.name for m in pkgutil.iter_modules(games.__path__) if m.ispkg}
    assert packages and packages <= set(registry.names())


def test_the_test_games_are_one_without_any_capability_and_one_with_every_one():
    """So each answer for a game without a capability, and each path with it, is played."""
    declared = {name: set(capabilities(registry.get(name))) for name in registry.names()}
    assert set() in declared.values() and set(CAPABILITIES) in declared.values()


def _blocks(forms: list[str], whom: str = "somebody") -> list[str]:
    """The game's block forms ("DIPLOMACY <realm> ... ENDDIPLOMACY") written out as a
    player would: the head line (naming ``whom``), a line of text, the end line."""
    lines = []
    for form in forms:
        if " ... " in form:
            head, end = form.split(" ... ", 1)
            lines += [head.split("<")[0].strip() + f" {whom}", "a line of the block's text", end.split()[0]]
    return lines


@pytest.mark.parametrize("rules", registry.names())
def test_every_line_a_game_is_given_is_an_order_a_problem_or_part_of_one(rules):
    """ParseResult's promise, which lets the moderator say of every line a player wrote
    what became of it: on the states of a short game, the bots' orders, the forms the
    game lists, its blocks, FOR lines, sign-offs and stray end lines, in several orders,
    each line is an order's, a problem's, or read as part of one."""
    game = registry.get(rules)
    _, states = _played(game)
    rng = random.Random(11)
    forms = game.order_forms() if supports(game, "guide") else []
    noise = ["Thanks,", "Bob", "END", "ENDPROPOSE", "FOR Austria-Hungary", "FOR Germany", "FOR Nowhere",
             *[f.split("<")[0].strip() for f in forms], *forms, *_blocks(forms)]
    for state in states:
        for power in game.phase(state).owes:
            bot = game.bot_orders(state, power, rng) if supports(game, "bots") else []
            shuffled = bot + noise
            rng.shuffle(shuffled)
            others = [p for p in game.phase(state).owes if p != power] or [power]
            blocks = _blocks(forms, rng.choice(others))
            for lines in (bot, bot + noise, noise + bot, shuffled, blocks, bot + blocks[:-1]):
                numbered = list(enumerate(lines, 1))
                result = game.parse_orders(state, power, numbered)
                assert not result.unaccounted(numbered), (game.phase(state).label, power, [
                    lines[n - 1] for n in result.unaccounted(numbered)])


@pytest.mark.parametrize("rules", registry.names())
def test_the_answers_on_orders_are_pure_functions_of_their_arguments(rules):
    """What the moderator's reading ahead relies on (Game.pure_orders, pbem.handlers.
    order_verdicts): parse_orders, validate and order_summary give the same answer asked
    twice, and asked on a deep copy of the state, and change none of their arguments."""
    game = registry.get(rules)
    if not game.pure_orders:
        pytest.skip(f"{rules} declares its answers impure: the moderator asks it every time")
    _, states = _played(game)
    rng = random.Random(5)
    forms = game.order_forms() if supports(game, "guide") else []
    for state in states:
        for power in game.phase(state).owes:
            lines = (game.bot_orders(state, power, rng) if supports(game, "bots") else []) + forms[:6]
            numbered = list(enumerate(lines, 1))
            before = json.dumps(state, sort_keys=True)
            first = game.parse_orders(state, power, numbered)
            assert first == game.parse_orders(state, power, list(numbered)) \
                == game.parse_orders(copy.deepcopy(state), power, copy.deepcopy(numbered)), (rules, power)
            orders = list(first.orders)
            problems = game.validate(state, power, orders)
            assert problems == game.validate(copy.deepcopy(state), power, copy.deepcopy(orders)), (rules, power)
            assert orders == first.orders, f"{rules}: validate changed the orders it was given"
            refused = {p.line for p in [*first.problems, *problems] if p.kind != "warning"}
            accepted = [o for o in orders if o.line not in refused]
            summary = game.order_summary(state, power, accepted)
            assert summary == game.order_summary(copy.deepcopy(state), power, copy.deepcopy(accepted))
            assert json.dumps(state, sort_keys=True) == before, f"{rules}: an answer on orders changed the state"
