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


def _fight(edits, lines, dice):
    """Valmont acts with ``lines``; the events stamped with their audiences, and the final state."""
    from pbem.kit import audience
    from pbem.kit.engine import run_phases
    state = _state(*edits)
    script = ScriptedDice()
    script.push(list(dice))
    parsed = GAME.parse_orders(state, "Valmont", list(enumerate(lines, 1)))
    assert not parsed.problems and not GAME.validate(state, "Valmont", parsed.orders)
    steps = run_phases(GAME, state, {"Valmont": list(parsed.orders)}, lambda _p: script)
    events = [e for s in steps for e in GAME.stamp(s.after, s.events)]
    book = audience.book_of(GAME.treaty_records(steps[-1].after, None, gm=True))

    def read(reader):
        return GAME.report(steps[-1].after, [e for e in events if audience.admits(audience.of(e), reader, book)],
                           reader).text
    return events, read


BT01 = (["SET WAR Valmont VS Corvia", "SET REBELS Marches 0", "SET UNITS Corvia Marches INF 2",
         "SET LEADER Valmont Turenne AT Valmont DICE inf,cav", "SET STANDING Valmont LEADER Turenne"],
        ["ACTIVATE Valmont TO Marches"], [3, 3, 5, 1, 4, 3, 1, 1])


def test_the_parties_read_strengths_each_die_with_its_cause_and_who_chose_the_losses():
    events, read = _fight(*BT01)
    valmont, corvia = read("Valmont"), read("Corvia")
    for text in (valmont, corvia):
        assert "Round 1: Valmont rolled 3 3 5 1 4 (3 hits)" in text, text
        assert "Corvia rolled 3 1 1 (1 hit)" in text
        assert "Valmont attacked with 3 inf, 1 cav; 5 dice" in text
        assert "infantry and cavalry (leader Turenne)" in text and "3 infantry (base)" in text
        assert "rolled 3 (infantry) 3 (infantry) 5 (" in text
        assert "Corvia defended with 2 inf; 3 dice: 3 infantry (base); rolled 3 (infantry) 1 (nothing)" \
               " 1 (nothing); 1 infantry icon against 2 inf: 1 = 1 hit" in text
        assert "2 infantry icons against 3 inf: 2, 2 cavalry icons against 1 cav: 1 = 3 hits" in text
    assert "Your losses in Marches round 1 (inf, inf) were chosen by the default order" in corvia
    assert "Your losses in Marches round 1 (inf) were chosen by the default order" in valmont
    assert "Your losses" not in read("Ostmark")


def test_a_realm_not_in_the_battle_reads_what_the_table_shows_no_more():
    events, read = _fight(*BT01)
    ostmark = read("Ostmark")
    assert "Round 1: Valmont rolled 3 3 5 1 4 (3 hits)" in ostmark and "Corvia lost 2 (inf, inf)" in ostmark
    assert "attacked with" not in ostmark and "(base)" not in ostmark and "chosen by" not in ostmark
    kinds = {e["kind"]: e["audience"] for e in events}
    assert kinds["battle_detail"] == {"powers": ["Valmont", "Corvia"]}
    assert kinds["battle_round"] == "public"
