"""No order lost in silence (issue 45): a player's orders above the quote their mail
program wrote below them are all read, whatever the program, and every line the player
wrote is stored as part of an order or command, or named in the reply with its reason.
Each mail is a Pax Britannica player's reply through the whole moderator."""
import re

import pytest

from pax_table import PaxTable
from pbem.storage import phase_orders, store

THREE = ["BUY INFLUENCE Tunis", "BUILD ARMY 3", "BUILD ARMY 1"]
EARLIER_ACK = ["Game pax, France.", "Orders stored for 1880 Movement/Status Change:", "  BUILD ARMY 10",
               "Deadline: Thu 8 Jan 2026 12:00 UTC"]


@pytest.fixture
def pax(tmp_path, monkeypatch):
    return PaxTable(tmp_path, monkeypatch)


def stored(pax, power="France") -> list[str]:
    """The orders stored for ``power`` in the phase being played."""
    rec = store.get_game(pax.ctx, "pax")
    orders = phase_orders.current_orders(pax.ctx, "pax", rec.rules.phase(rec.state).key).get(power) or []
    return [o.canonical for o in orders]


def listed(reply: str) -> list[str]:
    """The lines of the reply's list of orders stored, as shown."""
    return reply.split("(they replace any you sent before):\n", 1)[1].split("\n\n", 1)[0].split("\n")


def test_apple_mail_attribution_under_an_orders_block_keeps_the_third_order(pax):
    """Apple Mail's attribution written right under the last order: the last order was
    read as the attribution's first line and vanished, with no refusal."""
    reply = pax.say("France", "ORDERS", *THREE,
                    "On 22 Aug 2015, at 19:21, Erin Player <erin@players.test> wrote:", "",
                    *("> " + line for line in ["ORDERS", "BUILD ARMY 10", "ENDORDERS"]))
    assert stored(pax) == THREE
    assert listed(reply)[:3] == [f"  {o}" for o in THREE]
    assert "Refused" not in reply


def test_gmail_attribution_with_its_date_form_under_bare_orders_keeps_every_order(pax):
    """Three bare orders, Gmail's 'On Dec 8, 2013 2:10 PM, "Name" <addr> wrote:', a
    blank line and a quoted earlier ack with a long quoted line: two orders vanished."""
    reply = pax.say("France", *THREE, 'On Dec 8, 2013 2:10 PM, "Erin Player" <erin@players.test> wrote:', "",
                    *("> " + line for line in EARLIER_ACK), "> " + "quoted text " * 60)
    assert stored(pax) == THREE
    assert "Refused" not in reply and "line-too-long" not in reply


def test_yahoo_quote_header_is_not_read_as_an_order(pax):
    """Yahoo's '--- On Wed, 4/4/12, name <addr> wrote:' above an unquoted header block and
    the earlier mail was refused as neither a command nor an order."""
    reply = pax.say("France", "ORDERS", "BUILD ARMY 1", "ENDORDERS", "",
                    "--- On Wed, 4/4/12, Erin Player <erin@players.test> wrote:", "",
                    "From: Erin Player <erin@players.test>", "Subject: Re: [pax] orders",
                    "To: pbem@example.test", "Date: Wednesday, April 4, 2012, 10:00 AM", "",
                    "ORDERS", "BUILD ARMY 10", "ENDORDERS")
    assert stored(pax) == ["BUILD ARMY 1"]
    assert "Refused" not in reply and "not-understood" not in reply


def test_a_long_quoted_line_is_never_judged_by_order_rules(pax):
    """A quoted line of more than 500 characters, quoted Supercite-style ('A>>>>>'),
    was refused as too long though the player did not write it."""
    reply = pax.say("France", "ORDERS", "BUILD ARMY 1", "ENDORDERS", "",
                    "A>>>>> " + "an earlier mail's long line " * 25)
    assert stored(pax) == ["BUILD ARMY 1"]
    assert "line-too-long" not in reply and "Refused" not in reply


def test_an_ack_never_shows_an_empty_order_line(pax):
    reply = pax.say("France", "ORDERS", *THREE, "ENDORDERS")
    shown = listed(reply)
    assert shown[:3] == [f"  {o}" for o in THREE]
    assert all(line.strip() for line in shown), shown
    assert shown[3].startswith("Cost £18")


def test_a_greeting_and_lines_after_signoff_are_named_in_the_reply(pax):
    """Lines the reader skips (before the first command, after SIGNOFF) are named, so an
    order written above the sign-on is not lost in silence."""
    pax.loop.mail("france@example.test", "Hi GM,\nBUILD ARMY 3\n"
                  f"SIGNON France@pax {pax.secrets['France']}\nORDERS\nBUILD ARMY 1\nENDORDERS\n"
                  "SIGNOFF\nBUY INFLUENCE Tunis\n")
    pax.loop.flush()
    reply = pax.loop.last_text("france@example.test")
    assert stored(pax) == ["BUILD ARMY 1"]
    assert "Not read, as they come before the mail's first command" in reply
    assert "line 1 (Hi GM,), line 2 (BUILD ARMY 3)" in reply
    assert re.search(r"Not read, as they come after SIGNOFF: line 8 \(BUY INFLUENCE Tunis\)", reply)


def test_a_line_the_game_reads_as_nothing_is_named_not_lost(tmp_path):
    """The moderator's net under the games' promise (ParseResult): a game with a bug
    that skips a line without an order or a problem; the reply names the line."""
    from helpers_loop import Loop
    from pbem.base import registry

    registry.load_extra("tests.buggygame:GAME")
    lp = Loop(tmp_path)
    secrets = lp.start_beacon(rules="buggygame")
    lp.mail("north@example.test", f"SIGNON North@g1 {secrets['North']}\nORDERS\nBID 2\nLOSE\nENDORDERS\n")
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "line 4: [unread-line]" in reply
    assert [o.canonical for o in phase_orders.current_orders(lp.ctx, "g1", "1/orders")["North"]] == ["BID 2"]
