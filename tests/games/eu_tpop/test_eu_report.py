"""Europa Universalis: The Price of Power's reports: every event kind the rules emit
has its own small renderer (sentences.py), and each reader's report says what its
events say, its status and what it may do now."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

from pbem.base import registry
from pbem.kit.dice import ScriptedDice

from games.eu_tpop import audiences, sentences

GAME = registry.get("eu_tpop")
SOURCE = Path(sentences.__file__).resolve().parent


def emitted_kinds() -> set[str]:
    """Every event kind written in the game's code (a literal ``"kind": "<kind>"``), the kind
    moves.py chooses between two, and the platform's treaty record (audiences.MADE_WITH)."""
    kinds = set()
    for path in SOURCE.rglob("*.py"):
        if path.name not in ("sentences.py", "audiences.py", "queries.py", "state.py"):
            kinds |= set(re.findall(r'"kind":\s*"(\w+)"', path.read_text(encoding="utf-8")))
    return kinds | {"returned"} | audiences.MADE_WITH


def test_every_kind_the_rules_emit_has_a_renderer():
    kinds = emitted_kinds()
    assert len(kinds) > 60
    assert sorted(kinds - set(sentences.SENTENCES)) == []


def test_every_renderer_is_for_a_kind_the_rules_emit():
    assert sorted(set(sentences.SENTENCES) - emitted_kinds()) == []


def test_each_renderer_is_short():
    long = {kind: n for kind, fn in sentences.SENTENCES.items()
            if (n := len(inspect.getsource(fn).splitlines())) > 12}
    assert long == {}


def test_a_kind_without_a_renderer_says_nothing_and_an_untold_kind_says_nothing():
    assert sentences.sentence({"kind": "no_such_kind"}) is None
    assert all(sentences.sentence({"kind": k}) is None for k in sentences.UNTOLD)


def test_sentences_read_their_events():
    say = sentences.sentence
    assert say({"kind": "war", "aggressor": "Valmont", "target": "Brenn", "cb": "claim"}) == \
        "Valmont declares war on Brenn (CB: claim)."
    assert say({"kind": "ducats", "realm": "Corvia", "delta": 3, "reason": "tax"}) == "Corvia: +3 ducats (tax)."
    assert say({"kind": "occupied", "province": "Holm", "by": "Valmont"}) == "  Holm is occupied by Valmont."
    assert say({"kind": "returned", "province": "Holm", "owner": None}) == "  Holm returns to None."
    assert say({"kind": "cb", "holder": "A", "against": "B"}) is None
    assert say({"kind": "cb", "holder": "A", "against": "B", "reason": "insult"}) == \
        "A gains a CB token against B (insult)."
    assert say({"kind": "battle_round", "round": 1, "attacker": "A", "defender": "B",
                "dice": {"attacker": ["f", "blank"], "defender": ["i"]}, "rolls": {"attacker": [3, 1], "defender": [6]},
                "hits": {"attacker": 1, "defender": 0},
                "casualties": {"B": ["inf"]}, "attacker_leader": "Jean", "defender_leader": "none"}) == \
        "  Round 1: A rolled 3 1 (1 hit); B rolled 6 (0 hits). B lost 1 (inf). Leading: A's Jean."
    # 9.9: a hit a Heavy Ship survives is told, not counted a loss
    assert say({"kind": "battle_round", "round": 2, "attacker": "A", "defender": "B", "naval": True,
                "rolls": {"attacker": [5, 5], "defender": [6]}, "hits": {"attacker": 2, "defender": 1},
                "casualties": {"B": ["light"]}, "damaged": ["B", "A"]}) == \
        ("  Round 2: A rolled 5 5 (2 hits); B rolled 6 (1 hit). B lost 1 (light). "
         "Damaged, not sunk (9.9): A 1 Heavy Ship; B 1 Heavy Ship.")


def test_a_report_lists_the_sentences_of_its_events_then_status_next_steps_and_the_board():
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    events = [{"kind": "pass", "realm": "Ostmark"}, {"kind": "standing", "realm": "Corvia", "order": "X"}]
    text = GAME.report(state, events, "Corvia").text
    assert text.startswith("Ostmark passes.\n\nCorvia: prestige 10")
    assert "Valmont is acting. You may send STANDING orders at any time.\n\nThe board (what every realm sees)\n" in text
    assert text.endswith("  Western Sea (sea): Corvia fleet 2: 1 light, 1 heavy; Valmont fleet 1: 1 light.\n")
    only_untold = GAME.report(state, events[1:], "Corvia").text
    assert only_untold.startswith("Nothing happened that concerns you.\n\nCorvia:")


def _corvia_with_a_leader_in_hand_and_one_allied_unit():
    from pbem.kit.gameapi import Edit
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    for edit in ("SET LEADER Corvia Anne", "SET ALLIED Corvia 1"):
        state, _ = GAME.apply(state, Edit(edit), ScriptedDice())
    return state


def test_the_text_sheet_says_one_allied_unit_and_a_leader_without_dice():
    text = GAME.report(_corvia_with_a_leader_in_hand_and_one_allied_unit(), [], "Corvia").text
    assert "manpower 6 available / 0 exhausted, 1 allied unit\n" in text
    assert "\nLeaders: Anne (no dice) in hand\n" in text


def test_the_html_report_draws_the_same_data_and_escapes_names():
    from pbem.reporting import render
    state = _corvia_with_a_leader_in_hand_and_one_allied_unit()
    events = [{"kind": "war", "aggressor": "<b>Valmont</b>", "target": "Corvia", "cb": "claim"},
              {"kind": "occupied", "province": "Holm", "by": "Valmont"}]
    rep = GAME.report(state, events, "Corvia")
    assert rep.template == "report.html.j2"
    html = str(render.report_html(GAME, rep))
    assert "&lt;b&gt;Valmont&lt;/b&gt; declares war on Corvia (CB: claim)." in html and "<b>Valmont" not in html
    assert '<li class="sub">Holm is occupied by Valmont.</li>' in html
    assert "Anne" in html and "1 allied unit" in html and "Valmont is acting." in html
    for line in rep.data["events"] + rep.data["next_steps"]:
        assert line in rep.text and line.strip().replace("<", "&lt;").replace(">", "&gt;") in html


def test_the_public_report_has_no_sheet():
    state = _corvia_with_a_leader_in_hand_and_one_allied_unit()
    rep = GAME.report(state, [{"kind": "pass", "realm": "Ostmark"}], None)
    assert rep.data["sheet"] is None and "Anne" not in rep.text
    from pbem.reporting import render
    assert "Anne" not in str(render.report_html(GAME, rep))


def test_the_report_record_is_json():
    import json
    state = _corvia_with_a_leader_in_hand_and_one_allied_unit()
    rep = GAME.report(state, [{"kind": "pass", "realm": "Ostmark"}], "Corvia")
    assert json.loads(json.dumps(rep.data)) == rep.data


def test_a_loan_and_a_bankruptcy_are_told():
    """NOTES 3.8 (choices/peace.md): a cost that cannot be paid takes a Loan; 5 Loans mean
    bankruptcy.  Both change the realm's figures with no other event saying why."""
    loan = {"kind": "loan", "realm": "Corvia", "loans": 2, "reason": "rebel die"}
    assert sentences.sentence(loan) == "Corvia cannot pay (rebel die) and takes a Loan: 2 Loans now."
    assert sentences.sentence(dict(loan, loans=1)) == "Corvia cannot pay (rebel die) and takes a Loan: 1 Loan now."
    assert sentences.sentence({"kind": "bankrupt", "realm": "Corvia"}) == (
        "Corvia goes bankrupt: -3 stability, -5 prestige, its Ducats and mercenaries lost, 3 Loans cleared.")


def test_the_loser_of_a_partial_victory_reads_whose_victory_it_is_not_inconclusive():
    """10.2 "If you meet the requirements for Partial or Total Victory ... you are considered to be the
    Victor of that War": the war the victor reads as its Partial Victory is not "inconclusive" for the
    loser, who may surrender, negotiate or wait for the victor's term."""
    from pbem.kit.gameapi import Edit
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    for e in ["SET WAR Valmont VS Corvia", "SET UNITS Corvia Corvia INF 0", "SET UNITS Valmont Corvia INF 3",
              "SET PROVINCE Corvia OWNER Corvia CONTROLLER Valmont", "SET STEP D"]:
        state, _ = GAME.apply(state, Edit(e), ScriptedDice())
    assert "  Corvia: your Partial Victory; terms you may enforce:" in GAME.report(state, [], "Valmont").text
    corvia = GAME.report(state, [], "Corvia").text
    assert "Valmont: inconclusive" not in corvia
    assert "  Valmont: Valmont's Partial Victory: Valmont may enforce a term on you; you may surrender, " \
           "negotiate or keep the war" in corvia
    assert "At war with: Valmont (Valmont's Partial Victory)" in corvia


def _after_texts_that_differ() -> dict:
    """Step D of an inconclusive war whose two NEGOTIATE texts differed (Valmont PAYS 3 or 4):
    the position of the retry window."""
    from pbem.kit.engine import run_phases
    from pbem.kit.gameapi import Edit
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    for e in ["SET WAR Valmont VS Corvia", "SET PROVINCE Dauvin CONTROLLER Valmont", "SET STEP D"]:
        state, _ = GAME.apply(state, Edit(e), ScriptedDice())
    orders = {}
    for me, them, n in (("Valmont", "Corvia", 3), ("Corvia", "Valmont", 4)):
        text = [f"NEGOTIATE {them}", "white_peace", f"Valmont PAYS {n}", "ENDNEGOTIATE"]
        orders[me] = list(GAME.parse_orders(state, me, list(enumerate(text, 1))).orders)
    return run_phases(GAME, state, orders, lambda _p: ScriptedDice())[-1].after


def test_after_texts_that_differ_an_inconclusive_war_is_not_told_to_enforce():
    """10.2: only a Victor enforces a term; in an inconclusive war the retry names NEGOTIATE, OFFER WHITE
    PEACE and KEEP WAR, not ENFORCE."""
    text = GAME.report(_after_texts_that_differ(), [], "Corvia").text
    assert "your NEGOTIATE texts with Valmont differed (see above): send the same NEGOTIATE Valmont text as " \
           "Valmont does, or OFFER WHITE PEACE or KEEP WAR for that war." in text


def test_a_surrender_in_the_negotiation_retry_is_refused_with_the_reason():
    after = _after_texts_that_differ()
    parsed = GAME.parse_orders(after, "Valmont", [(3, "SURRENDER TO Corvia")])
    [problem] = GAME.validate(after, "Valmont", parsed.orders)
    assert problem.code == "not-asked"
    assert "opened because your NEGOTIATE texts with Corvia differed, takes NEGOTIATE again, OFFER WHITE " \
           "PEACE or KEEP WAR for that war" in problem.message
    assert "asks only about your war with Corvia" not in problem.message


def test_keep_war_after_a_total_victory_over_an_npr_names_no_negotiation():
    """10.1 step 2: the Victor must enforce a term "unless a Negotiated Peace is agreed", and a Negotiated
    Peace needs "Both parties ... human players": against an NPR the refusal does not offer one."""
    from pbem.kit.gameapi import Edit
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())
    for e in ["SET WAR Ostmark VS Brenn", "SET PROVINCE Brenn CONTROLLER Ostmark",
              "SET PROVINCE Holm CONTROLLER Ostmark", "SET STEP D"]:
        state, _ = GAME.apply(state, Edit(e), ScriptedDice())
    parsed = GAME.parse_orders(state, "Ostmark", [(3, "KEEP WAR Brenn")])
    [problem] = GAME.validate(state, "Ostmark", parsed.orders)
    assert problem.code == "total-victory" and "NEGOTIATE" not in problem.message
