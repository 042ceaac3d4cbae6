"""Bounces through the whole loop, on a corpus of delivery reports in the
shapes mail servers send (tests/bounces: Postfix, Exim, qmail, Exchange,
Gmail-like and Yahoo-like reports, a delayed-delivery warning, a report
without a report-type, a MAILER-DAEMON return path, gateways that say
"delivery failed" from a real address, in English and Russian): none is
answered, each names the right address, and a dead address of record is
told to the GM and flags its power."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers_loop import Loop
from pbem.inbound import intake
from pbem.outbound import bounces
from pbem.storage import store
from pbem.mail.source import RawMail

CORPUS = Path(__file__).resolve().parents[1] / "bounces"
MAILS = sorted(p.name for p in CORPUS.glob("*.eml"))
# Each mail's failed address, and whether the failure is for good (hard) or for now.
EXPECTED = {
    "delayed_warning.eml": ("north@example.test", False),
    "stranger_bounce.eml": ("nobody@elsewhere.test", True),
}


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon()
    lp.flush()
    return lp


def deliver(lp, name: str, n: int = 0) -> int:
    ours = lp.inbox("north@example.test")[0]  # a mail pbem sent to North
    raw = (CORPUS / name).read_bytes().replace(b"{OUR_MESSAGE_ID}", ours["Message-ID"].strip("<>").encode())
    raw = raw.replace(b"Message-Id: <", f"Message-Id: <{n}.".encode())  # each report is a new mail
    row = intake.store_raw(lp.ctx, RawMail(f"bounce:{name}:{n}", raw))
    intake.process(lp.ctx, row)
    return row


def test_the_corpus_has_many_shapes():
    assert len(MAILS) >= 10


@pytest.mark.parametrize("name", MAILS)
def test_a_bounce_is_never_answered_and_names_its_address(loop, name):
    before = loop.db["outbox"].count
    row = deliver(loop, name)
    assert loop.db["messages"].get(row)["status"] == "ignored"
    assert loop.db["outbox"].count_where("source = ? and kind = 'reply'", [row]) == 0
    address, hard = EXPECTED.get(name, ("north@example.test", True))
    found = {r["address"]: r for r in bounces.bouncing_addresses(loop.ctx)}
    assert list(found) == [address], found
    assert found[address]["hard" if hard else "soft"] == 1
    # Only the GM (and the power's other addresses) hear of a player's address bouncing.
    told = [r for r in loop.db["outbox"].rows_where("id > ?", [before])]
    assert all("north@example.test" not in r["recipients"] for r in told)
    if address == "north@example.test":
        assert any("gm@example.test" in r["recipients"] for r in told)


def test_a_dead_only_address_flags_its_power_for_replacement(loop):
    for day in range(5):
        for n in range(3):  # a dead mailbox bounces every mail of the day: counted once a day
            deliver(loop, "postfix_dsn.eml", day * 10 + n)
        loop.clock.advance(days=1)
    row = loop.db["bounces"].get("north@example.test")
    assert row["score"] == 5.0 and row["state"] == bounces.DEAD
    assert store.player(loop.ctx, "g1", "North")["status"] == "unreachable"
    loop.flush()
    gm = [m["Subject"] for m in loop.inbox("gm@example.test") if "bounces" in m["Subject"]]
    assert gm == ["[g1] mail to North bounces"] * 2  # when it starts, and when it is dead
    assert "flagged for replacement" in loop.last_text("gm@example.test")


def test_a_player_s_other_address_hears_of_the_bounces(loop):
    store.update_player(loop.ctx, store.player(loop.ctx, "g1", "North")["id"],
                        addresses=["north@example.test", "north.home@example.test"])
    deliver(loop, "exim_failure.eml")
    loop.flush()
    assert "has started to bounce" in loop.last_text("north.home@example.test")
    assert store.player(loop.ctx, "g1", "North")["status"] != "unreachable"
