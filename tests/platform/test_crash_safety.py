"""Crash safety: the daemon is killed (a real process exit) at each named
point of handling a mail and of running a phase, then restarted.  Nothing
may be lost, nothing applied twice, and no reply sent twice under two
different Message-IDs (a mail handed to the server just before the crash is
sent again under the same Message-ID, which mail clients collapse)."""
from __future__ import annotations

import email
import os
import subprocess
import sys
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.base.crashpoints import CRASH_EXIT_STATUS, POINTS
from pbem.storage.db import open_db

ROOT = Path(__file__).resolve().parents[2]


class Host:
    def __init__(self, folder: Path):
        self.folder = folder
        text = (ROOT / "config.example.toml").read_text()
        text = text.replace("enabled = true ", "enabled = false", 1)
        text = text.replace("reply_rate_per_hour = 30", "reply_rate_per_hour = 0", 1)
        (folder / "pbem.toml").write_text(text)
        self.env = {**os.environ, "PBEM_EXTRA_GAMES": "tests.beacon:GAME", "PYTHONPATH": str(ROOT)}
        self.env.pop("PBEM_CRASH_AT", None)

    def pbem(self, *args: str, crash: str | None = None) -> subprocess.CompletedProcess:
        env = dict(self.env)
        if crash:
            env["PBEM_CRASH_AT"] = crash
        return subprocess.run([sys.executable, "-m", "pbem", "-c", str(self.folder / "pbem.toml"), *args],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)

    def ok(self, *args: str) -> str:
        proc = self.pbem(*args)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def send(self, sender: str, body: str, n: int) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
        msg["Message-ID"] = f"<crash-{n}@players.test>"
        msg.set_content(body)
        path = self.folder / f"mail{n}.eml"
        path.write_bytes(bytes(msg))
        self.ok("send", str(path))

    def delivered(self) -> list[tuple[str, EmailMessage]]:
        """(recipient's mailbox, mail) for every mail delivered locally."""
        out = []
        for path in sorted((self.folder / "var" / "mail" / "out").rglob("*")):
            if path.is_file() and path.parent.name in ("new", "cur"):
                out.append((path.parent.parent.name, email.message_from_bytes(path.read_bytes())))
        return out


@pytest.fixture
def host(tmp_path):
    h = Host(tmp_path)
    h.ok("game", "new", "g1", "--rules", "beacon", "--gm", "gm@example.test")
    h.ok("game", "add-player", "g1", "North", "north@example.test", "--secret", "nn")
    h.ok("game", "add-player", "g1", "South", "south@example.test", "--secret", "ss")
    h.ok("game", "start", "g1")
    h.send("north@example.test", "SIGNON North@g1 nn\nORDERS\nBID 3\n", 1)
    h.send("south@example.test", "SIGNON South@g1 ss\nORDERS\nBID 2\n", 2)
    return h


@pytest.mark.parametrize("point", POINTS)
def test_killed_at_each_point_loses_nothing_and_repeats_nothing(host, point):
    crashed = host.pbem("serve", "--once", crash=point)
    assert crashed.returncode == CRASH_EXIT_STATUS, f"the crash point {point} was never reached: {crashed.stderr}"
    # The same mail arrives again (a client re-sending), as a new intake copy.
    host.send("north@example.test", "SIGNON North@g1 nn\nORDERS\nBID 3\n", 1)
    host.ok("serve", "--once")

    db = open_db(host.folder / "var" / "pbem.sqlite")
    messages = list(db["messages"].rows_where("source_key not like 'cli:%'"))  # not the GM console's
    assert Counter(m["status"] for m in messages) == {"done": 2, "duplicate": 1}
    orders = list(db["orders"].rows_where("current = 1"))
    assert sorted(o["power"] for o in orders) == ["North", "South"]
    assert db["snapshots"].count == 2, "the round must be resolved exactly once"
    game = db["games"].get("g1")
    assert '"round":2' in game["state"] and '"North":1' in game["state"]
    assert db["outbox"].count_where("status != 'sent'") == 0

    delivered = host.delivered()
    ids = Counter((m["Message-ID"], box) for box, m in delivered)
    queued = {r["message_id"] for r in db["outbox"].rows}
    assert {mid for mid, _ in ids} == queued, "every queued mail arrived, nothing else"
    duplicates = [k for k, n in ids.items() if n > 1]
    if point == "outbox.after_send":
        # the one mail handed over just before the crash, again under its Message-ID
        assert len({mid for mid, _ in duplicates}) <= 1
    else:
        assert not duplicates, duplicates
    acks = [m for box, m in delivered if box == "north@example.test" and "received" in m["Subject"]]
    assert len({m["Message-ID"] for m in acks}) == 1, "North's mail is answered once"


def test_every_crash_point_is_in_the_code():
    source = "\n".join(p.read_text() for p in (ROOT / "pbem").rglob("*.py"))
    for point in POINTS:
        assert f'reached("{point}")' in source, point


def test_gm_console_steers_a_game_like_a_gm_mail(host):
    proc = host.pbem("gm", "g1", "EXTEND 24h", "GM PAUSE")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Deadline changed" in proc.stdout and "Game paused." in proc.stdout
    db = open_db(host.folder / "var" / "pbem.sqlite")
    assert db["games"].get("g1")["status"] == "paused"
    actions = [r["action"] for r in db["gm_log"].rows_where("game = 'g1'")]
    assert "pause" in actions and any(a.startswith("extended the deadline") for a in actions)
    announced = list(db["outbox"].rows_where("subject like '%deadline changed%'"))
    assert announced and "north@example.test" in announced[0]["recipients"]
    refused = host.pbem("gm", "g1", "FROBNICATE")
    assert refused.returncode == 1 and "gm-edit" in refused.stdout
