"""Europa Universalis: what a realm owes in the window the game is in (the game's
``obligations``, obligations.py), and that the checks of its orders read the same facts.
Rules: 4.3; 11.3 Receiving a CtA; 9.7 steps 1 and 6; 10.1 steps 1 and 2; 10.2."""
from __future__ import annotations

from games.eu_tpop import GAME
from games.eu_tpop import obligations as duties
from pbem.kit import audience
from pbem.kit.dice import ScriptedDice, SeededDice
from pbem.kit.gameapi import Edit

REALMS = ["Valmont", "Corvia", "Ostmark"]


def _step_d(*edits):
    state = GAME.setup(REALMS, {}, ScriptedDice())
    for text in ("SET STEP D", *edits):
        state, _ = GAME.apply(state, Edit(text), ScriptedDice())
    assert GAME.phase(state).key.endswith("peace_and_rebels/D")
    return state


def _codes(state, power, line):
    parsed = GAME.parse_orders(state, power, [(1, line)])
    return {p.code for p in list(parsed.problems) + GAME.validate(state, power, parsed.orders)}


def test_the_acting_realm_owes_its_action_and_the_others_nothing():
    state = GAME.setup(REALMS, {}, SeededDice(seed="obligations", context="setup"))
    active = GAME.phase(state).owes[0]
    owed = GAME.obligations(state, active)
    assert [(o.kind, o.rule) for o in owed] == [("must", "4.3")] and "PASS" in owed[0].text
    assert owed[0].audience == audience.powers(active)
    assert all(GAME.obligations(state, r) == [] for r in REALMS if r != active)


def test_a_total_victory_must_be_enforced_and_the_report_and_the_refusal_say_so_from_one_fact(monkeypatch):
    state = _step_d("SET WAR Valmont VS Brenn", "SET PROVINCE Brenn CONTROLLER Valmont",
                    "SET PROVINCE Holm CONTROLLER Valmont")
    owed = GAME.obligations(state, "Valmont")
    assert [(o.kind, o.rule) for o in owed] == [("must", "10.1 step 2")]
    assert owed[0].text.startswith("You have a Total Victory over Brenn: you must enforce a term")
    assert "total-victory" in _codes(state, "Valmont", "KEEP WAR Brenn")
    offers = lambda: [o.choices for o in GAME.options_now(state, "Valmont") if o.form.startswith("OFFER")]  # noqa: E731
    assert offers() == []
    # The one fact both read: changed, the report and the checks change together.
    monkeypatch.setattr(duties, "must_enforce", lambda state, realm, enemy: False)
    assert GAME.obligations(state, "Valmont")[0].text.startswith("Decide your war with Brenn")
    assert "total-victory" not in _codes(state, "Valmont", "KEEP WAR Brenn")
    assert offers() == [("Brenn",)]   # what may be done now reads it too


def test_each_war_in_peace_resolution_says_what_it_asks():
    # Valmont occupies Dauvin (inconclusive with Corvia); nothing is occupied in its war with Brenn.
    state = _step_d("SET WAR Valmont VS Corvia Brenn", "SET PROVINCE Dauvin CONTROLLER Valmont")
    owed = {o.text.split(":")[0]: o for o in GAME.obligations(state, "Valmont")}
    brenn = next(o for o in owed.values() if "Brenn" in o.text)
    assert brenn.kind == "effect" and brenn.rule == "10.1 step 1" and "Automatic White Peace" in brenn.text
    corvia = next(o for o in owed.values() if "Corvia" in o.text)
    assert corvia.kind == "must" and "no side is victorious" in corvia.text
    assert GAME.obligations(state, "Ostmark") == []   # at peace: nothing to decide


def test_a_call_to_arms_a_leader_and_a_retreat_are_owed_by_the_realm_asked_alone():
    state = GAME.setup(REALMS, {}, SeededDice(seed="obligations", context="setup"))
    asked = dict(state, phase="reaction", pending={"kind": "cta", "realm": "Corvia", "caller": "Valmont",
                                                    "enemies": ["Ostmark"], "default": "REFUSE"})
    owed = GAME.obligations(asked, "Corvia")
    assert [(o.kind, o.rule) for o in owed] == [("must", "11.3 Receiving a CtA")]
    assert "Valmont's Call to Arms against Ostmark" in owed[0].text and "no answer: REFUSE" in owed[0].text
    assert GAME.obligations(asked, "Valmont") == [] and GAME.obligations(asked, "Ostmark") == []
    leader = dict(asked, pending={"kind": "leader", "realm": "Corvia", "loc": "Dauvin", "choices": ["Anne"],
                                  "attacker": True, "default": "LEADER BEST"})
    assert GAME.obligations(leader, "Corvia")[0].rule == "9.7 step 1"
    retreat = dict(asked, pending={"kind": "retreat", "realm": "Corvia", "loc": "Dauvin", "round": 2,
                                   "default": "FIGHT"})
    assert GAME.obligations(retreat, "Corvia")[0].rule == "9.7 step 6"
    assert GAME.obligations(dict(state, over=True), GAME.phase(state).owes[0]) == []
