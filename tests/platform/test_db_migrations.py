"""Named migrations: each runs once, in order, and an older database is
brought forward with its data intact."""
import sqlite3

import pytest
import sqlite_utils

from pbem.storage import db as pdb


def test_a_database_at_the_first_migration_is_brought_forward(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite_utils.Database(sqlite3.connect(str(path), isolation_level=None))
    old["migrations"].create({"name": str, "applied": str}, pk="name")
    name, first = pdb.MIGRATIONS[0]
    first(old)
    old["migrations"].insert({"name": name, "applied": "2026-01-01T00:00:00+00:00"})
    old["games"].insert({"name": "g1", "rules": "beacon", "status": "active"})
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


def test_the_schema_is_read_once_and_again_after_a_change(tmp_path):
    """sqlite-utils' schema reads are remembered; a table created, altered or
    rolled back is seen at once."""
    db = pdb.open_db(tmp_path / "s.sqlite")
    reads = []
    db.conn.set_trace_callback(lambda sql: reads.append(sql) if "sqlite_master" in sql or "table_info" in sql else None)
    for _ in range(3):
        list(db["games"].rows_where("name = ?", ["x"]))
        db["games"].columns
    assert len(reads) <= 3
    db["extra"].insert({"a": 1})
    assert "extra" in db.table_names() and [c.name for c in db["extra"].columns] == ["a"]
    db["extra"].add_column("b", int)
    assert [c.name for c in db["extra"].columns] == ["a", "b"]
    with pytest.raises(RuntimeError):
        with pdb.atomic(db):
            db["undone"].insert({"a": 1})
            assert "undone" in db.table_names()
            raise RuntimeError("roll back")
    assert "undone" not in db.table_names()


def test_a_game_is_found_by_name_through_an_index(tmp_path):
    db = pdb.open_db(tmp_path / "i.sqlite")
    plan = db.execute("explain query plan select * from games where lower(name) = lower(?)", ["Pax1"]).fetchall()
    assert any("games_name_nocase" in row[3] for row in plan), plan
    plan = db.execute("explain query plan select id from messages where status = 'new' order by id").fetchall()
    assert not any(row[3].startswith("SCAN messages") for row in plan), plan


def test_the_archive_counts_a_game_s_press_and_gm_log_through_an_index(tmp_path):
    db = pdb.open_db(tmp_path / "a.sqlite")
    for table in ("press", "gm_log", "players", "snapshots"):
        plan = db.execute(f"explain query plan select count(*) from {table} where game = ?", ["g1"]).fetchall()
        assert not any(row[3].startswith(f"SCAN {table}") for row in plan), plan


def test_facts_stored_before_audiences_get_one(tmp_path):
    """GM-log entries made before kept the GM's address: they are the GM's; press to every
    other power of a game of three is public, else its sender's and recipients'; each stored
    event gets the audience its game gives its kind, none where it depended on more."""
    path = tmp_path / "old.sqlite"
    old = sqlite_utils.Database(sqlite3.connect(str(path), isolation_level=None))
    old["migrations"].create({"name": str, "applied": str}, pk="name")
    for name, step in pdb.MIGRATIONS[:8]:
        step(old)
        old["migrations"].insert({"name": name, "applied": "2026-01-01T00:00:00+00:00"})
    old["games"].insert({"name": "g1", "rules": "pax_britannica", "status": "active"})
    for power in ("Britain", "France", "Germany"):
        old["players"].insert({"game": "g1", "power": power, "addresses": "[]"})
    old["gm_log"].insert({"game": "g1", "at": "x", "actor": "GM <gm@x.org>", "action": "add player",
                          "detail": "France f@x.org"})
    for sender, to in (("France", ["Britain", "Germany"]), ("France", ["Britain"])):
        old["press"].insert({"game": "g1", "phase_key": "1880/movement", "sender": sender, "recipients": pdb.dumps(to),
                             "grey": 0, "body": "hello", "sent": "x"})
    events = [{"kind": "marker", "power": "France", "area": "Tunis"}, {"kind": "money", "power": "France",
              "to": "Britain", "amount": 5}, {"kind": "cb", "holder": "Germany", "against": "Britain"}]
    old["snapshots"].insert({"game": "g1", "seq": 1, "phase_key": "1880/movement", "label": "x", "before": "{}",
                             "after": pdb.dumps({"players": ["Britain", "France", "Germany"], "powers": {}}),
                             "orders": "{}", "events": pdb.dumps(events), "dice": "[]", "created": "x"})
    old["events"].insert_all({"game": "g1", "seq": 1, "kind": e["kind"], "data": pdb.dumps(e)} for e in events)
    old.conn.close()

    db = pdb.open_db(path)
    assert [pdb.loads(r["audience"]) for r in db["gm_log"].rows] == ["gm"]
    assert [pdb.loads(r["audience"]) for r in db["press"].rows] == ["public", {"powers": ["France", "Britain"]}]
    stamped = pdb.loads(db["snapshots"].get(1)["events"])
    assert [e.get("audience") for e in stamped] == ["public", {"powers": ["France", "Britain"]}, None]
    assert [pdb.loads(r["data"]).get("audience") for r in db["events"].rows_where(order_by="id")] == \
        ["public", {"powers": ["France", "Britain"]}, None]
