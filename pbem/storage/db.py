"""The database: SQLite through sqlite-utils, with named migrations.

Each migration runs once, in order, inside a transaction, and is recorded in
the ``migrations`` table by name; a new release only ever appends migrations.
Timestamps are ISO-8601 UTC strings; structured values are JSON text.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

import sqlite_utils

MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = []


def migration(name: str):
    def register(fn):
        MIGRATIONS.append((name, fn))
        return fn
    return register


@migration("0001_initial")
def _initial(db: sqlite_utils.Database) -> None:
    db["games"].create({
        "name": str, "rules": str, "status": str, "options": str, "state": str,
        "phase_key": str, "deadline": str, "policy": str, "seed": str, "seed_hash": str,
        "seed_revealed": int, "gm_address": str, "created": str, "paused_at": str,
        "extensions": str, "pauses": int, "warnings_sent": str, "token_key": str,
        "seq": int,
    }, pk="name", not_null={"rules", "status"}, defaults={"seq": 0, "pauses": 0, "seed_revealed": 0})
    db["players"].create({
        "id": int, "game": str, "power": str, "addresses": str, "secret_hash": str,
        "status": str, "missed": int, "absent_from": str, "absent_to": str, "joined": str,
    }, pk="id", foreign_keys=[("game", "games", "name")], defaults={"missed": 0})
    db["players"].create_index(["game", "power"], unique=True)
    db["messages"].create({
        "id": int, "source_key": str, "message_id": str, "sender": str, "subject": str,
        "received": str, "raw": bytes, "status": str, "outcome": str, "game": str,
        "power": str, "processed": str, "error": str,
    }, pk="id", not_null={"source_key", "status"})
    db["messages"].create_index(["source_key"], unique=True)
    db["messages"].create_index(["message_id"])
    db["orders"].create({
        "id": int, "game": str, "phase_key": str, "power": str, "orders": str, "text": str,
        "submitted": str, "message": int, "current": int,
    }, pk="id")
    db["orders"].create_index(["game", "phase_key", "power"])
    db["press"].create({
        "id": int, "game": str, "phase_key": str, "sender": str, "recipients": str, "grey": int,
        "body": str, "sent": str, "message": int,
    }, pk="id")
    db["treaties"].create({
        "id": int, "game": str, "treaty_id": str, "proposer": str, "parties": str, "text": str,
        "secret": int, "status": str, "signatures": str, "refusals": str, "created": str,
        "updated": str, "history": str,
    }, pk="id")
    db["treaties"].create_index(["game", "treaty_id"], unique=True)
    db["snapshots"].create({
        "id": int, "game": str, "seq": int, "phase_key": str, "label": str, "before": str,
        "orders": str, "after": str, "events": str, "dice": str, "created": str,
        "rolled_back": int,
    }, pk="id", defaults={"rolled_back": 0})
    db["snapshots"].create_index(["game", "seq"], unique=True)
    db["events"].create({
        "id": int, "game": str, "seq": int, "kind": str, "data": str,
    }, pk="id")
    db["events"].create_index(["game", "seq"])
    db["dice"].create({
        "id": int, "game": str, "seq": int, "phase_key": str, "rolls": str,
    }, pk="id")
    db["outbox"].create({
        "id": int, "message_id": str, "game": str, "kind": str, "recipients": str,
        "subject": str, "raw": bytes, "status": str, "attempts": int, "next_try": str,
        "last_error": str, "created": str, "sent": str, "source": int,
    }, pk="id", defaults={"attempts": 0})
    db["outbox"].create_index(["message_id"], unique=True)
    db["outbox"].create_index(["status", "next_try"])
    db["gm_log"].create({
        "id": int, "game": str, "at": str, "actor": str, "action": str, "detail": str,
    }, pk="id")


@migration("0002_process_request")
def _process_request(db: sqlite_utils.Database) -> None:
    """GM PROCESS (without NOW) asks for the phase to run on the next pass,
    whatever the deadline and grace say."""
    db["games"].add_column("process_requested", int, not_null_default=0)


@migration("0003_contract_v2")
def _contract_v2(db: sqlite_utils.Database) -> None:
    """Snapshots of typed inputs (treaty actions, rulings, GM edits) beside
    those of phases, so every state change is replayed; a power's explicit
    DONE for a phase."""
    db["snapshots"].add_column("kind", str, not_null_default="phase")
    db["snapshots"].add_column("input", str)
    db["orders"].add_column("done", int, not_null_default=0)


@migration("0004_reader_zone_and_resume")
def _reader_zone(db: sqlite_utils.Database) -> None:
    """A player's own time zone (SET ZONE), shown beside the game's; a phase
    the GM resumed with every order already in waits for its deadline."""
    db["players"].add_column("zone", str)
    db["games"].add_column("hold_early", int, not_null_default=0)


@migration("0005_hardening")
def _hardening(db: sqlite_utils.Database) -> None:
    """How often handling a mail was tried (poison mail is set aside after a
    few tries); which replies went to addresses that have not signed on (they
    are limited by count and size); wrong-secret throttles; addresses waiting
    for their owner's confirmation."""
    db["messages"].add_column("attempts", int, not_null_default=0)
    db["outbox"].add_column("stranger", int, not_null_default=0)
    db["outbox"].add_column("mask", str)  # secrets a queued mail hands out, masked once it is sent
    db["outbox"].create_index(["kind", "created"])
    db["throttle"].create({
        "key": str, "failures": int, "first": str, "last": str, "blocked_until": str, "told": str,
    }, pk="key", defaults={"failures": 0})
    db["address_confirmations"].create({
        "id": int, "game": str, "power": str, "address": str, "token_hash": str,
        "requested": str, "expires": str, "status": str, "message": int,
    }, pk="id")
    db["address_confirmations"].create_index(["game", "power"])


@migration("0006_lookups")
def _lookups(db: sqlite_utils.Database) -> None:
    """Indexes for what every pass and every mail look up: a game by its name
    in any case (``lower(name) = lower(?)``), and the mail still to handle."""
    db.execute("create index if not exists games_name_nocase on games(lower(name))")
    db["messages"].create_index(["status", "id"], if_not_exists=True)


@migration("0007_archive_stamps")
def _archive_stamps(db: sqlite_utils.Database) -> None:
    """Indexes for what the archive counts per game after every daemon pass to
    see whether a game changed (:func:`pbem.web.archive.refresh`): its press and
    its GM log, which otherwise are read whole once per game and pass."""
    db["press"].create_index(["game"], if_not_exists=True)
    db["gm_log"].create_index(["game"], if_not_exists=True)
@migration("0008_refused_orders")
def _refused_orders(db: sqlite_utils.Database) -> None:
    """How many lines of an orders mail were refused: such orders stand at the
    deadline but do not close the phase early (the player may want to correct
    them), unless the player sends DONE."""
    db["orders"].add_column("refused", int, not_null_default=0)


@migration("0009_outbound_budget_and_bounces")
def _outbound_budget(db: sqlite_utils.Database) -> None:
    """The commands that make mail for others or cost a slow hash, by who sent
    them and when (caps per hour, :mod:`pbem.handlers.budget`); the bounce score of
    every address mail to it bounced from (:mod:`pbem.outbound.bounces`)."""
    db["command_log"].create({"id": int, "who": str, "kind": str, "at": str}, pk="id")
    # A JOIN waits for its address's CONFIRM like a SET ADDRESS: the seat's secret waits with it.
    db["address_confirmations"].add_column("secret_hash", str)
    # The text of a mail with no command, to know the same mail again (an auto-responder's loop).
    db["messages"].add_column("body_hash", str)
    db["messages"].create_index(["sender", "body_hash"])
    db["command_log"].create_index(["who", "kind", "at"])
    db["bounces"].create({
        "address": str, "score": float, "hard": int, "soft": int, "first": str, "last": str,
        "last_day": str, "state": str, "detail": str,
    }, pk="address", defaults={"score": 0.0, "hard": 0, "soft": 0, "state": "ok"})


@migration("0010_site_state")
def _site_state(db: sqlite_utils.Database) -> None:
    """What the site as a whole is in, kept across restarts and read by `pbem
    status`: e.g. sending held while the SMTP server refuses the session."""
    db["site_state"].create({"key": str, "value": str, "updated": str}, pk="key")


@migration("0011_rules_version")
def _rules_version(db: sqlite_utils.Database) -> None:
    """Which version of a game's rules made each snapshot, so `pbem verify`
    can say that a phase was made by rules that have changed since."""
    db["snapshots"].add_column("rules_version", str)
@migration("0012_audiences")
def _audiences(db: sqlite_utils.Database) -> None:
    """Who may see each GM-log entry and each press item, as data (pbem.kit.audience).  The GM
    log keeps roles and ids, never addresses: entries written before kept the GM's address,
    so they are the GM's alone."""
    db["gm_log"].add_column("audience", str)
    db.execute("""update gm_log set audience = '"gm"'""")
    db["press"].add_column("audience", str)
    db["games"].add_column("phase_opened", str)  # when the current phase began (grey press's Date)
    # Press sent before: public when it went to every other power of a game of three or more.
    for row in list(db["press"].rows_where(select="id, game, sender, recipients")):
        everyone = {p["power"] for p in db["players"].rows_where("game = ?", [row["game"]], select="power")}
        to = set(loads(row["recipients"], []))
        public = len(everyone) >= 3 and everyone - {row["sender"]} <= to
        seen_by = "public" if public else {"powers": [row["sender"], *sorted(to)]}
        db["press"].update(row["id"], {"audience": dumps(seen_by)})
    _stamp_stored_events(db)


def _stamp_stored_events(db: sqlite_utils.Database) -> None:
    """Events stored before events had audiences get the one their game gives their kind
    (:meth:`pbem.kit.gameapi.Game.stamp`); those whose audience depended on more (a secret
    treaty's Casus Belli) keep none, so they are the GM's alone."""
    from pbem.base import registry

    for game in list(db["games"].rows_where(select="name, rules")):
        try:
            rules = registry.get(game["rules"])
        except KeyError:  # a game whose plug-in is not installed here: its events stay the GM's
            continue
        for snap in list(db["snapshots"].rows_where("game = ?", [game["name"]], select="id, seq, after, events")):
            events = loads(snap["events"], [])
            if all("audience" in e for e in events):
                continue
            stamped = rules.stamp(loads(snap["after"], {}), [dict(e) for e in events])
            db["snapshots"].update(snap["id"], {"events": dumps(stamped)})
            db.execute("delete from events where game = ? and seq = ?", [game["name"], snap["seq"]])
            db["events"].insert_all({"game": game["name"], "seq": snap["seq"], "kind": e.get("kind", ""),
                                     "data": dumps(e)} for e in stamped)


def utcnow_iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).isoformat(timespec="seconds")


def parse_iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def loads(text: str | None, default: Any = None) -> Any:
    return json.loads(text) if text else default


# Statements after which what sqlite-utils read of the schema may be wrong.
_SCHEMA_WORDS = ("CREATE", "DROP", "ALTER", "ROLLBACK")


class Database(sqlite_utils.Database):
    """sqlite-utils, remembering the schema it reads.

    sqlite-utils reads ``sqlite_master`` and ``PRAGMA table_info`` before
    nearly every statement it makes (dozens of reads for one mail); the schema
    changes only in migrations, so the answers are kept until a statement that
    may change it (or undo a change) runs through this object.  Transactions
    opened here (:func:`atomic`, :func:`savepoint`) forget it on rollback too."""

    def __init__(self, *args, **kwargs):
        self._schema: dict = {}
        super().__init__(*args, **kwargs)

    def forget_schema(self) -> None:
        self._schema.clear()

    def execute(self, sql, parameters=None):
        try:
            return super().execute(sql, parameters)
        finally:
            if sql.lstrip()[:8].upper().startswith(_SCHEMA_WORDS):
                self._schema.clear()

    def executescript(self, sql):
        self._schema.clear()
        try:
            return super().executescript(sql)
        finally:
            self._schema.clear()

    def table_names(self, fts4: bool = False, fts5: bool = False) -> list[str]:
        if fts4 or fts5:
            return super().table_names(fts4, fts5)
        if "tables" not in self._schema:
            self._schema["tables"] = super().table_names()
        return list(self._schema["tables"])

    def view_names(self) -> list[str]:
        if "views" not in self._schema:
            self._schema["views"] = super().view_names()
        return list(self._schema["views"])

    def table(self, table_name: str, **kwargs):
        if table_name in self.view_names():
            return super().table(table_name, **kwargs)  # sqlite-utils says what is wrong
        kwargs.setdefault("strict", self.strict)
        return _Table(self, table_name, **kwargs)


class _Table(sqlite_utils.db.Table):
    @property
    def columns(self):
        cache = self.db._schema.setdefault("columns", {})
        if self.name not in cache:
            cache[self.name] = sqlite_utils.db.Table.columns.fget(self)
        return list(cache[self.name])


class DatabaseUnusable(RuntimeError):
    """The database cannot be opened or written; the message is one line
    that says what to do."""


def describe_failure(path: Path | str, exc: sqlite3.Error) -> str:
    """One line about a database failure, naming the file and the remedy."""
    text = str(exc)
    lowered = text.lower()
    if "locked" in lowered or "busy" in lowered:
        return f"{path}: the database is locked by another program ({text}); try again when it is done"
    if "full" in lowered:
        return f"{path}: the disk holding the database is full ({text}); free some space"
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return f"{path}: the database file is damaged ({text}); restore it from a backup"
    if "unable to open" in lowered or "readonly" in lowered or "read-only" in lowered:
        return f"{path}: the database cannot be opened for writing ({text}); check the path and its permissions"
    return f"{path}: the database failed: {text}"


def is_disk_full(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower()


class MigrationDue(DatabaseUnusable):
    """The database was made by an earlier version: `pbem migrate` (or the
    daemon) brings it up to date, with a backup first."""


def open_db(path: Path | str, *, timeout: float = 30, migrate: bool = True) -> sqlite_utils.Database:
    """The database at ``path`` (created 0600 in a 0700 folder when new),
    migrated to the current schema.  Raises :class:`DatabaseUnusable` with one
    line when it is locked, damaged or cannot be written.

    With ``migrate=False`` an existing database made by an earlier version is
    not changed: :class:`MigrationDue` says which migrations are due (a new,
    empty database is always given the current schema)."""
    memory = str(path) == ":memory:"
    if not memory:
        from pbem.base.private_files import create_private

        try:
            create_private(path)
        except OSError as exc:
            raise DatabaseUnusable(f"{path}: cannot create the database: {exc.strerror or exc}") from None
    try:
        # The connection may be used by the thread that handles mail while the
        # event loop waits for it; never by two threads at once.
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=timeout, check_same_thread=False)
        db = Database(conn)
        conn.execute("PRAGMA journal_mode=WAL" if not memory else "PRAGMA journal_mode=MEMORY")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=FULL")
        due = pending(db)
        if due and not migrate and db.table_names():
            conn.close()
            raise MigrationDue(f"{path}: the database was made by an earlier version of pbem and needs "
                               f"{len(due)} migration(s) ({', '.join(due)}): run `pbem migrate`, "
                               "which backs it up first")
        if due:
            _migrate(db)
    except sqlite3.DatabaseError as exc:
        raise DatabaseUnusable(describe_failure(path, exc)) from None
    return db


def applied(db: sqlite_utils.Database) -> list[str]:
    if "migrations" not in db.table_names():
        return []
    return [r["name"] for r in db["migrations"].rows_where(order_by="rowid")]


def pending(db: sqlite_utils.Database) -> list[str]:
    """The migrations this database has not had yet, in order."""
    done = set(applied(db))
    return [name for name, _ in MIGRATIONS if name not in done]


def pending_at(path: Path | str, *, timeout: float = 30) -> list[str]:
    """The migrations due on the database file at ``path``, without changing it
    ([] for a missing or empty file: it is given the current schema when made)."""
    if str(path) == ":memory:" or not Path(path).is_file():
        return []
    conn = sqlite3.connect(str(path), timeout=timeout)
    try:
        db = Database(conn)
        return pending(db) if db.table_names() else []
    finally:
        conn.close()


def migrate(db: sqlite_utils.Database) -> list[str]:
    if "migrations" not in db.table_names():
        db["migrations"].create({"name": str, "applied": str}, pk="name")
    done = set(applied(db))
    ran = []
    for name, fn in MIGRATIONS:
        if name in done:
            continue
        with atomic(db):
            fn(db)
            db["migrations"].insert({"name": name, "applied": datetime.now(timezone.utc).isoformat()})
        ran.append(name)
    return ran


_migrate = migrate  # open_db's keyword argument of the same name hides the function there


def _forget_schema(db) -> None:
    if isinstance(db, Database):
        db.forget_schema()


@contextmanager
def savepoint(db: sqlite_utils.Database, name: str = "command") -> Iterator[sqlite_utils.Database]:
    """Inside a transaction: undo this block alone when it raises (the
    exception goes on), keep it otherwise.  Used to drop one failed command
    of a mail while the mail's other commands stand."""
    conn = db.conn
    if not conn.in_transaction:
        raise RuntimeError("savepoint() needs an open transaction (use atomic())")
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield db
    except BaseException:
        _forget_schema(db)
        conn.execute(f"ROLLBACK TO {name}")
        conn.execute(f"RELEASE {name}")
        raise
    else:
        conn.execute(f"RELEASE {name}")


@contextmanager
def atomic(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One transaction: everything inside commits together or not at all.
    Nested use joins the outer transaction (a savepoint would let an inner
    block commit half of a mail's effects)."""
    conn = db.conn
    if conn.in_transaction:
        yield db
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        _forget_schema(db)
        conn.execute("ROLLBACK")
        raise
    else:
        conn.execute("COMMIT")
