"""The record of play (tables ``snapshots``, ``events``, ``dice``): every resolved phase and
every GM input, with the state before and after, the orders, the events and the dice, in the
order they happened (``seq``).

A rollback never deletes: later snapshots are marked rolled back, so replay
(:mod:`pbem.play.verify`) and the archive read only what stands.  Nothing here commits.

The states before and after (most of a game's record) are kept compressed
(:func:`pbem.storage.values.pack_text`); a snapshot read here gives them back as the JSON
text they were, when they are read (many readers want only the labels).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from pbem.base.context import Context
from pbem.storage.db import dumps
from pbem.storage.values import pack_text, unpack_text

#: the columns kept compressed
PACKED = ("before", "after")


class Snapshot(dict):
    """A snapshot row whose states are unpacked when first read."""

    def __getitem__(self, key):
        value = super().__getitem__(key)
        if key in PACKED and isinstance(value, (bytes, bytearray, memoryview)):
            value = unpack_text(value)
            self[key] = value
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default


def rows(found: Iterable[dict]) -> Iterator[Snapshot]:
    return (Snapshot(r) for r in found)


def record(ctx: Context, game: str, seq: int, phase_key: str, snapshot: dict,
           events: list[dict], dice: list) -> None:
    """Keep one step: its snapshot row (``snapshot`` holds the other columns), each of its
    events apart (so a kind can be looked up), and its dice."""
    packed = {k: pack_text(v) if k in PACKED and isinstance(v, str) else v for k, v in snapshot.items()}
    ctx.db["snapshots"].insert({"game": game, "seq": seq, "phase_key": phase_key, **packed})
    ctx.db["events"].insert_all(({"game": game, "seq": seq, "kind": e.get("kind", ""), "data": dumps(e)}
                                 for e in events))
    ctx.db["dice"].insert({"game": game, "seq": seq, "phase_key": phase_key, "rolls": dumps(dice)})


def latest_resolution(ctx: Context, game: str, phase_key: str) -> dict | None:
    """The latest standing snapshot of a resolved phase of this key (any case), or None."""
    return next(rows(ctx.db["snapshots"].rows_where(
        "game = ? and lower(phase_key) = lower(?) and rolled_back = 0 and kind = 'phase'",
        [game, phase_key], order_by="seq desc", limit=1)), None)


def last_resolutions(ctx: Context, game: str, limit: int) -> Iterator[dict]:
    """The latest standing snapshots of resolved phases (no inputs), newest first."""
    return ctx.db["snapshots"].rows_where(
        "game = ? and rolled_back = 0 and kind = 'phase'", [game], order_by="seq desc", limit=limit)


def phase_labels(ctx: Context, game: str, other_than: str = "") -> set[str]:
    """The labels of the standing resolved phases, but those of the key ``other_than``."""
    return {str(r["label"]) for r in ctx.db["snapshots"].rows_where(
        "game = ? and rolled_back = 0 and kind = 'phase' and phase_key != ?", [game, other_than],
        select="label")}


def roll_back_from(ctx: Context, game: str, seq: int) -> list[str]:
    """Mark every standing snapshot from ``seq`` on rolled back; the phase keys they had."""
    keys = [r["phase_key"] for r in ctx.db["snapshots"].rows_where(
        "game = ? and seq >= ? and rolled_back = 0", [game, seq])]
    ctx.db.execute("update snapshots set rolled_back = 1 where game = ? and seq >= ?", [game, seq])
    return keys


def standing(ctx: Context, game: str) -> Iterator[dict]:
    """Every snapshot not rolled back (phases and inputs), in the order they happened."""
    return rows(ctx.db["snapshots"].rows_where("game = ? and rolled_back = 0", [game], order_by="seq"))


def events_of_kind(ctx: Context, game: str, kind: str) -> list[dict]:
    """The events of one kind the game emitted, newest first (rolled back or not)."""
    return [row["data"] for row in ctx.db["events"].rows_where(
        "game = ? and kind = ?", [game, kind], order_by="id desc", select="data")]


def archive_stamp(ctx: Context, game: str) -> list:
    """What a game's archive pages depend on in the database: the last snapshot and the count
    of snapshots standing, and how many GM-log entries, players and press messages it has."""
    snap = ctx.db.execute("select max(seq), count(*) from snapshots where game = ? and rolled_back = 0",
                          [game]).fetchone()
    counts = [ctx.db.execute(f"select count(*) from {table} where game = ?", [game]).fetchone()[0]
              for table in ("gm_log", "players", "press")]
    return [list(snap), counts]
