"""Guessing secrets by mail, through the whole loop: wrong secrets are
throttled per sender and per (game, power) without blocking other mail, the
address of record hears of them once an hour, a right secret from a foreign
address always copies the address of record, and forged senders cannot turn
pbem into a flood of replies to third parties."""
import pytest

from helpers_loop import Loop
from pbem.base import identity
from pbem.storage import phase_orders
from pbem.base.limits import Limits

GUESSES = 300


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon()
    return lp


@pytest.fixture
def hashes(monkeypatch):
    """How many secrets were checked (each check is a slow scrypt hash)."""
    calls = []
    real = identity.verify_secret

    def counting(secret, stored):
        calls.append(secret)
        return real(secret, stored)

    monkeypatch.setattr(identity, "verify_secret", counting)
    return calls


def _orders(loop):
    return {p: [o.canonical for o in os] for p, os in phase_orders.current_orders(loop.ctx, "g1", "1/orders").items()}


def test_a_flood_of_wrong_secrets_costs_a_few_checks_and_holds_up_no_other_mail(loop, hashes):
    for n in range(GUESSES):
        assert loop.mail("mallory@example.test", f"SIGNON North@g1 guess{n}\nORDERS\nBID 9\n") == "rejected"
    assert len(hashes) <= Limits().wrong_secrets_free + 1
    waiting = loop.db["messages"].count_where("outcome like 'sign-on waits%'")
    assert waiting >= GUESSES - len(hashes)
    assert loop.mail("south@example.test", f"SIGNON South@g1 {loop.secrets['South']}\nORDERS\nBID 1\n") == "done"
    assert _orders(loop) == {"South": ["BID 1"]}


def test_the_address_of_record_hears_of_wrong_secrets_once_an_hour(loop):
    for n in range(20):
        loop.mail(f"mallory{n}@example.test", f"SIGNON North@g1 guess{n}\nSTATUS\n")
    loop.flush()
    told = [m for m in loop.inbox("north@example.test") if "wrong secret" in m["Subject"]]
    assert len(told) == 1
    loop.clock.advance(hours=2)
    loop.mail("mallory@example.test", "SIGNON North@g1 again\nSTATUS\n")
    loop.flush()
    told = [m for m in loop.inbox("north@example.test") if "wrong secret" in m["Subject"]]
    assert len(told) == 2 and "wrong secrets for North in a row" in told[-1].get_body(("plain",)).get_content()


def test_a_right_secret_from_a_waiting_address_waits_too_then_works_and_copies_the_record(loop):
    for n in range(Limits().wrong_secrets_free + 1):
        loop.mail("mallory@example.test", f"SIGNON North@g1 guess{n}\nSTATUS\n")
    right = f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 7\n"
    assert loop.mail("mallory@example.test", right) == "rejected"
    assert _orders(loop) == {}
    loop.flush()
    assert "[too-many-wrong-secrets]" in loop.last_text("mallory@example.test")
    loop.clock.advance(hours=1)
    assert loop.mail("mallory@example.test", right) == "done"
    loop.flush()
    assert _orders(loop) == {"North": ["BID 7"]}
    copy = loop.inbox("north@example.test")[-1]
    assert "received" in copy["Subject"] and "BID 7" in copy.get_body(("plain",)).get_content()


def test_strangers_guesses_never_lock_the_player_out_of_their_own_address(loop):
    for n in range(12):
        loop.mail(f"mallory{n}@example.test", f"SIGNON North@g1 guess{n}\nSTATUS\n")
    assert loop.mail("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 2\n") == "done"
    assert _orders(loop) == {"North": ["BID 2"]}


def test_the_copy_to_the_address_of_record_goes_when_the_guesser_is_over_its_reply_limit(loop):
    loop.ctx.reply_rate_per_hour = 2
    for n in range(3):
        loop.mail("mallory@example.test", f"SIGNON North@g1 guess{n}\nSTATUS\n")
    loop.clock.advance(minutes=30)  # past the wait, still inside the reply limit's hour
    assert loop.mail("mallory@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 5\n") == "done"
    loop.flush()
    assert _orders(loop) == {"North": ["BID 5"]}
    copies = [m for m in loop.inbox("north@example.test") if "received" in m["Subject"]]
    assert copies and "BID 5" in copies[-1].get_body(("plain",)).get_content()


def test_two_hundred_forged_senders_get_no_more_replies_than_the_overall_limit(loop):
    loop.ctx.limits = Limits(stranger_replies_per_hour_all=50)
    for n in range(200):
        loop.mail(f"victim{n}@elsewhere.test", "HELP\n")
    replies = loop.db.execute("select count(*) from outbox where kind = 'reply' and stranger = 1").fetchone()[0]
    assert replies == 50
    held = loop.db["messages"].count_where("outcome like '%held back%'")
    assert held == 150
    loop.clock.advance(hours=1, minutes=1)
    loop.mail("victim0@elsewhere.test", "HELP\n")
    assert loop.db.execute("select count(*) from outbox where kind = 'reply' and stranger = 1").fetchone()[0] == 51


def test_a_stranger_s_replies_are_limited_by_size(loop):
    loop.ctx.limits = Limits(stranger_reply_bytes_per_hour=30_000)
    for _ in range(20):
        loop.mail("victim@elsewhere.test", "HELP\nHELP ORDERS\nHELP SIGNON\n")
    sent = loop.db.execute("select sum(length(raw)) from outbox where kind = 'reply' "
                           "and instr(recipients, 'victim@elsewhere.test') > 0").fetchone()[0]
    assert sent <= 30_000
