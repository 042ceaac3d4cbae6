"""Europa Universalis says what it means in plain English: one unit is "1 unit", a refusal is
not "refused (refused)", and a truce made in the last round says the game ends first."""
from __future__ import annotations

from pbem.base import registry
from pbem.kit.dice import ScriptedDice
from pbem.kit.gameapi import Edit

from games.eu_tpop import peace_records
from games.eu_tpop.sentences import sentence

GAME = registry.get("eu_tpop")


def _state(*edits: str, rounds: int = 3):
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {"rounds": rounds}, ScriptedDice())
    for line in edits:
        state, _ = GAME.apply(state, Edit(line), ScriptedDice())
    return state


def test_one_of_a_thing_is_said_in_the_singular():
    assert sentence({"kind": "move", "realm": "Valmont", "units": 1, "path": ["Valmont", "Marches"]}) == \
        "Valmont moves 1 unit: Valmont -> Marches."
    assert sentence({"kind": "move", "realm": "Valmont", "units": 2, "path": ["Valmont", "Marches"]}) == \
        "Valmont moves 2 units: Valmont -> Marches."
    assert sentence({"kind": "naval_move", "realm": "Corvia", "ships": 1, "from": "Western Sea",
                     "to": "Middle Sea"}) == "Corvia sails 1 ship from Western Sea to Middle Sea."
    assert sentence({"kind": "npr_invasion", "npr": "Tarvo", "area": "Marches", "units": 1}) == \
        "Tarvo invades Marches with 1 unit."


def test_recruiting_more_allied_units_than_the_reserve_holds_says_one_allied_unit():
    state = _state("SET ALLIED Corvia 1", "SET ACTIVE Corvia")
    parsed = GAME.parse_orders(state, "Corvia", [(1, "RECRUIT 2 INF IN Corvia ALLIED")])
    problems = GAME.validate(state, "Corvia", parsed.orders)
    assert [(p.code, p.message) for p in problems if p.code == "no-allied-units"] == [
        ("no-allied-units", "you have 1 allied unit in your manpower reserve")]


def test_a_call_to_arms_refused_is_not_refused_twice():
    e = {"kind": "cta", "from": "Valmont", "to": "Ostmark", "defensive": False, "answer": "refused", "why": "refused"}
    assert sentence(e) == "Offensive Call to Arms from Valmont to Ostmark: refused."
    e["why"] = "the Emperor does not defend the HRE"
    assert sentence(e) == "Offensive Call to Arms from Valmont to Ostmark: refused (the Emperor does not defend the HRE)."


def test_a_truce_made_in_the_last_round_outlasts_the_game_and_says_so():
    """10.4: a truce lasts until the next Phase 3; in the last round there is none."""
    last = _state("SET WAR Valmont VS Corvia", rounds=3)
    last["round"] = 3
    events: list = []
    record = peace_records.conclude(last, "Valmont", "Corvia", "white_peace", "partial", "enforced", [], events)
    truce = next(e for e in events if e["kind"] == "truce")
    assert truce["until"] == 4 and truce["game_ends"] == 3
    assert sentence(truce) == "Truce between Valmont and Corvia for the rest of the game (it ends with round 3)."
    text = " ".join(record["text"].split())
    assert "round 4" not in text.replace("until Phase 3 of round 4, and", "")
    assert "Truce between Valmont and Corvia for the rest of the game (it would last until Phase 3 of round 4, " \
           "and the game ends with round 3): neither may declare war on the other again (10.4)." in text
    earlier = _state("SET WAR Valmont VS Corvia", rounds=3)
    events = []
    record = peace_records.conclude(earlier, "Valmont", "Corvia", "white_peace", "partial", "enforced", [], events)
    assert "game_ends" not in next(e for e in events if e["kind"] == "truce")
    assert "until Phase 3 (Peace & Rebels) of round 2" in " ".join(record["text"].split())
