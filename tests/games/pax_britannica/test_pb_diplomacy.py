"""Pax Britannica's diplomacy outside the scenario files: treaty clauses read and refused,
treaty commands the game refuses, the Congress's proposal ids, the report's diplomatic
sections, the help topics and the bots' orders in Negotiation and the Congress."""
from __future__ import annotations

import random

import pytest

from games.pax_britannica import GAME, load_data
from games.pax_britannica.core import clauses
from games.pax_britannica.bots.diplomacy import treaty_actions
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases
from pbem.kit.gameapi import Refused, TreatyAction

FOUR = ["Britain", "France", "Germany", "United States"]


def board(*edits, phase="negotiation", players=FOUR):
    s = GAME.set_phase(GAME.setup(players, {"setup": "empty"}, None), phase, 1884)
    for e in edits:
        s, _ = GAME.gm_command(s, e, None)
    return s


def step(s, orders=None, one=True):
    parsed = {}
    for power, lines in (orders or {}).items():
        result = GAME.parse_orders(s, power, list(enumerate(lines, 1)))
        problems = result.problems + GAME.validate(s, power, result.orders)
        assert not [p for p in problems if p.kind != "warning"], [p.render() for p in problems]
        for o in result.orders:
            parsed.setdefault(o.power, []).append(o)
    steps = run_phases(GAME, s, parsed, lambda ph: SeededDice(seed="d", context=ph.key), one=one)
    return steps[-1].after, [e for st in steps for e in st.events]


EGYPT = ("SET MARKER Britain protectorate Egypt", "SET ARMY Britain 3 Egypt",
         "SET MARKER France influence Egypt", "SET CB France Britain AREA Egypt")


# -- clauses --------------------------------------------------------------------------------
@pytest.mark.parametrize("line, canonical", [
    ("pay britain 10 each turn until 1892", "PAY Britain 10 EACH TURN UNTIL 1892"),
    ("France: no markers in Marocco", "France: NO MARKERS IN Marocco"),
    ("United States: MAX ARMY 3 IN Cuba", "United States: MAX ARMY 3 IN Cuba"),
    ("CODOMINION Egypt WITH Britain, France", "CODOMINION Egypt WITH Britain, France"),
    ("cb if Russia is attacked", "CB IF Russia IS ATTACKED"),
])
def test_clauses_read_in_any_case_and_come_back_canonical(line, canonical):
    clause, problem = clauses.parse_line(line, load_data(), 1)
    assert problem is None and clause["text"] == canonical
    again, _ = clauses.parse_line(canonical, load_data(), 1)
    assert {k: v for k, v in again.items() if k != "line"} == {k: v for k, v in clause.items() if k != "line"}


def test_a_line_that_starts_like_a_clause_must_be_one_free_text_stays_free():
    data = load_data()
    assert clauses.parse_line("Article 1: the powers are friends.", data, 1) == (None, None)
    _, problem = clauses.parse_line("Pay attention to Egypt", data, 4)
    assert problem.code == "invalid-clause" and problem.line == 4 and "PAY <power>" in problem.message
    _, problem = clauses.parse_line("Frnce: NO UNITS IN Egypt", data, 2)
    assert problem.code == "unknown-power" and problem.suggestion == "France"


@pytest.mark.parametrize("line, form", [("Britain: NO MARKER IN Burma", "NO MARKERS IN <area>"),
                                        ("NO UNIT IN Egypt", "NO UNITS IN <area>"),
                                        ("PAYS France 10", "PAY <power>"),
                                        ("Defensive Aliance", "DEFENSIVE ALLIANCE")])
def test_a_line_one_slip_from_a_clause_is_not_kept_as_free_text(line, form):
    """Rules: TREATIES - "it can stipulate that a player not place markers in particular Areas":
    NO MARKER IN (singular) kept as free text would bind nobody, unenforced and unwarned."""
    _, problem = clauses.parse_line(line, load_data(), 3)
    assert problem is not None and problem.code == "invalid-clause" and form in problem.message, problem


@pytest.mark.parametrize("line", ["No march into Burma without notice.", "Max and Moritz are friends.",
                                  "No one shall know of this.", "Pax Britannica forever."])
def test_free_text_that_only_starts_with_a_common_word_stays_free(line):
    assert clauses.parse_line(line, load_data(), 1) == (None, None)


def test_a_treaty_whose_clause_names_an_outsider_is_refused_with_the_line():
    s = board(phase="movement")
    action = TreatyAction("propose", "France", "T1", at="now", parties=("Britain",),
                          text="Friendship.\nGermany: NO MARKERS IN Marocco")
    with pytest.raises(Refused) as info:
        GAME.treaty(s, action, None)
    assert info.value.code == "treaty-clause" and "line 2" in str(info.value) and "Germany" in str(info.value)


def test_a_treaty_records_its_clauses_and_keeps_free_text():
    s = board(phase="movement")
    s, events = GAME.treaty(s, TreatyAction("propose", "France", "T1", at="t", parties=("Britain",),
                                            text="Entente.\nFrance: NO MARKERS IN Egypt"), None)
    record = GAME.treaty_records(s, "Britain")[0]
    assert record["clauses"] == ["France: NO MARKERS IN Egypt"] and "Entente." in record["text"]
    assert "terms" not in record and events[0]["kind"] == "treaty"


# -- the Congress --------------------------------------------------------------------------------
def congress_at_propose():
    return board(*EGYPT, "SET CONGRESS Germany CALLER France", "SET STEP propose", phase="congress")


def test_a_treaty_the_congress_passed_is_not_signed_with_treaty_sign():
    s = congress_at_propose()
    s, _ = step(s, {"Germany": ["PROPOSE P1", "DOWNGRADE France Egypt TO INTEREST", "ENDPROPOSE"]})
    s, _ = step(s, {"Germany": ["VOTE P1 YES"]})
    with pytest.raises(Refused) as info:
        GAME.treaty(s, TreatyAction("sign", "Britain", "P1", at="t"), None)
    assert info.value.code == "congress-treaty"
    record = next(t for t in GAME.treaty_records(s, "Britain") if t["id"] == "P1")
    assert "SIGN P1" in record["answer_with"]


def test_two_members_writing_the_same_id_both_propose():
    s = congress_at_propose()
    s, events = step(s, {"Britain": ["PROPOSE P1", "DOWNGRADE France Egypt TO INTEREST", "ENDPROPOSE"],
                         "France": ["PROPOSE P1", "DOWNGRADE Britain Egypt TO INFLUENCE", "ENDPROPOSE"]})
    assert [(e["id"], e["by"]) for e in events if e["kind"] == "proposal"] == [("P1", "Britain"), ("P1-2", "France")]


def test_a_vote_on_a_proposal_of_an_earlier_round_is_refused():
    s = congress_at_propose()
    s, _ = step(s, {"Germany": ["PROPOSE P1", "DOWNGRADE France Egypt TO INTEREST", "ENDPROPOSE"]})
    s, _ = step(s, {"Germany": ["VOTE P1 NO"], "Britain": ["VOTE P1 NO"]})
    assert GAME.query(s, "step") == "propose"
    s2, _ = GAME.gm_command(s, "SET STEP vote", None)
    result = GAME.parse_orders(s2, "France", [(1, "VOTE P1 YES")])
    assert [p.code for p in GAME.validate(s2, "France", result.orders)] == ["unknown-proposal"]


# -- reports and help ------------------------------------------------------------------------------
def test_each_report_says_what_the_power_may_send_now_and_hides_others_disputes():
    s = board(*EGYPT, "SET CB Germany \"United States\" AREA Hawaii")
    britain = GAME.report(s, [], "Britain").text
    # What each may send now is the game's options_now (the reports' "what you may do now").
    britain_may = {o.form: o for o in GAME.options_now(s, "Britain")}
    france_may = {o.form: o for o in GAME.options_now(s, "France")}
    assert "DOWNGRADE <area> [TO INTEREST|INFLUENCE|NONE]" in britain_may and "DONE" in britain_may
    assert "CALL CONGRESS AT <site>" not in britain_may  # Britain holds no Casus Belli
    assert france_may["CALL CONGRESS AT <site>"].choices == ("Germany",)
    assert france_may["DECLARE WAR ON <power>[,<power>...]"].choices == ("Britain",)
    assert "France against Britain over Egypt" in britain and "Hawaii" not in britain
    public = GAME.report(s, [], None).text
    assert "Germany against United States over Hawaii" in public and "You must" not in public
    assert GAME.report(s, [], "Britain").data["diplomacy"]["casus_belli"][0]["holder"] == "France"
    assert all(len(line) <= 78 for line in britain.splitlines())


def test_each_congress_step_lists_what_the_power_may_send_with_real_ids():
    s = congress_at_propose()
    assert [o.form for o in GAME.options_now(s, "Germany")] == ["PROPOSE <id> ... ENDPROPOSE", "DONE"]
    s, _ = step(s, {"Germany": ["PROPOSE P1", "DOWNGRADE France Egypt TO INTEREST", "ENDPROPOSE"]})
    vote = {o.form: o for o in GAME.options_now(s, "Britain")}["VOTE <id> YES|NO|ABSTAIN"]
    assert vote.choices == ("P1",)
    attend = board(*EGYPT, "SET CONGRESS Germany CALLER France", "SET STEP attend", phase="congress")
    for power in GAME.phase(attend).owes:  # a member with nothing to choose is told it may say DONE
        assert GAME.options_now(attend, power), power


def test_the_html_report_shows_the_disputes_treaties_and_congress_the_text_does():
    from pbem.reporting.render import report_html

    s = board(*EGYPT, "SET CB Germany \"United States\" AREA Hawaii")
    html = str(report_html(GAME, GAME.report(s, [], "Britain")))
    assert "Disputes and Casus Belli" in html and "France against Britain over Egypt" in html
    assert "Hawaii" not in html
    s, _ = step(congress_at_propose(), {"Germany": ["PROPOSE P1", "DOWNGRADE France Egypt TO INTEREST",
                                                    "ENDPROPOSE"]})
    public = str(report_html(GAME, GAME.report(s, [], None)))
    assert "Congress of Europe in Germany (called by France): votes, round 1" in public
    assert "Proposal <strong>P1</strong> by Germany (round 1, open): DOWNGRADE France Egypt TO INTEREST" in public


def test_silence_is_described_for_each_congress_step():
    s = congress_at_propose()
    assert GAME.describe_defaults(s, "France") == "you make no proposal"
    s, _ = step(s, {"Germany": ["PROPOSE P1", "DOWNGRADE France Egypt TO INTEREST", "ENDPROPOSE"]})
    assert GAME.describe_defaults(s, "France") == "you abstain on every proposal"
    s, _ = step(s, {"Germany": ["VOTE P1 YES"]})
    assert "you sign P1" in GAME.describe_defaults(s, "France")
    assert [o.canonical for o in GAME.defaults(s, "France")] == ["SIGN P1"]


def test_help_answers_the_games_own_topics_and_nothing_else():
    assert "CALL CONGRESS AT <power>" in GAME.help_text("negotiation")
    assert "VOTE <id> YES|NO|ABSTAIN" in GAME.help_text("CONGRESS")
    assert "MAX NAVY <n>" in GAME.help_text("treaty")
    assert GAME.help_text("resend") == "" and "BUY <" in GAME.help_text(None)


# -- bots -------------------------------------------------------------------------------------------
def test_bots_settle_a_dispute_through_a_congress_and_never_send_a_refused_order():
    # France holds the Casus Belli and is the weaker: it calls a Congress rather than give way
    s = board("SET MARKER Britain protectorate Egypt", "SET MARKER France influence Egypt",
              "SET CB France Britain AREA Egypt", "SET ARMY Britain 10 HOME", players=FOUR + ["Italy"])
    rng = random.Random(1)
    seen = set()
    for _ in range(12):
        phase = GAME.phase(s)
        if phase.name not in ("negotiation", "congress"):
            break
        orders = {p: GAME.bot_orders(s, p, rng) for p in phase.owes}
        seen |= {line.split()[0] for lines in orders.values() for line in lines}
        s, _ = step(s, orders)
    assert {"VOTE", "SIGN", "PROPOSE"} <= seen
    assert GAME.query(s, "cb France Britain") is False
    assert "France" not in s["markers"]["Egypt"] or s["markers"]["Egypt"]["France"]["status"] != "influence"


def test_bot_treaties_are_proposed_and_signed_by_two_players():
    s = board(phase="movement")
    rng = random.Random(0)
    actions = []
    while not actions:
        actions = treaty_actions(s, rng)
    for action in actions:
        s, _ = GAME.treaty(s, action, None)
    assert GAME.query(s, f"treaty {actions[0].treaty}") in ("in_force", "broken")


def test_a_treaty_record_the_moderator_found_broken_reads_in_words():
    """A clause the game saw broken (by "moderator") and a Congress's own history
    entries read as sentences in the mailed record and in the handover dossier."""
    from pbem.kit import treatybook
    from pbem.reporting.render import render

    record = treatybook.new_record("P1", "France", ["Britain", "France"], "France: PAY Britain 5", False,
                                   "1884 Congress", "broken")
    record["history"] += [{"at": "1884 Congress", "who": "the Congress", "action": "passed"},
                          {"at": "1884", "who": "France", "action": "broke"}]
    record["breaches"] = [{"at": "1884", "by": "moderator", "against": "France",
                           "text": "France could not pay", "ruled": "broken"}]
    text = render("treaty.txt.j2", t=record, game="g", site="pbem", reader="Britain", zone="UTC")
    assert "1884: the moderator found France broke it: France could not pay" in text
    assert "1884 Congress: the Congress passed it" in text and "1884: France broke it" in text
    # A signature the GM set has no moment: it reads "signed", not "signed " and nothing.
    record["signatures"] = {"Britain": "", "France": ""}
    text = render("treaty.txt.j2", t=record, game="g", site="pbem", reader="Britain", zone="UTC")
    assert "  Britain: signed\n  France: signed\n" in text


def test_a_treaty_codominion_needs_every_control_holder_as_a_party():
    """Rules: NEGOTIATION (4) - "All players with Control markers in an Area must agree": two
    powers may not make a third's Protectorate their Codominion by a treaty among themselves."""
    s = board("SET MARKER Britain protectorate Egypt", "SET ARMY Britain 3 Egypt", "SET TREASURY France 50",
              "SET TREASURY Germany 50")
    with pytest.raises(Refused) as info:
        GAME.treaty(s, TreatyAction("propose", "France", "nile", at="t", parties=("Germany",),
                                    text="CODOMINION Egypt WITH France, Germany"), None)
    assert info.value.code == "treaty-clause" and "Britain Controls Egypt and must be a party" in str(info.value)
    # the clause's line is the treaty text's, told apart from the mail's line that the reply adds
    assert "not proposed: the treaty's line 1: CODOMINION Egypt" in str(info.value), str(info.value)
    s, _ = GAME.treaty(s, TreatyAction("propose", "France", "nile", at="t", parties=("Britain",),
                                       text="CODOMINION Egypt WITH France, Britain"), None)
    s, _ = GAME.treaty(s, TreatyAction("sign", "Britain", "nile", at="t"), None)
    assert set(s["markers"]["Egypt"]) == {"Britain", "France"}
    s, _ = GAME.gm_command(s, "SET MARKER Netherlands protectorate Aden", None)
    with pytest.raises(Refused) as info:
        GAME.treaty(s, TreatyAction("propose", "France", "aden", at="t", parties=("Britain",),
                                    text="CODOMINION Aden WITH France, Britain"), None)
    assert "Netherlands (a Minor Power) Controls Aden and cannot agree" in str(info.value)
