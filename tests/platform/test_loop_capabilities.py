"""A game that declares none of the optional capabilities (the minimal Beacon of
tests/testgame), through the whole loop: it plays its three rounds by mail, and each
thing it lacks gets the moderator's own answer: TREATY commands and GM game commands
are refused with a reason, its reports carry no map, HELP shows the commands alone,
the scenario runner and the demo refuse it."""
from __future__ import annotations

import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.base import registry
from pbem.scenario.parser import parse_text
from pbem.scenario.runner import run_case
from pbem.storage import store

GM = "gm@example.test"
TITLE = "Beacon, minimal (test game)"


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon(rules="testgame")
    lp.flush()
    return lp


def say(lp: Loop, power: str, *lines: str) -> str:
    return lp.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {lp.secrets[power]}\n" + "\n".join(lines) + "\n")


def gm(lp: Loop, *lines: str) -> str:
    return lp.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\n" + "\n".join(lines) + "\n")


def snapshots(lp: Loop) -> int:
    return lp.db.execute("select count(*) from snapshots").fetchone()[0]


def test_the_minimal_game_plays_three_rounds_by_mail_with_reports_without_a_map(loop):
    for bids in (("BID 3", "BID 1"), ("PASS", "BID 2"), ("BID 1", "PASS")):
        say(loop, "North", "ORDERS", bids[0])
        say(loop, "South", "ORDERS", bids[1])
        loop.tick()
    loop.flush()
    rec = store.get_game(loop.ctx, "g1")
    assert rec.status == "over" and rec.rules.results(rec.state)[0] == {"power": "North", "score": 2, "rank": 1}
    reports = [m for m in loop.inbox("north@example.test") if "turn report" in m["Subject"]]
    assert len(reports) == 3
    text = reports[0].get_body(("plain",)).get_content()
    assert "Round 1: beacon won by North for 3 gold." in text and "Your gold: 7" in text
    for report in reports:
        types = [p.get_content_type() for p in report.walk()]
        assert "image/svg+xml" not in types and "multipart/related" not in types, types
        assert "Map of" not in report.get_body(("html",)).get_content()
    assert "What you may do now" not in text


def test_the_archive_of_the_minimal_game_has_no_map_and_says_it_has_no_treaties(loop, tmp_path):
    from pbem.web import archive

    for _ in range(3):
        say(loop, "North", "ORDERS", "BID 1")
        say(loop, "South", "ORDERS", "PASS")
        loop.tick()
    site = archive.build_archive(loop.ctx, tmp_path / "site").parent
    assert not list((site / "g1").glob("*.svg"))
    phase_pages = [p.read_text() for p in (site / "g1").glob("*-*.html")]
    assert len(phase_pages) == 6 and not any("Map of the position" in page for page in phase_pages)
    assert "This game has no treaties." in (site / "g1" / "index.html").read_text()


def test_treaty_commands_are_refused_with_a_clear_reply_and_nothing_is_stored(loop):
    before = snapshots(loop)
    say(loop, "North", "TREATY PROPOSE calm WITH South", "NO BID ABOVE 2", "ENDTREATY")
    loop.flush()
    reply = loop.last_text("north@example.test")
    assert f"[no-treaties] {TITLE} has no treaties; agreements are made in press" in reply
    say(loop, "South", "TREATY LIST")
    loop.flush()
    assert f"[no-treaties] {TITLE} has no treaties" in loop.last_text("south@example.test")
    assert snapshots(loop) == before
    assert not [m for m in loop.inbox("south@example.test") if "treaty" in m["Subject"].lower()]


def test_gm_game_commands_and_rulings_are_refused_and_the_gm_s_own_commands_still_work(loop):
    before = snapshots(loop)
    gm(loop, "GM SET GOLD North 3", "GM RULE protest-1 UPHELD", "GM EXTEND 24h")
    loop.flush()
    reply = loop.last_text(GM)
    assert f"[no-gm-commands] {TITLE} takes no game-specific GM commands; HELP GM lists the moderator's" in reply
    assert f"[no-rulings] {TITLE} asks the GM no questions to rule on" in reply
    assert "Deadline changed:" in reply  # GM EXTEND, a moderator's command, was done
    assert snapshots(loop) == before
    rec = store.get_game(loop.ctx, "g1")
    assert rec.state["gold"]["North"] == 10


def test_help_shows_the_commands_and_says_the_game_lists_no_order_forms(loop):
    say(loop, "North", "HELP ORDERS")
    loop.flush()
    reply = loop.last_text("north@example.test")
    assert f"{TITLE} lists no order forms here: write its orders one a line between ORDERS" in reply
    say(loop, "North", "HELP BID")
    loop.flush()
    assert "There is no help on 'BID'. Send HELP for the list of commands." in loop.last_text("north@example.test")


def test_a_line_that_is_no_order_is_answered_without_the_game_s_forms(loop):
    say(loop, "North", "ORDERS", "Hello there", "BID 2")
    loop.flush()
    reply = loop.last_text("north@example.test")
    assert "[not-understood] 'Hello there' is neither a command nor an order of Round 1 Orders" in reply
    assert "BID 2" in reply


def test_the_scenario_runner_and_the_demo_refuse_a_game_without_those_capabilities(tmp_path, capsys):
    from pbem.host.demo import run_demo

    registry.load_extra("tests.testgame:GAME")
    case = parse_text("CASE m-1 minimal\nRULES testgame\nPLAYERS North South\nEXPECT gold North = 10\n"
                      "END CASE\n", "m.scn")[0]
    assert run_case(case).failures == [
        f"line 1: {TITLE} takes no scenario files (it answers no PHASE statement nor EXPECT query)"]
    assert run_demo(tmp_path / "demo", rules="testgame") == 2
    assert f"pbem demo: {TITLE} has no bots, so no demo can play it" in capsys.readouterr().err
    assert not (tmp_path / "demo").exists()
