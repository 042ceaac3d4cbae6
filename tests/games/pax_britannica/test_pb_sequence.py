"""Pax Britannica Movement/Status Change Phase: a power's orders in the order written.

What the reply says about a line (judged after which lines, legal if written elsewhere,
needing a refused line), that what the reply accepts is what the phase does, agreements
between powers, and garrisons recorded when Movement ends."""
from __future__ import annotations

import copy

from hypothesis import given, settings, strategies as hs

from games.pax_britannica import GAME, load_data
from games.pax_britannica.core import board, mapgraph
from games.pax_britannica.phases import marker_adjustment as ma, movement, movement_validate
from pbem.kit.dice import ScriptedDice, SeededDice

FOUR = ["Britain", "France", "Germany", "United States"]
DATA = load_data()


def board_at(setup: str = "empty", *gm: str) -> dict:
    state = GAME.setup(FOUR, {"setup": setup}, None)
    state = GAME.set_phase(state, "movement", 1884)
    for line in gm:
        state = GAME.gm_command(state, line, None)[0]
    return state


def reply(state: dict, power: str, *lines: str):
    parsed = GAME.parse_orders(state, power, list(enumerate(lines, 1)))
    assert parsed.problems == [], [p.render() for p in parsed.problems]
    problems = GAME.validate(state, power, parsed.orders)
    refused = {p.line for p in problems if p.kind != "warning"}
    return parsed.orders, {p.line: p for p in problems if p.line is not None}, refused


def resolve(state: dict, orders: dict, dice=None):
    return GAME.resolve(state, orders, dice or ScriptedDice())


TUNIS = ("SET TREASURY Britain 50", 'SET MERCHANT Britain "North Atlantic Ocean"',
         'SET MERCHANT Britain "South Atlantic Ocean"')


def test_a_line_legal_only_after_a_fleet_move_names_the_move():
    _, problems, refused = reply(board_at("empty", *TUNIS), "Britain",
                                 'MOVE MERCHANT "South Atlantic Ocean" TO Mediterranean',
                                 "BUY INTEREST Tunis")
    assert refused == set()
    note = problems[2]
    assert (note.code, note.kind) == ("uses-earlier-order", "warning")
    assert "Communication Link to Tunis runs through the Merchant Fleet moved to the " \
           "Mediterranean Sea on line 1" in note.message


def test_a_line_written_above_what_it_needs_says_where_it_would_be_legal():
    _, problems, refused = reply(board_at("empty", *TUNIS), "Britain", "BUY INTEREST Tunis",
                                 'MOVE MERCHANT "South Atlantic Ocean" TO Mediterranean')
    assert refused == {1}
    assert problems[1].code == "no-communication-link"
    assert "written below line 2 (MOVE MERCHANT South Atlantic Ocean TO Mediterranean Sea) " \
           "it would be legal" in problems[1].message


def test_a_line_written_below_what_undoes_it_says_it_would_be_legal_above():
    state = board_at("empty", "SET MARKER Britain protectorate Egypt", "SET ARMY Britain 3 Egypt",
                     'SET MERCHANT Britain "North Atlantic Ocean"',
                     'SET MERCHANT Britain "Mediterranean Sea"')
    _, problems, refused = reply(state, "Britain", "TRANSFER PROTECTORATE Egypt TO France",
                                 "MOVE ARMY 3 Egypt TO HOME")
    assert refused == {2}
    assert "written above line 1 (TRANSFER PROTECTORATE Egypt TO France)" in problems[2].message


def test_a_line_that_needed_a_refused_line_says_so():
    state = board_at("empty", "SET TREASURY Britain 50", 'SET MERCHANT Britain "North Atlantic Ocean"')
    _, problems, refused = reply(state, "Britain", 'MOVE MERCHANT "Indian Ocean" TO Mediterranean',
                                 "BUY INTEREST Tunis")
    assert refused == {1, 2}
    assert "it needs line 1 (MOVE MERCHANT Indian Ocean TO Mediterranean Sea), which is refused " \
           "above" in problems[2].message


def test_money_is_spent_in_the_order_written_and_the_reply_names_the_spender():
    state = board_at("empty", "SET TREASURY Britain 25", 'SET MERCHANT Britain "North Atlantic Ocean"')
    _, problems, refused = reply(state, "Britain", "BUY INFLUENCE Marocco", "BUILD ARMY 10",
                                 "BUY INTEREST Mauretania")
    assert refused == {2}
    assert "BUILD ARMY 10 costs 20; Britain has 15 left after spending 10 on the orders written " \
           "above it (line 1)" in problems[2].message


def test_moving_a_purchase_that_lacks_money_is_not_offered_as_a_cure():
    state = board_at("empty", "SET TREASURY Germany 25", 'SET MERCHANT Germany "North Atlantic Ocean"')
    _, problems, refused = reply(state, "Germany", "BUY INFLUENCE Marocco", "BUILD ARMY 10")
    assert refused == {2}
    assert "would be legal" not in problems[2].message  # above line 1 it would refuse line 1


def test_a_very_long_mail_gets_its_verdicts_without_explanations():
    lines = ["BUY INTEREST Persia"] * (movement_validate.EXPLAIN_UP_TO + 1)
    _, problems, refused = reply(board_at("empty", "SET TREASURY Britain 50"), "Britain", *lines)
    assert refused == set(range(1, len(lines) + 1))
    assert "would be legal" not in problems[1].message
    every = GAME.validate(board_at("empty"), "Britain",
                          GAME.parse_orders(board_at("empty"), "Britain",
                                            list(enumerate(lines, 1))).orders)
    assert "no-explanations" in {p.code for p in every}


def test_a_purchase_paid_with_accepted_money_warns_that_it_depends_on_the_giver():
    state = board_at("empty", 'SET MERCHANT Britain "North Atlantic Ocean"')
    _, problems, refused = reply(state, "Britain", "ACCEPT 25 FROM France", "BUY INFLUENCE Marocco")
    assert refused == set()
    assert "paid with the 25 accepted from France on line 1" in problems[2].message
    assert "if France does not hand it over" in problems[2].message


def test_a_purchase_each_affordable_alone_but_not_after_the_others_names_the_gift():
    state = board_at("empty", "SET TREASURY Britain 30", 'SET MERCHANT Britain "North Atlantic Ocean"')
    _, problems, refused = reply(state, "Britain", "ACCEPT 20 FROM France", "BUY PROTECTORATE Marocco",
                                 "BUILD ARMY 10")
    assert refused == set()
    assert 2 not in problems or problems[2].code == "no-garrison"
    assert problems[3].code == "uses-earlier-order"
    assert "paid with the 20 accepted from France on line 1" in problems[3].message


def test_a_gift_that_fails_fails_the_accept_and_the_purchase_that_needed_it():
    state = board_at("empty", "SET TREASURY France 5", 'SET MERCHANT Britain "North Atlantic Ocean"')
    b, _, _ = reply(state, "Britain", "ACCEPT 25 FROM France", "BUY INFLUENCE Marocco")
    f = GAME.parse_orders(state, "France", [(1, "GIVE Britain 25")]).orders
    _, events = resolve(state, {"Britain": b, "France": f})
    failed = {(e["power"], e["order"]): e for e in events if e["kind"] == "order_failed"}
    assert failed[("France", "GIVE Britain 25")]["code"] == "insufficient-funds"
    assert failed[("Britain", "ACCEPT 25 FROM France")]["code"] == "agreement-failed"
    buy = failed[("Britain", "BUY INFLUENCE Marocco")]
    assert buy["code"] == "insufficient-funds"
    assert "it needed line 1 (ACCEPT 25 FROM France), which failed" in buy["reason"]


def test_accepts_written_above_each_others_gifts_go_on_and_the_money_arrives_later():
    # Choice (Sequences): each power waits at its ACCEPT for the other's GIVE written below it
    state = board_at("empty", "SET TREASURY Britain 15", "SET TREASURY France 10",
                     'SET MERCHANT Britain "North Atlantic Ocean"')
    b, _, rb = reply(state, "Britain", "ACCEPT 10 FROM France", "BUY PROTECTORATE Marocco",
                     "GIVE France 5")
    f, _, rf = reply(state, "France", "ACCEPT 5 FROM Britain", "GIVE Britain 10")
    assert rb == rf == set()
    after, events = resolve(state, {"Britain": b, "France": f})
    failed = [e for e in events if e["kind"] == "order_failed"]
    assert [(e["power"], e["order"]) for e in failed] == [("Britain", "BUY PROTECTORATE Marocco")]
    assert "which had not arrived" in failed[0]["reason"]
    # both gifts still change hands: 15 - 5 + 10 and 10 + 5 - 10
    assert board.treasury(after, "Britain") == 20 and board.treasury(after, "France") == 5


def test_an_order_refused_alone_is_still_carried_out_when_it_follows_its_source():
    state = board_at("empty", "SET TREASURY \"United States\" 40",
                     'SET MARKER "United States" influence Panama',
                     'SET MERCHANT "United States" "Caribbean Sea"',
                     'SET MERCHANT "United States" "South Pacific Ocean"')
    orders, _, refused = reply(state, "United States", "BUILD CANAL Panama", "BUY INTEREST Peru")
    assert refused == set()
    after, events = resolve(state, {"United States": orders})
    assert not [e for e in events if e["kind"] == "order_failed"]
    assert board.status_of(after, "Peru", "United States") == "interest"


# -- what the reply accepts is what the phase does ---------------------------------------
BRITAIN_LINES = [
    "MOVE MERCHANT North Atlantic TO Caribbean", "MOVE MERCHANT Caribbean TO North Atlantic",
    "MOVE MERCHANT Mediterranean TO Black Sea", "PLACE MERCHANT Caribbean",
    "PLACE MERCHANT South Pacific", "BUY INTEREST Tunis", "BUY INFLUENCE Tunis",
    "BUY PROTECTORATE Tunis", "BUY INTEREST Peru", "BUY INTEREST Venezuela",
    "BUY PROTECTORATE Bechuanaland", "BUILD ARMY 3", "BUILD ARMY 1", "MOVE ARMY 3 HOME TO Tunis",
    "MOVE ARMY 1 HOME TO Bechuanaland", "MOVE ARMY 3 Cape Colony TO Bechuanaland",
    "BUY DOMINION Australia", "BUY INTEREST Egypt", "BUILD NAVY 3", "DOWNGRADE Tunis",
    "MOVE ARMY 1 Fiji TO HOME", "BUY INFLUENCE Panama", "BUY POSSESSION Egypt",
    "BUILD CANAL Panama",
]
FRANCE_LINES = [
    "BUY INTEREST Tunis", "BUY PROTECTORATE Tunis", "MOVE ARMY 3 HOME TO Tunis",
    "BUY INTEREST Egypt", "BUY INFLUENCE Egypt", "MOVE MERCHANT Mediterranean TO Black Sea",
    "BUILD ARMY 3", "BUILD NAVY 3 Mediterranean", "BUY INTEREST Marocco",
    "MOVE MERCHANT Indian Ocean TO Caribbean", "BUY INTEREST Venezuela", "BUILD CANAL Panama",
    "MOVE MERCHANT South Atlantic TO South Pacific", "BUY INTEREST Peru",
]
lines_of = lambda pool: hs.lists(hs.sampled_from(pool), max_size=8)  # noqa: E731


def pieces(state: dict, power: str) -> tuple:
    marks = sorted((a, m["status"], bool(m.get("established")))
                   for a, ms in state.get("markers", {}).items() for p, m in ms.items() if p == power)
    units = sorted((u["type"], u["strength"], u["where"]) for u in board.units_of(state, power))
    return board.treasury(state, power), marks, units, sorted(mapgraph.merchant_seas(state, power))


@settings(max_examples=60, deadline=None)
@given(lines_of(BRITAIN_LINES), lines_of(FRANCE_LINES), hs.integers(0, 80), hs.integers(0, 80))
def test_what_the_reply_accepts_the_phase_carries_out_whatever_the_other_power_does(
        b_lines, f_lines, b_money, f_money):
    state = board_at("1880", f"SET TREASURY Britain {b_money}", f"SET TREASURY France {f_money}",
                     "SET MARKER Britain protectorate Egypt", "SET ARMY Britain 1 Egypt",
                     "SET MARKER Britain influence Panama", "SET MARKER France influence Panama")
    orders, expected = {}, {}
    for power, lines in (("Britain", b_lines), ("France", f_lines)):
        parsed, _, refused = reply(state, power, *lines)
        orders[power] = [o for o in parsed if o.line not in refused]
        expected[power] = pieces(movement_validate.sequence(state, DATA, power, orders[power])[1],
                                 power)
    after, events = resolve(state, orders, SeededDice(seed="sequence"))
    assert [e for e in events if e["kind"] == "order_failed"] == []
    for power in orders:
        assert pieces(after, power) == expected[power]


# -- garrisons judged when Movement ends ---------------------------------------------------
def test_movement_records_bare_control_markers_and_marker_adjustment_uses_the_record():
    state = board_at("empty", "SET MARKER Britain possession Egypt", "SET MARKER Spain protectorate Aden",
                     "SET ARMY Spain 1 Aden")
    after, _ = resolve(state, {})
    assert after["garrison_record"] == {"turn": 1884, "bare": {"Britain": ["Egypt"]}}
    # an army arriving after Movement (as by a retreat) changes nothing
    board.add_unit(after, "Britain", "army", 1, "Egypt")
    after["phase"] = "marker_adjustment"
    ma.resolve(after, {}, ScriptedDice(), DATA)
    assert board.status_of(after, "Egypt", "Britain") == "influence"
    assert "garrison_record" not in after


def test_option_garrison_eti_off_reduces_a_recorded_bare_marker_without_tension():
    for setting, eti in ((True, 2), (False, 0)):
        state = copy.deepcopy(board_at("empty", "SET MARKER Britain possession Egypt"))
        state["options"]["garrison_eti"] = setting
        movement.resolve(state, {}, ScriptedDice(), DATA)
        ma.resolve(state, {}, ScriptedDice(), DATA)
        assert board.status_of(state, "Egypt", "Britain") == "influence" and state["eti"] == eti


def test_a_record_of_another_turn_is_not_used():
    state = board_at("empty", "SET MARKER Britain possession Egypt", "SET ARMY Britain 1 Egypt")
    state["garrison_record"] = {"turn": 1880, "bare": {"Britain": ["Egypt"]}}
    state["phase"] = "marker_adjustment"
    ma.resolve(state, {}, ScriptedDice(), DATA)
    assert board.status_of(state, "Egypt", "Britain") == "possession"
