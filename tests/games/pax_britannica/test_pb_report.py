"""Pax Britannica turn reports as a player reads them: every event kind the engine can
emit has a sentence, events sit under the phase they happened in, private figures stay
with their power, the income account adds up, and no line is wider than 78 columns."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.pax_britannica import GAME
from games.pax_britannica.core import audiences
from games.pax_britannica.report import compose as report, events as report_events, phases as report_phases
from games.pax_britannica.sequence import PHASES
from pbem.kit import audience
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases

FOUR = ["Britain", "France", "Germany", "United States"]
SOURCE = Path(report.__file__).resolve().parent.parent
RAW_DUMP = re.compile(r"\b\w+=\S")  # the old "kind: key=value" lines


def report_text(state, events, power) -> str:
    """As the moderator makes it: the game renders the events the gate lets its reader see."""
    events = audiences.stamp(state, [dict(e) for e in events])
    return GAME.report(state, audience.shown(events, audience.reader_for(power), audiences.book(state)),
                       power).text


def emitted_kinds() -> set[str]:
    """Every event kind written in the rules' code (reports excluded)."""
    kinds = set()
    for path in SOURCE.rglob("*.py"):
        if path.relative_to(SOURCE).parts[0] != "report":
            kinds |= set(re.findall(r'"kind":\s*"(\w+)"', path.read_text()))
    return kinds


#: One event of each kind, shaped as the engine writes it.
SAMPLES = {
    "marker": {"kind": "marker", "power": "Britain", "area": "Rhodesia", "from": "none",
               "to": "protectorate", "established": False, "reason": "bought", "cost": 20},
    "unit_built": {"kind": "unit_built", "power": "France", "type": "navy", "strength": 3,
                   "where": "France", "sea": "Mediterranean Sea", "cost": 9},
    "unit_moved": {"kind": "unit_moved", "power": "Britain", "type": "army", "strength": 3,
                   "from": "Britain", "to": "Bechuanaland",
                   "path": ["Britain", "North Atlantic Ocean", "Cape Colony", "Bechuanaland"]},
    "unit_lost": {"kind": "unit_lost", "power": "Spain", "unit": 84, "type": "army",
                  "strength": 1, "area": "Philippines", "reason": "colonial combat"},
    "unit_retreated": {"kind": "unit_retreated", "power": "Britain", "unit": 39, "type": "army",
                       "strength": 1, "from": "Burma", "to": "Britain", "reason": "retreat"},
    "unit_removed": {"kind": "unit_removed", "power": "France", "type": "army", "strength": 3,
                     "where": "Algiers", "reason": "deficit: player's order"},
    "colonial_combat": {"kind": "colonial_combat", "area": "Egypt", "power": "Italy",
                        "powers": ["Italy"], "attack": 5, "defense": 5, "purpose": "suppress",
                        "ratio": "1:1", "table": 2, "die": 6, "result": "DR", "defeated": True},
    "income": {"kind": "income", "power": "France", "colonial_office": 40, "roll": 5,
               "markers": 149, "maintenance": 106, "net": 83, "lines": {"22": 83},
               "treasury": 83},
    "deficit": {"kind": "deficit", "power": "France", "amount": 12},
    "deficit_settled": {"kind": "deficit_settled", "power": "France", "short": 0},
    "money": {"kind": "money", "power": "France", "to": "Britain", "amount": 20,
              "from": "France"},
    "order_failed": {"kind": "order_failed", "power": "France", "order": "BUY INTEREST Siam",
                     "code": "insufficient-funds", "reason": "France has only 3"},
    "merchant": {"kind": "merchant", "power": "France", "sea": "Indian Ocean",
                 "from": None, "action": "placed"},
    "canal": {"kind": "canal", "power": "United States", "area": "Panama", "cost": 30},
    "canal_race": {"kind": "canal_race", "rolls": {"Britain": 4, "United States": 6}},
    "cb": {"kind": "cb", "holder": "United States", "against": "Spain", "area": None,
           "reason": 'random event 2-2 American "Yellow Press" Journalism'},
    "eti": {"kind": "eti", "delta": 2, "reason": "random event 2-3 French Anti-German Agitation",
            "blame": None, "value": 14},
    "cri": {"kind": "cri", "delta": 2, "reason": "Britain placed a interest in Shan-Tung",
            "value": 35},
    "vp": {"kind": "vp", "power": "Britain", "delta": -5,
           "reason": "Australian Pressure for Dominion: dominion not granted in Australia"},
    "random_events": {"kind": "random_events", "count": 2},
    "random_event": {"kind": "random_event", "roll": "4-4", "name": "Unrest", "number": 1},
    "random_event_reroll": {"kind": "random_event_reroll", "roll": "3-2",
                            "name": "Australian Pressure for Dominion", "number": 4},
    "unrest": {"kind": "unrest", "area": "Abyssinia", "table": "B", "roll": "4-4"},
    "unrest_reroll": {"kind": "unrest_reroll", "table": "D", "area": "Porto Rico", "roll": "4-5"},
    "unrest_none": {"kind": "unrest_none", "table": "D", "number": 2},
    "permission": {"kind": "permission", "power": "Austria-Hungary", "areas": ["Serbia"],
                   "action": "establish_control", "max_areas": None,
                   "event": "Serbia Defies Austria-Hungary"},
    "pressure": {"kind": "pressure", "power": "United States", "area": "Alaska",
                 "status": "state", "event": "Alaskan Pressure for Statehood", "vp": -5,
                 "possible": True},
    "minor_power": {"kind": "minor_power", "power": "Japan", "active": True, "roll": 3,
                    "area": "Shan-Tung", "marker": "influence", "target_roll": 3},
    "minor_power_reroll": {"kind": "minor_power_reroll", "power": "Russia", "roll": 5,
                           "area": "Port Arthur"},
    "chinese_rebellion": {"kind": "chinese_rebellion", "threshold": 4, "roll": 7,
                          "occurs": False, "dice": [5, 1, 1]},
    "great_war": {"kind": "great_war", "blamed": ["Germany"]},
    "game_over": {"kind": "game_over", "turn": 1916, "great_war": False},
    "final_record": {"kind": "final_record", "ranks": [{"power": "Germany", "vp": 179, "rank": 1},
                                                       {"power": "Britain", "vp": 132, "rank": 2}]},
    "gm_notice": {"kind": "gm_notice", "phase": "war",
                  "text": "Casus Belli exist: a player may declare War (GM ruling)."},
    "treaty": {"kind": "treaty", "id": "T1", "parties": ["Britain", "Japan"],
               "status": "in_force"},
    "war_declared": {"kind": "war_declared", "war": "W1", "sides": [["France"], ["Germany"]]},
    "gm": {"kind": "gm", "text": "vp Britain = 12"},
    "ruling": {"kind": "ruling", "question": "cb-1", "ruling": "France holds the Casus Belli"},
    "congress_called": {"kind": "congress_called", "by": "Britain", "site": "Austria-Hungary",
                        "members": ["Britain", "France", "Austria-Hungary"],
                        "parties": ["Britain", "France"], "disputes": 1},
    "congress_attendance": {"kind": "congress_attendance", "power": "Germany", "attends": True},
    "congress_step": {"kind": "congress_step", "step": "propose", "round": 2, "site": "Germany"},
    "proposal": {"kind": "proposal", "id": "P1", "by": "France", "round": 1,
                 "clauses": ["DOWNGRADE Britain Egypt TO INTEREST"], "text": "Peace.", "status": "open"},
    "congress_vote": {"kind": "congress_vote", "id": "P1", "result": "passed", "yes": 2, "no": 2,
                      "by": {"Britain": "yes", "France": "no", "Germany": "yes", "Italy": "no"},
                      "tie": True, "host": "yes", "austria_hungary": None},
    "congress_signature": {"kind": "congress_signature", "id": "P1", "power": "France",
                           "signed": False},
    "congress_failed": {"kind": "congress_failed", "reason": "France refused to sign",
                        "refused": ["France"], "site": "Germany"},
    "declaration": {"kind": "declaration", "by": "Britain", "against": ["France", "Spain"],
                    "phase": "negotiation"},
    "defend": {"kind": "defend", "power": "Germany", "minor": "Belgium", "area": "Kongo",
               "against": "France"},
    "codominion": {"kind": "codominion", "area": "Egypt", "powers": ["Britain", "France"],
                   "reason": "negotiation"},
    "clause_void": {"kind": "clause_void", "id": "P1", "clause": "CODOMINION Korea WITH Russia",
                    "reason": "a power it binds, not a party to the dispute, did not sign"},
    "question": {"kind": "question", "id": "T1", "power": "France", "against": "Germany",
                 "text": "France claims Germany broke treaty T1. Rule with GM RULE T1 UPHELD."},
    # the War Sequence (war/)
    "war_begins": {"kind": "war_begins", "war": "W1", "war_kind": "war", "sides": [["Britain"], ["France"]]},
    "war_duty": {"kind": "war_duty", "power": "Austria-Hungary", "ally": "Germany", "against": "France",
                 "treaty": "the German-Austrian treaty"},
    "war_duty_void": {"kind": "war_duty_void", "power": "Germany", "ally": "France",
                      "reason": "France started the War: a defensive treaty does not oblige"},
    "war_joined": {"kind": "war_joined", "war": "W1", "power": "Germany", "ally": "France", "how": "defensive",
                   "against": ["Britain"]},
    "war_duty_kept": {"kind": "war_duty_kept", "war": 1, "power": "Russia", "ally": "France", "treaty": "dual",
                      "duty": "defensive"},
    "funds_vp": {"kind": "funds_vp", "power": "France", "vp": 11, "treasury": 83, "divisor": "7"},
    "war_refused": {"kind": "war_refused", "power": "Germany", "ally": "France", "treaty": "T1",
                    "duty": "defensive"},
    "initiative": {"kind": "initiative", "war": "W1", "round": 1, "first": ["Britain"],
                   "order": [["Britain"], ["France"]], "rolls": {"Britain": 5, "France": 2}},
    "war_move": {"kind": "war_move", "war": "W1", "power": "Britain", "type": "army", "strength": 3,
                 "from": "Egypt", "to": "Mediterranean Sea"},
    "war_combat": {"kind": "war_combat", "war": "W1", "area": "Manchuria", "type": "army",
                   "attackers": ["Japan"], "defenders": ["Russia"], "attack": 7, "defense": 5,
                   "area_strength": 0, "ratio": "1:1", "table": 2, "die": 5, "result": "DR",
                   "losses": [{"power": "Russia", "type": "army", "strength": 3, "fate": "retreated",
                               "to": "Russia"}], "defeated": False},
    "unit_surrendered": {"kind": "unit_surrendered", "war": "W1", "power": "Spain", "type": "army",
                         "strength": 1, "where": "Tunis", "reason": "out of supply"},
    "supply_check": {"kind": "supply_check", "war": "W1", "alliance": 2, "powers": ["Spain"], "units": 3,
                     "surrendered": 1, "areas_lost": ["Cuba"]},
    "area_surrendered": {"kind": "area_surrendered", "war": "W1", "area": "Cuba", "from": ["Spain"],
                         "to": ["United States"]},
    "conquered": {"kind": "conquered", "war": "W1", "area": "Kongo", "by": ["Germany"], "from": ["Belgium"]},
    "area_defeated": {"kind": "area_defeated", "war": "W1", "area": "Shan-Tung"},
    "area_restored": {"kind": "area_restored", "war": "W1", "area": "Shan-Tung"},
    "passage_denied": {"kind": "passage_denied", "war": "W1", "area": "Egypt", "by": "Britain", "to": "Russia",
                       "effective": True, "waiting_for": []},
    "coaling_granted": {"kind": "coaling_granted", "war": "W1", "area": "Aden", "by": "Britain", "to": "Japan"},
    "peace_asked": {"kind": "peace_asked", "war": "W1", "power": "Britain", "with": ["France"]},
    "end_delayed": {"kind": "end_delayed", "war": "W1", "power": "Japan"},
    "separate_peace": {"kind": "separate_peace", "war": "W1", "power": "Germany", "with": ["Britain"]},
    "war_end": {"kind": "war_end", "war": "W1", "how": "defeat", "victors": ["Germany"], "defeated": ["Belgium"],
                "sequences": 2, "conquered": ["Kongo"]},
    "war_resolved": {"kind": "war_resolved", "war": "W1", "how": "defeat"},
    "spoils_squabble": {"kind": "spoils_squabble", "war": "W1", "area": "Kongo", "powers": ["Britain", "Germany"]},
    "reparations": {"kind": "reparations", "war": "W2", "agreed": True, "ceded": {"Britain": "Shan-Tung"}},
    "units_home": {"kind": "units_home", "war": "W1", "power": "Britain",
                   "units": ["Army (3) from Indian Ocean (at sea)", "Navy (10) from Mediterranean Sea (surrendered there)"]},
    "natives_removed": {"kind": "natives_removed", "war": "W2", "power": "China", "count": 3},
    "minor_garrison": {"kind": "minor_garrison", "war": "W1", "power": "Spain", "areas": ["Cuba"],
                       "new_armies": 1},
    "chinese_armies": {"kind": "chinese_armies", "war": "W2", "count": 4},
    "war_placed": {"kind": "war_placed", "war": "W2", "power": "China", "area": "Manchuria", "roll": 8,
                   "strength": 5},
}


@pytest.fixture(scope="module")
def played():
    """Two Game Turns with bot orders: (state, events) of each report, with each
    event's true (turn, phase)."""
    rng = random.Random(3)
    state = GAME.setup(FOUR, {"setup": "1880"}, SeededDice(seed="report", context="setup"))
    state, _ = GAME.gm_command(state, "SET TREASURY France 98765", None)
    reports = []
    while state["turn"] < 1888 and not GAME.is_over(state):
        orders = {}
        for power in GAME.phase(state).owes:
            lines = list(enumerate(GAME.bot_orders(state, power, rng), 1))
            orders[power] = GAME.parse_orders(state, power, lines).orders
        steps = run_phases(GAME, state, orders,
                           lambda ph: SeededDice(seed="report", context=ph.key))
        state = steps[-1].after
        events = [e for s in steps for e in s.events]
        truth = [(s.phase.turn, s.phase.name) for s in steps for _ in s.events]
        reports.append((state, events, truth))
    return reports


def all_texts(played):
    for state, events, _ in played:
        for power in [None] + FOUR:
            yield power, state, events, report_text(state, events, power)


# -- every kind has a sentence ---------------------------------------------------------
def test_every_kind_the_engine_emits_has_a_sentence_and_a_sample():
    kinds = emitted_kinds()
    assert {"marker", "colonial_combat", "income", "vp", "treaty"} <= kinds
    assert kinds - set(report_events.SENTENCES) == set()
    assert kinds - set(SAMPLES) == set()


def test_every_kind_the_engine_emits_says_who_may_see_it():
    """A kind the catalogue (audiences.py) does not know would reach the GM alone."""
    known = audiences.PUBLIC | set(audiences.PRIVATE) | audiences.MADE_WITH
    assert emitted_kinds() - known == set()
    assert not audiences.PUBLIC & set(audiences.PRIVATE) and not audiences.PUBLIC & audiences.MADE_WITH


@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_each_kind_reads_as_a_sentence(kind):
    event = SAMPLES[kind]
    text = report_events.sentence(event, frozenset({"France", "Britain"}))
    assert not RAW_DUMP.search(text) and "{" not in text and "None" not in text
    assert text != report_events.generic(event, frozenset())
    assert text.rstrip()[-1] in ".!", text


def test_sentences_of_the_brief_examples():
    say = report_events.sentence
    assert say(SAMPLES["marker"]) == ("Britain bought a Protectorate in Rhodesia (£20); it is "
                                      "established once Rhodesia is defeated in Colonial Combat.")
    assert say(SAMPLES["eti"]) == "European Tensions +2 (French Anti-German Agitation): now 14."
    assert say(SAMPLES["random_event"]) == "Random event 1 (4-4): Unrest."
    assert say(SAMPLES["cri"]).startswith("Chinese Resentment +2 (Britain placed an interest")


def test_a_combat_takes_its_consequences_in_one_sentence():
    combat = {"kind": "colonial_combat", "area": "Rhodesia", "power": "Britain",
              "powers": ["Britain"], "purpose": "establish", "attack": 3, "defense": 1,
              "ratio": "3:1", "table": 1, "die": 1, "result": "EX", "defeated": False}
    lost = {"kind": "unit_lost", "power": "Britain", "unit": 5, "type": "army", "strength": 3,
            "area": "Rhodesia", "reason": "colonial combat"}
    removed = {"kind": "marker", "power": "Britain", "area": "Rhodesia", "from": "protectorate",
               "to": "none", "established": False, "reason": "colonial combat lost"}
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    state["phase"] = "marker_adjustment"
    text = report_text(state, [combat, lost, removed], "Britain")
    assert ("Colonial Combat in Rhodesia: Britain 3 against 1 (3:1, table 1), die 1: EX "
            "(exchange) - Britain loses Army (3); Britain's Protectorate is removed."
            in " ".join(text.split()))
    assert "1880 Colonial Combat" in text


def test_an_unknown_or_broken_event_still_reads():
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    odd = [{"kind": "comet_sighted", "area": "Egypt", "brightness": 3, "treasury": 4321},
           {"kind": "colonial_combat"}, {"kind": "marker"}, {"no_kind": True}]
    # a kind the catalogue does not know has no audience: the GM's alone
    assert "Comet sighted" not in report_text(state, [dict(odd[0])], None)
    text = GAME.report(state, [audience.tag(dict(e), audience.public()) for e in odd], None).text
    assert "Comet sighted: area Egypt; brightness 3." in text
    assert "4321" not in text and not RAW_DUMP.search(text)


# -- phases ------------------------------------------------------------------------------
def test_every_event_is_placed_under_the_phase_it_happened_in(played):
    for state, events, truth in played:
        placed = [(t, PHASES[i]) for t, i in report_phases.place(state, events)]
        assert placed == truth


def test_phase_headings_come_in_game_order(played):
    state, events, _ = played[1]
    text = report_text(state, events, None)
    headings = [line for line in text.splitlines() if re.match(r"^\d{4} ", line)]
    assert headings[0] == "1880 Movement/Status Change"
    assert "1884 Random Events" in headings and "1884 Minor Powers" == headings[-1]
    assert headings.index("1880 Victory Point Record") < headings.index("1884 Random Events")


def test_gm_edits_have_their_own_section():
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    state, events = GAME.gm_command(state, "SET VP Britain 12", None)
    text = report_text(state, events, None)
    assert "Changes made by the GM" in text and "The GM set vp Britain = 12." in text


# -- privacy -----------------------------------------------------------------------------
def test_no_other_power_s_treasury_or_income_reaches_a_report(played):
    for power, state, events, text in all_texts(played):
        for other in FOUR:
            if other == power:
                continue
            assert f"== {other} ==" not in text
            assert f"{other}'s income" not in text
            treasury = state["powers"][other]["treasury"]
            if other == "France" and treasury >= 1000:  # a treasury no other figure can match
                assert str(treasury) not in text
            assert "98765" not in text or power == "France"
        if power is None:
            assert "treasury" not in text.lower() and "Income this turn" not in text


def test_a_power_sees_its_own_treasury_and_vp_reason(played):
    state, events, _ = played[0]
    text = report_text(state, events, "France")
    assert f"Treasury £{state['powers']['France']['treasury']}" in text
    state, events, _ = played[1]
    assert re.search(r"France's treasury \(£\d+ / 7\) gives \d+ VP", report_text(state, events, "France"))
    assert "France scores" in report_text(state, events, "Britain")
    assert "from its funds" in report_text(state, events, "Britain")
    assert "France's treasury (" not in report_text(state, events, "Britain")
    # France reads where its funds VP come from once, not also as "France scores N VP from its funds."
    own = report_text(state, events, "France")
    assert not re.search(r"France scores \d+ VP from its funds", own)
    assert len(re.findall(r"France's treasury \(", own)) == 1


@pytest.mark.parametrize("kind", sorted(audiences.PRIVATE))
def test_private_events_reach_only_the_powers_concerned(kind):
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    state["phase"] = "colonial_combat"
    event = dict(SAMPLES[kind])
    own = report_text(state, [event], "France")
    assert report_events.sentence(event, frozenset({"France"})) in " ".join(own.split())
    for viewer in ("Germany", None):
        text = report_text(state, [event], viewer)
        assert "Elsewhere" not in text and "Events" not in text
    if kind == "money":
        assert "France gave £20" in report_text(state, [event], "Britain")


def test_gm_treasury_edit_is_private_to_its_power():
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    state, events = GAME.gm_command(state, "SET TREASURY France 4444", None)
    assert "4444" not in report_text(state, events, None)
    assert "4444" not in report_text(state, events, "Britain")
    assert "4444" in report_text(state, events, "France")


# -- layout -------------------------------------------------------------------------------
def test_no_line_is_wider_than_78(played):
    for power, state, events, text in all_texts(played):
        wide = [line for line in text.splitlines() if len(line) > 78]
        assert wide == [], (power, wide)
        assert not RAW_DUMP.search(text)


def test_long_sentences_wrap():
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    events = [dict(SAMPLES[k]) for k in sorted(SAMPLES)]
    events.append({"kind": "gm_notice", "text": "word " * 60})
    for power in (None, "France", "Germany"):
        lines = report_text(state, events, power).splitlines()
        assert max(map(len, lines)) <= 78


def test_own_events_come_before_the_rest_of_the_world(played):
    state, events, _ = played[1]
    text = report_text(state, events, "Germany")
    mine = text.index("What concerned Germany and Austria-Hungary")
    rest = text.index("Elsewhere in the world")
    assert mine < rest
    assert "Germany's income" in text[mine:rest] and "Britain bought" in text[rest:]
    assert "Britain bought" not in text[mine:rest]


def test_the_income_account_adds_up(played):
    for state, events, _ in played:
        for power in FOUR:
            income = next((e for e in events if e["kind"] == "income" and e["power"] == power), None)
            if income is None:
                continue
            text = report_text(state, events, power)
            block = text[text.index(f"== {power} =="):]
            block = block[block.index("Income this turn:"):].splitlines()[1:5]
            amounts = [int(re.search(r"(-?)£(\d+)$", line)[1] + re.search(r"£(\d+)$", line)[1])
                       for line in block]
            assert [line.split()[0] for line in block[1:]] == ["+", "-", "="]
            assert amounts == [income["colonial_office"], income["markers"],
                               income["maintenance"], income["net"]]
            assert amounts[0] + amounts[1] - amounts[2] == amounts[3]


def test_an_unrest_event_names_its_area_in_one_sentence():
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    state["phase"] = "administrative"
    text = report_text(state, [SAMPLES["random_event"], SAMPLES["unrest"]], None)
    assert "Random event 1 (4-4): Unrest in Abyssinia (table B, 4-4)." in text


def test_an_index_rise_over_a_power_s_marker_is_its_own_news():
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    state["phase"] = "negotiation"
    rise = {"kind": "eti", "delta": 1, "blame": "Belgium", "value": 25,
            "reason": "France's interest in Kongo: conflict with Belgium's Control marker"}
    text = report_text(state, [rise], "France")
    assert "What concerned France" in text and "European Tensions +1" in text
    assert "Elsewhere in the world" not in text
    assert "Elsewhere in the world" in report_text(state, [rise], "Britain")


def test_a_war_combat_and_a_conquest_concern_both_sides_and_read_in_the_singular():
    """Played by hand: France's own attack on Guiana and Britain's conquest of it from
    France stood under "Elsewhere in the world" in France's report, reading "France (1)
    attack Britain (1)" and "Britain conquer Guiana"."""
    combat = {"kind": "war_combat", "area": "Guiana", "type": "army", "war": "W1",
              "attackers": ["France"], "defenders": ["Britain"], "attack": 1, "defense": 1,
              "area_strength": 0, "ratio": "1:1", "table": 1, "die": 2, "result": "AR", "defeated": False,
              "losses": [{"power": "France", "type": "army", "strength": 1, "fate": "retreated",
                          "to": "North Atlantic Ocean"}], "phase_key": "1880/war_attack_1/4"}
    conquest = {"kind": "conquered", "area": "Guiana", "by": ["Britain"], "from": ["France"], "war": "W1",
                "phase_key": "1880/war_attack_1/4"}
    state = GAME.setup(FOUR, {"setup": "1880"}, None)
    state["phase"] = "war_maneuver_2"
    asked = {"kind": "peace_asked", "war": "W1", "power": "Britain", "with": ["France"],
             "phase_key": "1880/war_maneuver_2/6"}
    ended = {"kind": "war_end", "war": "W1", "how": "negotiated", "sides": [["France"], ["Britain"]],
             "victors": [], "defeated": [], "sequences": 1, "conquered": ["Guiana"],
             "phase_key": "1880/war_end/9"}
    settled = {"kind": "war_resolved", "war": "W1", "how": "negotiated", "sides": [["France"], ["Britain"]],
               "phase_key": "1880/war_resolution/10"}
    text = " ".join(report_text(state, [combat, conquest, asked, ended, settled], "France").split())
    mine = text.split("What concerned France", 1)[1].split("Elsewhere in the world", 1)[0]
    assert "Combat in Guiana: France (1) attacks Britain (1): 1 to 1 is 1:1" in mine, text
    assert "Britain conquers Guiana from France." in mine, text
    assert "Britain asks to end the War with France." in mine, text
    assert "War W1 ends by agreement after 1 War Sequence" in mine, text
    assert "War W1 is settled." in mine, text


def test_a_marker_paid_for_in_a_codominion_says_its_price():
    """NEGOTIATION (4): a new member's Protectorate "must be paid for"; the sentence says what it
    cost, as a bought marker's does, and a marker gained for nothing says no price."""
    paid = {"kind": "marker", "power": "Germany", "area": "Soudan", "from": "interest", "to": "protectorate",
            "reason": "negotiation: Codominion", "cost": 15}
    assert report_events.sentence(paid) == \
        "Germany's Interest in Soudan becomes a Protectorate (negotiation: Codominion), for £15."
    assert report_events.sentence({**paid, "cost": 0}) == \
        "Germany's Interest in Soudan becomes a Protectorate (negotiation: Codominion)."
