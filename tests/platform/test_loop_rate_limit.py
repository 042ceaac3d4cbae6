"""Reply limits (server.reply_rate_per_hour and [limits]) hold back only replies
to strangers, addresses that have not signed on with a right secret (or signed
on from an address that is not of record), and only the reply to that address:
a signed-on player's own replies always go, and so do press, warnings and copies
to other addresses."""
import pytest

from helpers_loop import Loop

LIMIT = 2
MAILS = LIMIT + 2


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon()
    lp.ctx.reply_rate_per_hour = LIMIT
    return lp


def _replies(loop, address: str) -> list:
    return [m for m in loop.inbox(address) if "received" in m["Subject"]]


def test_a_signed_on_player_s_replies_are_never_held_back(loop):
    for n in range(MAILS):
        loop.mail("north@example.test",
                  f"SIGNON North@g1 {loop.secrets['North']}\nPRESS TO South\nnote {n}\nENDPRESS\n")
    loop.flush()
    assert len(_replies(loop, "north@example.test")) == MAILS
    press = [m.get_body(("plain",)).get_content() for m in loop.inbox("south@example.test")
             if "press" in m["Subject"].lower()]
    assert [n for n in range(MAILS) if any(f"note {n}" in text for text in press)] == list(range(MAILS))


def test_a_stranger_s_replies_are_limited_but_the_address_of_record_is_still_told(loop):
    for _ in range(MAILS):
        loop.mail("mallory@example.test", "SIGNON North@g1 wrong\nORDERS\nBID 9\n")
    loop.flush()
    assert len(_replies(loop, "mallory@example.test")) == LIMIT
    assert all("held back" in m["outcome"] for m in loop.db["messages"].rows_where("id > ?", [1 + LIMIT]))
    warnings = [m for m in loop.inbox("north@example.test") if "wrong secret" in m["Subject"]]
    assert warnings, "the address of record hears of the wrong secrets"


def test_the_copy_to_the_address_of_record_goes_with_every_reply_from_another_address(loop):
    """A right secret from an address that is not of record may come with a forged
    From: that address's replies are limited like a stranger's, and the address of
    record has the copy of every one."""
    for n in range(MAILS):
        loop.mail("north-laptop@example.test",
                  f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID {n + 1}\n")
    loop.flush()
    assert len(_replies(loop, "north-laptop@example.test")) == LIMIT
    copies = [m for m in loop.inbox("north@example.test") if "received" in m["Subject"]]
    assert len(copies) == MAILS
    assert f"BID {MAILS}" in copies[-1].get_body(("plain",)).get_content()
