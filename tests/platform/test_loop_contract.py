"""The game contract's second edition through the whole loop, on Beacon:
order windows (a reaction window with its own deadline, optional
responders, a result told to one power), typed treaties and rulings, DONE,
orders whose every line was refused, and orders written without ORDERS."""
from datetime import timedelta


from helpers_loop import GM_SECRET, Loop, secret_in
from pbem.storage import phase_orders, store
from pbem.storage.db import dumps, loads
from pbem.play.verify import verify

GM = "gm@example.test"
POWERS = ("North", "South", "East")


def start(tmp_path, options: str = "OPTION claims=on") -> Loop:
    lp = Loop(tmp_path)
    seats = "".join(f"GM ADD PLAYER {p} {p.lower()}@example.test\n" for p in POWERS)
    assert lp.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon {options}\n{seats}GM START\n") == "done"
    lp.flush()
    lp.secrets = {p: secret_in(next(m for m in lp.inbox(f"{p.lower()}@example.test") if "you play" in m["Subject"])
                               .get_body(("plain",)).get_content()) for p in POWERS}
    return lp


def say(lp: Loop, power: str, *lines: str) -> str:
    return lp.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {lp.secrets[power]}\n" + "\n".join(lines) + "\n")


def gm(lp: Loop, *lines: str) -> str:
    return lp.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\n" + "\n".join(lines) + "\n")


def game(lp: Loop):
    return store.get_game(lp.ctx, "g1")


def win_round_one(lp: Loop) -> None:
    """North outbids the others: the round's claim window opens for North."""
    say(lp, "North", "ORDERS", "BID 3")
    say(lp, "South", "ORDERS", "BID 1")
    say(lp, "East", "ORDERS", "PASS")
    lp.tick()
    assert game(lp).state["phase"] == "claim"


def reports_of(lp: Loop, address: str) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in lp.inbox(address) if "turn report" in m["Subject"]]


def test_a_reaction_window_has_its_own_deadline(tmp_path):
    lp = start(tmp_path)
    opened = lp.clock.now()
    assert game(lp).deadline == opened + timedelta(hours=72)  # the turn window
    win_round_one(lp)
    assert game(lp).deadline == opened + timedelta(hours=12)  # Beacon's reaction window
    lp2 = start(tmp_path / "b", "OPTION claims=on OPTION reaction_duration=2h")
    win_round_one(lp2)
    assert game(lp2).deadline == lp2.clock.now() + timedelta(hours=2)


def test_optional_responders_are_heard_and_never_waited_for(tmp_path):
    lp = start(tmp_path)
    win_round_one(lp)
    assert phase_orders.waiting_for(lp.ctx, game(lp)) == ["North"]
    # The report of the window tells a power asked nothing the game's reason.
    lp.flush()
    report = [m for m in lp.inbox("east@example.test") if "report" in m["Subject"]][-1]
    assert "Nothing is asked of you in this phase: you bid nothing in round 1" \
        in report.get_body(("plain",)).get_content()
    assert say(lp, "South", "ORDERS", "PROTEST") == "done"
    lp.flush()
    assert "Orders stored for Round 1 Claim" in lp.last_text("south@example.test")
    assert say(lp, "South", "ORDERS", "KEEP") == "done"  # only the winner keeps or gives
    lp.flush()
    assert "[wrong-phase] KEEP is not an order of the claim phase for South" in lp.last_text("south@example.test")
    # East passed: the window asks nothing of it, and the refusal gives the game's reason.
    assert say(lp, "East", "ORDERS", "PROTEST", "ENDORDERS", "DONE") == "done"
    lp.flush()
    refusal = lp.last_text("east@example.test")
    assert ("[no-orders-due] no orders are due from East in Round 1 Claim: you bid nothing in round 1, "
            "so you have no bid to protest with") in refusal
    assert "[no-orders-due] nothing is asked of East in Round 1 Claim: you bid nothing in round 1" in refusal
    lp.tick()
    assert game(lp).state["phase"] == "claim"  # still waiting for North, not for South or East
    say(lp, "North", "ORDERS", "KEEP")
    lp.tick()
    state = game(lp).state
    assert state["phase"] == "orders" and state["round"] == 2
    assert state["questions"]["protest-1"] == {"holder": "North", "by": ["South"], "open": True}


def test_the_claim_result_is_told_to_the_winner_alone(tmp_path):
    lp = start(tmp_path)
    win_round_one(lp)
    lp.flush()
    before = {p: len(reports_of(lp, f"{p.lower()}@example.test")) for p in POWERS}
    say(lp, "North", "ORDERS", "GIFT South")
    lp.tick()
    lp.flush()
    after = {p: len(reports_of(lp, f"{p.lower()}@example.test")) for p in POWERS}
    # Everyone is asked for round 2's bids; only the winner is told how the claim went.
    assert after == {p: before[p] + 1 for p in POWERS}
    assert "North gave the point to South." in reports_of(lp, "north@example.test")[-1]
    for other in ("south@example.test", "east@example.test"):
        text = reports_of(lp, other)[-1]
        assert "gave the point" not in text and "Resolved:" not in text and "Your orders are due" in text
    public = [m for m in lp.inbox(GM) if "GM report" in m["Subject"]][-1].get_body(("plain",)).get_content()
    assert "North gave the point to South." in public
    assert game(lp).state["score"] == {"North": 0, "South": 1, "East": 0}


def test_a_ruling_settles_a_question_and_a_bad_one_is_refused(tmp_path):
    lp = start(tmp_path)
    win_round_one(lp)
    say(lp, "South", "ORDERS", "PROTEST")
    say(lp, "North", "ORDERS", "KEEP")
    lp.tick()
    gm(lp, "GM RULE protest-1 maybe")
    lp.flush()
    assert "[bad-ruling]" in lp.last_text(GM)
    gm(lp, "GM RULE protest-9 UPHELD")
    lp.flush()
    assert "[unknown-question] there is no open question 'protest-9' (open: protest-1)" in lp.last_text(GM)
    assert game(lp).state["score"]["North"] == 1
    gm(lp, "GM RULE protest-1 UPHELD: the bid was late")
    lp.flush()
    assert game(lp).state["score"]["North"] == 0
    assert any("UPHELD: the bid was late" in m.get_body(("plain",)).get_content()
               for m in lp.inbox("east@example.test") if "GM ruling on protest-1" in m["Subject"])
    assert verify(lp.ctx, "g1").ok


def test_a_treaty_clause_warns_before_and_breaks_when_the_bids_open(tmp_path):
    lp = start(tmp_path, "")
    say(lp, "North", "TREATY PROPOSE calm WITH South", "We keep bids low.", "NO BID ABOVE 2", "ENDTREATY")
    say(lp, "South", "TREATY SIGN calm")
    lp.flush()
    record = lp.about("south@example.test", "treaty calm: in force")[-1]
    assert "NO BID ABOVE 2" in record.get_body(("plain",)).get_content()
    say(lp, "South", "ORDERS", "BID 3")
    lp.flush()
    ack = lp.last_text("south@example.test")
    assert "[breaks-treaty] a bid above 2 breaks treaty calm" in ack and "BID 3" in ack
    say(lp, "North", "ORDERS", "BID 1")
    say(lp, "East", "ORDERS", "PASS")
    lp.tick()
    lp.flush()
    assert game(lp).state["treaties"]["calm"]["status"] == "broken"
    broken = [m for m in lp.inbox("north@example.test") if "treaty calm: broken" in m["Subject"]]
    assert len(broken) == 1 and "South claims" not in broken[0].get_body(("plain",)).get_content()
    assert "South broke treaty calm." in reports_of(lp, "north@example.test")[-1]


def test_verify_replays_treaties_edits_and_rulings_and_catches_tampering(tmp_path):
    lp = start(tmp_path)
    say(lp, "North", "TREATY PROPOSE t1 WITH South", "Friends.", "ENDTREATY")
    say(lp, "South", "TREATY SIGN t1")
    gm(lp, "GM SET GOLD East 12")
    win_round_one(lp)
    say(lp, "South", "ORDERS", "PROTEST")
    say(lp, "North", "ORDERS", "KEEP")
    lp.tick()
    gm(lp, "GM RULE protest-1 DISMISSED")
    report = verify(lp.ctx, "g1")
    assert report.ok, report.problems
    kinds = [r["kind"] for r in lp.db["snapshots"].rows_where("game = 'g1'", order_by="seq")]
    assert kinds.count("input") == 4 and kinds.count("phase") == 3
    sign = next(lp.db["snapshots"].rows_where("game = 'g1' and label like '%sign by South'"))
    after = loads(sign["after"])
    after["treaties"]["t1"]["status"] = "lapsed"
    lp.db["snapshots"].update(sign["id"], {"after": dumps(after)})
    problems = verify(lp.ctx, "g1").problems
    assert "Round 1 Orders: treaty t1 sign by South: replaying it gives a different result than the one stored" \
        in problems
    assert "Round 1 Orders: GM edit SET GOLD East 12: its starting state is not where the previous step ended" \
        in problems


def test_orders_that_are_all_refused_do_not_count_as_orders_in(tmp_path):
    lp = start(tmp_path, "")
    say(lp, "North", "ORDERS", "BID 2")
    say(lp, "East", "ORDERS", "PASS")
    say(lp, "South", "ORDERS", "BID 99", "BIDD 1")
    lp.tick()
    assert game(lp).state["phase"] == "orders"  # South is still waited for
    assert phase_orders.waiting_for(lp.ctx, game(lp)) == ["South"]
    lp.flush()
    assert "the default applies at the deadline: PASS" in lp.last_text("south@example.test")
    say(lp, "South", "ORDERS", "BID 1")
    say(lp, "South", "ORDERS", "BID 50")  # refused: BID 1 stands
    lp.flush()
    assert "your earlier orders for Round 1 Orders stand" in lp.last_text("south@example.test")
    lp.tick()
    assert game(lp).state["history"][0]["bids"] == {"North": 2, "South": 1, "East": 0}


def test_done_says_nothing_more_from_me(tmp_path):
    lp = start(tmp_path, "")
    say(lp, "North", "ORDERS", "BID 2")
    say(lp, "East", "ORDERS", "BID 1")
    say(lp, "South", "DONE")
    lp.flush()
    assert "you send no orders this phase" in lp.last_text("south@example.test")
    lp.tick()
    assert game(lp).state["round"] == 2


def test_orders_written_without_an_orders_line_are_read_as_orders(tmp_path):
    lp = start(tmp_path, "")
    assert say(lp, "North", "BID 2", "STATUS", "cheers, Alice") == "done"
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "Orders stored for Round 1 Orders" in reply and "BID 2" in reply
    # A sign-off under the last order is left out with a note, not refused.
    assert "left out, as a sign-off" in reply and "[not-understood]" not in reply
    assert reply.count("[") == 0  # no refusal, no grammar lecture
    say(lp, "South", "BIDD 2")
    lp.flush()
    assert "(did you mean BID <n>?)" in lp.last_text("south@example.test")


def test_a_second_order_is_the_games_refusal_not_the_mails_line_cap(tmp_path):
    """Beacon takes one order a phase: a second is ``one-order-a-phase``, while
    ``too-many-orders`` is only the moderator's cap on the lines of a mail."""
    lp = start(tmp_path)
    assert say(lp, "North", "ORDERS", "BID 1", "BID 2") == "done"
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "line 4: [one-order-a-phase] only one order per phase counts" in reply
    assert "[too-many-orders]" not in reply


def test_orders_that_came_after_their_deadline_are_told_so_once(tmp_path):
    lp = start(tmp_path)
    win_round_one(lp)  # round 1's bids are resolved; North's claim window is open
    assert say(lp, "East", "ORDERS", "BID 2") == "done"
    lp.flush()
    reply = lp.last_text("east@example.test")
    assert "This mail came after the deadline of Round 1 Orders: that phase was resolved (" in reply
    assert "so they were not used. The game is now at Round 1 Claim" in reply
    assert "[no-orders-due] no orders are due from East in Round 1 Claim" in reply
    # a mistake in the phase being played, which the last phase would not have taken either, is no late mail
    assert say(lp, "South", "ORDERS", "KEEP") == "done"
    lp.flush()
    reply = lp.last_text("south@example.test")
    assert "[wrong-phase] KEEP is not an order of the claim phase for South" in reply
    assert "came after the deadline" not in reply
