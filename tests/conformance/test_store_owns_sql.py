"""The store owns the SQL: outside ``pbem/storage/`` no module runs a statement, reads or
writes a table, or holds a connection; each calls the named functions of the store
(``storage/store.py``, ``inbound_mail.py``, ``outbox_rows.py`` ...), so every transaction
and crash promise rests on writes that can be found in one folder.

The modules that still reach the database are listed in ``KNOWN`` with the reason; the
test fails when one of them no longer does (take it off the list) as well as when any other
module starts to.  Importing ``sqlite3`` to catch its errors is allowed; importing
``sqlite_utils`` is forbidden by an import-linter contract in pyproject.toml.
"""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: modules outside pbem/storage that still touch the database, and why they may for now
KNOWN: set[str] = set()

#: calls that run SQL or read/write a table through sqlite_utils
SQL_CALLS = {"execute", "executemany", "executescript", "rows_where", "count_where", "delete_where"}


def sql_sites(path: Path) -> list[str]:
    """Where the module at ``path`` touches the database: "line: what"."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SQL_CALLS \
                and not _is_imap(node.func.value):
            found.append(f"{node.lineno}: .{node.func.attr}(...)")
        elif isinstance(node, ast.Subscript) and _is_db(node.value):
            found.append(f"{node.lineno}: a table by name (db[...])")
        elif isinstance(node, ast.Attribute) and node.attr == "conn" and _is_db(node.value):
            found.append(f"{node.lineno}: the connection (db.conn)")
    return found


def _is_imap(node: ast.AST) -> bool:
    """An IMAP client's protocol (aioimaplib), whose ``execute`` sends an IMAP command."""
    return (isinstance(node, ast.Name) and node.id == "protocol") or \
        (isinstance(node, ast.Attribute) and node.attr == "protocol")


def _is_db(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "db") or \
        (isinstance(node, ast.Attribute) and node.attr == "db")


def outside_storage() -> dict[str, list[str]]:
    sites = {}
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("pbem/storage/"):
            continue
        found = sql_sites(path)
        if found:
            sites[rel] = found
    return sites


def test_only_the_store_touches_the_database():
    sites = outside_storage()
    new = {rel: found for rel, found in sites.items() if rel not in KNOWN}
    assert not new, "SQL outside pbem/storage (add a named function to the store):\n" + "\n".join(
        f"{rel}:{site}" for rel, found in new.items() for site in found)


def test_the_known_exceptions_are_still_exceptions():
    stale = sorted(KNOWN - set(outside_storage()))
    assert not stale, f"no longer touch the database; take them off KNOWN: {stale}"


def test_the_scan_sees_sql(tmp_path):
    """The scan finds each way of touching the database it looks for."""
    probe = tmp_path / "probe.py"
    sample = ("def f(ctx, db):\n"
              "    ctx.db.execute('select 1')\n"
              "    ctx.db['games'].insert({})\n"
              "    db.conn.commit()\n"
              "    list(ctx.db['x'].rows_where('a = 1'))\n")
    probe.write_text(sample, encoding="utf-8")
    assert sorted(site.split(":")[0] for site in sql_sites(probe)) == ["2", "3", "4", "5", "5"]
