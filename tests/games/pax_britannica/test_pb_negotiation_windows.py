"""Pax Britannica: a Casus Belli the Negotiation's own orders give, and a secret treaty broken
during the turn, reach a window in which their holders can use them; a three-cornered War
plays its Third Alliance's phases.

Rules: NEGOTIATION (4); TREATIES (secret treaties); DECLARATIONS OF WAR (three-cornered War).
Each flow is played through the game object as the moderator plays it: orders read and judged,
phases resolved until the next one that owes orders, the window each opens."""
from __future__ import annotations

from games.pax_britannica import GAME
from pbem.kit.dice import ScriptedDice, SeededDice
from pbem.kit.engine import run_phases
from pbem.kit.gameapi import Ruling, TreatyAction

FOUR = ["Britain", "France", "Germany", "United States"]
SIX = ["Britain", "France", "Germany", "United States", "Japan", "Russia"]


def board(*edits, phase="negotiation", players=FOUR):
    s = GAME.set_phase(GAME.setup(players, {"setup": "empty"}, None), phase, 1884)
    for e in edits:
        s, _ = GAME.gm_command(s, e, None)
    return s


def step(s, orders=None, dice=None):
    """Resolve the phase with these orders (each must be accepted) and every phase after it
    that owes nothing; the state and the events."""
    parsed = {}
    for power, lines in (orders or {}).items():
        result = GAME.parse_orders(s, power, list(enumerate(lines, 1)))
        problems = result.problems + GAME.validate(s, power, result.orders)
        assert not [p for p in problems if p.kind != "warning"], [p.render() for p in problems]
        for o in result.orders:
            parsed.setdefault(o.power, []).append(o)
    steps = run_phases(GAME, s, parsed, lambda ph: dice or SeededDice(seed="w", context=ph.key))
    return steps[-1].after, [e for st in steps for e in st.events]


def forms(s, power):
    return {o.form: o for o in GAME.options_now(s, power)}


def test_a_codominions_casus_belli_is_used_in_the_negotiations_next_window():
    s = board("SET MARKER Britain protectorate Egypt", "SET ARMY Britain 3 Egypt",
              "SET MARKER France influence Egypt", "SET MARKER Germany influence Egypt",
              "SET TREASURY France 12", "SET CB France Britain AREA Egypt",
              "SET CB Germany Britain AREA Egypt")
    first = GAME.phase(s)
    s, events = step(s, {"Britain": ["CODOMINION Egypt WITH France"],
                         "France": ["CODOMINION Egypt WITH Britain"], "Germany": ["DONE"]})
    assert any(e["kind"] == "codominion" for e in events)
    # the Casus Belli is not struck off, Germany's Influence is not cleared: another window opens
    assert not [e for e in events if e["kind"] == "cb" and e["holder"] == "Germany" and e["removed"]]
    second = GAME.phase(s)
    assert s["phase"] == "negotiation" and second.key != first.key and second.key == "1884/negotiation/2"
    assert "window 2" in second.label
    assert set(second.owes) == {"France", "Germany"}
    assert forms(s, "Germany")["DECLARE WAR ON <power>[,<power>...]"].choices == ("Britain", "France")
    assert "CALL CONGRESS AT <site>" in forms(s, "Germany")
    s, events = step(s, {"Germany": ["DECLARE WAR ON France", "DONE"], "France": ["DONE"]})
    assert [e["against"] for e in events if e["kind"] == "declaration" and e["by"] == "Germany"] == [["France"]]
    assert s["phase"] != "negotiation"


def test_an_unused_codominion_casus_belli_is_cleared_after_the_last_window():
    s = board("SET MARKER Britain protectorate Egypt", "SET ARMY Britain 3 Egypt",
              "SET MARKER France influence Egypt", "SET MARKER Germany influence Egypt",
              "SET TREASURY France 12")
    s, _ = step(s, {"Britain": ["CODOMINION Egypt WITH France"], "France": ["CODOMINION Egypt WITH Britain"]})
    assert s["phase"] == "negotiation" and s["markers"]["Egypt"]["Germany"]["status"] == "influence"
    s, events = step(s, {"Germany": ["DONE"], "France": ["DONE"]})
    assert "Germany" not in s["markers"]["Egypt"]
    assert s["phase"] != "negotiation"


def test_a_secret_treaty_broken_in_movement_is_revealed_and_used_in_negotiation():
    s = board("SET TREATY T1 France Britain SECRET CLAUSES France: NO MARKERS IN Marocco",
              "SET TREASURY France 20", 'SET MERCHANT France "Mediterranean Sea"', phase="movement")
    s, events = step(s, {"France": ["BUY INTEREST Marocco"], "Britain": [], "Germany": [],
                         "United States": []})
    assert s["treaties"]["T1"]["status"] == "broken"
    assert s["phase"] == "negotiation", "the turn must stop where the injured signer can reveal it"
    assert GAME.phase(s).owes == ("Britain",)
    reveal = forms(s, "Britain")["TREATY REVEAL <id>"]
    assert reveal.choices == ("T1",)
    # a power that is no party is not told of the treaty
    assert "TREATY REVEAL <id>" not in forms(s, "Germany")
    assert "T1" not in GAME.report(s, [], "Germany").text
    s, events = GAME.treaty(s, TreatyAction("reveal", "Britain", "T1", at="t"), None)
    assert any(e["kind"] == "cb" and e["holder"] == "Britain" and e["against"] == "France" for e in events)
    s, events = step(s, {"Britain": ["DECLARE WAR ON France", "DONE"]})
    assert any(e["kind"] == "declaration" and e["by"] == "Britain" for e in events)


def test_a_secret_treaty_broken_after_the_negotiation_is_offered_at_the_war_phase():
    s = board("SET TREATY T1 France Britain SECRET CLAUSES France: NO MARKERS IN Marocco", phase="war")
    s, _ = GAME.rule(s, Ruling("T1", "BROKEN BY France"), None)
    assert s["treaties"]["T1"]["status"] == "broken"
    assert GAME.phase(s).owes == ("Britain",)
    assert "TREATY REVEAL T1" in forms(s, "Britain")


def test_a_three_cornered_war_plays_a_third_alliance_and_each_window_has_its_own_key():
    s = board("SET MARKER Britain possession Egypt", "SET ARMY Britain 3 Egypt",
              "SET MARKER France possession Algiers", "SET ARMY France 3 Algiers",
              "SET MARKER Japan protectorate Korea", "SET ARMY Japan 1 Korea",
              "SET CB Britain France AREA Egypt", "SET CB France Japan AREA Korea",
              "SET CB Japan Britain AREA Egypt", phase="war", players=SIX)
    eti = s["eti"]
    s, events = step(s, {"Britain": ["DECLARE WAR ON France"], "France": ["DECLARE WAR ON Japan"],
                         "Japan": ["DECLARE WAR ON Britain"]}, dice=ScriptedDice(queue=[6, 4, 2]))
    assert not [e for e in events if e["kind"] == "order_failed"]
    assert s["eti"] == eti + 15
    war = s["wars"][0]
    assert war["sides"] == [["Japan"], ["France"], ["Britain"]]
    keys, labels = [], []
    for _ in range(3):
        info = GAME.phase(s)
        keys.append(info.key)
        labels.append(info.label)
        s, _ = step(s, {})
    assert len(set(keys)) == 3
    assert "Third Alliance Maneuver (Britain)" in labels[2]
