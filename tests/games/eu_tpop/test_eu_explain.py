"""Europa Universalis: reports that say why.  A battle told to its parties with each side's
strength, its dice as numbers and what they were, every die a leader or a card adds and who
chose the losses; a realm not party to it reads what the board shows.  A leader whose army is
gone is not said to be with it."""
from __future__ import annotations

from pbem.base import registry
from pbem.kit.dice import ScriptedDice
from pbem.kit.gameapi import Edit

GAME = registry.get("eu_tpop")


def _state(*edits):
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    for edit in edits:
        state, _ = GAME.apply(state, Edit(edit), ScriptedDice())
    return state


def test_a_leader_whose_army_is_gone_is_not_said_to_be_with_it():
    state = _state("SET LEADER Corvia Anne AT Marches DICE inf", "SET UNITS Corvia Marches INF 0")
    text = GAME.report(state, [], "Corvia").text
    assert "with your forces in Marches" not in text
    assert "Anne (infantry) in Marches, no forces of yours left there" in text
    from pbem.reporting import render
    html = str(render.report_html(GAME, GAME.report(state, [], "Corvia")))
    assert "in Marches, no forces of yours left there" in html and "with your forces" not in html
