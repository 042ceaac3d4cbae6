"""DONE in a mail one of whose lines was refused is not taken: the player meant more than
what stands, so the window stays open for the corrected line (DONE alone takes it)."""
from __future__ import annotations

from pax_table import PaxTable
from pbem.storage import phase_orders, store


def _done(t: PaxTable, power: str) -> bool:
    rec = store.get_game(t.ctx, "pax")
    key = rec.rules.phase(rec.state).key
    return any(r["power"] == power and r["done"] for r in phase_orders.current_rows(t.ctx, "pax", key))


def test_done_after_a_refused_line_is_refused_and_done_alone_is_taken(tmp_path, monkeypatch):
    t = PaxTable(tmp_path, monkeypatch)
    reply = t.say("France", "ORDERS", "BUILD ARMY 1", "BUY INTREST Siam", "ENDORDERS", "DONE")
    assert "[done-after-refusal]" in reply and "line 4" in reply, reply
    assert "Done for" not in reply
    assert not _done(t, "France")
    reply = t.say("France", "DONE")
    assert "Done for 1880 Movement/Status Change:" in reply and "BUILD ARMY 1" in reply
    assert _done(t, "France")


def test_done_before_a_refused_line_is_taken(tmp_path, monkeypatch):
    t = PaxTable(tmp_path, monkeypatch)
    reply = t.say("France", "ORDERS", "BUILD ARMY 1", "ENDORDERS", "DONE", "FROBNICATE")
    assert "Done for 1880 Movement/Status Change:" in reply
    assert _done(t, "France")
