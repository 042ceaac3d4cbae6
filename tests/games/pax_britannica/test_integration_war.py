"""A Pax Britannica War played entirely by mail through real Dovecot (IMAP) and a real SMTP
server on loopback: Britain declares War on France with a Casus Belli; of France's two
defensive allies the United States joins and Germany refuses (a broken treaty); the
alliances' Maneuver, Attack and Supply phases follow as order windows; a British fleet
blockades Algiers, whose French army and the Area itself surrender for want of supply; the
War ends in France's defeat, and Britain places its marker in the conquered Area at the
Resolution.  Every step is read in the players' reports; then ``verify`` on the game."""
from __future__ import annotations

import re

import pytest

from pbem.storage import outbox_rows, store
from pbem.play.verify import verify

from pax_mail import PLAYERS, PaxGame, flat, reports, table  # noqa: F401 - table is the fixture
from helpers_mailtable import find

pytestmark = pytest.mark.mail
SCENE = ("SET MARKER Britain possession Egypt", "SET ARMY Britain 10 Egypt",
         'SET MERCHANT Britain "North Atlantic Ocean"', 'SET MERCHANT Britain "Mediterranean Sea"',
         'SET NAVY Britain 3 "Mediterranean Sea"', "SET MARKER France possession Algiers",
         "SET ARMY France 3 Algiers", 'SET MERCHANT France "Mediterranean Sea"',
         "SET TREATY T1 France Germany CLAUSES DEFENSIVE ALLIANCE",
         'SET TREATY T2 France "United States" CLAUSES DEFENSIVE ALLIANCE',
         "SET CB Britain France AREA Egypt")


def pass_until_war(table, game, name: str, turns: int) -> None:
    """Every player answers DONE until the War Phase opens (at most ``turns`` rounds of it)."""
    for _ in range(turns):
        for user in PLAYERS:
            game.send(user)
        table.run()
        if store.get_game(table.ctx, name).state["phase"] == "war":
            break
    assert store.get_game(table.ctx, name).state["phase"] == "war"


def test_a_war_by_mail(table):
    game = PaxGame(table, "crimea")
    ctx = table.ctx
    game.gm(*SCENE)
    table.run()
    eti_before = store.get_game(ctx, "crimea").state["eti"]

    # Movement and Negotiation pass with nothing done; the War Phase asks Britain.
    pass_until_war(table, game, "crimea", 2)
    britain = reports(table, "alice")
    assert "Next phase: 1880 War Phase: declarations of War" in britain
    assert "What you may do now DECLARE WAR ON <power> -- you may, against France: +5 European Tensions" in britain
    # Germany holds no Casus Belli: the refusal says so (the game's reason, Game.nothing_due).
    game.send("carol", ["DECLARE WAR ON Britain"])
    table.run()
    refusal = flat(table.text(find(table.new_mail("carol"), "received")))
    assert ("[no-orders-due] no orders are due from Germany in 1880 War Phase: declarations of War: you hold "
            "no Casus Belli, and only a power with one declares War") in refusal
    assert "[no-orders-due] nothing is asked of Germany in 1880 War Phase" in refusal

    # A move in the declarations window is refused with its reason; the declaration stands.
    game.send("alice", ["MOVE NAVY 3 Mediterranean Sea TO Algiers", "DECLARE WAR ON France"], done=False)
    table.run()
    ack = table.text(find(table.new_mail("alice"), "received"))
    assert "[wrong-phase] MOVE NAVY 3 Mediterranean Sea TO Algiers is an order of an Alliance Maneuver" in ack
    assert "  DECLARE WAR ON France" in ack
    # A mail with a refused line does not close the window early: DONE lets the orders stand.
    assert "does not run early on these orders" in flat(ack)
    game.send("alice")
    table.run()
    france = reports(table, "bob")
    assert "Britain declares War on France." in france and "War W1: Britain against France." in france
    germany, america = reports(table, "carol"), reports(table, "dave")
    assert "What you may do now JOIN WAR WITH France -- treaty T1" in germany
    assert "REFUSE WAR WITH France -- the default: breaks the treaty" in germany
    assert "JOIN WAR WITH France -- treaty T2" in america

    # Alliance Determination: the United States joins, Germany refuses (its treaty is broken);
    # JOIN WAR WITH France reads like the JOIN command but stays an order inside ORDERS ... ENDORDERS.
    game.send("carol", ["REFUSE WAR WITH France"], done=False)
    game.send("dave", ["JOIN WAR WITH France"], done=False)
    table.run()
    britain = reports(table, "alice")
    assert "Germany refuses to join France's War and breaks T1." in britain
    assert "United States joins the War beside France against Britain." in britain
    assert "the First Alliance is Britain, then France and United States" in britain
    assert "Next phase: 1880 War, sequence 1: First Alliance Maneuver (Britain)" in britain
    assert "MOVE NAVY 3 Mediterranean Sea TO <place>" in britain and "Algiers" in britain
    assert find(table.new_mail("bob"), "treaty T1: broken")
    state = store.get_game(ctx, "crimea").state
    assert state["phase"] == "war_maneuver_1" and state["treaties"]["T1"]["status"] == "broken"

    # Britain's Maneuver: the fleet blockades Algiers.  France, told what it may do, keeps
    # still; its Supply Phase finds Algiers cut off: the army and the Area surrender, and with
    # no French army abroad the War ends in France's defeat.
    game.send("alice", ["MOVE NAVY 3 Mediterranean Sea TO Algiers"], done=False)
    table.run()
    france = reports(table, "bob")
    assert "Britain: Navy (3) moves from Mediterranean Sea to Algiers." in france
    assert "Next phase: 1880 War, sequence 1: Second Alliance Maneuver" in france
    assert "What you may do now DONE -- no unit of yours can move END WAR WITH Britain" in france
    game.send("bob")
    table.run()
    france = reports(table, "bob")
    assert ("France's Army (3) in Algiers surrenders (out of supply; Algiers is blockaded by Britain)."
            in france)
    assert "Algiers (France) has no supply and surrenders to Britain." in france
    concerned = france[france.index("What concerned France"):]
    assert "War W1 ends in victory after 1 War Sequence: victors Britain; defeated France and United States; " \
           "conquered: Algiers." in concerned
    britain = reports(table, "alice")
    assert "What you may do now PLACE <marker> <area>, free, in: Algiers" in britain

    # The Resolution: Britain takes Algiers; France's marker goes, its army comes home.
    game.send("alice", ["PLACE POSSESSION Algiers"], done=False)
    table.run()
    france = reports(table, "bob")
    assert "France's Possession in Algiers is removed (conflicts with the spoils of War)." in france
    assert "Britain gains a Possession in Algiers (spoils of War)." in france
    # the settlement of France's own war stands in what concerned France
    assert "War W1 is settled." in france.split("What concerned France", 1)[1].split("Elsewhere", 1)[0]
    assert "Wars under way" not in france and "Markers: none Units: France Army (3)" in france
    state = store.get_game(ctx, "crimea").state
    assert state["markers"]["Algiers"] == {"Britain": {"status": "possession", "established": True}}
    assert {(u["power"], u["where"]) for u in state["units"] if u["type"] == "army"} >= {("France", "France")}
    assert state["phase"] == "movement" and state["turn"] == 1884
    # Britain's declaration, Germany's broken treaty, the United States joining
    assert state["eti"] - eti_before >= 15
    report = verify(ctx, "crimea")
    assert report.ok, report.problems
    # Every mail of the war (reports of each sub-phase among them) has a subject under 60
    # characters on one header line, so no mail client shows it cut or with a leading space.
    subjects = []
    for row in ctx.db["outbox"].rows:
        head = outbox_rows.mail_bytes(ctx, row).replace(b"\r\n", b"\n").split(b"\n\n", 1)[0].decode("ascii")
        line = re.search(r"^Subject: (.*)\n(?![ \t])", head, re.M)
        assert line, head
        subjects.append(line.group(1))
    assert subjects and all(len(s) < 60 for s in subjects), [s for s in subjects if len(s) >= 60]
    assert any(s.startswith("[crimea] France turn report: 1880 War") for s in subjects), subjects


TRIANGLE = ("SET MARKER Britain possession Egypt", "SET ARMY Britain 3 Egypt",
            "SET MARKER France possession Algiers", "SET ARMY France 3 Algiers",
            'SET MARKER "United States" protectorate Hawaii', 'SET ARMY "United States" 1 Hawaii',
            "SET CB Britain France AREA Egypt", 'SET CB France "United States" AREA Hawaii',
            'SET CB "United States" Britain AREA Egypt')


def test_a_three_cornered_war_by_mail(table):
    """Rules: DECLARATIONS OF WAR - "Britain is at War with France, France is at War with
    Germany, and Germany is at War with Britain - and no Power is allied with another. In this
    case, the players should add Third Alliance Maneuver, Attack, and Supply Phases"."""
    game = PaxGame(table, "triangle")
    ctx = table.ctx
    game.gm(*TRIANGLE)
    table.run()
    eti_before = store.get_game(ctx, "triangle").state["eti"]
    pass_until_war(table, game, "triangle", 3)
    reports(table, "alice")
    # the third declaration, on a power that fights the same enemy, is lawful
    game.send("alice", ["DECLARE WAR ON France"], done=False)
    game.send("bob", ["DECLARE WAR ON United States"], done=False)
    game.send("dave", ["DECLARE WAR ON Britain"], done=False)
    table.run()
    state = store.get_game(ctx, "triangle").state
    assert state["eti"] - eti_before == 15
    assert sorted(map(tuple, state["wars"][0]["sides"])) == [("Britain",), ("France",), ("United States",)]
    britain = reports(table, "alice")
    assert "United States declares War on Britain." in britain
    assert "own-ally" not in britain
    # each alliance's windows come in turn, the third's after the second's
    seen = []
    for _ in range(12):
        state = store.get_game(ctx, "triangle").state
        if not state["phase"].startswith("war_maneuver"):
            break
        seen.append(state["phase"])
        owes = [u for u, p in PLAYERS.items() if p in state["wars"][0]["sides"][int(state["phase"][-1]) - 1]]
        for user in owes:
            game.send(user)
        table.run()
    assert seen[:3] == ["war_maneuver_1", "war_maneuver_2", "war_maneuver_3"]
    third = store.get_game(ctx, "triangle").state
    text = reports(table, "alice") + reports(table, "bob") + reports(table, "dave")
    assert "Third Alliance Maneuver" in text, text[-2000:]
    report = verify(ctx, "triangle")
    assert report.ok, report.problems
    assert third["eti"] >= 15
