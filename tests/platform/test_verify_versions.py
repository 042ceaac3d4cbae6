"""Verify across upgrades: every snapshot records the rules version that made
it, and `pbem verify` tells a phase that replays differently because the rules
changed since (named, with the version that made it; not a failure) from one
that does not replay under its own rules (a DIFFERENT, a failure)."""
from __future__ import annotations

import pytest

from helpers_loop import GM_SECRET, Loop, secret_in
from pbem import __version__
from pbem.base import registry
from pbem.play.verify import UNRECORDED, verify

GM = "gm@example.test"
POWERS = ("North", "South")


def played(tmp_path) -> Loop:
    """Beacon's first round played: the bids and the tally are stored snapshots."""
    lp = Loop(tmp_path)
    seats = "".join(f"GM ADD PLAYER {p} {p.lower()}@example.test\n" for p in POWERS)
    assert lp.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon\n{seats}GM START\n") == "done"
    lp.flush()
    for power, bid in (("North", 3), ("South", 1)):
        welcome = next(m for m in lp.inbox(f"{power.lower()}@example.test") if "you play" in m["Subject"])
        secret = secret_in(welcome.get_body(("plain",)).get_content())
        lp.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {secret}\nORDERS\nBID {bid}\n")
    assert lp.tick()
    return lp


@pytest.fixture
def upgrade(monkeypatch):
    """Installs rules that resolve every phase differently (a medal more in the state)."""
    def install():
        game = registry.get("beacon")
        resolve = game.resolve

        def new_resolve(state, orders, dice):
            after, events = resolve(state, orders, dice)
            return {**after, "medals": 1}, events
        monkeypatch.setattr(game, "resolve", new_resolve)
    return install


def test_every_snapshot_records_the_rules_version_that_made_it(tmp_path):
    lp = played(tmp_path)
    versions = {r["rules_version"] for r in lp.db["snapshots"].rows_where("game = 'g1'")}
    assert versions == {f"beacon (pbem {__version__})"}
    report = verify(lp.ctx, "g1")
    assert report.ok and report.lines()[-1].endswith("all identical")


def test_phases_made_by_earlier_rules_are_named_not_counted_as_differences(tmp_path, upgrade):
    lp = played(tmp_path)
    upgrade()
    lp.db.execute("update snapshots set rules_version = 'beacon (pbem 0.1.0)' where seq = 1")
    lp.db.execute("update snapshots set rules_version = null where seq > 1")  # before versions were kept
    report = verify(lp.ctx, "g1")
    assert report.ok, report.problems
    labels = [r["label"] for r in lp.db["snapshots"].rows_where("game = 'g1'", order_by="seq")]
    assert report.changed == {"beacon (pbem 0.1.0)": labels[:1], UNRECORDED: labels[1:]}
    lines = report.lines()
    assert lines[0] == (f"RULES CHANGED: 1 step(s) made by beacon (pbem 0.1.0) give another result under "
                        f"beacon (pbem {__version__}): {labels[0]}")
    assert lines[1].startswith(f"RULES CHANGED: {len(labels) - 1} step(s) made by {UNRECORDED}")
    assert "no difference under the rules that made them" in lines[2]
    assert "DIFFERENT" not in "\n".join(lines) and "differences" not in lines[2]


def test_a_phase_made_by_these_very_rules_that_replays_differently_is_a_difference(tmp_path, upgrade):
    lp = played(tmp_path)
    upgrade()  # a rules change that forgot to raise the version, or a tampered record: same to verify
    report = verify(lp.ctx, "g1")
    assert not report.ok and not report.changed
    assert any(line.startswith("DIFFERENT: ") and "different result than the one stored" in line
               for line in report.lines())
