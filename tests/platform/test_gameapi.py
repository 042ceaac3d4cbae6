"""The contract's own behaviour: what a game must implement fails loudly
when missing, typed inputs round-trip through JSON, rosters read names."""
import pytest

from pbem.kit.gameapi import Edit, Game, input_from_json, input_to_json, PhaseInfo, Refused, Roster, Ruling, TreatyAction


class Bare(Game):
    name, title = "bare", "Bare"


@pytest.mark.parametrize("call", [
    lambda g: g.validate({}, "A", []), lambda g: g.view({}, "A"), lambda g: g.report({}, [], None),
    lambda g: g.defaults({}, "A"), lambda g: g.roster({}), lambda g: g.resolve({}, {}, None),
    lambda g: g.apply({}, Ruling("q", "r"), None), lambda g: g.apply({}, Edit("SET X 1"), None),
    lambda g: g.order_forms(), lambda g: g.help_text(), lambda g: g.results({}),
])
def test_a_missing_method_raises_instead_of_accepting_everything(call):
    with pytest.raises(NotImplementedError):
        call(Bare())


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


def test_a_phase_window_says_who_answers_and_who_is_told():
    phase = PhaseInfo("1/claim", "claim", 1, ("North",), "Round 1 Claim", may=("South",),
                      window="reaction", audience=("North",))
    assert phase.open and phase.takes_orders_from("South") and not phase.takes_orders_from("East")
    assert phase.told("North") and not phase.told("South")
    assert PhaseInfo("1/tally", "tally", 1).open is False


def test_a_game_without_a_map_sends_no_map_part(tmp_path):
    """The map hook is optional: the base class draws nothing, and the report
    of such a game carries no inline part (the Beacon map is the other path,
    tested in test_loop_beacon)."""
    from pbem.base import clock, context
    from pbem.reporting import render
    from pbem.storage import db
    from tests.testgame import Beacon

    class NoMap(Beacon):
        map_svg = Game.map_svg
        map_text = Game.map_text
        charts = Game.charts

    game = NoMap()
    state = game.setup(["North", "South"], {}, None)
    assert game.map_svg(state, "North") is None and game.map_text(state, None) == []
    assert game.charts(state, final=True) == {}
    ctx = context.Context(db=db.open_db(tmp_path / "db.sqlite"), clock=clock.FakeClock())
    assert render.report_map(ctx, game, state, "North", "report:g:1:North") == (None, [])
    board, parts = render.report_map(ctx, Beacon(), state, "North", "report:g:1:North")
    assert board["cid"] == parts[0].cid and parts[0].mime_type == "image/svg+xml"
    assert board["lines"] == ["North: 0 beacons", "South: 0 beacons"]
    ctx.db.conn.close()
