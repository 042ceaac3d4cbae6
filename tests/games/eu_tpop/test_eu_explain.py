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
    # No army of Corvia stands in Marches (setting none there is refused as no change).
    state = _state("SET LEADER Corvia Anne AT Marches DICE inf")
    assert "Corvia" not in state["units"].get("Marches", {})
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


def test_military_access_says_what_it_cost():
    """9.5 Military Access: "you must be at War, and either remove 1 Influence from the Area in
    question or pay 3 Ducats": the cost is a line of the report, whichever was paid."""
    edits = ["SET WAR Valmont VS Corvia", "SET REBELS Marches 0", "SET UNITS Valmont Brenn INF 1",
             "SET UNITS Valmont Marches INF 1"]
    _events, read = _fight(edits, ["ACTIVATE Brenn TO Miren"], [])
    assert "Valmont pays 3 Ducats for Military Access into Miren (9.5)." in read("Valmont")
    _events, read = _fight(edits, ["ACTIVATE Marches TO Brenn"], [])
    assert "Valmont removes 1 Influence from Brenn for Military Access (9.5)." in read("Corvia")


def test_humiliation_says_how_its_prestige_was_counted():
    """Humiliation: "The Victor scores prestige equal to 2 x Tax Value of the Provinces returned to the
    Loser (max. 10). The Loser loses the same amount": the report says which provinces and their tax."""
    edits = ["SET WAR Valmont VS Corvia", "SET UNITS Corvia Corvia INF 0 ART 0", "SET UNITS Valmont Corvia INF 3",
             "SET PROVINCE Corvia OWNER Corvia CONTROLLER Valmont",
             "SET PROVINCE Salera OWNER Corvia CONTROLLER Valmont", "SET STEP D"]
    _events, read = _fight(edits, ["ENFORCE humiliation ON Corvia"], [6] * 40)
    why = "2 x the tax value 3 of Corvia, Salera returned (Humiliation)"
    assert f"Valmont: +6 prestige ({why})." in read("Ostmark")
    assert f"Corvia: -6 prestige ({why})." in read("Corvia")


def test_units_brought_home_after_a_peace_say_why_and_how_the_area_was_chosen():
    """10.1 step 4: "any PR which is now at Peace must immediately relocate any Units that they have in
    a Neutral Area to the nearest Friendly Area ... If several Friendly Areas are equally close, the
    player may choose" (Choice: alphabetical), and the report says so."""
    edits = ["SET WAR Valmont VS Corvia", "SET REBELS Marches 0", "SET UNITS Corvia Corvia INF 0 ART 0", "SET UNITS Valmont Corvia INF 3",
             "SET PROVINCE Corvia OWNER Corvia CONTROLLER Valmont", "SET STEP D"]
    _events, read = _fight(edits, ["ENFORCE humiliation ON Corvia"], [6] * 40)
    assert "Valmont brings its units home from Corvia to Marches: at peace, its units leave a Neutral Area " \
           "for the nearest Friendly Area (10.1 step 4); Valmont is as near, and the first in alphabetical " \
           "order is taken (the rule lets the player choose: ask the GM to move them)." in read("Valmont")


def test_a_stability_loss_cut_short_by_the_limit_says_so():
    """9.1: a war without a CB costs 2 stability; stability runs from -3 to +3, so from -2 only 1 is lost,
    and the report says why the figure is 1."""
    events, read = _fight(["SET STABILITY Valmont -2"], ["DECLARE WAR ON Brenn"], [6] * 20)
    assert "Valmont: -1 stability (war on Brenn without a CB (9.1); -2, but stability stays within -3 and +3)." \
        in read("Corvia")


def test_ducats_paid_in_a_peace_say_what_they_pay_for():
    """Keep Current Board State: the Victor may "Return any of these Provinces and demand that the Loser
    pays them 3 Ducats per Tax Value of Provinces returned": the payment names them."""
    edits = ["SET WAR Valmont VS Corvia", "SET UNITS Corvia Corvia INF 0 ART 0",
             "SET PROVINCE Dauvin OWNER Corvia CONTROLLER Valmont", "SET STEP D"]
    _events, read = _fight(edits, ["ENFORCE keep_current_board_state ON Corvia RETURN Dauvin"], [6] * 40)
    assert "Corvia: -3 ducats (Keep Current Board State: 3 Ducats per tax value of Dauvin (tax 1) returned)." \
        in read("Corvia")


def test_a_siege_says_how_many_units_took_part_and_for_what_tax():
    """9.8 step 2 "pay an additional military power for each Unit taking part beyond the first": the report
    says how many took part, so a strength above the cost reads right."""
    edits = ["SET WAR Valmont VS Corvia", "SET REBELS Marches 0"]
    _events, read = _fight(edits, ["ACTIVATE Valmont TO Marches SIEGE"], [])
    assert "Valmont besieges Marches: Dauvin (tax value 1; 1 unit takes part, of the army's siege strength 3)." \
        in read("Corvia")


def test_a_peace_after_a_surrender_says_so_not_partial_victory():
    """10.2 Surrendering: "your Enemy is allowed to enforce Peace as if they had achieved a Partial Victory":
    the peace line gives the surrender as its cause, as the treaty record does."""
    from pbem.kit import audience
    from pbem.kit.engine import run_phases
    state = _state("SET WAR Valmont VS Corvia", "SET REBELS Marches 0", "SET PROVINCE Dauvin CONTROLLER Valmont",
                   "SET STEP D")
    orders = {r: list(GAME.parse_orders(state, r, [(1, line)]).orders)
              for r, line in (("Valmont", "ENFORCE humiliation ON Corvia"), ("Corvia", "SURRENDER TO Valmont"))}
    script = ScriptedDice()
    script.push([6] * 40)
    steps = run_phases(GAME, state, orders, lambda _p: script)
    events = [e for s in steps for e in GAME.stamp(s.after, s.events)]
    book = audience.book_of(GAME.treaty_records(steps[-1].after, None, gm=True))
    text = GAME.report(steps[-1].after, [e for e in events if audience.admits(audience.of(e), "Ostmark", book)],
                       "Ostmark").text
    assert "Peace between Valmont and Corvia: Humiliation, enforced by the victor (Corvia surrendered)" in text
    assert "Partial Victory" not in text
