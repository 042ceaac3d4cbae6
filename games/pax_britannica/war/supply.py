"""An Alliance Supply Determination Phase, worked out by the engine.

Rules: THE WAR SEQUENCE (First/Second Alliance Supply Determination Phase: "determine whether
or not their Army Units and Areas are in supply, and surrender those Army Units and/or Areas
that are not in supply ... determine whether or not their Fleet Units have coaling rights, and
surrender those Fleet Units that do not"); SUPPLY; SURRENDERED UNITS.
"""
from __future__ import annotations

from ..core import board
from . import battle, geo, model, natives
from ..core.state import by_rules_order


def resolve(state: dict, orders: dict, dice, data, index: int) -> list[dict]:
    """The Supply Phase of alliance ``index`` in every war being fought (no orders, no dice)."""
    events: list[dict] = []
    for war in model.fighting(state):
        if index >= len(war["sides"]):
            continue
        side = [p for p in war["sides"][index] if not model.is_native(p)]
        if not side:
            continue
        surrendered: list[dict] = []
        checked = 0
        for power in by_rules_order(side):
            got, n = units(state, data, war, power)
            surrendered += got
            checked += n
        lost = areas(state, data, war, index)
        events += [dict(e, kind="unit_surrendered") for e in surrendered]
        events += lost
        events.append({"kind": "supply_check", "war": war["id"], "alliance": index + 1,
                       "powers": by_rules_order(side), "units": checked,
                       "surrendered": len(surrendered), "areas_lost": [e["area"] for e in lost]})
    return events


def theatre(data, war: dict, place: str) -> bool:
    """Choice: the units a Chinese Rebellion or an Ottoman war checks are those in its lands or
    at sea (Rules: DECLARATIONS OF WAR - separate wars, "all Military Units in one War effectively
    ignoring those in the other War"); an ordinary War checks every unit of its powers."""
    if war.get("kind") not in ("rebellion", "ottoman") or place not in data.areas:
        return True
    kinds = natives.CHINESE if war["kind"] == "rebellion" else ("ottoman",)
    return data.areas[place].kind in kinds or (war["kind"] == "ottoman" and place == "Egypt")


def units(state: dict, data, war: dict, power: str) -> tuple[list[dict], int]:
    """Armies out of supply and fleets without Coaling Rights surrender."""
    home = board.home_name(data, power)
    reached = geo.supplied(state, data, power)
    coal = geo.coaling_seas(state, data, power)
    out, n = [], 0
    for u in sorted(board.units_of(state, power), key=lambda u: u["id"]):
        if u["where"] == home or not theatre(data, war, u["where"]):
            continue
        n += 1
        if u["type"] == "army" and not geo.in_supply(state, data, power, u["where"], reached):
            why = "out of supply"
        elif u["type"] == "navy" and not geo.has_coaling(state, data, power, u, coal):
            why = "no Coaling Rights"
        else:
            continue
        # Rules: SUPPLY - an enemy Naval Unit in the Area cuts its Lines to the sea: say whose
        blockade = by_rules_order({x["power"] for x in board.units_of(state, where=u["where"], type="navy")
                                         if model.enemies_in(war, power, x["power"])})
        battle.surrender(state, war, u)
        out.append({"war": war["id"], "power": power, "type": u["type"], "strength": u["strength"],
                    "where": u["where"], "reason": why}
                   | ({"blockaded_by": blockade} if blockade and u["type"] == "army" else {}))
    return out, n


def alliance_areas(state: dict, war: dict, index: int) -> dict[str, list[str]]:
    """Area -> the alliance's powers it belongs to: their Controlled Areas not conquered by an
    enemy, and the Areas the alliance conquered."""
    side = war["sides"][index]
    out: dict[str, list[str]] = {}
    for area in state.get("markers", {}):
        held = war["conquered"].get(area)
        owners = [p for p in side if board.has_control(state, p, area)]
        if owners and (not held or set(held) & set(side)):
            out[area] = owners
    for area, held in war["conquered"].items():
        if set(held) & set(side):
            out[area] = [p for p in side if not model.is_native(p)]
    return out


def areas(state: dict, data, war: dict, index: int) -> list[dict]:
    """Rules: SUPPLY - "If an Area cannot trace supply, and Army Units of the opposing alliance
    are capable of reaching it given enough time, it immediately surrenders to the opposing
    alliance, that is, is conquered by them."  Choice: no Area surrenders to the Chinese or to the
    Ottomans the engine moves (their own rules say what they take)."""
    events = []
    reach: dict[int, set[str]] = {}
    lines: dict[str, geo.Lines] = {}
    for area, owners in sorted(alliance_areas(state, war, index).items()):
        if area not in data.areas:
            continue
        for p in owners:
            if p not in lines:   # worked out once per power (setdefault would build it every time)
                lines[p] = geo.Lines(state, data, p)
        if any(area in lines[p] for p in owners):
            continue
        for j in range(len(war["sides"])):
            if j == index or all(model.engine_moved(state, war, p) for p in war["sides"][j]):
                continue
            if j not in reach:
                reach[j] = geo.army_reach(state, data, war, j)
            if area in reach[j]:
                war["conquered"][area] = sorted(war["sides"][j])
                events.append({"kind": "area_surrendered", "war": war["id"], "area": area,
                               "from": by_rules_order(owners),
                               "to": by_rules_order(war["sides"][j])})
                break
    return events
