"""Watching the clauses of the treaties in force: warnings on orders that would break one,
breaches found when a phase has resolved, and payments that fall due each turn.

Rules: TREATIES (markers kept out of Areas, limits on Military Units, payments); Treaties and
Casus Belli; EUROPEAN TENSION INCREASES.  "An order that would break a clause is accepted
(players may break treaties), but the reply warns before the deadline."
"""
from __future__ import annotations

from pbem.kit.gameapi import Order, Problem

from . import board
from .treaties import binds, pay
from .treaty_records import break_treaty, in_force

WATCHED_AFTER = {"movement": ("no_markers", "no_units", "max_navy", "max_army"),
                 "negotiation": ("no_markers",), "congress": ("no_markers",)}


def _bound(state: dict, power: str, kinds: tuple[str, ...]):
    """(treaty, clause) pairs in force that bind ``power``, of the given kinds."""
    for record in in_force(state):
        for c in record.get("terms", []):
            if c["type"] in kinds and power in binds(c, record["parties"], state):
                yield record, c


def _warn(record: dict, c: dict, line: int | None, what: str) -> Problem:
    return Problem("breaks-treaty", f"{what} breaks treaty {record['id']} ({c['text']}); the order "
                   "stands if you keep it", line, kind="warning")


def order_warnings(state: dict, power: str, orders: list[Order]) -> list[Problem]:
    """Warnings for orders that would break a clause in force (Movement and Negotiation)."""
    problems: list[Problem] = []
    navy = sum(u["strength"] for u in board.units_of(state, power, type="navy"))
    armies: dict[str, int] = {}
    for o in orders:
        who, a = o.power or power, o.args
        area = a.get("area") if o.kind in ("buy", "accept", "codominion") else \
            a.get("to") if o.kind in ("move_army", "move_navy") else None
        if o.kind == "codominion":
            area = a.get("area")
        for record, c in _bound(state, who, ("no_markers",)):
            if o.kind in ("buy", "accept", "codominion") and area == c["area"]:
                problems.append(_warn(record, c, o.line, o.canonical))
        for record, c in _bound(state, who, ("no_units",)):
            if o.kind in ("move_army", "move_navy") and area == c["area"]:
                problems.append(_warn(record, c, o.line, o.canonical))
        if o.kind == "build_navy":
            navy += a["strength"]
            for record, c in _bound(state, who, ("max_navy",)):
                if navy > c["n"]:
                    problems.append(_warn(record, c, o.line, o.canonical))
        if o.kind == "move_army":
            armies[area] = armies.get(area, board.army_strength(state, who, area)) + a["strength"]
            for record, c in _bound(state, who, ("max_army",)):
                if c["area"] == area and armies[area] > c["n"]:
                    problems.append(_warn(record, c, o.line, o.canonical))
    return problems


def after_phase(before: dict, state: dict, phase: str) -> list[dict]:
    """Breaches a resolved phase left on the board.  Choice: a clause on units (NO UNITS, MAX
    NAVY, MAX ARMY) is judged where the Movement/Status Change Phase leaves the units; NO
    MARKERS is broken by any marker of the bound power appearing or rising in the Area in a
    Movement, Negotiation or Congress Phase.  One breach ends a treaty."""
    kinds = WATCHED_AFTER.get(phase)
    if not kinds:
        return []
    events: list[dict] = []
    for record in in_force(state):
        for c in record.get("terms", []):
            if c["type"] not in kinds or record["status"] != "in_force":
                continue
            for power in binds(c, record["parties"], state):
                why = _broken(before, state, power, c)
                if why:
                    events += break_treaty(state, record, power, why)
                    break
    return events


def _broken(before: dict, state: dict, power: str, c: dict) -> str | None:
    t = c["type"]
    if t == "no_markers":
        old = board.rank(board.status_of(before, c["area"], power))
        new = board.rank(board.status_of(state, c["area"], power))
        return f"{c['text']}: {power} placed a marker there" if new > old else None
    if t == "no_units" and board.units_of(state, power, c["area"]):
        return f"{c['text']}: {power} has units there"
    if t == "max_navy":
        total = sum(u["strength"] for u in board.units_of(state, power, type="navy"))
        return f"{c['text']}: {power}'s navies total {total}" if total > c["n"] else None
    if t == "max_army":
        total = board.army_strength(state, power, c["area"])
        return f"{c['text']}: {power} has {total} there" if total > c["n"] else None
    return None


def turn_payments(state: dict) -> list[dict]:
    """Rules: TREATIES - a payment due EACH TURN.  Choice: it falls due in the Administrative
    Phase, once the turn's income is in the treasury, up to and including the UNTIL year; the
    first payment was made when the treaty came into force."""
    events: list[dict] = []
    for record in in_force(state):
        for c in record.get("terms", []):
            if c["type"] != "pay" or not c.get("each_turn") or record["status"] != "in_force":
                continue
            if c.get("last_paid") == state["turn"] or (c.get("until") and state["turn"] > c["until"]):
                continue
            c["last_paid"] = state["turn"]
            events += pay(state, record, c)
    return events
