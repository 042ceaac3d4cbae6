"""Combat odds and the Combat Results Tables, shared by Colonial Combat and War.

Rules: COLONIAL COMBAT RESOLUTION; COMBAT DURING A WAR (The Combat Results Tables).

The attack:defence strength ratio is rounded *in favour of the defender* (the Area, in
Colonial Combat) to one of the table columns, so the column used is the best column whose
ratio does not exceed the true ratio.  Exact integer arithmetic is used (no floats), so
13:5 rounds to 2:1 and 7:5 to 1:1 exactly as the rules' examples say.

Choice: a ratio worse than 1:10 is resolved on the 1:10 column (the tables have no worse
column; the 1:10 column is already nearly all attacker losses), and a ratio better than
10:1 on the 10:1 column.  A defence of 0 is not a ratio at all: Colonial Combat against a
zero-strength Area succeeds without a die (Rules: COLONIAL COMBAT), and callers handle it
before asking for odds.
"""
from __future__ import annotations

from itertools import product
from typing import Mapping

#: Rules: COLONIAL COMBAT RESOLUTION - the Combat Results Tables' columns, worst first.
COLUMNS = ("1:10", "1:3", "1:2", "2:3", "1:1", "3:2", "2:1", "3:1", "10:1")
RESULTS = ("E", "AR", "EX", "HALF_EX", "DR", "DE")
#: Results that defeat the defender outright; EX and HALF_EX depend on the strengths.
DEFENDER_LOSES = ("DR", "DE")
#: Rules: COLONIAL COMBAT RESOLUTION - Table 2 from a smaller force of 5 strength points.
TABLE_2_FROM = 5

# Spellings found in printed and transcribed tables, mapped to the canonical codes.
_ALIASES = {"AE": "E", "E": "E", "AR": "AR", "EX": "EX", "HALF_EX": "HALF_EX",
            "½EX": "HALF_EX", "1/2EX": "HALF_EX", "HALFEX": "HALF_EX", "HEX": "HALF_EX",
            "DR": "DR", "DE": "DE"}


def column_value(column: str) -> tuple[int, int]:
    """``"3:2"`` -> ``(3, 2)``."""
    a, b = column.split(":")
    return int(a), int(b)


def fits(attack: int, defense: int, column: str) -> bool:
    """True when the true ratio ``attack:defense`` is at least the column's ratio."""
    a, b = column_value(column)
    return attack * b >= defense * a


def ratio(attack: int, defense: int, columns: tuple[str, ...] = COLUMNS) -> str:
    """The table column for ``attack`` against ``defense``, rounded for the defender.

    Rules: COLONIAL COMBAT RESOLUTION - "rounded off in favor of the Area".
    Choice: below 1:10 clamps to 1:10 (see the module docstring)."""
    if attack <= 0:
        raise ValueError("an attack needs a positive strength")
    if defense <= 0:
        raise ValueError("a zero defence is not resolved on the tables")
    best = columns[0]
    for column in columns:
        if fits(attack, defense, column):
            best = column
    return best


def table_for(attack: int, defense: int) -> int:
    """Rules: COLONIAL COMBAT RESOLUTION - Table 1 when the smaller force is under 5,
    Table 2 when it is 5 or more."""
    return 1 if min(attack, defense) < TABLE_2_FROM else 2


def normalise(result: str) -> str:
    code = _ALIASES.get(str(result).strip().upper().replace(" ", ""))
    if code is None:
        raise ValueError(f"unknown combat result {result!r}")
    return code


def lookup(crt: Mapping[int, Mapping[str, tuple[str, ...]]], table: int, column: str,
           die: int) -> str:
    """The result on ``table`` (1 or 2), ``column``, for a die of 1..6."""
    if not 1 <= die <= 6:
        raise ValueError(f"a die shows 1..6, not {die}")
    row = crt[table][column]
    return normalise(row[die - 1])


def odds(attack: int, defense: int, columns: tuple[str, ...] = COLUMNS) -> tuple[str, int]:
    """``(column, table)`` for one combat."""
    return ratio(attack, defense, columns), table_for(attack, defense)


def resolve(data, attack: int, defense: int, die: int) -> dict:
    """Column, table and result for one combat, from the map data's tables."""
    columns = tuple(getattr(data, "crt_columns", None) or COLUMNS)
    column, table = odds(attack, defense, columns)
    return {"ratio": column, "table": table, "result": lookup(data.crt, table, column, die)}


def cheapest_cover(units: list[dict], need: int) -> list[dict]:
    """The cheapest set of ``units`` whose strength is at least ``need`` (all if none is): the
    losses a side takes, in Colonial Combat and in a War's battles alike."""
    by_strength: dict[int, list[dict]] = {}
    for u in units:
        by_strength.setdefault(u["strength"], []).append(u)
    sizes = sorted(by_strength)
    best: tuple[int, int] | None = None
    best_counts: tuple[int, ...] = ()
    for counts in product(*(range(len(by_strength[s]) + 1) for s in sizes)):
        total = sum(s * c for s, c in zip(sizes, counts))
        if total >= need and (best is None or (total, sum(counts)) < best):
            best, best_counts = (total, sum(counts)), counts
    if best is None:
        return list(units)
    return [u for s, c in zip(sizes, best_counts) for u in by_strength[s][:c]]
