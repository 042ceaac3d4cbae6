"""A whole game played by mail through real Dovecot (IMAP) and a real SMTP
server on loopback: sign-on to the end, with acknowledgements, a reminder,
a missed deadline with default orders, GM pause/extend/rollback, press and a
two-party treaty signed by mail; then ``verify`` on the finished game."""
from __future__ import annotations

import re

import pytest
from helpers_mailtable import GM_SECRET, find, table  # noqa: F401 (table: the fixture)

from pbem.play.verify import verify
from pbem.storage import store
from pbem.storage.values import pack_text, unpack_text

pytestmark = pytest.mark.mail


def test_a_whole_game_by_mail(table):
    # The GM creates the game and seats two players.
    table.send("gm", f"SIGNON GM@duel {GM_SECRET}\nGM CREATE duel RULES beacon\n"
                     f"GM ADD PLAYER North {table.servers.address('alice')}\n"
                     f"GM ADD PLAYER South {table.servers.address('bob')}\nGM START\n")
    table.run()
    gm_reply = table.text(find(table.new_mail("gm"), "received"))
    assert "Game created" in gm_reply and "Game started" in gm_reply
    secrets = {}
    for user, power in (("alice", "North"), ("bob", "South")):
        mails = table.new_mail(user)
        welcome = table.text(find(mails, "you play"))
        secrets[power] = re.search(r"Your secret is:\s+(\S+)", welcome).group(1)
        assert "has started" in " ".join(m["Subject"] for m in mails)

    # Round 1: North orders (echoed, with the deadline and who is missing).
    table.send("alice", f"Hello!\nSIGNON North@duel {secrets['North']}\nORDERS\nbid 3\nEND\n")
    table.run()
    ack = find(table.new_mail("alice"), "received")
    assert "BID 3" in table.text(ack) and "Still waiting for orders from: South" in table.text(ack)
    assert ack["Auto-Submitted"] == "auto-replied" and ack["In-Reply-To"]

    # Press and a treaty, signed by both by mail.
    table.send("alice", f"SIGNON North@duel {secrets['North']}\nPRESS TO South\nShall we share the beacon?\n"
                        "ENDPRESS\nTREATY PROPOSE T1 WITH South\nNorth and South bid low.\nENDTREATY\n")
    table.run()
    bob_mail = table.new_mail("bob")
    assert "Shall we share the beacon?" in table.text(find(bob_mail, "press from North"))
    assert "proposed" in find(bob_mail, "treaty T1")["Subject"]
    table.send("bob", f"SIGNON South@duel {secrets['South']}\nTREATY SIGN T1\n")
    table.run()
    record = table.text(find(table.new_mail("alice"), "treaty T1"))
    assert "Status:     in force" in record and "South:" in record

    # A reminder before the deadline, then the deadline passes: South gets the default.
    table.clock.advance(hours=30)
    table.run()
    assert find(table.new_mail("bob"), "reminder")
    table.clock.advance(hours=43)
    table.run()
    report = table.text(find(table.new_mail("bob"), "turn report"))
    assert "beacon won by North" in report
    assert store.player(table.ctx, "duel", "South")["missed"] == 1

    # The GM extends, pauses, resumes; every player hears of it.
    table.send("gm", f"SIGNON GM@duel {GM_SECRET}\nGM EXTEND 24h\nGM PAUSE\nGM RESUME\n")
    table.run()
    subjects = [m["Subject"] for m in table.new_mail("alice")]
    assert any("deadline changed" in s for s in subjects) and any("paused" in s for s in subjects)

    # Round 2 by both, then the GM rolls it back and it is played again.
    for user, power, bid in (("alice", "North", 1), ("bob", "South", 4)):
        table.send(user, f"SIGNON {power}@duel {secrets[power]}\nORDERS\nBID {bid}\n")
    table.run()
    assert store.get_game(table.ctx, "duel").state["round"] == 3
    table.send("gm", f"SIGNON GM@duel {GM_SECRET}\nGM ROLLBACK 2/orders\n")
    table.run()
    assert store.get_game(table.ctx, "duel").state["round"] == 2
    for round_no in (2, 3):
        for user, power in (("alice", "North"), ("bob", "South")):
            table.send(user, f"SIGNON {power}@duel {secrets[power]}\nORDERS\nBID 1\n")
        table.run()
    rec = store.get_game(table.ctx, "duel")
    assert rec.status == "over"
    final = table.text(find(table.new_mail("alice"), "turn report"))
    assert "THE GAME IS OVER" in final and rec.row["seed"] in final

    # Every mail was acknowledged once; processed mail left the inbox.
    assert table.servers.messages("moderator") == []
    assert len(table.servers.messages("moderator", "Processed")) >= 9

    report = verify(table.ctx, "duel")
    assert report.ok, report.problems
    snap = next(table.ctx.db["snapshots"].rows_where("game = 'duel'", order_by="seq"))
    tampered = unpack_text(snap["after"]).replace('"score"', '"scorE"')  # kept compressed
    assert tampered != unpack_text(snap["after"])
    table.ctx.db["snapshots"].update(snap["id"], {"after": pack_text(tampered)})
    assert not verify(table.ctx, "duel").ok
