"""The per-address reply limit (server.reply_rate_per_hour) holds back only the
reply to the address over the limit: press, warnings and copies to other
addresses always go."""
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


def test_press_is_delivered_after_the_sender_passed_the_limit(loop):
    for n in range(MAILS):
        loop.mail("north@example.test",
                  f"SIGNON North@g1 {loop.secrets['North']}\nPRESS TO South\nnote {n}\nENDPRESS\n")
    loop.flush()
    assert len(_replies(loop, "north@example.test")) == LIMIT
    press = [m.get_body(("plain",)).get_content() for m in loop.inbox("south@example.test")
             if "press" in m["Subject"].lower()]
    assert [n for n in range(MAILS) if any(f"note {n}" in text for text in press)] == list(range(MAILS))
    assert all("rate limit" in m["outcome"] for m in loop.db["messages"].rows_where("id > ?", [1 + LIMIT]))


def test_every_wrong_secret_is_reported_to_the_player_however_often_a_stranger_tries(loop):
    for _ in range(MAILS):
        loop.mail("mallory@example.test", "SIGNON North@g1 wrong\nORDERS\nBID 9\n")
    loop.flush()
    assert len(_replies(loop, "mallory@example.test")) == LIMIT
    warnings = [m for m in loop.inbox("north@example.test") if "wrong secret" in m["Subject"]]
    assert len(warnings) == MAILS


def test_the_copy_to_the_address_of_record_goes_when_the_sender_is_limited(loop):
    for n in range(MAILS):
        loop.mail("north-laptop@example.test",
                  f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID {n + 1}\n")
    loop.flush()
    assert len(_replies(loop, "north-laptop@example.test")) == LIMIT
    copies = [m for m in loop.inbox("north@example.test") if "received" in m["Subject"]]
    assert len(copies) == MAILS
    assert f"BID {MAILS}" in copies[-1].get_body(("plain",)).get_content()
    assert "north-laptop@example.test" not in str(copies[-1]["To"]) + str(copies[-1]["Cc"] or "")
