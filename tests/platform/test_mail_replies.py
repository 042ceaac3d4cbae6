"""Replies as real mail clients write them (tests/replies: Gmail, Outlook, Hotmail's
Date-first header block, Windows Mail in Russian, Gmail's rendering of Outlook's
*From:* block, Yandex, mail.ru, iPhone, Android, Thunderbird's split attribution,
German, French and Spanish clients, bottom posting): what is left once the quote is
removed is the player's own lines and nothing else.  bench/quotes.py measures the
same corpus against two reply-parsing libraries."""
from pathlib import Path

import pytest

from helpers_loop import Loop
from pbem.storage import phase_orders
from pbem.mail.quotes import strip_quotes

REPLIES = Path(__file__).resolve().parents[1] / "replies"
OWN = ["SIGNON France@pax1 my-secret-1", "BUY INFLUENCE Persia"]


def test_the_corpus_has_the_clients():
    assert len(list(REPLIES.glob("*.txt"))) >= 15


@pytest.mark.parametrize("name", sorted(p.name for p in REPLIES.glob("*.txt")))
def test_only_the_players_own_lines_are_left(name):
    kept = strip_quotes((REPLIES / name).read_text(encoding="utf-8"))
    assert [line.strip() for line in kept.splitlines() if line.strip()] == OWN


def test_a_quoted_report_in_a_hotmail_block_is_no_order(tmp_path):
    lp = Loop(tmp_path)
    secret = lp.start_beacon()["North"]
    body = (REPLIES / "hotmail_date_first_block.txt").read_text(encoding="utf-8")
    body = body.replace("SIGNON France@pax1 my-secret-1", f"SIGNON North@g1 {secret}")
    body = body.replace("BUY INFLUENCE Persia", "BID 2")
    assert lp.mail("north@example.test", body) == "done"
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "refused" not in reply.lower() and "[not-understood]" not in reply
    assert phase_orders.current_orders(lp.ctx, "g1", "1/orders")["North"][0].canonical == "BID 2"


def test_a_sign_off_under_bare_orders_is_left_out_with_a_note(tmp_path):
    lp = Loop(tmp_path)
    secrets = lp.start_beacon()
    lp.mail("north@example.test", f"SIGNON North@g1 {secrets['North']}\nBID 2\n\nThanks,\nAlex\n")
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "[not-understood]" not in reply and "left out, as a sign-off" in reply
    assert phase_orders.current_orders(lp.ctx, "g1", "1/orders")["North"][0].canonical == "BID 2"
    lp.mail("south@example.test", f"SIGNON South@g1 {secrets['South']}\nORDERS\nBID 1\nENDORDERS\n")
    assert lp.tick()  # nothing refused: the phase runs early
