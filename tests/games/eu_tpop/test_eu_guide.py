"""Europa Universalis: what a realm may do now (options_now) and HELP on its
orders.  Every choice offered is one the game's own checks accept when sent."""
from __future__ import annotations

import random

import pytest

from games.eu_tpop import GAME
from games.eu_tpop.selfplay import REALMS
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases


def _lines(option) -> list[str]:
    """The order lines an option stands for, one per choice ('<realm>' or '<term> ON <realm>'
    filled in); [] for a form listed without choices."""
    if not option.choices:
        return []
    head = option.form.split("<")[0].rstrip()
    if option.form.startswith("ENFORCE"):
        return [f"ENFORCE {c}" for c in option.choices]
    if option.form.startswith(("RETREAT", "DIPLOMACY", "NEGOTIATE")):
        return []  # a destination or a block: read by their own checks when sent
    return [f"{head} {c}" for c in option.choices]


def _refused(state, power, line) -> list[str]:
    parsed = GAME.parse_orders(state, power, [(1, line)])
    problems = list(parsed.problems) + GAME.validate(state, power, parsed.orders)
    return [p.render() for p in problems if p.kind != "warning"]


@pytest.mark.parametrize("seed", range(3))
def test_every_choice_offered_is_accepted_through_a_whole_game(seed):
    rng = random.Random(seed)
    state = GAME.setup(REALMS, {"rules": "1.2"}, SeededDice(seed=f"guide-{seed}", context="setup"))
    seen = set()
    while not GAME.is_over(state):
        phase = GAME.phase(state)
        for power in (*phase.owes, *phase.may):
            for option in GAME.options_now(state, power):
                seen.add(option.form.split()[0])
                for line in _lines(option):
                    assert not _refused(state, power, line), (phase.label, power, line)
        orders = {}
        for power in phase.owes:
            parsed = GAME.parse_orders(state, power, list(enumerate(GAME.bot_orders(state, power, rng), 1)))
            orders[power] = parsed.orders
        state = run_phases(GAME, state, orders, lambda ph: SeededDice(seed=f"guide-{seed}", context=ph.key))[-1].after
    assert {"DECLARE", "PASS", "STANDING"} <= seen


def test_the_acting_realm_is_offered_its_actions_and_the_others_standing_orders():
    state = GAME.setup(REALMS, {}, SeededDice(seed="guide", context="setup"))
    active = GAME.phase(state).owes[0]
    forms = [o.form for o in GAME.options_now(state, active)]
    assert forms[-1] == "PASS" and any(f.startswith("DECLARE WAR ON") for f in forms)
    other = next(r for r in REALMS if r != active)
    assert all(o.form.startswith(("STANDING", "DIPLOMACY")) for o in GAME.options_now(state, other))


def test_help_on_an_order_its_alias_and_the_peace_terms():
    assert "DECLARE WAR ON <realm>[,<realm>] [CB <type>]" in GAME.help_on(None, None, "declare")
    assert "DECLARE WAR ON" in GAME.help_on(None, None, "DOW")
    assert "keep_current_board_state" in GAME.help_on(None, None, "TERMS")
    assert GAME.help_on(None, None, "Valmont") is None and GAME.help_text("nothing") == ""
    assert "TERMS" in GAME.help_topics(None) and "DECLARE" in GAME.help_topics(None)


def test_help_points_players_to_what_they_have_not_the_readme():
    """Players do not have the README: HELP names where every form and default is found."""
    texts = [GAME.help_text(None), GAME.help_on(None, None, "DECLARE"), GAME.help_on(None, None, "STANDING")]
    assert not any("README" in t for t in texts), texts
    assert "HELP ORDERS" in texts[1] and "HELP STANDING" in texts[0]
    standing = texts[2]
    for line in ("STANDING RETREAT IF OUTNUMBERED|NEVER|ASK", "default IF OUTNUMBERED", "default ASK",
                 "default INF,CAV,ART"):
        assert line in standing, standing


def _step_d(*edits):
    from pbem.kit.dice import ScriptedDice
    from pbem.kit.gameapi import Edit
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    for text in ("SET STEP D", *edits):
        state, _ = GAME.apply(state, Edit(text), ScriptedDice())
    assert GAME.phase(state).key.endswith("peace_and_rebels/D")
    return state


def _menu(state, power) -> dict[str, tuple]:
    return {o.form.split()[0]: o.choices for o in GAME.options_now(state, power)}


def test_the_peace_menu_lists_only_what_may_be_chosen():
    # Valmont occupies Dauvin (inconclusive with Corvia); nothing is occupied in its war with Brenn.
    state = _step_d("SET WAR Valmont VS Corvia Brenn", "SET PROVINCE Dauvin CONTROLLER Valmont")
    valmont, corvia = _menu(state, "Valmont"), _menu(state, "Corvia")
    # 10.1 step 1: the war with Brenn ends by itself: no KEEP WAR, SURRENDER or OFFER on it
    for form in ("KEEP", "SURRENDER", "OFFER"):
        assert "Brenn" not in valmont[form]
    # 10.2: with no victor, no term is enforced by either side (the white peace is offered)
    assert "ENFORCE" not in valmont and "ENFORCE" not in corvia
    assert corvia["OFFER"] == ("Valmont",)


def test_a_total_victory_offers_terms_and_no_keep_war():
    state = _step_d("SET WAR Valmont VS Brenn", "SET PROVINCE Brenn CONTROLLER Valmont",
                    "SET PROVINCE Holm CONTROLLER Valmont")
    menu = _menu(state, "Valmont")
    assert "keep_current_board_state ON Brenn" in menu["ENFORCE"]
    assert "KEEP" not in menu and "OFFER" not in menu
