"""Treaty duties to join a War (Rules: DECLARATIONS OF WAR): one answer a power owes its ally
however many powers declare on the ally, and no duty under a treaty no longer in force."""
from __future__ import annotations

from games.pax_britannica import GAME
from pbem.kit.dice import SeededDice

SIX = ["Britain", "France", "Germany", "United States", "Japan", "Russia"]
SCENE = ("SET MARKER France possession Algiers", "SET ARMY France 3 Algiers",
         "SET MARKER Germany protectorate Kamerun", "SET ARMY Germany 3 Kamerun",
         "SET TREATY T1 Britain Germany CLAUSES DEFENSIVE ALLIANCE",
         "SET CB France Germany AREA Kamerun", "SET CB Russia Germany AREA Kamerun")


def orders(state, power, *lines):
    return GAME.parse_orders(state, power, list(enumerate(lines, 1))).orders


def test_two_declarations_on_an_ally_ask_one_answer_and_a_refusal_is_told_once():
    state = GAME.set_phase(GAME.setup(SIX, {"setup": "empty"}, None), "war", 1884)
    for edit in SCENE:
        state, _ = GAME.gm_command(state, edit, None)
    state, _ = GAME.resolve(state, {"France": orders(state, "France", "DECLARE WAR ON Germany"),
                                    "Russia": orders(state, "Russia", "DECLARE WAR ON Germany")},
                            SeededDice(seed="duty", context="war"))
    duties = [o for o in state["obligations"] if o["power"] == "Britain"]
    assert [(o["ally"], o["treaty"]) for o in duties] == [("Germany", "T1")]
    state, events = GAME.resolve(state, {"Britain": orders(state, "Britain", "REFUSE WAR WITH Germany")},
                                 SeededDice(seed="duty", context="alliances"))
    assert [e["power"] for e in events if e["kind"] == "war_refused"] == ["Britain"]
    text = GAME.report(state, events, "Britain").text
    assert text.count("Britain refuses to join Germany's War") == 1
