"""How big a report mail is, as sent (its bytes, base64-encoded map included): a busy turn of
a seven-power Pax Britannica game and of Europa Universalis, every reader's report, with the
map as a PNG (the default) and without (SET MAP NONE).

The aim is 80 KB with the map and 30 KB without.  Europa Universalis meets it (about 72 KB
and 11 KB).  Pax Britannica's bounds are what its reports weigh now, with a little room: its
map alone is 55-60 KB as a PNG 1280 pixels wide, 75-80 KB once base64-encoded for mail, and
the busiest power's report (every order it may give, with prices) is 45 KB without it; see
bench/RESULTS.md for the figures and what stands between them and 80 KB.  The block of what
a power must do this phase, which now opens each report, added up to 4 KB (the busiest
report 128 KB as sent)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.base import registry
from pbem.base.clock import FakeClock
from pbem.base.config import load_config
from pbem.base.context import Context
from pbem.base.deadlines import DeadlinePolicy
from pbem.kit.engine import resolve_one
from pbem.play import turns
from pbem.reporting import reports
from pbem.storage import outbox_rows, store
from pbem.storage.db import open_db

#: a report with the map (a mail as sent), and one without (SET MAP NONE), at most
BOUNDS = {"eu_tpop": (80_000, 30_000), "pax_britannica": (136_000, 52_000)}


def busy_game(tmp: Path, rules: str, name: str, nth: int) -> tuple[Context, store.GameRecord, list]:
    """A bot game of ``rules`` played by the engine alone until its phase ``name`` comes the
    ``nth`` time; the game then stands there, the last phase's step returned for its reports."""
    game = registry.get(rules)
    players, options = game.demo_setup(4)
    ctx = Context(db=open_db(tmp / "size.sqlite"), clock=FakeClock(),
                  deadline_defaults=dict(load_config(None).deadlines), reply_rate_per_hour=0)
    store.create_game(ctx, "size", rules, options, DeadlinePolicy.from_settings(ctx.deadline_defaults), "gm@x.test")
    for i, power in enumerate(players):
        store.add_player(ctx, "size", power, [f"p{i}@x.test"], "unused")
    rec = turns.start_game(ctx, "size")
    state, rng, step, seen = rec.state, random.Random(3), None, 0
    while True:
        phase = game.phase(state)
        seen += phase.name == name
        if seen == nth:
            break
        orders = {}
        for power in phase.owes:
            lines = game.bot_orders(state, power, rng)
            orders[power] = game.parse_orders(state, power, list(enumerate(lines, 1))).orders
        step = resolve_one(game, state, orders, turns.dice_for(rec.row["seed"], "size")(phase))
        state = step.after
    store.update_game(ctx, "size", state=state, seq=rec.row["seq"] + 1)
    return ctx, store.get_game(ctx, "size"), [step]


def mailed_sizes(ctx: Context, rec: store.GameRecord, steps, view: str) -> dict[str, int]:
    for row in store.players(ctx, rec.name):
        store.update_player(ctx, row["id"], map_view=view, told_seq=rec.row["seq"] - 1)
    reports.queue_reports(ctx, rec, steps, rec.deadline)
    sizes = {row["subject"]: len(row["raw"]) for row in outbox_rows.waiting(ctx, with_failed=False)
             if row["kind"] == "report" and (view == "png" or "GM report" not in row["subject"])}
    ctx.db.execute("delete from outbox")
    return sizes


@pytest.mark.parametrize("rules, name, nth", [("pax_britannica", "movement", 3), ("eu_tpop", "action", 4)])
def test_a_busy_turns_reports_are_small(tmp_path, rules, name, nth):
    ctx, rec, steps = busy_game(tmp_path, rules, name, nth)
    with_map = mailed_sizes(ctx, rec, steps, "png")
    without = mailed_sizes(ctx, rec, steps, "none")
    assert len(with_map) == len(store.players(ctx, rec.name)) + 1, with_map  # every power and the GM
    most_with, most_without = BOUNDS[rules]
    assert max(with_map.values()) <= most_with, with_map
    assert max(without.values()) <= most_without, without
