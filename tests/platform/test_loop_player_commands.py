"""Whole-loop transcripts of the player commands on the test game: orders
withdrawn, status, help, history, reports sent again, account settings."""
import re

import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.storage import phase_orders, store

GM = "gm@example.test"
NORTH, SOUTH = "north@example.test", "south@example.test"


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon()
    return lp


def send(loop, power: str, *lines: str, sender: str | None = None) -> str:
    sender = sender or f"{power.lower()}@example.test"
    status = loop.mail(sender, f"SIGNON {power}@g1 {loop.secrets[power]}\n" + "\n".join(lines) + "\n")
    loop.flush()
    return status


def both_bid(loop, north: int, south: int) -> None:
    send(loop, "North", "ORDERS", f"BID {north}")
    send(loop, "South", "ORDERS", f"BID {south}")
    assert loop.tick()


def test_clear_withdraws_the_orders_and_names_the_default(loop):
    send(loop, "North", "ORDERS", "BID 3")
    send(loop, "North", "CLEAR")
    assert "Orders for Round 1 Orders withdrawn." in loop.last_text(NORTH)
    assert "Default at the deadline: " in loop.last_text(NORTH)
    assert phase_orders.current_orders(loop.ctx, "g1", "1/orders") == {}
    send(loop, "South", "ORDERS", "BID 1")
    assert not loop.tick()  # North owes orders again


def test_status_shows_the_game_and_only_your_own_orders(loop):
    send(loop, "South", "ORDERS", "BID 7")
    send(loop, "North", "ORDERS", "BID 3")
    send(loop, "North", "STATUS")
    reply = loop.last_text(NORTH)
    assert "Game g1 (Beacon (test game)) is active." in reply
    assert "North: active" in reply and "South: active" in reply
    assert "Your orders this phase: BID 3" in reply and "BID 7" not in reply


def test_help_on_a_command_is_that_command_and_help_orders_adds_the_games_orders(loop):
    send(loop, "North", "HELP RESEND")
    reply = loop.last_text(NORTH)
    assert "RESEND [<phase>]" in reply and "Orders: BID <n>" not in reply
    send(loop, "North", "HELP ORDERS")
    reply = loop.last_text(NORTH)
    assert "ORDERS [<phase>] ... ENDORDERS" in reply and "Orders: BID <n>" in reply
    assert loop.mail("stranger@example.test", "HELP\n") == "done"  # help needs no sign-on
    loop.flush()
    assert "SIGNON" in loop.last_text("stranger@example.test")


def test_history_and_resend_of_an_earlier_phase(loop):
    send(loop, "North", "HISTORY")
    assert "none yet" in loop.last_text(NORTH)
    both_bid(loop, 3, 1)
    both_bid(loop, 1, 4)
    send(loop, "North", "HISTORY")
    assert re.findall(r"Round \d \w+ \[\d/\w+\](?= \(resolved)", loop.last_text(NORTH)) == [
        "Round 1 Orders [1/orders]", "Round 1 Tally [1/tally]", "Round 2 Orders [2/orders]",
        "Round 2 Tally [2/tally]"]
    send(loop, "North", "RESEND 1/tally")
    again = [m for m in loop.inbox(NORTH) if "report again" in m["Subject"]]
    # The report comes in the one mail that answers RESEND, under its own subject (pbem.outbound.batch).
    assert len(again) == 1 and "(with: report again" in again[0]["Subject"] and len(again[0]["Subject"]) < 60
    assert "[g1] North report again: Round 1 Tally" in again[0].get_body(("plain",)).get_content()
    assert "beacon won by North for 3 gold" in again[0].get_body(("plain",)).get_content()
    assert not [m for m in loop.inbox(SOUTH) if "report again" in m["Subject"]]
    send(loop, "North", "RESEND 9/tally")
    assert "[nothing-to-resend]" in loop.last_text(NORTH)


def test_set_address_moves_the_reports_once_the_new_address_confirms(loop):
    send(loop, "North", "SET ADDRESS n2@example.test")
    assert "waiting for confirmation: n2@example.test" in loop.last_text(NORTH)
    token_mail = loop.inbox("n2@example.test")[-1].get_body(("plain",)).get_content()
    token = re.search(r"CONFIRM (\S+)", token_mail).group(1)
    assert store.addresses(store.player(loop.ctx, "g1", "North")) == [NORTH]
    loop.mail("n2@example.test", f"CONFIRM {token}\n")
    loop.flush()
    assert "Address confirmed:" in loop.last_text("n2@example.test")
    assert store.addresses(store.player(loop.ctx, "g1", "North")) == ["n2@example.test"]
    send(loop, "South", "ORDERS", "BID 1")
    send(loop, "North", "ORDERS", "BID 2", sender="n2@example.test")
    loop.tick()
    loop.flush()
    assert [m for m in loop.inbox("n2@example.test") if "turn report" in m["Subject"]]
    assert not [m for m in loop.inbox(NORTH) if "turn report" in m["Subject"]]


def test_set_password_replaces_the_secret(loop):
    old = loop.secrets["North"]
    send(loop, "North", "SET PASSWORD new-north-secret")
    assert "Secret changed." in loop.last_text(NORTH)
    assert "new-north-secret" not in loop.last_text(NORTH)
    assert loop.mail(NORTH, f"SIGNON North@g1 {old}\nSTATUS\n") == "rejected"
    assert loop.mail(NORTH, "SIGNON North@g1 new-north-secret\nSTATUS\n") == "done"


def test_an_absent_power_missing_a_deadline_is_not_counted(loop):
    send(loop, "South", "SET ABSENCE 2026-01-06 2026-01-20")
    assert "Absence noted:" in loop.last_text(SOUTH)
    assert "absence" in [r["action"] for r in store.gm_log_rows(loop.ctx, "g1")]
    send(loop, "North", "ORDERS", "BID 1")
    loop.clock.advance(hours=73)
    assert loop.tick()
    assert store.player(loop.ctx, "g1", "South")["missed"] == 0
    send(loop, "North", "STATUS")
    assert "South: absent" in loop.last_text(NORTH)
    send(loop, "South", "SET ABSENCE 2026-01-20 2026-01-06")
    assert "[bad-date]" in loop.last_text(SOUTH)


def test_every_problem_is_reported_and_nothing_after_signoff_is_done(loop):
    send(loop, "North", "ORDERS", "BID 1")
    status = send(loop, "North", "ORDERS", "BIDD 3", "BID 99", "ENDORDERS", "TREATY SIGN nosuch",
                  "SIGNOFF", "CLEAR")
    reply = loop.last_text(NORTH)
    assert status == "done"
    assert "line 3: [invalid-order]" in reply and "line 4: [insufficient-gold]" in reply
    assert reply.count("[") >= 3 and "line 6" in reply
    assert "withdrawn" not in reply
    # the CLEAR after SIGNOFF was not done, and the refused orders did not replace BID 1
    assert [r["text"] for r in loop.db["orders"].rows_where("current = 1")] == ["BID 1"]
    assert "your earlier orders for Round 1 Orders stand" in reply


def test_the_last_reminder_comes_again_before_a_moved_deadline(loop):
    def twelve_hours_left():  # the reminder due 12h before: it says the time really left
        return [m for m in loop.inbox(SOUTH) if "reminder, 11h left" in m["Subject"]]

    loop.clock.advance(hours=61)  # 11h before the deadline
    loop.tick()
    loop.flush()
    assert len(twelve_hours_left()) == 1
    loop.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM EXTEND 24h\n")
    loop.clock.advance(hours=13)  # 22h before the new deadline
    loop.tick()
    loop.flush()
    assert len(twelve_hours_left()) == 1
    loop.clock.advance(hours=11)  # 11h before the new deadline
    loop.tick()
    loop.flush()
    assert len(twelve_hours_left()) == 2
    assert "Thu 8 Jan" not in twelve_hours_left()[-1].get_body(("plain",)).get_content()
