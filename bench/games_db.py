"""Databases full of games in progress, for the benchmarks.

Each game is a seven-power Pax Britannica game started through the platform
(store + turns, as GM CREATE/ADD/START do), standing at its first phase that
takes orders.  Every player has a secret of its own, hashed at rest with the
production scrypt cost (hashed on every core, since thousands of them take a
while); a database is built once per shape and copied for each run.
"""
from __future__ import annotations

import multiprocessing
import random
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.play import turns
from pbem.storage import secret_checks, store  # noqa: E402
from pbem.base.clock import SystemClock  # noqa: E402
from pbem.base.config import load_config  # noqa: E402
from pbem.base.context import Context  # noqa: E402
from pbem.storage.db import open_db  # noqa: E402
from pbem.base.deadlines import DeadlinePolicy  # noqa: E402
from pbem.base.identity import hash_secret  # noqa: E402

POWERS = ("Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy")
CACHE = Path("/tmp/pbem-bench-cache")


@dataclass(frozen=True)
class Seat:
    game: str
    power: str
    address: str
    secret: str


def game_name(i: int) -> str:
    return f"g{i:04d}"


def seats(games: int) -> list[Seat]:
    return [Seat(game_name(g), power, f"p{g}-{k}@players.test", f"sec{g}x{k}")
            for g in range(games) for k, power in enumerate(POWERS)]


def _hash(secret: str) -> str:
    return hash_secret(secret)


def build(path: Path, games: int, *, wait_for_deadline: bool = True) -> list[Seat]:
    """A database at ``path`` with ``games`` games in their first open phase.
    With ``wait_for_deadline`` every game keeps taking orders until its deadline
    (process_early off), so any number of order mails can be sent to it."""
    key = CACHE / f"games-{games}-{int(wait_for_deadline)}-v2.sqlite"
    everyone = seats(games)
    if not key.exists():
        CACHE.mkdir(exist_ok=True)
        tmp = key.with_suffix(".building")
        tmp.unlink(missing_ok=True)
        secret_checks.key_path(tmp).unlink(missing_ok=True)
        _fill(tmp, everyone, games, wait_for_deadline)
        secret_checks.key_path(tmp).rename(secret_checks.key_path(key))
        tmp.rename(key)
    shutil.copyfile(key, path)
    shutil.copyfile(secret_checks.key_path(key), secret_checks.key_path(path))
    return everyone


#: Tables whose rows belong to one game, by the column naming it.
GAME_TABLES = {"players": "game", "snapshots": "game", "events": "game", "dice": "game",
               "gm_log": "game", "orders": "game"}


def _fill(path: Path, everyone: list[Seat], games: int, wait_for_deadline: bool) -> None:
    """The first game is started through the platform; the others are copies of
    it made in SQL (a game's start writes its reports, a second each), each
    player with a secret and slow hash of its own."""
    with multiprocessing.get_context("fork").Pool() as pool:
        hashes = pool.map(_hash, [s.secret for s in everyone], chunksize=16)
    db = open_db(path)
    defaults = dict(load_config(None).deadlines)
    defaults["process_early"] = not wait_for_deadline
    ctx = Context(db=db, clock=SystemClock(), deadline_defaults=defaults)
    policy = DeadlinePolicy.from_settings(defaults)
    first = everyone[0].game
    db.conn.execute("begin")
    store.create_game(ctx, first, "pax_britannica", {}, policy, "gm@players.test")
    for seat in everyone[:len(POWERS)]:
        store.add_player(ctx, first, seat.power, [seat.address], "to be set")
    rec = turns.start_game(ctx, first)
    while not rec.rules.phase(rec.state).open:  # what the first scheduler pass would do
        turns.run_phase(ctx, first, reason="start")
        rec = store.get_game(ctx, first)
    for g in range(1, games):
        name = game_name(g)
        _copy_rows(db, "games", "name", first, name)
        for table, column in GAME_TABLES.items():
            _copy_rows(db, table, column, first, name)
    # The secrets stand for those GM ADD PLAYER makes, so they are vouched for as it does.
    secret_checks.attach(ctx, path)
    for seat, hashed in zip(everyone, hashes):
        db.execute("update players set addresses = ?, secret_hash = ? where game = ? and power = ?",
                   [f'["{seat.address}"]', hashed, seat.game, seat.power])
        ctx.secret_cache.vouch(seat.secret, hashed)
    db.conn.execute("commit")
    # The start mails and first reports are not part of any measurement.
    db.execute("update outbox set status = 'sent'")
    db.conn.close()


def _copy_rows(db, table: str, column: str, source: str, target: str) -> None:
    columns = [c.name for c in db[table].columns if c.name not in ("id",)]
    listed = ", ".join(f'"{c}"' for c in columns)
    chosen = ", ".join("?" if c == column else f'"{c}"' for c in columns)
    db.execute(f'insert into "{table}" ({listed}) select {chosen} from "{table}" where "{column}" = ?',
               [target, source])


def order_lines(path: Path, seats: list[Seat], rng: random.Random) -> dict[Seat, list[str]]:
    """The bot's orders for each seat's power in its game's current phase, read
    through one connection to the database."""
    db = open_db(path)
    try:
        ctx = Context(db=db, clock=SystemClock())
        out = {}
        for seat in seats:
            rec = store.get_game(ctx, seat.game)
            out[seat] = rec.rules.bot_orders(rec.state, seat.power, rng)
        return out
    finally:
        db.conn.close()
