"""Named migrations: each runs once, in order, and an older database is
brought forward with its data intact."""
import sqlite3

import sqlite_utils

from pbem import db as pdb


def test_a_database_at_the_first_migration_is_brought_forward(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite_utils.Database(sqlite3.connect(str(path), isolation_level=None))
    old["migrations"].create({"name": str, "applied": str}, pk="name")
    name, first = pdb.MIGRATIONS[0]
    first(old)
    old["migrations"].insert({"name": name, "applied": "2026-01-01T00:00:00+00:00"})
    old["games"].insert({"name": "g1", "rules": "testgame", "status": "active"})
    old.conn.close()

    db = pdb.open_db(path)
    assert pdb.applied(db) == [n for n, _ in pdb.MIGRATIONS]
    game = db["games"].get("g1")
    assert game["status"] == "active" and game["process_requested"] == 0


def test_migrations_run_once(tmp_path):
    db = pdb.open_db(tmp_path / "x.sqlite")
    assert pdb.migrate(db) == []
    names = [n for n, _ in pdb.MIGRATIONS]
    assert len(names) == len(set(names)) and names == sorted(names)
