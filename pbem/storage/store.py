"""Reading and writing games, players and the GM log.

Small verbs over the database; callers hold the transaction.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from pbem.base import registry
from pbem.base.context import Context
from pbem.base.deadlines import DeadlinePolicy
from pbem.kit.audience import Audience
from pbem.kit.gameapi import Game, PhaseInfo, Roster
from pbem.storage.db import dumps, loads, parse_iso, utcnow_iso


class NotFound(LookupError):
    pass


class _Derived:
    """Facts that are pure functions of a game's stored texts, kept by the texts' digest:
    the phase of a state and whether its game is over, and the roster of its options and
    state.

    The scheduler asks the phase of every game on every pass, and each mail asks the
    roster to resolve its sign-on: decoding each game's state for the phase (hundreds of KB
    of JSON with a thousand games) was most of an idle pass, and for the roster a part of
    every mail's handling.  A state stored again unchanged has the same digest; any change
    makes a new one."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._known: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = threading.Lock()

    def position(self, rec: "GameRecord") -> tuple[PhaseInfo, bool]:
        return self._get(("position", rec.row["rules"], rec.digest),
                         lambda: (rec.rules.phase(rec.state), rec.rules.is_over(rec.state)))

    def roster(self, rec: "GameRecord") -> Roster:
        return self._get(("roster", rec.row["rules"], rec.digest, rec.row["options"]),
                         lambda: rec.rules.roster(rec.options, rec.state))

    def _get(self, key: tuple, make):
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                self._known.move_to_end(key)
                return known
        known = make()
        with self._lock:
            self._known[key] = known
            while len(self._known) > self.size:
                self._known.popitem(last=False)
        return known


_DERIVED = _Derived()


@lru_cache(maxsize=256)
def _policy(text: str) -> DeadlinePolicy:
    # A policy is immutable, and most games of a site share the same one.
    return DeadlinePolicy.from_json(text)


@dataclass
class GameRecord:
    """One game's row.  Its state is decoded when first asked for, once: a
    record is read for one piece of work, and nothing changes a state in
    place (games are proven not to; the platform writes a new state with
    :func:`update_game` and reads the record again)."""
    row: dict
    _state: Any = field(default=None, init=False, repr=False, compare=False)
    _position: tuple[PhaseInfo, bool] | None = field(default=None, init=False, repr=False, compare=False)
    _digest: bytes | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.row["name"]

    @property
    def rules(self) -> Game:
        return registry.get(self.row["rules"])

    @property
    def status(self) -> str:
        return self.row["status"]

    @property
    def state(self) -> dict | None:
        if self._state is None:
            self._state = loads(self.row["state"])
        return self._state

    @property
    def digest(self) -> bytes:
        """A digest of the stored state's text: the same state gives the same digest."""
        if self._digest is None:
            text = self.row["state"] or b""
            self._digest = hashlib.blake2b(text.encode("utf-8") if isinstance(text, str) else text,
                                           digest_size=16).digest()
        return self._digest

    @property
    def phase(self) -> PhaseInfo:
        """The current phase (of a started game), without decoding an unchanged state again."""
        if self._position is None:
            self._position = _DERIVED.position(self)
        return self._position[0]

    @property
    def over(self) -> bool:
        """Whether the (started) game is over, as :attr:`phase`."""
        if self._position is None:
            self._position = _DERIVED.position(self)
        return self._position[1]

    @property
    def options(self) -> dict:
        return loads(self.row["options"], {})

    @property
    def deadline(self) -> datetime | None:
        return parse_iso(self.row["deadline"])

    @property
    def policy(self) -> DeadlinePolicy:
        return _policy(self.row["policy"])

    @property
    def warnings_sent(self) -> list[str]:
        return loads(self.row["warnings_sent"], [])

    @property
    def extensions(self) -> list[float]:
        return loads(self.row["extensions"], [])

    @property
    def roster(self) -> Roster:
        """The powers of this game: from its options, and its state once started (without
        decoding an unchanged state again)."""
        return _DERIVED.roster(self)

    def resolve_power(self, text: str) -> str | None:
        return self.roster.resolve(text)

    def policy_for(self, phase) -> DeadlinePolicy:
        """The deadline policy of the phase's order window."""
        return self.policy.for_window(phase.window)


def get_game(ctx: Context, name: str) -> GameRecord:
    rows = list(ctx.db.query("select * from games where lower(name) = lower(?)", [name]))
    if not rows:
        raise NotFound(f"no game called {name!r}")
    return GameRecord(rows[0])


def find_game(ctx: Context, name: str) -> GameRecord | None:
    try:
        return get_game(ctx, name)
    except NotFound:
        return None


def rules_in_use(ctx: Context) -> list[str]:
    """The rules of the games this site holds, without reading their states."""
    return [r["rules"] for r in ctx.db.query("SELECT DISTINCT rules FROM games ORDER BY rules")]


def list_games(ctx: Context, status: str | None = None) -> list[GameRecord]:
    """Every game by name, or those with ``status``."""
    where, args = ("status = ?", [status]) if status else (None, None)
    return [GameRecord(r) for r in ctx.db["games"].rows_where(where, args, order_by="name")]


def games_by_status(ctx: Context) -> dict[str, int]:
    """How many games there are in each status."""
    return dict(ctx.db.execute("select status, count(*) from games group by status").fetchall())


def update_game(ctx: Context, name: str, **fields: Any) -> None:
    encoded = {k: (dumps(v) if k in ("state", "options", "warnings_sent", "extensions") else v)
               for k, v in fields.items()}
    ctx.db["games"].update(name, encoded)


#: Options every game takes (identity checks), besides its own and the deadline settings.
PLATFORM_OPTIONS = frozenset({"address_of_record_only", "reply_token", "seats_per_address"})


def option_on(rec: "GameRecord", name: str) -> bool:
    """Whether a yes/no game option is on (``OPTION reply_token=true``); its
    value is kept as written, so "false" and "no" are off."""
    value = rec.options.get(name)
    return str(value).strip().lower() in ("1", "true", "yes", "on") if value is not None else False


def game_settings(rules: Game, deadline_defaults: dict, options: dict) -> tuple[DeadlinePolicy, list[str], list[str]]:
    """A new game's deadline policy, the options nobody knows, and every
    option name that is known.  The policy is the site's defaults overridden
    by options of the same name; each order window of the game
    (:meth:`Game.windows`) takes the game's default duration, then the site's
    ``windows`` table, then the option ``<window>_duration``.  Raises
    ValueError for a deadline option with a bad value."""
    settings = dict(deadline_defaults)
    settings.update({k: v for k, v in options.items() if k in settings and k != "windows"})
    windows = dict(rules.windows())
    windows.update({k: v for k, v in dict(settings.get("windows") or {}).items() if k in windows})
    window_options = {f"{w}_duration": w for w in windows}
    windows.update({window_options[k]: v for k, v in options.items() if k in window_options})
    settings["windows"] = windows
    known = set(rules.options()) | set(settings) | set(window_options) | PLATFORM_OPTIONS
    known.discard("windows")
    return DeadlinePolicy.from_settings(settings), [k for k in options if k not in known], sorted(known)


def create_game(ctx: Context, name: str, rules: str, options: dict, policy: DeadlinePolicy,
                gm_address: str) -> GameRecord:
    registry.get(rules)  # fail early on unknown rules
    ctx.db["games"].insert({
        "name": name, "rules": rules, "status": "forming", "options": dumps(options),
        "state": None, "phase_key": None, "deadline": None, "policy": policy.to_json(),
        "seed": None, "seed_hash": None, "seed_revealed": 0, "gm_address": gm_address,
        "created": utcnow_iso(ctx.now()), "paused_at": None, "extensions": "[]", "pauses": 0,
        "warnings_sent": "[]", "token_key": None, "seq": 0,
    })
    return get_game(ctx, name)


#: what a game owns and GM CANCEL deletes with it; the mail it received and sent
#: (messages, outbox) is kept: nothing that came in or went out is lost
GAME_TABLES = ("address_confirmations", "orders", "press", "treaties", "events", "dice", "snapshots", "gm_log",
               "players")


def delete_game(ctx: Context, name: str) -> None:
    """Delete a game and everything it owns (the caller holds the transaction)."""
    for table in GAME_TABLES:
        if ctx.db[table].exists():
            ctx.db.execute(f"delete from {table} where game = ?", [name])
    ctx.db.execute("delete from games where name = ?", [name])


# -- players ---------------------------------------------------------------

def players(ctx: Context, game: str) -> list[dict]:
    return list(ctx.db["players"].rows_where("game = ?", [game], order_by="id"))


def player(ctx: Context, game: str, power: str) -> dict | None:
    rows = list(ctx.db.query("select * from players where game = ? and power = ?", [game, power]))
    return rows[0] if rows else None


def addresses(row: dict) -> list[str]:
    return loads(row["addresses"], [])


def players_at(ctx: Context, address: str) -> list[dict]:
    """Every seat whose addresses of record include ``address``."""
    address = address.lower()
    rows = ctx.db["players"].rows_where("instr(lower(addresses), ?) > 0", [dumps(address)])
    return [r for r in rows if address in (a.lower() for a in addresses(r))]


def gm_address_of(ctx: Context, game: str) -> str:
    """The GM address of the game of exactly this name; "" when none is set or no such game."""
    found = next(ctx.db["games"].rows_where("name = ?", [game], select="gm_address"), None)
    return (found or {}).get("gm_address") or ""


def gm_addresses(ctx: Context) -> set[str]:
    """The GM addresses of every game, and the site's admin address."""
    found = {r[0].lower() for r in ctx.db.execute(
        "select distinct gm_address from games where gm_address is not null and gm_address != ''")}
    return found | ({ctx.admin_address.lower()} if ctx.admin_address else set())


def of_record(ctx: Context, address: str | None) -> bool:
    """Whether ``address`` is an address of record of a player or a GM's address."""
    return bool(address) and (bool(players_at(ctx, address)) or address.lower() in gm_addresses(ctx))


def add_player(ctx: Context, game: str, power: str, address_list: list[str], secret_hash: str) -> dict:
    ctx.db["players"].insert({
        "game": game, "power": power, "addresses": dumps(address_list), "secret_hash": secret_hash,
        "status": "active", "missed": 0, "absent_from": None, "absent_to": None,
        "joined": utcnow_iso(ctx.now()),
    })
    return player(ctx, game, power)


def mark_told(ctx: Context, game: str, power: str, seq: int) -> None:
    """``power``'s report has told it of every phase up to ``seq``."""
    ctx.db.execute("update players set told_seq = ? where game = ? and power = ?", [seq, game, power])


def update_player(ctx: Context, row_id: int, **fields: Any) -> None:
    if "addresses" in fields:
        fields["addresses"] = dumps(fields["addresses"])
    ctx.db["players"].update(row_id, fields)


# -- GM log ----------------------------------------------------------------

def gm_log(ctx: Context, game: str | None, actor: str, action: str, detail: str = "", *,
           seen_by: Audience) -> None:
    """One entry of the GM log: who acted (a role -- "GM", "moderator" -- or a power, never
    an address), what, the details (ids and names, never an address), and who may see it."""
    ctx.db["gm_log"].insert({"game": game, "at": utcnow_iso(ctx.now()), "actor": actor,
                             "action": action, "detail": detail, "audience": dumps(seen_by.to_json())})


def gm_log_rows(ctx: Context, game: str) -> list[dict]:
    return list(ctx.db["gm_log"].rows_where("game = ?", [game], order_by="id"))
