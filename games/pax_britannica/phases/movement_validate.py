"""Read-only validation of a power's Movement/Status Change orders.

The orders are tried on a private copy of the state in the same order the phase
resolves them (see :mod:`.movement`), so an order that relies on an earlier one
(an army moving into the Area where a Protectorate is bought) is judged with it.
Money is counted separately, in the order the player wrote the lines.
"""
from __future__ import annotations

import copy
from typing import Sequence

from pbem.gameapi import Order, Problem

from .. import board
from ..state import label
from . import movement, movement_rules as rules, movement_units

MONEY_KINDS = ("buy", "build_army", "build_navy", "build_canal", "give")
#: deficits are settled before anything else; SUPPRESS and ELIMINATE act in later phases
STAGES = (("remove",), *movement.STAGES, ("suppress", "eliminate"))


def validate(state: dict, power: str, orders: Sequence[Order], data) -> list[Problem]:
    if not orders:
        return []
    if state.get("phase") != "movement":
        return [Problem("wrong-phase", f"orders are for the Movement/Status Change Phase; the game "
                        f"is in the {label(state.get('phase', ''))} Phase", o.line) for o in orders]
    problems: list[Problem] = []
    bad: set[int] = set()
    by_power: dict[str, list[Order]] = {}
    for o in orders:
        by_power.setdefault(o.power or power, []).append(o)
    for p, own in by_power.items():
        if p not in state["powers"] or not board.is_great(state, p):
            # Rules: MINOR POWERS - nobody writes orders for a Minor Power.
            return [Problem("not-a-great-power", f"{p} is not played in this game", o.line)
                    for o in orders]
        problems += funds(state, data, p, own, bad)
    sim = copy.deepcopy(state)
    for p in by_power:
        sim["powers"][p]["treasury"] = 10 ** 9  # money was judged above
    for kinds in STAGES:
        for p, own in sorted(by_power.items()):
            for o in own:
                if o.kind not in kinds or id(o) in bad:
                    continue
                fail = rules.check(sim, data, p, o.kind, dict(o.args))
                # Choice: REMOVE only meets a deficit; without one it warns and does nothing.
                if fail is None and o.kind == "remove" and \
                        p not in sim.get("pending", {}).get("deficit", {}):
                    problems.append(Problem("no-deficit", f"{p} has no deficit: REMOVE does nothing "
                                            "(units are only removed to meet a deficit)", o.line,
                                            kind="warning"))
                    continue
                if fail:
                    bad.add(id(o))
                    problems.append(Problem(fail[0], fail[1], o.line))
                    continue
                if o.kind in ("give", "accept_money", "transfer", "accept", "build_canal",
                              "remove", "suppress", "eliminate"):
                    continue  # pairing and dice are settled at resolution
                movement.apply(sim, data, p, o.kind, dict(o.args))
        if kinds == ("buy",):
            for area_marks in sim.get("markers", {}).values():
                for m in area_marks.values():
                    if m.pop("pending_establish", False):
                        m["established"] = True
    for p, own in by_power.items():
        problems += forced(state, data, p, own, bad)
        problems += garrisons(sim, p, own, bad)
        problems += rebuild(state, sim, data, p)
    return problems


def rebuild(state: dict, sim: dict, data, power: str) -> list[Problem]:
    """Rules: Special British Garrison Rule ("If any of the Units are destroyed in the
    game, he must rebuild them as soon as he can afford to do so (after paying regular
    maintenance)"); Special Russian Garrison Rule (the same for the Western Garrison).

    Judged on the orders as they leave the board (``sim``).  Choice: like a forced
    expenditure, a shortfall the Treasury could pay for is a warning for the GM."""
    short = movement_units.garrison_shortfall(sim, data, power)
    if not short:
        return []
    price = data.unit_cost("army", 10)
    can = min(short, board.treasury(state, power) // price)
    if can <= 0:
        return []
    name = "Indian Army" if power == "Britain" else "Western Garrison"
    return [Problem("garrison-rebuild", f"the {name} lacks {short} Army (10) Unit(s): {power} can "
                    f"afford {can} ({price} each) and must rebuild them", None, kind="warning")]


def garrisons(sim: dict, power: str, orders: list[Order], bad: set[int]) -> list[Problem]:
    """Rules: STATUS CHANGE (Important Note) - a Control marker with no Army Unit beside it
    at the end of the phase falls to Influence: not illegal, "foolish", so a warning."""
    out = []
    for o in orders:
        if o.kind == "buy" and id(o) not in bad and o.args["status"] in board.CONTROL \
                and board.army_strength(sim, power, o.args["area"]) == 0:
            out.append(Problem("no-garrison", f"no Army Unit of {power} will be in {o.args['area']}: "
                               "the Control marker falls to Influence unless one arrives", o.line,
                               kind="warning"))
    return out


def funds(state: dict, data, power: str, orders: list[Order], bad: set[int]) -> list[Problem]:
    """Rules: MOVEMENT/STATUS CHANGE - "You cannot spend more £'s than you have available",
    counted in the order the lines are written; a Liberal Victory caps unit purchases."""
    problems = []
    have = board.treasury(state, power)
    cap = state.get("turn_effects", {}).get("spend_cap", {}).get(power)
    spent = units = 0
    for o in orders:
        if o.kind not in MONEY_KINDS:
            continue
        price = rules.cost(state, data, power, o.kind, dict(o.args))
        if spent + price > have:
            bad.add(id(o))
            problems.append(Problem("insufficient-funds", f"{o.canonical} costs {price}; {power} has "
                                    f"{have - spent} of {have} left", o.line))
            continue
        if cap is not None and o.kind in ("build_army", "build_navy") and units + price > cap:
            bad.add(id(o))
            problems.append(Problem("spend-cap", f"{power} may spend no more than {cap} on units "
                                    f"this turn (Liberal Victory)", o.line))
            continue
        spent += price
        units += rules.unit_spend(o.kind, price)
    return problems


def forced(state: dict, data, power: str, orders: list[Order], bad: set[int]) -> list[Problem]:
    """Rules: Forced Expenditures - what the Administrative Phase did not cover must be
    spent building units, as far as the treasury allows.
    Choice: a shortfall is a warning for the GM, not a refusal."""
    need = state.get("turn_effects", {}).get("forced", {}).get(power)
    if not need:
        return []
    remaining = int(need.get("remaining", need.get("amount", 0)))
    naval_only = need.get("naval_only")
    spent = sum(rules.cost(state, data, power, o.kind, dict(o.args)) for o in orders
                if id(o) not in bad and (o.kind == "build_navy" or
                                         (o.kind == "build_army" and not naval_only)))
    can = min(remaining, board.treasury(state, power))
    if spent < can:
        what = "naval units" if naval_only else "units"
        return [Problem("forced-expenditure", f"{power} must spend {can} more on {what} this turn "
                        f"(it orders {spent})", None, kind="warning")]
    return []
