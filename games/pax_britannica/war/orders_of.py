"""Which of the orders written for a power are carried out.

Rules: MOVEMENT DURING AN ALLIANCE MANEUVER PHASE (Minor Power Movement) - "If a Minor Power
has more than one ally, the allied players must unanimously agree for any move by that Minor
Power to be made"; COMBAT DURING A WAR ("Minor Power Units in Areas where no Great Power ally's
Units are located will attack only if all allied Great Powers agree they should do so").

An order a player writes for another power (after ``FOR <power>``) carries the writer in
``args["by"]``.
"""
from __future__ import annotations

from pbem.kit.gameapi import Order

from . import model


def writer(state: dict, order: Order) -> str | None:
    return order.args.get("by") or model.speaker(state, order.power) or order.power


def chosen(state: dict, war: dict, power: str, orders: dict) -> list[Order]:
    """The power's orders that count: all of them when one player moves it; when its allies
    move it together, those every one of them wrote (in the first one's order)."""
    mine = [o if isinstance(o, Order) else Order.from_json(o) for o in orders.get(power, [])]
    ctrl = model.controllers(state, war, power)
    if len(ctrl) <= 1:
        return [o for o in mine if not ctrl or writer(state, o) in ctrl]
    by: dict[str, list[Order]] = {c: [] for c in ctrl}
    for o in mine:
        who = writer(state, o)
        if who in by:
            by[who].append(o)
    common = set.intersection(*({o.canonical for o in os} for os in by.values()))
    return [o for o in by[ctrl[0]] if o.canonical in common]


def unmatched(state: dict, war: dict, power: str, orders: dict) -> list[Order]:
    """Orders written for a power moved by several allies that not every ally wrote."""
    ctrl = model.controllers(state, war, power)
    if len(ctrl) <= 1:
        return []
    kept = {o.canonical for o in chosen(state, war, power, orders)}
    seen, out = set(), []
    for o in orders.get(power, []):
        o = o if isinstance(o, Order) else Order.from_json(o)
        if o.canonical not in kept and o.canonical not in seen:
            seen.add(o.canonical)
            out.append(o)
    return out
