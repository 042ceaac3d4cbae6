"""Whole-loop transcripts on the test game: mail in, replies and state out."""
from datetime import timedelta

import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.storage import store


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon()
    return lp


def test_orders_are_echoed_and_the_phase_runs_when_all_are_in(loop):
    loop.mail("north@example.test", f"Hi all\nSIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 4\nEND\n")
    loop.flush()
    reply = loop.last_text("north@example.test")
    assert "BID 4" in reply and "Still waiting for orders from: South" in reply
    assert not loop.tick()
    loop.mail("south@example.test", f"SIGNON south@G1 {loop.secrets['South']}\nORDERS\nBID 2\n")
    resolved = loop.tick()
    assert resolved and "Round 1" in resolved[0]
    loop.flush()
    report = [m for m in loop.inbox("north@example.test") if "turn report" in m["Subject"]][-1]
    assert "beacon won by North" in report.get_body(("plain",)).get_content()
    assert report["Auto-Submitted"] == "auto-generated"  # a report answers nobody's mail (RFC 3834)
    rec = store.get_game(loop.ctx, "g1")
    assert rec.state["score"]["North"] == 1 and rec.state["round"] == 2


def test_problems_have_line_code_and_suggestion(loop):
    loop.mail("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBIDD 3\nBID 99\n")
    loop.flush()
    reply = loop.last_text("north@example.test")
    assert "line 3: [invalid-order]" in reply and "did you mean BID" in reply
    assert "line 4: [insufficient-gold]" in reply


def test_wrong_secret_changes_nothing_and_warns_the_address_of_record(loop):
    loop.mail("mallory@example.test", "SIGNON North@g1 wrong\nORDERS\nBID 9\n")
    loop.flush()
    assert "[wrong-secret]" in loop.last_text("mallory@example.test")
    assert "wrong secret" in loop.inbox("north@example.test")[-1]["Subject"]
    assert not loop.db["orders"].count


def test_deadline_applies_defaults_and_flags_the_power(loop):
    loop.mail("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 1\n")
    loop.clock.advance(hours=30)
    loop.tick()
    loop.flush()
    assert any("reminder" in m["Subject"] for m in loop.inbox("south@example.test"))
    loop.clock.advance(hours=43)
    assert loop.tick()
    south = store.player(loop.ctx, "g1", "South")
    assert south["missed"] == 1


def test_auto_replies_get_no_answer(loop):
    before = loop.db["outbox"].count
    status = loop.mail("north@example.test", "I am away", headers={"Auto-Submitted": "auto-replied"})
    assert status == "ignored" and loop.db["outbox"].count == before


def test_same_message_id_is_applied_once(loop):
    body = f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 1\n"
    loop.mail("north@example.test", body, message_id="<same@x>")
    assert loop.mail("north@example.test", body, message_id="<same@x>") == "duplicate"
    assert loop.db["orders"].count == 1


def test_gm_extend_pause_rollback(loop):
    rec = store.get_game(loop.ctx, "g1")
    loop.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM EXTEND 24h\n")
    assert store.get_game(loop.ctx, "g1").deadline == rec.deadline + timedelta(hours=24)
    loop.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM PAUSE\n")
    assert store.get_game(loop.ctx, "g1").status == "paused"
    loop.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM RESUME\nGM PROCESS NOW\n")
    assert store.get_game(loop.ctx, "g1").state["round"] == 2
    loop.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM ROLLBACK 1/orders\n")
    assert store.get_game(loop.ctx, "g1").state["round"] == 1
    actions = [r["action"] for r in store.gm_log_rows(loop.ctx, "g1")]
    assert {"pause", "resume", "rollback", "process now"} <= set(actions)
    assert any(a.startswith("extended the deadline") for a in actions)
    loop.flush()
    notices = [m["Subject"] for m in loop.inbox("south@example.test")]
    assert any("deadline changed" in s for s in notices) and any("paused" in s for s in notices)


def test_reports_have_plain_text_first_and_an_html_alternative(loop):
    for power in ("North", "South"):  # North takes its own map as SVG (SET MAP SVG; the default is a PNG)
        loop.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {loop.secrets[power]}\n"
                  + ("SET MAP SVG\n" if power == "North" else "") + "ORDERS\nBID 1\n")
    loop.tick()
    loop.flush()
    report = [m for m in loop.inbox("north@example.test") if "turn report" in m["Subject"]][-1]
    parts = [p.get_content_type() for p in report.iter_parts()]
    # the plain text first and whole; the HTML with its map as one related part
    assert parts == ["text/plain", "multipart/related"]
    assert "Scores:" in report.get_body(("plain",)).get_content()
    related = list(report.iter_parts())[1]
    html_part, image = list(related.iter_parts())
    assert html_part.get_content_type() == "text/html" and image.get_content_type() == "image/svg+xml"
    cid = image["Content-ID"].strip("<>")
    html = report.get_body(("html",)).get_content()
    assert f'src="cid:{cid}"' in html and 'alt="Map of Beacon (test game) at Round 2 Orders, for North"' in html
    assert image.get_content().startswith(b"<svg") and b"Beacons after round 2" in image.get_content()
    # the game's own body template draws the scores as a table
    assert "report for North" in html and "<table>" in html and "<caption>Round 2: scores</caption>" in html
