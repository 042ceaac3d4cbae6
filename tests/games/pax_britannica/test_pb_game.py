"""The Pax Britannica game object: set-ups, the phase sequence, whole games, reports."""
from __future__ import annotations

import json
import random

import pytest

from games.pax_britannica import GAME, load_data, sequence
from pbem.kit.dice import SeededDice
from pbem.kit.gameapi import GMError

FOUR = ["Britain", "France", "Germany", "United States"]


def test_empty_setup_has_no_pieces_and_starts_1880_random_events():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    assert s["markers"] == {} and s["units"] == [] and s["merchants"] == {}
    assert (s["turn"], s["phase"]) == (1880, "random_events")
    assert s["powers"]["Austria-Hungary"]["great"] and not s["powers"]["Japan"]["great"]


def test_1880_setup_places_the_initial_deployment():
    s = GAME.setup(FOUR, {"setup": "1880"}, None)
    assert GAME.query(s, "marker Canada Britain") == "dominion"
    assert GAME.query(s, "marker Alaska USA") == "possession"
    # Rules: GARRISONS - the Indian Army, three Army (10) Units
    tens = [u for u in s["units"] if u["power"] == "Britain" and u["type"] == "army"
            and u["strength"] == 10 and u["where"] in ("Bengal", "Punjab", "United Provinces")]
    assert len(tens) == 3
    # Rules: SETTING UP THE GAME - a minor Japan gets a second fleet in the South China Sea
    assert GAME.query(s, "merchant South China Sea Japan") == 1


def test_a_played_japan_does_not_get_the_minor_fleet():
    s = GAME.setup(FOUR + ["Japan"], {"setup": "1880"}, None)
    assert GAME.query(s, "merchant South China Sea Japan") == 0


@pytest.mark.parametrize("players", [FOUR[:3], FOUR + ["Japan", "Russia", "Italy", "Spain"]])
def test_setup_refuses_wrong_player_counts(players):
    with pytest.raises(GMError):
        GAME.setup(players, {}, None)


def test_phase_sequence_of_one_turn():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    seen = []
    dice = SeededDice(seed="phases", context="t")
    while s["turn"] == 1880:
        seen.append(s["phase"])
        info = GAME.phase(s)
        assert info.key == f"1880/{s['phase']}"
        assert info.owes == (tuple(FOUR) if s["phase"] == "movement" else ())
        s, _ = GAME.resolve(s, {}, dice)
    assert seen == sequence.PHASES
    assert (s["turn"], s["phase"]) == (1884, "random_events")


@pytest.mark.parametrize("setup", ["empty", "1880"])
def test_ten_turns_without_orders_end_the_game_and_stay_json(setup):
    s = GAME.setup(FOUR + ["Japan"], {"setup": setup}, None)
    steps = 0
    while not GAME.is_over(s):
        s, events = GAME.resolve(s, {}, SeededDice(seed="a" * 64, context=GAME.phase(s).key))
        json.loads(json.dumps(events))
        steps += 1
        assert steps < 400
    assert json.loads(json.dumps(s)) == s
    assert s["turn"] == 1916 and GAME.query(s, "game_over") is True
    if not s.get("great_war"):
        assert steps == 10 * len(sequence.PHASES)
    with pytest.raises(GMError):
        GAME.resolve(s, {}, SeededDice(seed="a"))


def test_great_war_goes_straight_to_the_final_record():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    s = GAME.set_phase(s, "movement", 1888)
    s, _ = GAME.gm_command(s, "SET ETI 99", None)
    s, _ = GAME.gm_command(s, "SET TREASURY France 40", None)
    lines = [(1, "BUILD NAVY 3")]
    orders = GAME.parse_orders(s, "France", lines).orders
    s, events = GAME.resolve(s, {"France": orders}, SeededDice(seed="x"))
    assert s["phase"] == "final_record"
    assert {"kind": "great_war", "blamed": ["France"]} in events


def test_set_phase_checks_names_and_years():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    assert GAME.set_phase(s, "war_attack_1", 1900)["phase"] == "war_attack_1"
    for phase, turn in (("lunch", 1880), ("movement", 1881), ("movement", 1920)):
        with pytest.raises(GMError):
            GAME.set_phase(s, phase, turn)


def test_a_scenario_puts_the_congress_at_a_step():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    at = GAME.set_phase(s, "congress", 1900, "Vote")
    assert at["phase"] == "congress" and at["congress"]["step"] == "vote"
    assert "congress" not in s or s["congress"] is None  # the given state is left alone
    with pytest.raises(GMError, match="step"):
        GAME.set_phase(s, "congress", 1900, "dance")


def test_gm_errors_name_the_problem():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    with pytest.raises(GMError, match="Egypt"):
        GAME.gm_command(s, "SET MARKER Britain protectorate Egipt", None)
    with pytest.raises(GMError):
        GAME.gm_command(s, "SET ARMY Britain 4 Egypt", None)
    with pytest.raises(GMError):
        GAME.query(s, "colour Egypt")


def test_bot_orders_are_always_accepted_and_reports_render():
    rng = random.Random(7)
    s = GAME.setup(FOUR, {"setup": "1880"}, None)
    dice = SeededDice(seed="bot")
    while s["turn"] < 1892:
        orders = {}
        if s["phase"] == "movement":
            for p in FOUR:
                lines = list(enumerate(GAME.bot_orders(s, p, rng), 1))
                parsed = GAME.parse_orders(s, p, lines)
                problems = list(parsed.problems) + GAME.validate(s, p, parsed.orders)
                assert [x for x in problems if x.kind != "warning"] == []
                orders[p] = parsed.orders
        s, events = GAME.resolve(s, orders, dice)
        text = GAME.report(s, events, "Germany").text
        assert "Treasury" in text and "Austria-Hungary" in text
        assert "Treasury" not in GAME.report(s, events, None).text


def test_defaults_are_no_orders_and_mention_a_deficit():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    s, _ = GAME.gm_command(s, "SET DEFICIT Britain 7", None)
    assert GAME.defaults(s, "Britain") == []
    assert "7" in GAME.describe_defaults(s, "Britain")
    assert "deficit" not in GAME.describe_defaults(s, "France")


def test_assumptions_come_from_the_data():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    assert GAME.assumptions(s) == list(load_data(s).assumptions)


def test_results_rank_the_players_when_the_game_ends():
    s = GAME.setup(FOUR, {"setup": "1880"}, None)
    while not GAME.is_over(s):
        s, _ = GAME.resolve(s, {}, SeededDice(seed="r" * 64, context=GAME.phase(s).key))
    results = GAME.results(s)
    assert sorted(r["power"] for r in results) == sorted(s["final"]["vp"])
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True) and results[0]["rank"] == 1


def test_war_phase_starts_a_pending_rebellion():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    s = GAME.set_phase(s, "war", 1884)
    s["pending"]["chinese_rebellion"] = True
    s, _ = GAME.gm_command(s, "SET MARKER Britain influence Manchuria", None)
    s, events = GAME.resolve(s, {}, SeededDice(seed="w"))
    begun = [e for e in events if e["kind"] == "war_begins"]
    assert begun and begun[0]["war_kind"] == "rebellion" and begun[0]["sides"] == [["China"], ["Britain"]]
    assert 1 <= len([u for u in s["units"] if u["power"] == "China"]) <= 6
    assert s["phase"] == "war_alliances"


def test_war_phase_without_war_passes_through():
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "war", 1884)
    assert not GAME.phase(s).open
    s, events = GAME.resolve(s, {}, SeededDice(seed="w"))
    assert events == [] and s["phase"] == "victory_points"


def test_negotiation_without_casus_belli_is_silent():
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "negotiation", 1884)
    s, events = GAME.resolve(s, {}, SeededDice(seed="n"))
    assert events == [] and s["phase"] == "congress"


GM_VOCABULARY = [
    ("SET TREASURY France 12", "treasury France", 12),
    ("SET VP France 7", "vp France", 7),
    ("SET MARKER Britain possession Egypt UNESTABLISHED", "established Egypt Britain", False),
    ("SET MARKER France influence Egypt", "marker Egypt France", "influence"),
    ("REMOVE MARKER France Egypt", "marker Egypt France", "none"),
    ("SET ARMY Britain 3 Egypt", "army Egypt Britain", 3),
    ("SET ARMY China 5 Manchuria", "army Manchuria China", 5),
    ("SET NAVY Britain 10 North Atlantic Ocean", "navy North Atlantic Ocean Britain", 10),
    ("SET NAVY Britain 1 Egypt", "navy Egypt Britain", 1),
    ("REMOVE NAVY Britain 1 Egypt", "navy Egypt Britain", 0),
    ("SET MERCHANT Japan North China Sea", "merchant North China Sea Japan", 1),
    ("SET UNREST Korea", "unrest Korea", True),
    ("CLEAR UNREST Korea", "unrest Korea", False),
    ("SET ETI 40", "eti", 40),
    ("SET CRI 25", "cri", 25),
    ("SET CB Germany France AREA Marocco", "cb Germany France", True),
    ("SET WAR Germany Austria-Hungary VS France", "war France Austria-Hungary", True),
    ("SET TREATY T1 Britain France SECRET", "treaty T1", "in_force"),
    ("SET CANAL Panama", "canal Panama", True),
    ("REMOVE ARMY Britain 3 Egypt", "army Egypt Britain", 0),
]


def test_every_gm_command_of_the_scenario_vocabulary_changes_what_its_query_reads():
    s = GAME.setup(FOUR, {"setup": "empty"}, None)
    for command, query, value in GM_VOCABULARY:
        s, _ = GAME.gm_command(s, command, None)
        assert GAME.query(s, query) == value, command
    assert GAME.query(s, "controller Egypt") == []
    assert GAME.query(s, "phase") == "random_events" and GAME.query(s, "turn") == 1880
    assert "SET TREASURY" in GAME.help_text("gm")
