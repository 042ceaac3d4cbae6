"""Where a value sits in a TOML text: the line of each table, key and array item.

The TOML reader gives values without their lines; a GM fixing a scenario needs
the line.  This is a small scanner of the text, not a second TOML reader: it
records the line where each key is written (``("provinces", "Rosny", "tax")``),
where each ``[[table]]`` starts (``("borders", 2)``), and where each item of an
array value starts (``("realms", "Sweden", "units", 0)``).  A path it did not
record is looked up by its nearest recorded parent.
"""
from __future__ import annotations

import re

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def _keys(text: str) -> tuple[list[str], int]:
    """The dotted key at the start of ``text`` and where it ends."""
    keys, i = [], 0
    while i < len(text):
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < len(text) and text[j] != quote:
                j += 2 if text[j] == "\\" and quote == '"' else 1
            keys.append(text[i + 1:j])
            i = j + 1
        else:
            m = _BARE.match(text, i)
            if not m:
                break
            keys.append(m.group())
            i = m.end()
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == ".":
            i += 1
            continue
        break
    return keys, i


class Lines:
    """The lines of one TOML text's keys, tables and array items."""

    def __init__(self, text: str):
        self.at: dict[tuple, int] = {}
        counts: dict[tuple, int] = {}
        table: tuple = ()
        rows = text.splitlines()
        n = 0
        while n < len(rows):
            row = rows[n].strip()
            n += 1
            if not row or row.startswith("#"):
                continue
            if row.startswith("[["):
                keys, _ = _keys(row[2:])
                base = tuple(keys)
                index = counts.get(base, 0)
                counts[base] = index + 1
                table = base + (index,)
                self.at.setdefault(table, n)
                continue
            if row.startswith("["):
                keys, _ = _keys(row[1:])
                table = tuple(keys)
                self.at.setdefault(table, n)
                continue
            keys, end = _keys(row)
            if not keys or end >= len(row) or row[end] != "=":
                continue
            path = table + tuple(keys)
            self.at.setdefault(path, n)
            n = self._value(rows, n - 1, rows[n - 1].index("=") + 1, path)

    def _value(self, rows: list[str], n: int, col: int, path: tuple) -> int:
        """Record where each item of an array value starts; return the row after the value."""
        depth, item, expect, quote = 0, 0, False, None
        while n < len(rows):
            row = rows[n]
            i = col
            while i < len(row):
                c = row[i]
                if quote:
                    if c == "\\" and quote == '"':
                        i += 1
                    elif c == quote:
                        quote = None
                elif c == "#":
                    break
                elif c in "\"'":
                    quote = c
                    if depth == 1 and expect:
                        self.at.setdefault(path + (item,), n + 1)
                        expect = False
                elif c in "[{":
                    if depth == 1 and expect:
                        self.at.setdefault(path + (item,), n + 1)
                        expect = False
                    depth += 1
                    if depth == 1 and c == "[":
                        expect = True
                elif c in "]}":
                    depth -= 1
                elif c == ",":
                    if depth == 1:
                        item += 1
                        expect = True
                elif depth == 1 and expect and not c.isspace():
                    self.at.setdefault(path + (item,), n + 1)
                    expect = False
                i += 1
            n += 1
            col = 0
            if depth <= 0:
                return n
        return n

    def line(self, path: tuple) -> int | None:
        """The line of ``path``, or of its nearest recorded parent."""
        path = tuple(path)
        while path:
            if path in self.at:
                return self.at[path]
            path = path[:-1]
        return None
