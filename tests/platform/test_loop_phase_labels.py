"""A GM names war sub-phases by mail exactly as HISTORY prints them: every phase listed once under
its own label with its id, ROLLBACK and RESEND by either, and an ANNOUNCE of a mail whose GM
command failed is not sent."""
from __future__ import annotations

import re

from pax_table import POWERS, PaxTable
from pbem.storage import store

SCENE = ("GM SET MARKER Britain possession Egypt", "GM SET ARMY Britain 10 Egypt",
         "GM SET MARKER France possession Algiers", "GM SET ARMY France 3 Algiers",
         "GM SET CB Britain France AREA Egypt")
LINE = re.compile(r"^  (?P<label>.+) \[(?P<id>[^\]]+)\] \(resolved [^)]*\)$")


def _at_war(tmp_path, monkeypatch) -> PaxTable:
    """Britain at war with France, played into the war's second sequence."""
    t = PaxTable(tmp_path, monkeypatch)
    t.gm(*SCENE)
    t.all_order()
    for p in POWERS:
        t.say(p, "DONE")
    t.loop.tick()
    t.loop.flush()
    t.say("Britain", "ORDERS", "DECLARE WAR ON France", "ENDORDERS")
    t.loop.tick()
    t.loop.flush()
    for _ in range(5):
        for p in POWERS:
            t.say(p, "DONE")
        t.loop.tick()
        t.loop.flush()
    return t


def _history(t: PaxTable) -> list[dict]:
    text = t.say("Britain", "HISTORY")
    return [m.groupdict() for m in map(LINE.match, text.splitlines()) if m]


def test_history_lists_each_phase_once_with_its_id_and_the_gm_rolls_back_and_resends_by_either(
        tmp_path, monkeypatch):
    t = _at_war(tmp_path, monkeypatch)
    rows = _history(t)
    labels = [r["label"] for r in rows]
    assert len(rows) > 15 and len(set(labels)) == len(labels), labels
    assert len({r["id"] for r in rows}) == len(rows)
    attack = next(r for r in rows if "sequence 1: First Alliance Attack" in r["label"])
    assert attack["label"] == "1880 War, sequence 1: First Alliance Attack (Britain)"

    again = t.say("Britain", f"RESEND {attack['label']}")
    assert "Report sent again:" in again and attack["label"] in again
    again = t.say("Britain", f"RESEND {attack['id']}")
    assert "Report sent again:" in again

    # A slip in a label or an id gets the phase it most likely meant, as HISTORY prints it.
    slip = attack["label"].replace("Alliance", "Aliance")
    reply = t.gm(f"GM ROLLBACK {slip}")
    assert "[bad-rollback]" in reply and f"(did you mean {attack['label']}?)" in reply, reply
    reply = t.say("Britain", f"RESEND {attack['id'].replace('attack', 'atack')}")
    assert "[nothing-to-resend]" in reply and f"(did you mean {attack['id']}?)" in reply, reply

    reply = t.gm(f"GM ROLLBACK {attack['label']}")
    assert "Rolled back:" in reply, reply
    state = store.get_game(t.ctx, "pax").state
    assert state["phase"] == "war_attack_1"
    labels = [r["label"] for r in _history(t)]
    assert attack["label"] not in labels and labels[-1].endswith("First Alliance Maneuver (Britain)")

    maneuver = _history(t)[-1]
    reply = t.gm(f"GM ROLLBACK {maneuver['id']}")
    assert "Rolled back:" in reply, reply
    assert store.get_game(t.ctx, "pax").state["phase"] == "war_maneuver_1"


def test_an_announce_is_not_sent_when_a_gm_command_of_its_mail_fails(tmp_path, monkeypatch):
    t = PaxTable(tmp_path, monkeypatch)
    before = len(t.mails("France", "announcement"))
    reply = t.gm("GM ANNOUNCE", "The game is rolled back to 1879.", "ENDANNOUNCE", "GM ROLLBACK 1879 Movement")
    assert "[bad-rollback]" in reply
    assert "Announcement NOT sent" in reply and "Announcement sent to every player" not in reply
    assert len(t.mails("France", "announcement")) == before
    reply = t.gm("GM ROLLBACK 1879 Movement", "GM ANNOUNCE", "Rolled back.", "ENDANNOUNCE")
    assert "Announcement NOT sent" in reply
    assert len(t.mails("France", "announcement")) == before
    reply = t.gm("GM ANNOUNCE", "Deadline moved.", "ENDANNOUNCE")
    assert "Announcement sent to every player" in reply
    assert len(t.mails("France", "announcement")) == before + 1
