"""Copies of the database: ``pbem backup FILE`` while the daemon runs, and the
copy made before a migration.

A plain file copy of a database in WAL mode misses what is still in the
write-ahead log; SQLite's online backup reads one consistent snapshot of the
database (committed transactions only) without stopping the daemon, which
goes on writing meanwhile.  The copy is written beside its target, checked,
made a single self-contained file and only then renamed into place, so a
backup that fails leaves the previous one as it was.
"""
from __future__ import annotations

import logging
import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from pbem.base.private_files import create_private, make_dirs

log = logging.getLogger(__name__)

COUNTED = ("games", "messages", "outbox", "snapshots")


@dataclass
class Copy:
    path: Path
    rows: dict[str, int] = field(default_factory=dict)   # rows of the main tables in the copy
    migrations: int = 0

    def summary(self) -> str:
        counts = ", ".join(f"{n} {t}" for t, n in self.rows.items())
        return f"{self.path} ({counts}; {self.migrations} migrations applied)"


def copy_database(source: Path | str, target: Path | str, *, timeout: float = 30) -> Copy:
    """A consistent copy of the database ``source`` at ``target`` (mode 0600),
    replacing any file there.  Raises ValueError when there is nothing to copy
    or the copy would overwrite the database itself."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise ValueError(f"{source}: no database there")
    if target.exists() and target.resolve() == source.resolve():
        raise ValueError(f"{target} is the database itself; give another file")
    make_dirs(target.parent)
    temp = target.with_name(f".{target.name}.{os.getpid()}.partial")
    temp.unlink(missing_ok=True)
    create_private(temp)
    try:
        copy = _copy(source, temp, timeout)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    copy.path = target
    return copy


def _copy(source: Path, temp: Path, timeout: float) -> Copy:
    src = sqlite3.connect(str(source), timeout=timeout)
    dst = sqlite3.connect(str(temp))
    try:
        # All pages in one step: one read transaction, so one consistent snapshot; in WAL
        # mode the daemon's writes go on meanwhile and are simply not in this copy.
        src.backup(dst)
        problem = dst.execute("pragma quick_check").fetchone()[0]
        if problem != "ok":
            raise sqlite3.DatabaseError(f"the copy fails its check: {problem}")
        dst.execute("pragma journal_mode=DELETE")  # one self-contained file, no -wal beside it
        tables = {r[0] for r in dst.execute("select name from sqlite_master where type = 'table'")}
        copy = Copy(temp, {t: dst.execute(f"select count(*) from {t}").fetchone()[0]
                           for t in COUNTED if t in tables})
        if "migrations" in tables:
            copy.migrations = dst.execute("select count(*) from migrations").fetchone()[0]
        return copy
    finally:
        dst.close()
        src.close()


def before_migration_path(database: Path, first: str, now: datetime | None = None) -> Path:
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
    return database.with_name(f"{database.stem}.before-{first}-{stamp}{database.suffix or '.sqlite'}")


def migrate_with_backup(database: Path | str, *, timeout: float = 30) -> tuple[list[str], Path | None]:
    """Bring the database up to date; when migrations are due on a database
    that holds data, copy it first.  Returns the migrations run and the copy."""
    from pbem.storage.db import open_db, pending_at

    database = Path(database)
    due = pending_at(database, timeout=timeout)
    copy = copy_database(database, before_migration_path(database, due[0]), timeout=timeout) if due else None
    open_db(database, timeout=timeout).conn.close()
    if due:
        log.warning("database %s migrated (%s); the copy made before is %s", database, ", ".join(due),
                    copy.path)
    return due, copy.path if copy else None
