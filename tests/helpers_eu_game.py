"""A one-round Europa Universalis game of three realms, started through the platform on a
real SQLite database and run on every realm's defaults."""
from __future__ import annotations

from pathlib import Path

from pbem.base import clock, config, context, deadlines, identity
from pbem.play import turns
from pbem.storage import db, store


def started_eu_game(folder: Path, phases: int) -> context.Context:
    """Game eu1 after ``phases`` phases run (fewer when it ends first); its context."""
    ctx = context.Context(db=db.open_db(folder / "db.sqlite"), clock=clock.FakeClock())
    policy = deadlines.DeadlinePolicy.from_settings(dict(config.load_config(None).deadlines))
    store.create_game(ctx, "eu1", "eu_tpop", {"rounds": 1}, policy, "gm@example.test")
    for realm in ("Valmont", "Corvia", "Ostmark"):
        store.add_player(ctx, "eu1", realm, [f"{realm.lower()}@example.test"], identity.hash_secret("x"))
    turns.start_game(ctx, "eu1")
    for _ in range(phases):
        if store.get_game(ctx, "eu1").status == "over":
            break
        turns.run_phase(ctx, "eu1")
    return ctx
