"""The database: SQLite through sqlite-utils, with named migrations (:mod:`pbem.storage.migrations`).

Each migration runs once, in order, inside a transaction, and is recorded in
the ``migrations`` table by name; a new release only ever appends migrations.
Timestamps are ISO-8601 UTC strings; structured values are JSON text.
"""
from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

import sqlite_utils

from pbem.storage.migrations import MIGRATIONS
# The stored forms of values, used with the database everywhere.
from pbem.storage.values import dumps, loads, parse_iso, utcnow_iso  # noqa: F401 (their interface here)

# Statements after which what sqlite-utils read of the schema may be wrong.
_SCHEMA_WORDS = ("CREATE", "DROP", "ALTER", "ROLLBACK")


class Database(sqlite_utils.Database):
    """sqlite-utils, remembering the schema it reads.

    sqlite-utils reads ``sqlite_master`` and ``PRAGMA table_info`` before
    nearly every statement it makes (dozens of reads for one mail); the schema
    changes only in migrations, so the answers are kept until a statement that
    may change it (or undo a change) runs through this object.  Transactions
    opened here (:func:`atomic`, :func:`savepoint`) forget it on rollback too."""

    def __init__(self, *args, tracer=None, **kwargs):
        self._schema: dict = {}
        self._traced = tracer is not None   # a tracer sees every statement: no shortcut then
        super().__init__(*args, tracer=tracer, **kwargs)

    @contextmanager
    def tracer(self, tracer=None):
        """sqlite-utils' own, noting that a tracer is set (``db.tracer(print)``)."""
        was, self._traced = self._traced, tracer is not None
        try:
            with super().tracer(tracer):
                yield self
        finally:
            self._traced = was

    def forget_schema(self) -> None:
        self._schema.clear()

    def execute(self, sql, parameters=None):
        try:
            return super().execute(sql, parameters)
        finally:
            if sql.lstrip()[:8].upper().startswith(_SCHEMA_WORDS):
                self._schema.clear()

    def query(self, sql, params=None):
        """Rows as dictionaries.  sqlite-utils runs every query inside a savepoint of its
        own, to undo a statement that turns out to write: a plain SELECT cannot, so it runs
        alone (the savepoint was two of every three statements of handling a mail)."""
        head = sql.lstrip()[:7]
        if head[:6].upper() != "SELECT" or not head[6:].isspace() or self._traced:
            return super().query(sql, params)
        cursor = self.conn.execute(sql, params) if params is not None else self.conn.execute(sql)
        keys = [d[0] for d in cursor.description]
        if len(set(keys)) < len(keys):  # names said twice: sqlite-utils tells them apart
            return super().query(sql, params)
        return (dict(zip(keys, row)) for row in cursor)

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
    def columns(self) -> list[sqlite_utils.db.Column]:
        """The table's columns as sqlite-utils documents them (``Column`` tuples read from
        ``PRAGMA table_info``), remembered until the schema may change."""
        cache = self.db._schema.setdefault("columns", {})
        if self.name not in cache:
            quoted = '"' + self.name.replace('"', '""') + '"'
            rows = self.db.execute(f"PRAGMA table_info({quoted})").fetchall() if self.exists() else []
            cache[self.name] = [sqlite_utils.db.Column(*row) for row in rows]
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


def file_name(db: sqlite_utils.Database) -> str:
    """The file the database is kept in ("" for one in memory), for messages about it."""
    return db.conn.execute("pragma database_list").fetchone()[2]


def probe_write(db: sqlite_utils.Database) -> None:
    """A small write, undone in the same commit: raises while the disk is still full."""
    with atomic(db):
        db.execute("create table if not exists space_probe (data blob)")
        db.execute("insert into space_probe values (zeroblob(65536))")
        db.execute("delete from space_probe")


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


def set_fields(db: sqlite_utils.Database, table: str, row_id: int, fields: dict) -> None:
    """Set ``fields`` (column names of pbem's own, scalar values) on row ``row_id`` of
    ``table`` in one statement; the library's update reads the row and the table's schema
    first, which the mail path cannot afford on every mail."""
    sets = ", ".join(f'"{name}" = ?' for name in fields)
    db.execute(f'UPDATE "{table}" SET {sets} WHERE id = ?', [*fields.values(), row_id])


def insert_row(db: sqlite_utils.Database, table: str, fields: dict) -> int:
    """Insert one row (``fields``: column names of pbem's own, scalar values) in one
    statement, as :func:`set_fields` updates one: the library's insert looks up the
    table's schema and reads the row back, a cost the mail path pays on every mail."""
    names = ", ".join(f'"{name}"' for name in fields)
    marks = ", ".join("?" for _ in fields)
    return db.execute(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', list(fields.values())).lastrowid


@contextmanager
def synced_later(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """Commits made inside reach the disk with the next commit that waits for it, not
    each on its own (``synchronous=NORMAL`` in WAL mode): for writes whose loss at a
    power cut only repeats harmless work, such as marking a mail sent (it is sent again
    under its fixed Message-ID).  The log is written in order, so a power cut loses at
    most the last such writes, never one that came before a commit that was synced; a
    kill of the process loses nothing.  Inside a transaction it changes nothing."""
    conn = db.conn
    if conn.in_transaction:
        yield db
        return
    conn.execute("PRAGMA synchronous=NORMAL")
    try:
        yield db
    finally:
        conn.execute("PRAGMA synchronous=FULL")


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
