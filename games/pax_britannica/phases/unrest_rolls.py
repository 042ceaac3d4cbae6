"""Placing Unrest from the Unrest Tables.

Rules: UNREST - "refer to the appropriate Unrest Table (A through D) and roll one or
two dice again, as called for on the Unrest Table ... Immediately place an Unrest
marker on the specified Area."  "If an Area that already has an Unrest marker is
rolled again in the same Phase, re-roll on the same Unrest Table."

Which event rolls send to which letter, and each table's dice, are data
(``data.random_events[...].table`` and ``data.unrest_tables[letter].dice``).
"""
from __future__ import annotations


def place_unrest(state: dict, data, dice, letter: str, n: int = 1) -> list[dict]:
    """Roll on Unrest Table ``letter`` until an Area not yet in Unrest comes up."""
    table = data.unrest_tables[letter]
    unrest = state.setdefault("unrest", [])
    candidates = set(table.entries.values())
    if candidates <= set(unrest):
        # Choice: every Area of the table is already in Unrest, so re-rolling could never
        # end; the event is spent without effect.
        return [{"kind": "unrest_none", "table": letter, "number": n}]
    attempt = 0
    rerolls: list[dict] = []
    while True:
        attempt += 1
        suffix = "" if attempt == 1 else f" re-roll {attempt - 1}"
        names = ("first die", "second die")[:table.dice_needed()]
        rolled = [dice.d6(f"event {n} unrest table {letter} {name}{suffix}") for name in names]
        area = table.pick(rolled)
        if area in unrest:
            rerolls.append({"kind": "unrest_reroll", "table": letter, "area": area,
                            "roll": "-".join(map(str, rolled))})
            continue
        unrest.append(area)
        return rerolls + [{"kind": "unrest", "area": area, "table": letter,
                           "roll": "-".join(map(str, rolled))}]
