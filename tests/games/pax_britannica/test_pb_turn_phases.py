"""Unit tests of the Pax Britannica turn phases the scenario files cannot reach easily:
deficit settlement, forced-expenditure bookkeeping, treaty bonuses, Great War blame,
ranking, piece limits, and whole-phase purity over many seeds."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as hs

from games.pax_britannica.core import board, mapdata, state as st
from games.pax_britannica.phases import (administrative, final_record, minor_powers, random_events, victory_points)
from pbem.kit.dice import ScriptedDice, SeededDice

FOUR = ["Britain", "France", "Germany", "United States"]


@pytest.fixture(scope="module")
def data():
    return mapdata.load()


def fresh(players=FOUR, options=None) -> dict:
    return st.new_state(players, options or {})


def order(kind: str, **args) -> dict:
    return {"power": "France", "kind": kind, "args": args, "canonical": kind, "line": 1}


def france_in_algiers(state: dict) -> None:
    board.set_marker(state, "France", "Algiers", "possession", True)
    state["merchants"]["Mediterranean Sea"] = ["France"]


# -- NET INCOME RECORD: settling a deficit -----------------------------------------------

def test_deficit_player_remove_order_counts_first(data):
    s = fresh()
    france_in_algiers(s)
    board.add_unit(s, "France", "army", 1, "Algiers")
    board.add_unit(s, "France", "navy", 10, "Algiers")
    board.add_unit(s, "France", "army", 3, "Algiers")
    s["pending"]["deficit"] = {"France": 3}
    events = administrative.settle_deficit(
        s, data, "France", [order("remove", type="army", strength=3, where="Algiers")])
    assert board.army_strength(s, "France", "Algiers") == 1
    assert board.navy_strength(s, "France", "Algiers") == 10
    assert "deficit" not in s["pending"]
    assert events[-1] == {"kind": "deficit_settled", "power": "France", "short": 0}


def test_deficit_default_removes_the_nearest_cover_of_surplus_units(data):
    s = fresh()
    france_in_algiers(s)
    for strength in (1, 3, 3, 10):
        board.add_unit(s, "France", "army", strength, "Algiers")
    s["pending"]["deficit"] = {"France": 4}
    administrative.settle_deficit(s, data, "France", [])
    # the 1 stays as garrison (smallest army of a Controlled Area); 3 + 3 >= 4 beats 10
    left = sorted(u["strength"] for u in board.units_of(s, "France", "Algiers"))
    assert left == [1, 10]
    assert s["powers"]["France"]["treasury"] == 0


def test_deficit_never_removes_the_last_garrison_then_downgrades_influence(data):
    s = fresh()
    france_in_algiers(s)
    board.add_unit(s, "France", "army", 1, "Algiers")
    board.set_marker(s, "France", "Marocco", "influence", True)
    s["pending"]["deficit"] = {"France": 5}
    events = administrative.settle_deficit(s, data, "France", [])
    assert board.army_strength(s, "France", "Algiers") == 1
    assert board.status_of(s, "Marocco", "France") == "interest"
    assert s["eti"] == 1  # Rules: EUROPEAN TENSION INCREASES, one step
    assert any(e["kind"] == "eti" and e["blame"] == "France" for e in events)


def test_deficit_gives_up_a_controlled_area_last(data):
    s = fresh()
    france_in_algiers(s)
    board.add_unit(s, "France", "army", 3, "Algiers")
    s["pending"]["deficit"] = {"France": 12}
    administrative.settle_deficit(s, data, "France", [])
    assert board.status_of(s, "Algiers", "France") == "influence"
    assert board.units_of(s, "France", "Algiers") == []
    assert s["eti"] == 2  # possession -> protectorate -> influence


def test_forced_expenditure_keeps_units_and_drops_markers_first(data):
    s = fresh()
    france_in_algiers(s)
    board.add_unit(s, "France", "army", 1, "Algiers")
    board.add_unit(s, "France", "navy", 10, "Algiers")
    board.set_marker(s, "France", "Marocco", "influence", True)
    s["turn_effects"] = {"forced": {"France": {"amount": 30, "naval_only": False,
                                               "excluding": None, "event": "x"}}}
    s["pending"]["deficit"] = {"France": 5}
    administrative.settle_deficit(s, data, "France", [])
    assert board.navy_strength(s, "France", "Algiers") == 10
    assert board.status_of(s, "Marocco", "France") == "interest"


def test_nearest_cover_prefers_the_least_total_then_fewest_units():
    units = [{"id": i, "strength": v} for i, v in enumerate([10, 3, 3, 1, 1, 1])]
    chosen = administrative.nearest_cover(units, 5, lambda u: u["strength"])
    assert sum(u["strength"] for u in chosen) == 5
    assert len(chosen) == 3
    assert administrative.nearest_cover(units[:1], 20, lambda u: u["strength"]) == units[:1]


# -- Forced Expenditures: what the Administrative Phase counts ----------------------------

def test_conservative_victory_does_not_count_the_indian_army(data):
    s = fresh()
    for area in ("Bengal", "Hindoostan", "Punjab"):
        board.set_marker(s, "Britain", area, "possession", True)
        board.add_unit(s, "Britain", "army", 10, area)
    board.add_unit(s, "Britain", "army", 3, "Bengal")
    s["turn_effects"] = {"forced": {"Britain": {"amount": 30, "naval_only": False,
                                                "excluding": "indian_army", "event": "x"}}}
    administrative.record(s, data, ScriptedDice(queue=[1]), "Britain")
    forced = s["turn_effects"]["forced"]["Britain"]
    assert forced["paid"] == 3 and forced["remaining"] == 27


def test_navy_league_counts_naval_maintenance_only(data):
    s = fresh()
    board.set_marker(s, "Germany", "Kamerun", "protectorate", True)
    board.add_unit(s, "Germany", "army", 3, "Kamerun")
    board.add_unit(s, "Germany", "navy", 10, "Kamerun")
    s["turn_effects"] = {"forced": {"Germany": {"amount": 20, "naval_only": True,
                                                "excluding": None, "event": "x"}}}
    administrative.record(s, data, ScriptedDice(queue=[1]), "Germany")
    assert s["turn_effects"]["forced"]["Germany"]["remaining"] == 10


# -- Victory Points -----------------------------------------------------------------------

@given(hs.integers(min_value=0, max_value=5000))
def test_divide_loses_fractions_exactly(amount):
    assert victory_points.divide(amount, 10) == amount // 10
    assert victory_points.divide(amount, 2.5) == (2 * amount) // 5


def test_revealed_treaties_earn_the_option_amount_secret_ones_nothing(data):
    s = fresh(options={"treaty_vp": 2})
    s["treaties"] = {"T1": {"parties": ["Britain", "Austria-Hungary"], "secret": False,
                            "status": "in_force"},
                     "T2": {"parties": ["France", "Britain"], "secret": True,
                            "status": "in_force"},
                     "T3": {"parties": ["France", "Germany"], "secret": False,
                            "status": "broken"}}
    victory_points.resolve(s, {}, ScriptedDice(), data)
    vp = {p: s["powers"][p]["vp"] for p in FOUR}
    assert vp == {"Britain": 2, "France": 0, "Germany": 2, "United States": 0}


def test_the_blamed_power_loses_triple_the_track_penalty(data):
    s = fresh()
    s["turn"] = 1900
    s["great_war"] = {"blamed": ["France"], "turn": 1900}
    final_record.resolve(s, {}, ScriptedDice(), data)
    assert s["powers"]["France"]["vp"] == -30
    assert s["powers"]["Britain"]["vp"] == -10
    assert s["game_over"] is True


def test_ranking_shares_a_rank_on_equal_totals():
    ranks = final_record.ranking({"Britain": 10, "France": 12, "Germany": 10, "Japan": 3})
    assert [(r["power"], r["rank"]) for r in ranks] == [
        ("France", 1), ("Britain", 2), ("Germany", 2), ("Japan", 4)]


def test_final_record_keeps_the_sheet_lines(data):
    s = fresh()
    s["turn"] = 1916
    s["powers"]["France"]["vp"] = 7
    final_record.resolve(s, {}, ScriptedDice(), data)
    assert s["final"]["lines"]["France"] == {"27": 7, "28": 0, "29": 0, "30": 0, "31": 7}
    assert s["final"]["ranks"][0] == {"power": "France", "vp": 7, "rank": 1}


# -- Minor Powers and their pieces ---------------------------------------------------------

def _seven() -> dict:
    return fresh(["Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy"])


def test_minor_power_with_every_marker_in_use_is_inactive(data):
    s = _seven()
    limits = data.counter_limits["Netherlands"]
    areas = sorted(data.areas)
    for area in areas[:limits["round"]]:
        board.set_marker(s, "Netherlands", area, "interest", True)
    for area in areas[limits["round"]:limits["round"] + limits["hex"]]:
        board.set_marker(s, "Netherlands", area, "possession", True)
    events = minor_powers.activity(s, data, ScriptedDice(queue=[1]), "Netherlands", {}, set())
    assert events[0]["active"] is False and events[0]["reason"] == "no markers available"


def test_minor_power_without_an_army_piece_places_influence_instead(data):
    s = _seven()
    s["merchants"] = {sea: ["Netherlands"] for sea in
                      ("North Atlantic Ocean", "South Atlantic Ocean", "Indian Ocean",
                       "South China Sea")}
    limits = data.counter_limits["Netherlands"]
    spots = iter(a for a in sorted(data.areas) if a != "Sarawak")
    for strength in (1, 3, 10):
        for _ in range(limits[f"units_{strength}"]):
            board.add_unit(s, "Netherlands", "army", strength, next(spots))
    # active (1), 2+2 = 4: Sarawak; every army stands alone, the tray is empty
    events = minor_powers.activity(s, data, ScriptedDice(queue=[1, 2, 2]), "Netherlands",
                                   {}, set())
    assert events[0]["marker"] == "influence"
    assert board.status_of(s, "Sarawak", "Netherlands") == "influence"


# -- whole phases: pure JSON in, JSON out -----------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(hs.text(alphabet="0123456789abcdef", min_size=4, max_size=12))
def test_a_seeded_turn_start_keeps_plain_json_state(seed):
    data = mapdata.load()
    s = st.apply_1880(fresh(), data)
    dice = SeededDice(seed=seed, context="1880/turn")
    for phase in (random_events, administrative, minor_powers):
        events = phase.resolve(s, {}, dice, data)
        assert board.jsonable(s) and board.jsonable(events)
        assert events and all(isinstance(e.get("kind"), str) for e in events)
    assert len(s["unrest"]) == len(set(s["unrest"]))
    assert all(s["powers"][p]["treasury"] >= 0 for p in s["powers"])
    json.dumps(s)


def test_random_events_clear_last_turns_effects_and_orders(data):
    s = fresh()
    s["turn_effects"] = {"forced": {"France": {"amount": 30}}}
    s["turn_orders"] = {"France": [{"kind": "move"}]}
    random_events.resolve(s, {}, ScriptedDice(queue=[1, 1, 6]), data)
    assert s["turn_orders"] == {}
    assert "forced" not in s["turn_effects"]
    assert s["turn_effects"]["events"] == ["1-6"]


def test_deficit_player_downgrade_orders_step_down_their_markers(data):
    s = fresh()
    france_in_algiers(s)
    board.add_unit(s, "France", "army", 3, "Algiers")
    board.set_marker(s, "France", "Tunis", "influence", True)
    s["merchants"]["Mediterranean Sea"] = ["France"]
    s["pending"]["deficit"] = {"France": 12}
    administrative.settle_deficit(s, data, "France", [
        order("downgrade", area="Algiers"), order("downgrade", area="Tunis", to="none")])
    assert board.status_of(s, "Algiers", "France") == "protectorate"  # saves 10
    assert board.status_of(s, "Tunis", "France") is None              # saves 5
    assert board.army_strength(s, "France", "Algiers") == 3
    assert s["eti"] == 3
