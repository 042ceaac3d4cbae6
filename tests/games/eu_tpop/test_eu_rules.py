"""Europa Universalis: The Price of Power outside the scenario files: the data
option (dice tables, a whole scenario), the assumptions shown to the GM, the
roster, order parsing and its canonical echo, and refusals with their codes."""
from __future__ import annotations

import pytest

from pbem.base import registry
from pbem.kit.dice import ScriptedDice
from pbem.base.gamedata import freeze
from pbem.kit.gameapi import Edit, GMError

GAME = registry.get("eu_tpop")


def _setup(options=None, players=("Valmont", "Corvia", "Ostmark")):
    return GAME.setup(list(players), dict(options or {}), ScriptedDice())


def test_roster_comes_from_the_scenario():
    assert GAME.roster({}).powers == ("Valmont", "Corvia", "Ostmark")
    assert GAME.roster({"setup": "empty"}).powers == ()
    state = _setup()
    assert GAME.roster({}, state).resolve("corvia") == "Corvia"


def test_the_gm_is_shown_the_assumed_tables_at_creation():
    notes = " ".join(GAME.assumptions({}))
    assert "battle die faces" in notes and "rebel die" in notes and "invented" in notes


def test_a_data_file_replaces_the_battle_die_and_says_so():
    data = freeze("mydice.toml", '[battle_die]\ninfantry = ["f", "f", "f", "f", "f", "f"]\n')
    state = _setup({"data": data})
    assert state["dice_tables"]["battle_die"]["infantry"] == ["f"] * 6
    assert state["dice_tables"]["battle_die"]["cavalry"][3] == "h"   # the rest stays
    assert any("replaces some die faces" in n for n in GAME.assumptions({"data": data}))


def test_a_data_file_with_impossible_faces_is_refused():
    data = freeze("bad.toml", '[battle_die]\ninfantry = ["x", "f"]\n')
    with pytest.raises(GMError) as err:
        _setup({"data": data})
    assert err.value.code == "bad-data-file"


def test_a_data_file_may_hold_a_whole_scenario():
    text = """
[scenario]
name = "duel"
turn_order = ["North", "South"]
[areas.Hills]
[areas.Vale]
[[borders]]
between = ["Hills", "Vale"]
mountain = true
[provinces.Keep]
area = "Hills"
tax = 2
owner = "North"
[provinces.Mill]
area = "Vale"
tax = 1
owner = "South"
[realms.North]
kind = "PR"
capital = "Keep"
units = [ { at = "Hills", inf = 2 } ]
[realms.South]
kind = "PR"
capital = "Mill"
"""
    data = freeze("duel.toml", text)
    assert GAME.roster({"data": data}).powers == ("North", "South")
    state = _setup({"data": data}, ("North", "South"))
    assert GAME.query(state, "mc North Vale") == 2
    assert GAME.query(state, "units Hills North") == "inf=2 cav=0 art=0"


def test_a_scenario_naming_an_unknown_area_is_refused():
    data = freeze("broken.toml", '[scenario]\nname = "x"\n[provinces.Keep]\narea = "Nowhere"\n')
    with pytest.raises(GMError, match="Nowhere"):
        _setup({"data": data}, ())


def test_unknown_rules_version_is_refused():
    with pytest.raises(GMError) as err:
        _setup({"rules": "2.0"})
    assert err.value.code == "bad-option"


@pytest.mark.parametrize("line", [
    "DECLARE WAR ON Brenn,Tarvo CB CLAIM", "CALL TO ARMS Ostmark", "ACTIVATE Valmont TO Marches TO Brenn SIEGE",
    'NAVAL Western Sea TO Middle Sea', "RECRUIT 2 CAV IN Valmont MERC", "SIEGE Brenn Holm",
    "FORGE ALLIANCE Brenn", "INFLUENCE Brenn 2", "CUT TIES Lusca", "SUBJUGATE Lusca", "ROYAL MARRIAGE Lusca",
    "PASS", "STANDING CTA ACCEPT INACTIVE", "STANDING RETREAT IF OUTNUMBERED", "STANDING CALL NONE",
    "STANDING CASUALTIES MERC,REGULAR,ALLIED,CAV", "ACCEPT ACTIVE", "REFUSE", "RETREAT TO Corvia", "FIGHT",
    "ENFORCE keep_current_board_state ON Corvia RETURN Salera EXCHANGE Dauvin FOR Belcourt",
    "OFFER WHITE PEACE TO Brenn", "SURRENDER TO Valmont", "KEEP WAR Corvia",
])
def test_every_order_echoes_a_canonical_form_that_reads_back_the_same(line):
    state = _setup()
    first = GAME.parse_orders(state, "Valmont", [(1, line)])
    assert not first.problems, [p.render() for p in first.problems]
    order = first.orders[0]
    again = GAME.parse_orders(state, "Valmont", [(1, order.canonical)]).orders[0]
    assert (again.kind, again.args) == (order.kind, order.args)


def test_aliases_read_as_the_canonical_orders():
    state = _setup()
    orders = GAME.parse_orders(state, "Valmont", [(1, "dow brenn"), (2, "move valmont to marches"),
                                                   (3, "enforce kcbs on corvia")]).orders
    assert [o.canonical for o in orders] == ["DECLARE WAR ON Brenn", "ACTIVATE Valmont TO Marches",
                                             "ENFORCE keep_current_board_state ON Corvia"]


def test_a_misspelt_name_or_verb_is_not_understood_and_gets_a_suggestion():
    state = _setup()
    result = GAME.parse_orders(state, "Valmont", [(3, "DECLARE WAR ON Bren"), (4, "RECRUT 2 INF IN Valmont")])
    codes = {p.line: (p.code, p.kind, p.suggestion) for p in result.problems}
    assert codes[3] == ("unknown-realm", "invalid", "Brenn")
    assert codes[4] == ("invalid-order", "invalid", "RECRUIT")


def test_an_unclosed_deal_is_reported_with_its_line():
    state = _setup()
    result = GAME.parse_orders(state, "Valmont", [(2, "DIPLOMACY Corvia"), (3, "ALLIANCE")])
    assert [(p.code, p.line) for p in result.problems] == [("unclosed-block", 2)]


def test_refusals_carry_a_code_a_line_and_a_reason():
    state = _setup()
    orders = GAME.parse_orders(state, "Valmont", [(7, "FORGE ALLIANCE Lusca")]).orders
    problems = GAME.validate(state, "Valmont", orders)
    assert [(p.code, p.line) for p in problems] == [("forge-influence", 7)]
    assert "Influence" in problems[0].message


def test_gm_edits_do_not_change_the_state_they_are_given():
    state = _setup()
    before = repr(state)
    after, events = GAME.apply(state, Edit("SET PRESTIGE Valmont 3"), ScriptedDice())
    assert repr(state) == before and after["realms"]["Valmont"]["prestige"] == 3
    assert events[0]["kind"] == "gm_edit"


def test_an_unknown_gm_edit_lists_the_vocabulary():
    with pytest.raises(GMError, match="SET PRESTIGE"):
        GAME.apply(_setup(), Edit("SET GOLD Valmont 3"), ScriptedDice())


def test_each_player_reads_its_own_status_and_what_it_may_do_now():
    state = _setup()
    text = GAME.report(state, [], "Corvia").text
    assert "Corvia: prestige 10" in text and "Allies: Lusca" in text
    assert "Valmont is acting. You may send STANDING orders at any time." in text
    assert "It is your turn" in GAME.report(state, [], "Valmont").text


from hypothesis import given, settings, strategies as hs  # noqa: E402

WORDS = ["DECLARE", "WAR", "ON", "CB", "ACTIVATE", "TO", "SIEGE", "RECRUIT", "2", "INF", "IN", "Brenn", "Far",
         "Shore", '"Western', 'Sea"', "ENFORCE", "keep_current_board_state", "RETURN", "EXCHANGE", "FOR",
         "STANDING", "CTA", "ASK", "DIPLOMACY", "ENDDIPLOMACY", "NEGOTIATE", "Corvia", ",", "'", "-1", ""]


@settings(max_examples=200, deadline=None)
@given(hs.lists(hs.lists(hs.sampled_from(WORDS) | hs.text(max_size=8), max_size=8), max_size=6))
def test_parsing_and_validating_never_raise(lines):
    state = _setup()
    numbered = [(i + 1, " ".join(words)) for i, words in enumerate(lines)]
    result = GAME.parse_orders(state, "Valmont", numbered)
    for p in result.problems:
        assert p.code and p.line is not None
    for p in GAME.validate(state, "Valmont", result.orders):
        assert p.code and p.line is not None


def test_every_kind_the_engine_emits_says_who_may_see_it():
    """A kind the catalogue (audiences.py) does not know would reach the GM alone."""
    import re
    from pathlib import Path

    from games.eu_tpop import audiences
    source = Path(audiences.__file__).resolve().parent
    kinds = set()
    for path in source.rglob("*.py"):
        if path.name not in ("report.py", "audiences.py", "queries.py", "state.py"):
            kinds |= set(re.findall(r'"kind":\s*"(\w+)"', path.read_text()))
    kinds.add("returned")  # moves.py writes "occupied" or "returned"
    known = audiences.PUBLIC | set(audiences.PRIVATE) | audiences.MADE_WITH
    assert kinds - known == set()


def test_a_scenario_puts_peace_and_rebels_at_a_step():
    game = registry.get("eu_tpop")
    players, options = game.demo_setup()
    state = game.setup(players, options, ScriptedDice([]))
    at = game.set_phase(state, "peace_and_rebels", None, "d")
    assert (at["phase"], at["step"]) == ("p3", "D")
    for phase, step in (("peace_and_rebels", "Z"), ("action", "D")):
        with pytest.raises(GMError, match="STEP"):
            game.set_phase(state, phase, None, step)
