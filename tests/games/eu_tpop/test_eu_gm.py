"""Europa Universalis: The Price of Power's GM edits are read with a grammar file
(games/eu_tpop/gm.lark) and applied by one function each (gm_edits.py); a bad edit
gets the reply it has always had (the table was taken from the hand-written reader
the grammar replaced)."""
from __future__ import annotations

import re

import pytest

from pbem.base import registry
from pbem.kit.dice import ScriptedDice
from pbem.kit.gameapi import Edit, GMError

from games.eu_tpop import gm, gm_edits

GAME = registry.get("eu_tpop")


@pytest.fixture(scope="module")
def state():
    return GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())


def test_every_edit_of_the_grammar_has_its_function_and_every_command_its_words():
    text = gm.GRAMMAR.lark.source_grammar
    rules = set(re.findall(r"\b(\w+)\b", text[text.index("?edit:"):text.index("surrender:")])) - {"edit"}
    assert rules == set(gm_edits.EDITS)
    words = {w for command in gm.COMMANDS for w in command.split()}
    assert words <= gm.GRAMMAR.keywords()


@pytest.mark.parametrize("line,code,message,suggestion", [
    ("FROB", "gm-edit", "expected MAP or SET or REMOVE or SURRENDER, found FROB", None),
    ("SET WAR Valmont Corvia", "gm-edit", "expected VS, found the end of the line", None),
    ("SET WAR VS Corvia", "gm-edit", "SET WAR <realm> ... VS <realm> ...", None),
    ("MAP PROVINCE Keep IN Valmont TAX 3", "gm-edit", "a province's tax value is 1 or 2", None),
    ("SET STEP Z", "gm-edit", "SET STEP <A-I>", None),
    ("SET OPTION FAST ON", "gm-edit",
     "expected ADVANCED or NPR_INVASIONS or NO_SURRENDER or REFRESH_MANPOWER, found FAST", None),
    ("SET UNITS Valmont Valmont INF x", "gm-edit", "expected a number, found x", None),
    ("SET REALM Nova", "gm-edit", "expected PR or NPR or BOT, found the end of the line", None),
    ("SET RULER Valmont MAYBE", "gm-edit", "expected NONE or YES, found MAYBE", None),
    ("SET LEADER Valmont Anne AT Valmont x", "gm-edit", "unexpected 'x' at the end of the line", None),
    ("SET STANDING Valmont RETREAT x", "gm-edit", "expected NEVER or ASK or OUTNUMBERED, found x", None),
    ("REMOVE UNITS Valmont PORT", "gm-edit", "expected an area or sea or province name", None),
    ("SET PRESTIGE Valmnt 3", "unknown-realm", "there is no realm called 'Valmnt'", "Valmont"),
    ("SURRENDER Corvia TO Valmont", "not-at-war", "Corvia is not at war with Valmont", None),
    # an edit that would leave a piece where no one can move or remove it, or change nothing
    ("SET UNITS Valmont Belcourt INF 2", "units-at-areas",
     "units stand at areas, and Belcourt is a province of the area Valmont: SET UNITS Valmont Valmont ...", None),
    ("SET LEADER Valmont Bob AT Belcourt", "units-at-areas", "a leader stands with its army at an Area or its "
     "fleet at a Sea Zone; Belcourt is a province of the area Valmont", None),
    ("SET SHIPS Valmont Belcourt LIGHT 1", "no-port-there", "Belcourt has no port: ships stand in Sea Zones or in "
     "a port", None),
    ("SET CB Valmont Valmont", "same-realm", "a Casus Belli is between two realms, not Valmont and itself", None),
    ("SET WAR Valmont VS Corvia Valmont", "same-realm", "a war is between two realms, not Valmont and itself", None),
    ("SET DUCATS Valmont 15", "no-change", "SET DUCATS Valmont 15: this changes nothing (the game already stands so)",
     None),
])
def test_a_bad_edit_gets_its_reply(state, line, code, message, suggestion):
    with pytest.raises(GMError) as err:
        GAME.apply(state, Edit(line), ScriptedDice())
    assert (err.value.code, str(err.value), getattr(err.value, "suggestion", None)) == (code, message, suggestion)


def test_an_unknown_command_lists_every_command(state):
    with pytest.raises(GMError) as err:
        GAME.apply(state, Edit("set gold Valmont 3"), ScriptedDice())
    assert err.value.code == "unknown-gm-command"
    assert str(err.value).startswith("unknown GM command SET GOLD (known: MAP AREA, ") and "SET OPTION)" in str(err.value)


def test_edits_in_any_case_with_names_of_several_words(state):
    after, events = GAME.apply(state, Edit("set leader corvia Jean de Valois at corvia dice inf,cav ruler"),
                               ScriptedDice())
    assert after["leaders"]["Corvia"][-1] == {"name": "Jean de Valois", "dice": ["infantry", "cavalry"],
                                              "at": "Corvia", "wounds": 0, "ruler": True}
    after, _ = GAME.apply(after, Edit("SET WAR Valmont Ostmark VS Corvia"), ScriptedDice())
    assert GAME.query(after, "war Valmont Corvia") is True and GAME.query(after, "war Ostmark Corvia") is True
    assert GAME.query(after, "war Valmont Ostmark") is False
    assert events[0] == {"kind": "gm_edit", "text": "set leader corvia Jean de Valois at corvia dice inf,cav ruler"}
    # Corvia's player, and no one else, is told what changed in its position (pbem.kit.positions)
    assert [(e["kind"], e["power"], e["changes"]) for e in events[1:]] == [
        ("position_changed", "Corvia", ["leader Jean de Valois: at Corvia, dice infantry, cavalry, the ruler (new)"])]


def test_every_scenario_query_is_a_form_of_its_grammar_and_reads_names_with_spaces(state):
    from games.eu_tpop import queries
    assert {q.upper() for q in queries.QUERIES} == queries.GRAMMAR.starts("query")
    assert GAME.query(state, "SHIPS western-sea Valmont") == "light=1 heavy=0 damaged=0"
    assert GAME.query(state, 'units "Western Sea" Corvia') == "light=1 heavy=1"


@pytest.mark.parametrize("text,message", [
    ("", "empty query"),
    ("gold Valmont", "unknown query 'gold' (known: prestige, stability, ducats, manpower, exhausted, allied, owner, "
     "controller, occupied, war, truce, alliance, active_ally, marriage, vassal, influence, cb, units, ships, rebels, "
     "unrest, mc, nc, victory, terms, religion, phase, step, round, active, passed, claim, ruler, leader, treaty, "
     "treaties, pending, game_over, realm, cores, loans, treaty_concluded, treaty_says, authority, emperor, colonists)"),
    ("war Valmont", "expected a realm name"),
    ("prestige Valmont Corvia", "unexpected 'Corvia' at the end of the line"),
    ("prestige Rebels", "Rebels is not a realm: it has no prestige"),
    ("ducats rebels", "Rebels is not a realm: it has no ducats"),
    ("influence Marches", "expected a realm name"),
    ("rebels Valmnt", "there is no area called 'Valmnt'"),
])
def test_a_bad_query_is_refused(state, text, message):
    with pytest.raises(GMError, match="^" + re.escape(message) + "$"):
        GAME.query(state, text)


def test_a_refused_edit_keeps_its_suggestion_in_the_gm_reply(state):
    """The GM's reply is made from ``problem()`` (pbem/handlers/gm.py): the suggestion the
    game found must be in it, as it is in a player's reply."""
    with pytest.raises(GMError) as err:
        GAME.apply(state, Edit("SET PRESTIGE Valmnt 3"), ScriptedDice())
    problem = err.value.problem(4)
    assert (problem.code, problem.line, problem.suggestion) == ("unknown-realm", 4, "Valmont")
    assert "(did you mean Valmont?)" in problem.render()


def test_a_surrender_by_the_gm_is_told_with_its_gm_line_like_every_edit(state):
    at_war, _ = GAME.apply(state, Edit("SET WAR Corvia VS Valmont"), ScriptedDice())
    _, events = GAME.apply(at_war, Edit("SURRENDER Corvia TO Valmont"), ScriptedDice())
    assert events[0] == {"kind": "gm_edit", "text": "SURRENDER Corvia TO Valmont"}
    assert [e["kind"] for e in events[1:]] == ["prestige", "prestige", "surrender", "position_changed",
                                               "position_changed"]
    told = {e["power"]: e["changes"] for e in events if e["kind"] == "position_changed"}
    assert told["Corvia"][0].startswith("prestige: ") and "surrendered to: Valmont (was no one)" in told["Corvia"]
    assert told["Valmont"][0].startswith("prestige: ") and "Ostmark" not in told


@pytest.mark.parametrize("line,message", [
    ("REMOVE UNITS Valmont Belcourt", "Valmont has no units at port of Belcourt; units stand at areas, and Belcourt "
     "is a province of the area Valmont (ships in its port: REMOVE UNITS Valmont PORT Belcourt); Valmont's units "
     "are at: Valmont, Western Sea"),
    ("REMOVE UNITS Ostmark Marches", "Ostmark has no units at Marches; Ostmark's units are at: Ostmark"),
    ("REMOVE UNITS Rebels Brenn", "there are no rebels at Brenn (rebels stand at: Marches)"),
    ("REMOVE WAR Valmont Corvia", "there is no war between Valmont and Corvia: nothing to remove"),
    ("REMOVE MARRIAGE Corvia Brenn", "there is no marriage between Corvia and Brenn: nothing to remove"),
    ("REMOVE CB Valmont Tarvo", "Valmont holds no CB on Tarvo: nothing to remove"),
    ("REMOVE CLAIM Corvia Tarvo", "Corvia has no claim on Tarvo: nothing to remove"),
    ("REMOVE LEADER Corvia Armand", "Corvia has no leader 'armand' (its leaders: none)"),
])
def test_a_removal_that_would_change_nothing_is_refused_with_the_reason(state, line, message):
    """A GM edit either applies or is refused: "State edit applied" never covers an edit that did nothing."""
    with pytest.raises(GMError) as err:
        GAME.apply(state, Edit(line), ScriptedDice())
    assert (err.value.code, str(err.value)) == ("nothing-to-remove", message)


def test_a_removal_that_finds_its_units_applies(state):
    after, _ = GAME.apply(state, Edit("REMOVE UNITS Valmont Valmont"), ScriptedDice())
    assert "Valmont" not in after["units"].get("Valmont", {}) and "Valmont" in state["units"]["Valmont"]
    after, _ = GAME.apply(state, Edit("REMOVE MARRIAGE Valmont Brenn"), ScriptedDice())
    assert "Valmont|Brenn" not in after["marriages"]
