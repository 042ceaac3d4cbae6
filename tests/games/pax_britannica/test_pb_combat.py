"""Combat odds (Rules: COLONIAL COMBAT RESOLUTION) and the Colonial Combat helpers."""
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.pax_britannica.core import combat_table as ct

strength = st.integers(min_value=1, max_value=400)


def value(column: str) -> Fraction:
    a, b = ct.column_value(column)
    return Fraction(a, b)


def test_columns_are_in_rising_order():
    values = [value(c) for c in ct.COLUMNS]
    assert values == sorted(values) and len(set(values)) == len(values)


@pytest.mark.parametrize("attack, defense, column", [
    (13, 5, "2:1"),    # Rules: COLONIAL COMBAT RESOLUTION, the Manchuria example
    (15, 5, "3:1"),    # ... "would need two more Army (1) Units" for 3-to-1
    (7, 5, "1:1"),     # Rules: COMBAT DURING A WAR, Japan 7 against Russia 5
    (8, 5, "3:2"),     # ... with the British Army (1) joining
    (1, 10, "1:10"), (1, 11, "1:10"), (1, 100, "1:10"),
    (1, 3, "1:3"), (1, 2, "1:2"), (2, 3, "2:3"), (3, 3, "1:1"), (3, 2, "3:2"),
    (2, 1, "2:1"), (3, 1, "3:1"), (10, 1, "10:1"), (99, 1, "10:1"), (9, 1, "3:1"),
    (4, 5, "2:3"), (5, 4, "1:1"), (29, 10, "2:1"), (30, 10, "3:1"),
])
def test_worked_ratios(attack, defense, column):
    assert ct.ratio(attack, defense) == column


@given(strength, strength)
def test_rounding_never_favours_the_attacker(attack, defense):
    column = ct.ratio(attack, defense)
    true = Fraction(attack, defense)
    index = ct.COLUMNS.index(column)
    if true >= value(ct.COLUMNS[0]):
        assert value(column) <= true
    else:  # Choice: clamped to the worst column
        assert column == ct.COLUMNS[0]
    # and it is the best column that does not exceed the true ratio
    if index + 1 < len(ct.COLUMNS):
        assert value(ct.COLUMNS[index + 1]) > true


@given(strength, strength)
def test_table_depends_on_the_smaller_force(attack, defense):
    expected = 1 if min(attack, defense) < 5 else 2
    assert ct.table_for(attack, defense) == expected


@given(strength, strength, st.integers(min_value=1, max_value=6))
def test_lookup_reads_the_cell_of_the_odds(attack, defense, die):
    def code(t, c, d):
        return ct.RESULTS[(t * 7 + ct.COLUMNS.index(c) * 3 + d) % 6]
    crt = {t: {c: tuple(code(t, c, d) for d in range(1, 7)) for c in ct.COLUMNS}
           for t in (1, 2)}
    column, table = ct.odds(attack, defense)
    assert ct.lookup(crt, table, column, die) == code(table, column, die)


def test_lookup_normalises_printed_codes():
    crt = {1: {"1:1": ("AE", "AR", "EX", "½EX", "DR", "DE")}}
    assert [ct.lookup(crt, 1, "1:1", d) for d in range(1, 7)] == list(ct.RESULTS)


@pytest.mark.parametrize("attack, defense", [(0, 5), (5, 0), (-1, 3)])
def test_no_odds_without_two_forces(attack, defense):
    with pytest.raises(ValueError):
        ct.ratio(attack, defense)


def test_bad_die_and_bad_code_are_refused():
    crt = {1: {"1:1": ("AE", "AR", "EX", "½EX", "DR", "XX")}}
    with pytest.raises(ValueError):
        ct.lookup(crt, 1, "1:1", 7)
    with pytest.raises(ValueError):
        ct.lookup(crt, 1, "1:1", 6)


# -- Colonial Combat on a small made-up map (Rules: COLONIAL COMBAT RESOLUTION) ------------
from types import SimpleNamespace  # noqa: E402

from pbem.kit.dice import ScriptedDice  # noqa: E402
from games.pax_britannica.phases import colonial_combat as cc  # noqa: E402


def area(name, cs, neighbours=(), seas=()):
    return SimpleNamespace(name=name, kind="unorganized", ev=3, cs=cs, may_become=None,
                           neighbours=frozenset(neighbours), seas=frozenset(seas))


def fake_data(table):
    homes = {"Britain": SimpleNamespace(power="Britain", name="Britain",
                                        seas=frozenset({"Sea"}), neighbours=frozenset()),
             "France": SimpleNamespace(power="France", name="France",
                                       seas=frozenset(), neighbours=frozenset({"Wild"}))}
    crt = {t: {c: tuple(table) for c in ct.COLUMNS} for t in (1, 2)}
    return SimpleNamespace(
        areas={"Wild": area("Wild", 5, ["Colony", "France"], ["Sea"]),
               "Colony": area("Colony", 2, ["Wild"]),
               "Empty": area("Empty", 0, [], ["Sea"])},
        homes=homes, seas={"Sea": SimpleNamespace(name="Sea", adjacent=frozenset())},
        crt=crt, crt_columns=ct.COLUMNS,
        home_of=lambda n: next((p for p, h in homes.items() if h.name == n), None))


def game(*units, markers=None, unrest=()):
    state = {"turn": 1884, "players": ["Britain", "France"], "units": [], "next_unit_id": 1,
             "markers": markers or {}, "unrest": list(unrest), "cb": [], "merchants": {},
             "powers": {p: {"great": True} for p in ("Britain", "France")},
             "turn_orders": {}}
    for power, strength, where in units:
        cc.board.add_unit(state, power, "army", strength, where)
    return state


def unest(status="protectorate"):
    return {"status": status, "established": False}


def strengths(state, where):
    return sorted(u["strength"] for u in state["units"] if u["where"] == where)


def test_13_to_5_uses_the_2_to_1_column_and_establishes():
    data = fake_data(["DE"] * 6)
    state = game(("Britain", 10, "Wild"), ("Britain", 3, "Wild"),
                 markers={"Wild": {"Britain": unest()}})
    events = cc.resolve(state, {}, ScriptedDice(queue=[4]), data)
    combat = next(e for e in events if e["kind"] == "colonial_combat")
    assert (combat["ratio"], combat["table"], combat["die"]) == ("2:1", 2, 4)
    assert state["markers"]["Wild"]["Britain"]["established"] is True


def test_zero_strength_area_falls_without_a_die():
    state = game(("Britain", 1, "Empty"), markers={"Empty": {"Britain": unest()}})
    events = cc.resolve(state, {}, ScriptedDice(queue=[]), fake_data(["E"] * 6))
    assert events[0]["result"] == "auto" and state["markers"]["Empty"]["Britain"]["established"]


def test_exchange_loses_the_least_and_wins_with_units_left():
    # EX against 5: eliminate at least 5 of 10+3+1+1 -> the 3+1+1 (5), the 10 stays
    state = game(("Britain", 10, "Wild"), ("Britain", 3, "Wild"), ("Britain", 1, "Wild"),
                 ("Britain", 1, "Wild"), markers={"Wild": {"Britain": unest()}})
    events = cc.resolve(state, {}, ScriptedDice(queue=[1]), fake_data(["EX"] * 6))
    assert strengths(state, "Wild") == [10]
    assert sum(e["strength"] for e in events if e["kind"] == "unit_lost") == 5
    assert state["markers"]["Wild"]["Britain"]["established"]


def test_exchange_with_nothing_left_fails_and_removes_the_marker():
    state = game(("Britain", 3, "Colony"), markers={"Colony": {"Britain": unest()}})
    cc.resolve(state, {}, ScriptedDice(queue=[1]), fake_data(["EX"] * 6))
    assert strengths(state, "Colony") == [] and "Colony" not in state["markers"]


def test_half_exchange_rounds_half_up_and_player_choice_counts():
    # half of 5 is 2.5 -> at least 3; the player asked to lose the 10 instead
    state = game(("Britain", 10, "Wild"), ("Britain", 3, "Wild"),
                 markers={"Wild": {"Britain": unest()}})
    state["turn_orders"] = {"Britain": [{"power": "Britain", "kind": "eliminate",
                                         "args": {"strength": 10, "area": "Wild"}}]}
    cc.resolve(state, {}, ScriptedDice(queue=[1]), fake_data(["HALF_EX"] * 6))
    assert strengths(state, "Wild") == [3]


def test_attacker_retreat_goes_home_by_land_or_is_eliminated():
    state = game(("France", 3, "Wild"), ("Britain", 1, "Colony"),
                 markers={"Wild": {"France": unest()}, "Colony": {"Britain": unest()}})
    events = cc.resolve(state, {}, ScriptedDice(queue=[1, 1]), fake_data(["AR"] * 6))
    assert strengths(state, "France") == [3]          # overland to the Home Country
    assert [e["reason"] for e in events if e["kind"] == "unit_lost"] == [
        "retreat: no retreat possible"]                 # Britain has no way out
    assert state["markers"] == {}


def test_unrest_successive_attackers_stop_once_defeated():
    # Rules: Unrest in an Influence Area - powers fight in turn until the Area falls.
    state = game(("Britain", 3, "Wild"), ("France", 10, "Wild"), unrest=["Wild"],
                 markers={"Wild": {"Britain": unest(), "France": unest()}})
    state["turn_orders"] = {}
    events = cc.resolve(state, {}, ScriptedDice(queue=[6, 6]), fake_data(["DE"] * 6))
    fights = [e["power"] for e in events if e["kind"] == "colonial_combat"]
    assert fights == ["France", "Britain"]  # stronger first; Britain still fights to establish
    assert state["unrest"] == []
    assert {(c["holder"], c["against"]) for c in state["cb"]} == {
        ("France", "Britain"), ("Britain", "France")}


def test_codominion_members_combine_and_outsiders_may_not_suppress():
    mk = {"status": "protectorate", "established": True}
    state = game(("Britain", 3, "Wild"), ("France", 3, "Wild"), unrest=["Wild"],
                 markers={"Wild": {"Britain": dict(mk), "France": dict(mk)}})
    state["turn_orders"] = {p: [{"power": p, "kind": "suppress", "args": {"area": "Wild"}}]
                            for p in ("Britain", "France")}
    events = cc.resolve(state, {}, ScriptedDice(queue=[2]), fake_data(["DR"] * 6))
    combat = [e for e in events if e["kind"] == "colonial_combat"]
    assert len(combat) == 1 and combat[0]["attack"] == 6 and combat[0]["ratio"] == "1:1"
    assert not cc.may_suppress({"unrest": ["Wild"], "markers": {"Wild": {"Britain": mk}}},
                               "France", "Wild")


def test_cheapest_cover_prefers_least_strength_then_fewest_units():
    units = [{"id": i, "power": "Britain", "strength": s} for i, s in enumerate([1, 1, 1, 3, 10])]
    assert sorted(u["strength"] for u in cc.cheapest_cover(units, 3)) == [3]
    assert sorted(u["strength"] for u in cc.cheapest_cover(units, 4)) == [1, 3]
    assert sorted(u["strength"] for u in cc.cheapest_cover(units, 6)) == [1, 1, 1, 3]
    assert sorted(u["strength"] for u in cc.cheapest_cover(units, 7)) == [10]


def test_fight_accepts_one_power_by_name_and_reports_defeat():
    state = game(("Britain", 3, "Colony"), markers={"Colony": {"Britain": unest()}})
    events = cc.fight(state, fake_data(["DE"] * 6), ScriptedDice(queue=[3]), "Britain",
                      "Colony", "establish")
    assert cc.area_defeated(events) and events[0]["powers"] == ["Britain"]
    assert state["markers"]["Colony"]["Britain"]["established"]


def test_fight_without_armies_is_no_combat():
    state = game(markers={"Colony": {"Britain": unest()}})
    assert cc.fight(state, fake_data(["DE"] * 6), ScriptedDice(queue=[]), ["Britain"],
                    "Colony", "establish") == []


# -- invariants over random boards (real map data) -----------------------------------------
from hypothesis import settings  # noqa: E402

from pbem.kit.dice import SeededDice  # noqa: E402
from games.pax_britannica.core import board, mapdata  # noqa: E402
from games.pax_britannica.phases import marker_adjustment as ma  # noqa: E402
from games.pax_britannica.core.state import new_state  # noqa: E402

DATA = mapdata.load()
AREAS = sorted(DATA.areas)[:30]
POWERS4 = ["Britain", "France", "Germany", "United States", "Spain"]
piece = st.tuples(st.sampled_from(POWERS4), st.sampled_from(AREAS),
                  st.sampled_from(["interest", "influence", "protectorate", "possession"]),
                  st.booleans(), st.sampled_from([0, 1, 3, 10]))


@settings(max_examples=60, deadline=None)
@given(st.lists(piece, max_size=25), st.lists(st.sampled_from(AREAS), max_size=4),
       st.integers(min_value=0, max_value=10**9))
def test_combat_then_adjustment_leave_a_legal_board(pieces, unrest, seed):
    state = new_state(["Britain", "France", "Germany", "United States"], {})
    for power, where, status, established, army in pieces:
        board.set_marker(state, power, where, status, established)
        if army:
            board.add_unit(state, power, "army", army, where)
    state["unrest"] = sorted(set(unrest))
    dice = SeededDice(seed=str(seed), context="test")
    events = cc.resolve(state, {}, dice, DATA) + ma.resolve(state, {}, dice, DATA)
    assert board.jsonable(state) and board.jsonable(events)
    assert state["unrest"] == []
    for area, ms in state["markers"].items():
        assert all(m["established"] for m in ms.values()), area
        ctrl = board.controllers(state, area)
        heavy = any(ms[p]["status"] in ("possession", "dominion", "state") for p in ctrl)
        for p, m in ms.items():
            if p in ctrl:
                assert board.army_strength(state, p, area) > 0, (area, p)
            elif ctrl:
                assert m["status"] == "interest" and not heavy, (area, p, m)
    for u in state["units"]:
        if u["where"] in DATA.areas:
            assert board.has_control(state, u["power"], u["where"]), u


# -- game options of these phases ----------------------------------------------------------
from games.pax_britannica.phases import chinese_resentment as cr  # noqa: E402


def optioned(**options):
    state = new_state(["Britain", "France", "Germany", "United States"], options)
    return state


def test_option_marker_conflicts_negotiation_leaves_the_influence():
    for setting, expected in (("marker_adjustment", "interest"), ("negotiation", "influence")):
        state = optioned(marker_conflicts=setting)
        board.set_marker(state, "Britain", "Egypt", "protectorate", True)
        board.add_unit(state, "Britain", "army", 3, "Egypt")
        board.set_marker(state, "France", "Egypt", "influence", True)
        ma.resolve(state, {}, SeededDice(seed="x"), DATA)
        assert board.status_of(state, "Egypt", "France") == expected


def test_option_garrison_eti_off_reduces_without_tension():
    for setting, eti in ((True, 1), (False, 0)):
        state = optioned(garrison_eti=setting)
        board.set_marker(state, "Britain", "Aden", "protectorate", True)
        ma.resolve(state, {}, SeededDice(seed="x"), DATA)
        assert board.status_of(state, "Aden", "Britain") == "influence" and state["eti"] == eti


def test_option_cri_per_turn_vassals_counts_korea():
    for setting, cri in ((False, 0), (True, 3)):
        state = optioned(cri_per_turn_vassals=setting)
        board.set_marker(state, "France", "Korea", "protectorate", True)
        cr.resolve(state, {}, SeededDice(seed="x"), DATA)
        assert state["cri"] == cri
