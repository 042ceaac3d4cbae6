"""A Pax Britannica Congress of Europe played entirely by mail through real Dovecot (IMAP)
and a real SMTP server on loopback: a placement dispute, the call with a site, attendance
and an invitation, two proposals, a failed vote, a passed vote, a refusal to sign, and the
Casus Belli, marker removal and European Tensions that follow, as the players' reports and
the treaty records show them; then ``verify`` on the game."""
from __future__ import annotations

import pytest

from pbem.storage import store
from pbem.play.verify import verify

from pax_mail import PaxGame, flat, reports, table  # noqa: F401 - table is the fixture
from helpers_mailtable import find

pytestmark = pytest.mark.mail
# 1880's Random Events under the seed (pax_mail.SEED) touch nothing the test uses (no Unrest in
# the New Hebrides, no Casus Belli): the dice follow the seed, so the test is the same each run.


def test_a_congress_of_europe_by_mail(table):
    game = PaxGame(table, "vienna", " OPTION marker_conflicts=negotiation")
    ctx = table.ctx
    assert store.get_game(ctx, "vienna").state["phase"] == "movement"

    # The GM sets the scene; France places a Protectorate beside Britain's Influence.
    game.gm('SET MARKER Britain influence "New Hebrides"', "SET TREASURY France 60",
            "SET MERCHANT France Mediterranean", 'SET MERCHANT France "Indian Ocean"',
            "SET MERCHANT France Oceania", "SET ARMY France 1 HOME")
    table.run()
    game.send("bob", ["BUY PROTECTORATE New Hebrides", "MOVE ARMY 1 HOME TO New Hebrides"], done=False)
    for user in ("alice", "carol", "dave"):
        game.send(user)
    table.run()
    britain = reports(table, "alice")
    assert "France against Britain" not in britain and "Britain against France over New Hebrides" in britain
    assert "Next phase: 1880 Negotiation" in britain and "Your orders are due" in britain
    assert "What you may do now" in britain and "CALL CONGRESS AT <site>" in britain
    eti_before = store.get_game(ctx, "vienna").state["eti"]

    # Negotiation: Britain calls the Congress in Austria-Hungary; the reply says who is left.
    game.send("alice", ["CALL CONGRESS AT Austria-Hungary"])
    table.run()
    ack = table.text(find(table.new_mail("alice"), "received"))
    assert "CALL CONGRESS AT Austria-Hungary" in ack and "Still waiting for orders from: France" in ack
    game.send("bob")
    table.run()
    germany = reports(table, "carol")
    assert "Congress of Europe in Austria-Hungary (called by Britain)" in germany
    assert "ATTEND -- take your seat at the Congress" in germany and "DECLINE -- stay away" in germany

    # Attendance: Germany attends; every European player invites the United States.
    game.send("carol", ["ATTEND", "INVITE United-States"])
    game.send("alice", ["INVITE United-States"])
    game.send("bob", ["INVITE USA"])
    table.run()
    state = store.get_game(ctx, "vienna").state
    assert state["congress"]["members"] == ["Britain", "France", "Germany", "Austria-Hungary", "United States"]
    assert "United States is invited to the Congress" in reports(table, "dave")

    # Round 1: two proposals, both defeated.
    game.send("bob", ["PROPOSE P1", "DOWNGRADE Britain New Hebrides TO NONE",
                      "France: PAY Britain 10", "ENDPROPOSE"])
    game.send("alice", ["PROPOSE P2", "CODOMINION New Hebrides WITH Britain", "ENDPROPOSE"])
    table.run()
    ack = table.text(find(table.new_mail("alice"), "received"))
    assert "  PROPOSE P2\r\n    CODOMINION New Hebrides WITH Britain\r\n    ENDPROPOSE" in ack
    assert "Still waiting for orders from: Germany, United States" in ack
    for user in ("carol", "dave"):
        game.send(user)
    table.run()
    for user, ballots in (("alice", ["VOTE P1 NO", "VOTE P2 YES"]), ("bob", ["VOTE P1 YES", "VOTE P2 NO"]),
                          ("carol", ["VOTE P1 NO", "VOTE P2 NO"]), ("dave", ["VOTE P1 ABSTAIN", "VOTE P2 NO"])):
        game.send(user, ballots, done=False)
    table.run()
    text = reports(table, "dave")
    assert "Proposal P1 is defeated: 1 YES, 2 NO" in text and "Proposal P2 is defeated: 1 YES, 3 NO" in text
    assert "United States ABSTAIN" in text

    # Round 2: Germany's proposal passes; France refuses to sign it.
    game.send("carol", ["PROPOSE P3", "DOWNGRADE France New Hebrides TO INFLUENCE",
                        "Peace in the Pacific.", "ENDPROPOSE"])
    for user in ("alice", "bob", "dave"):
        game.send(user)
    table.run()
    for user, ballot in (("alice", "YES"), ("bob", "NO"), ("carol", "YES"), ("dave", "YES")):
        game.send(user, [f"VOTE P3 {ballot}"], done=False)
    table.run()
    france = reports(table, "bob")
    assert "Proposal P3 passes: 3 YES, 1 NO" in france and "SIGN P3 -- the treaty the Congress passed" in france
    assert "REFUSE P3 -- defy the Congress" in france
    game.send("bob", ["REFUSE P3"], done=False)
    game.send("alice", ["SIGN P3"], done=False)
    table.run()
    germany = reports(table, "carol")
    assert "France refuses to sign P3" in germany
    assert "Germany gains a Casus Belli against France (France refused the Congress's treaty)" in germany
    assert "European Tensions +3 (the Congress failed: 1 Casus Belli unresolved)" in germany
    assert "European Tensions +2 (France defied the Congress by refusing to sign)" in germany
    assert "DECLARE WAR ON <power>[,<power>...] -- you hold a Casus Belli against them France" in germany

    # Nobody goes to War: the Casus Belli holder loses its marker; the treaty record is mailed.
    for user in ("alice", "carol", "dave"):
        game.send(user)
    table.run()
    mails = table.new_mail("alice")
    britain = flat("\n".join(table.text(m) for m in mails if "turn report" in m["Subject"]))
    assert "Britain's Influence in New Hebrides is removed (no War over the failed Congress)" in britain
    record = table.text(find(mails, "treaty P3: refused"))
    assert "DOWNGRADE France New Hebrides TO INFLUENCE" in record and "refused" in record
    state = store.get_game(ctx, "vienna").state
    assert "Britain" not in state["markers"].get("New Hebrides", {})
    assert state["markers"]["New Hebrides"]["France"]["status"] == "protectorate"
    # the Congress (3), the unresolved Casus Belli (3), the refusal (2), Britain's Influence (2)
    assert state["eti"] - eti_before == 10

    report = verify(ctx, "vienna")
    assert report.ok, report.problems
