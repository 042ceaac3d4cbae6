"""Pax Britannica tells a player why a window asks nothing of it (Game.nothing_due), so the
moderator's refusal of its orders says the rule, not only that nothing is due."""
from __future__ import annotations

from games.pax_britannica import GAME

SIX = ["Britain", "France", "Germany", "United States", "Japan", "Russia"]


def at(phase: str, *gm: str) -> dict:
    state = GAME.setup(SIX, {"setup": "empty"}, None)
    state = GAME.set_phase(state, phase, 1884)
    for line in gm:
        state = GAME.gm_command(state, line, None)[0]
    return state


def test_a_power_without_a_casus_belli_is_told_it_declares_no_war():
    state = at("war", "SET CB Britain France AREA Egypt")
    assert GAME.phase(state).owes == ("Britain",) and not GAME.phase(state).takes_orders_from("Russia")
    why = GAME.nothing_due(state, "Russia")
    assert why.startswith("you hold no Casus Belli, and only a power with one declares War")


def test_a_casus_belli_that_cannot_be_used_is_named_with_the_reason():
    state = at("war", "SET CB Britain France AREA Egypt", "SET CB Russia Japan AREA Korea",
               "SET WAR Russia VS Japan")
    assert "Russia" not in GAME.phase(state).owes
    assert GAME.nothing_due(state, "Russia") == ("none of your Casus Belli may be used now: Russia is already "
                                                 "at War with Japan")


def test_the_german_player_answers_for_austria_hungary():
    state = at("war", "SET CB Britain France AREA Egypt", "SET CB Austria-Hungary Russia AREA Serbia")
    assert "Germany" in GAME.phase(state).owes and GAME.nothing_due(state, "France").startswith("you hold no")


def test_a_power_outside_a_congress_is_told_why_it_is_not_heard():
    state = at("congress", "SET MARKER Britain protectorate Egypt", "SET MARKER France influence Egypt",
               "SET CB France Britain AREA Egypt", "SET CONGRESS Germany CALLER France", "SET STEP propose")
    phase = GAME.phase(state)
    assert not phase.takes_orders_from("Japan") and not phase.takes_orders_from("Russia")
    assert GAME.nothing_due(state, "Japan").startswith("Japan is not a member of the Congress in Germany: "
                                                       "the United States and Japan sit")
    assert GAME.nothing_due(state, "Russia") == "Russia is not a member of the Congress in Germany (it did not attend)"
