"""Sieges & Occupation (9.8): the Siege action, on its own or at the end of an
Activate.  ``check_siege`` raises Refused and is what validation runs; ``siege``
runs the same check first."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import battle as bt
from . import state as st
from .moves import land_units


def siege_strength(units: dict) -> int:
    inf = sum(n for k, n in units.items() if k.split("_")[-1] == "inf")
    cav = sum(n for k, n in units.items() if k.split("_")[-1] == "cav")
    art = sum(n for k, n in units.items() if k.split("_")[-1] == "art")
    return inf + cav // 2 + 2 * art   # 9.8 / NOTES 3.3: cavalry 1/2, rounded down overall


def siegeable(state: dict, realm: str, area: str) -> list[str]:
    return [p for p in st.area_provinces(state, area)
            if state["provinces"][p]["controller"] and st.hostile(state, realm, state["provinces"][p]["controller"])]


def island_reachable(state: dict, realm: str, prov: str) -> bool:
    """9.8 step 3: sieging an Island Province (blue Port) needs 1+ of your Ships in a Sea
    Zone its Port faces."""
    d = state["provinces"][prov]
    if not d.get("island"):
        return True
    return bool(d.get("port") and st.ship_count(st.units_at(state, d["port"]).get(realm, {})))


def check_siege(state: dict, realm: str, area: str, provinces: list[str]) -> dict:
    units = land_units(state, realm, area)
    if not st.land_count(units):
        raise Refused(f"you have no land units in {area}", "no-units")
    if any(st.hostile(state, realm, r) for r in st.realms_with_land(state, area)):
        raise Refused(f"enemy units are still in {area}: win the battle first", "enemy-units")
    targets = siegeable(state, realm, area)
    if not targets:
        raise Refused(f"{area} has no province controlled by an enemy of yours or by rebels", "nothing-to-siege")
    cut_off = [p for p in targets if not island_reachable(state, realm, p)]
    if provinces and any(p in cut_off for p in provinces):
        p = next(p for p in provinces if p in cut_off)
        raise Refused(f"{p} is an island province: you need a ship in {state['provinces'][p]['port']}, the sea "
                      "its port faces, to siege it (9.8 step 3)", "island-needs-ships")
    targets = [p for p in targets if p not in cut_off]
    if not targets:
        raise Refused(f"the provinces to siege in {area} are island provinces: you need a ship in the sea their "
                      "ports face (9.8 step 3)", "island-needs-ships")
    strength = siege_strength(units)
    if provinces:
        bad = [p for p in provinces if p not in targets]
        if bad:
            raise Refused(f"{', '.join(bad)}: not an enemy-controlled province in {area}", "not-siegeable")
        chosen = provinces
    else:
        chosen, total = [], 0
        # Choice: one's own provinces first, then the largest, then alphabetically.
        for p in sorted(targets, key=lambda p: (state["provinces"][p]["owner"] != realm,
                                                -state["provinces"][p]["tax"], p)):
            if total + state["provinces"][p]["tax"] <= strength:
                chosen.append(p)
                total += state["provinces"][p]["tax"]
    need = sum(state["provinces"][p]["tax"] for p in chosen)
    if not chosen or need > strength:
        raise Refused(f"siege strength {strength} (infantry 1, cavalry 1/2 rounded down, artillery 2) is less than the tax value {need or min(state['provinces'][p]['tax'] for p in targets)} "
                      "of the provinces to siege", "siege-too-weak")
    return {"provinces": chosen, "strength": strength, "extra_c": max(0, _units_needed(units, need) - 1)}


def _units_needed(units: dict, need: int) -> int:
    art = sum(n for k, n in units.items() if k.endswith("art"))
    inf = sum(n for k, n in units.items() if k.endswith("inf"))
    used, got = 0, 0
    for _ in range(art):
        if got >= need:
            break
        got, used = got + 2, used + 1
    for _ in range(inf):
        if got >= need:
            break
        got, used = got + 1, used + 1
    while got < need:
        got, used = got + 1, used + 2
    return used


def siege(state: dict, realm: str, area: str, provinces: list[str], events: list) -> list[dict]:
    """9.8 steps 1-7."""
    plan = check_siege(state, realm, area, provinces)
    for p in plan["provinces"]:
        d = state["provinces"][p]
        was = d["controller"]
        if was == st.REBELS:
            d["controller"], d["unrest"] = d["owner"], 0
            if d["owner"] and st.hostile(state, realm, d["owner"]):
                d["controller"], d["unrest"] = realm, 1   # Choice: occupied in the same siege when at war
        elif was != d["owner"] and not st.hostile(state, realm, d["owner"] or ""):
            d["controller"], d["unrest"] = d["owner"], 0   # returned to a neutral or friendly lawful owner
        else:
            d["controller"], d["unrest"] = realm, 1
        events.append({"kind": "occupied" if d["controller"] == realm else "returned", "province": p,
                       "by": realm, "from": was, "owner": d["owner"]})
    events.append({"kind": "siege", "realm": realm, "area": area, "provinces": plan["provinces"],
                   "strength": plan["strength"]})
    if plan["extra_c"]:
        events.append({"kind": "monarch_power", "realm": realm, "delta": -plan["extra_c"], "type": "military",
                       "reason": f"{plan['extra_c'] + 1} units siege: 1 for each beyond the first (9.8 step 2)"})
    items = []
    for p in plan["provinces"]:   # 9.8 step 6: ships in a sieged port move out
        for other, u in list(st.units_at(state, st.PORT + p).items()):
            if st.ship_count(u) and state["provinces"][p]["controller"] == realm and other != realm:
                sea = state["provinces"][p]["port"]
                state["units"][st.PORT + p].pop(other)
                st.tidy(state, st.PORT + p)
                for k, n in u.items():
                    st.add_units(state, sea, other, k, n)
                fight = bt.start(state, sea, other, naval=True, why="ships leaving a sieged port")
                if fight:
                    items.append(fight)
    return items
