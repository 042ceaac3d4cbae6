"""Europa Universalis' sequence of play is a table (games/eu_tpop/sequence.py) that the game
object walks: a round is the Action Phase until every realm has passed, then Phase 3 Peace &
Rebels step by step, A to I (4.3), then the next round."""
from __future__ import annotations

from pbem.base import registry
from pbem.kit.dice import ScriptedDice, SeededDice

from games.eu_tpop import sequence
from games.eu_tpop.phases import peace_and_rebels

GAME = registry.get("eu_tpop")


def test_the_table_holds_every_phase_the_game_can_be_in_in_the_rules_order():
    assert [p.name for p in sequence.SEQUENCE] == ["action", "reaction", "p3", "over"]
    assert [(s.letter, s.title) for s in peace_and_rebels.SEQUENCE] == [
        ("A", "Remove Casus Belli and Truces"), ("B", "NPR Invasions"), ("C", "Rebels Siege or Move"),
        ("D", "Peace Resolution"), ("E", "Prestige Penalties"), ("F", "Interregnum"),
        ("G", "Religious Dissent"), ("H", "Gain/Remove Unrest"), ("I", "Roll Rebel Dice")]


def test_a_round_walks_the_table():
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {"rounds": 2}, ScriptedDice())
    dice = SeededDice(seed="a round")
    seen = []
    while not GAME.is_over(state) and len(seen) < 40:
        info = GAME.phase(state)
        seen.append(info.name if info.name != "peace_and_rebels" else f"p3 {state['step']}")
        given = {p: GAME.defaults(state, p) for p in info.owes}
        state, _ = GAME.resolve(state, given, dice)
    one_round = ["action"] * 3 + [f"p3 {letter}" for letter in "ABCDEFGHI"]
    assert seen == one_round * 2
    assert GAME.phase(state).name == "over" and sequence.row(state).name == "over"


def test_silence_means_what_the_row_says():
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    active = state["active"]
    assert [o.canonical for o in GAME.defaults(state, active)] == ["PASS"]
    assert GAME.describe_defaults(state, active) == "PASS"
    other = next(r for r in ("Valmont", "Corvia", "Ostmark") if r != active)
    assert GAME.defaults(state, other) == []
