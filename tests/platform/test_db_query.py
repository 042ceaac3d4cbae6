"""Plain SELECTs run alone, not inside a savepoint of sqlite-utils' own (two more statements
each, a third of the statements of handling a mail); anything else runs as sqlite-utils runs it."""
from __future__ import annotations

import pytest

from pbem.storage.db import atomic, open_db


def _statements(db, action) -> list[str]:
    seen: list[str] = []
    db.conn.set_trace_callback(seen.append)
    try:
        action()
    finally:
        db.conn.set_trace_callback(None)
    return seen


def test_a_select_is_one_statement_and_gives_rows_as_dictionaries(tmp_path):
    db = open_db(tmp_path / "pbem.sqlite")
    db.execute("create table t (id integer primary key, name text)")
    db.execute("insert into t (name) values ('a'), ('b')")
    rows: list = []
    ran = _statements(db, lambda: rows.extend(db.query("select id, name from t where id > ?", [0])))
    assert rows == [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
    assert ran == ["select id, name from t where id > 0"]
    with atomic(db):  # inside a transaction as well
        assert list(db.query("SELECT\n name FROM t ORDER BY id DESC")) == [{"name": "b"}, {"name": "a"}]


def test_a_name_said_twice_and_a_statement_that_writes_go_through_sqlite_utils(tmp_path):
    db = open_db(tmp_path / "pbem.sqlite")
    db.execute("create table t (id integer primary key, name text)")
    db.execute("insert into t (name) values ('a')")
    assert list(db.query("select t.id, u.id from t, t as u")) == [{"id": 1, "id_2": 1}]
    with pytest.raises(ValueError):
        db.query("update t set name = 'b'")
    assert [r["name"] for r in db.query("select name from t")] == ["a"]
    inserted = list(db.query("insert into t (name) values ('c') returning id"))
    assert inserted == [{"id": 2}]


def test_the_remembered_schema_answers_as_sqlite_utils_does(tmp_path):
    """pbem.storage.db keeps what sqlite-utils reads of the schema, through sqlite-utils'
    public API only (``Table.columns``, ``Column``, ``Database.tracer``): the answers match
    a plain sqlite-utils database's, so an upgrade that changes them fails here."""
    import sqlite_utils

    db = open_db(tmp_path / "pbem.sqlite")
    plain = sqlite_utils.Database(tmp_path / "pbem.sqlite")
    for name in ("games", "messages", "outbox", "no_such_table"):
        assert db[name].columns == plain[name].columns, name
        assert db[name].columns_dict == plain[name].columns_dict, name
    assert db.table_names() == plain.table_names()
    db.execute("alter table games add column extra text")
    assert db["games"].columns == plain["games"].columns  # forgotten when the schema changes


def test_a_tracer_sees_every_statement_a_select_included(tmp_path):
    db = open_db(tmp_path / "pbem.sqlite")
    db.execute("create table t (id integer primary key)")
    seen: list[str] = []
    with db.tracer(lambda sql, params: seen.append(sql)):
        list(db.query("select id from t"))
    assert "select id from t" in seen
    seen.clear()
    list(db.query("select id from t"))
    assert seen == []  # the tracer is gone with its block
