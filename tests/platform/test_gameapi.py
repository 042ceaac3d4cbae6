"""The contract's own behaviour: what a game must implement fails loudly
when missing, an input a game has no capability for is refused, typed inputs
round-trip through JSON, rosters read names."""
import pytest

from pbem.kit.capabilities import GMCommands, Guide, Rulings, capabilities, supports
from pbem.kit.gameapi import Edit, Game, input_from_json, input_to_json, PhaseInfo, Refused, Roster, Ruling, TreatyAction


class Bare(Game):
    name, title = "bare", "Bare"


@pytest.mark.parametrize("call", [
    lambda g: g.validate({}, "A", []), lambda g: g.report({}, [], None), lambda g: g.phase({}),
    lambda g: g.defaults({}, "A"), lambda g: g.roster({}), lambda g: g.resolve({}, {}, None),
    lambda g: g.setup([], {}, None), lambda g: g.is_over({}), lambda g: g.parse_orders({}, "A", []),
    lambda g: g.results({}),
])
def test_a_missing_method_raises_instead_of_accepting_everything(call):
    with pytest.raises(NotImplementedError):
        call(Bare())


class Declared(Game, GMCommands, Rulings, Guide):
    name, title = "declared", "Declared"


@pytest.mark.parametrize("call", [
    lambda g: g.apply({}, Ruling("q", "r"), None), lambda g: g.apply({}, Edit("SET X 1"), None),
    lambda g: g.order_forms(), lambda g: g.help_text(),
])
def test_a_declared_capability_without_its_methods_raises(call):
    with pytest.raises(NotImplementedError):
        call(Declared())


@pytest.mark.parametrize("inp,code,message", [
    (Edit("SET X 1"), "no-gm-commands", "Bare takes no game-specific GM commands; HELP GM lists the moderator's"),
    (Ruling("q", "r"), "no-rulings", "Bare asks the GM no questions to rule on"),
])
def test_an_input_the_game_has_no_capability_for_is_refused(inp, code, message):
    with pytest.raises(Refused) as refused:
        Bare().apply({}, inp, None)
    assert (refused.value.code, str(refused.value)) == (code, message)


def test_supports_names_the_capabilities_and_refuses_a_misspelt_one():
    assert capabilities(Bare()) == [] and capabilities(Declared()) == ["gm_commands", "rulings", "guide"]
    assert supports(Declared(), "guide") and not supports(Bare(), "treaties")
    with pytest.raises(KeyError):
        supports(Bare(), "treaty")


def test_a_game_without_treaties_refuses_a_treaty_action():
    with pytest.raises(Refused) as refused:
        Bare().apply({}, TreatyAction("propose", "A", "t1"), None)
    assert refused.value.code == "no-treaties"
    assert refused.value.problem(4).render() == "line 4: [no-treaties] Bare has no treaties"


@pytest.mark.parametrize("inp", [
    TreatyAction("propose", "North", "t1", "2026-01-05T12:00:00+00:00", ("South", "East"), "Peace.", True),
    TreatyAction("breach", "North", "t1", "2026-01-06T12:00:00+00:00", against="South", text="bid 3"),
    Ruling("protest-1", "UPHELD"), Edit("SET GOLD North 3"),
])
def test_inputs_round_trip_through_json(inp):
    import json
    assert input_from_json(json.loads(json.dumps(input_to_json(inp)))) == inp


def test_roster_reads_hyphens_aliases_and_suggests():
    roster = Roster(("United States", "Britain"), {"usa": "United States"})
    assert roster.resolve("United-States") == roster.resolve("USA") == roster.resolve("united_states") \
        == "United States"
    assert roster.resolve("Prussia") is None and roster.nearest("Britian") == "Britain"
    # The hyphens an HTML editor or a phone writes (non-breaking hyphen, en dash, minus sign).
    assert roster.resolve("United\u2011States") == roster.resolve("United\u2013States") \
        == roster.resolve("United\u2212States") == "United States"


def test_a_phase_window_says_who_answers_and_who_is_told():
    phase = PhaseInfo("1/claim", "claim", 1, ("North",), "Round 1 Claim", may=("South",),
                      window="reaction", audience=("North",))
    assert phase.open and phase.takes_orders_from("South") and not phase.takes_orders_from("East")
    assert phase.told("North") and not phase.told("South")
    assert PhaseInfo("1/tally", "tally", 1).open is False


def test_a_game_without_a_map_sends_no_map_part(tmp_path):
    """Maps are a capability: the report of a game without one carries no inline
    part (the Beacon map is the other path, tested in test_loop_beacon)."""
    from pbem.base import clock, context
    from pbem.reporting import render
    from pbem.storage import db
    from tests.beacon import Beacon
    from tests.testgame import Beacon as NoMap

    game = NoMap()
    state = game.setup(["North", "South"], {}, None)
    assert not supports(game, "maps") and game.charts(state, final=True) == {}
    ctx = context.Context(db=db.open_db(tmp_path / "db.sqlite"), clock=clock.FakeClock())
    assert render.report_map(ctx, game, state, "North", "report:g:1:North") == (None, [])
    board, parts = render.report_map(ctx, Beacon(), state, "North", "report:g:1:North")
    assert board["cid"] == parts[0].cid and parts[0].mime_type == "image/png"  # the default view (SET MAP)
    assert board["lines"] == ["North: 0 beacons", "South: 0 beacons"]
    ctx.db.conn.close()


def test_a_game_that_writes_no_stamp_passes_the_audience_check_with_the_gm_alone():
    """``stamp`` is optional: the default gives each event made without an audience the GM
    alone, which the conformance test's audience check accepts."""
    from pbem.kit import audience
    from pbem.kit.dice import SeededDice
    from pbem.kit.engine import run_phases
    from pbem.kit.gameapi import Game
    from tests.testgame import Beacon

    class Unstamped(Beacon):
        name = "unstamped"
        stamp = Game.stamp

    game = Unstamped()
    state = game.setup(["North", "South"], {}, SeededDice(seed="s", context="setup"))
    steps = run_phases(game, state, {"North": [], "South": []}, lambda p: SeededDice(seed="s", context=p.key))
    events = [e for s in steps for e in s.events]
    assert events and all(audience.of(e) == audience.gm() for e in events)
