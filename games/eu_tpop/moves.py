"""Military actions: Activate Units (land and naval movement, 9.5), Recruit
Units (NOTES 3.3) and Sieges (9.8).  Each ``check_*`` raises Refused and is
what validation runs; the action itself runs the same check first."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import battle as bt
from . import capacity
from . import state as st

COST = {  # NOTES 3.3 Recruit Units: ducats per unit
    "regular": {"inf": 2, "cav": 5, "art": 6, "light": 4, "heavy": 10},
    "merc": {"inf": 4, "cav": 7, "art": 8},
    "allied": {"inf": 0, "cav": 3},
}
MAX_REGULARS, MAX_SHIPS, MAX_MERCS = 20, 15, 3


# -- land movement -------------------------------------------------------------------

def bridge(state: dict, realm: str, a: str, b: str, units: int) -> list[str] | None:
    """Sea zones of a Naval Bridge from area a to area b (9.5 Naval Transport):
    an unbroken chain of seas holding friendly ships, 3 land units per ship
    in each sea; allies' ships only with no enemy ships in the chain."""
    starts = state["areas"][a]["seas"]
    goals = set(state["areas"][b]["seas"])

    def carriers(sea: str) -> int:
        here = st.units_at(state, sea)
        own = st.ship_count(here.get(realm, {}))
        allied = sum(st.ship_count(u) for r, u in here.items() if r != realm and st.friendly(state, realm, r)
                     and st.is_player(state, r))
        return own, allied

    frontier = [[s] for s in starts]
    seen = set()
    while frontier:
        path = frontier.pop(0)
        sea = path[-1]
        if sea in seen:
            continue
        seen.add(sea)
        own, allied = carriers(sea)
        if own + allied == 0:
            continue
        if sea in goals:
            enemy = any(st.sea_hostile(state, realm, s) for s in path)
            ok = all((carriers(s)[0] + (0 if enemy else carriers(s)[1])) * 3 >= units for s in path)
            if ok:
                return path
        frontier += [path + [n] for n in state["seas"][sea]["adj"] if n not in seen]
    return None


def land_units(state: dict, realm: str, area: str) -> dict:
    return {k: n for k, n in st.units_at(state, area).get(realm, {}).items() if k.split("_")[-1] in st.LAND}


def check_activate(state: dict, realm: str, path: list[str], siege: bool) -> dict:
    start = path[0]
    units = land_units(state, realm, start)
    count = st.land_count(units)
    if not count:
        raise Refused(f"you have no land units in {start}", "no-units")
    if len(path) > 3:
        raise Refused("an army moves at most 2 Areas (9.5 Land Movement)", "too-far")
    plan = {"units": units, "count": count, "steps": [], "mountain_c": 0, "access": []}
    for i, (a, b) in enumerate(zip(path, path[1:])):
        last = i == len(path) - 2
        via = None
        if b not in st.land_neighbours(state, a):
            via = bridge(state, realm, a, b, count)
            if via is None:
                raise Refused(f"{b} is not adjacent to {a}, and no Naval Bridge of your ships carries "
                              f"{count} units there", "not-adjacent", )
        status = st.area_status(state, realm, b)
        distant = state["areas"][b].get("distant")
        if distant and status == "neutral" and not st.has_claim(state, realm, b):
            raise Refused(f"{b} is a neutral Distant Area: movement there is not allowed (9.5 Distant Continents)",
                          "distant-neutral")
        if not last and (status != "friendly" or distant):
            raise Refused(f"movement ends on entering {b} ({'distant' if distant else status}); "
                          "it cannot go on", "must-stop")
        if status == "neutral":
            plan["access"].append(_access(state, realm, b))
        if st.land_neighbours(state, a).get(b) == "mountain" and status in ("hostile", "neutral") and not via:
            plan["mountain_c"] += max(0, (count - 1) // 3)
        plan["steps"].append({"from": a, "to": b, "via": via})
    if siege:
        plan["siege_note"] = True
    return plan


def _access(state: dict, realm: str, area: str) -> str:
    """9.5 Military Access into an all-Neutral Area: at war, and 1 Influence
    there or 3 Ducats; never where you hold a Claim; an Area whose every
    province an opponent owns needs that opponent's permission."""
    if not st.enemies(state, realm):
        raise Refused(f"{area} is neutral: military access needs you to be at war", "no-military-access")
    if st.has_claim(state, realm, area):
        raise Refused(f"{area} is neutral and you hold a Claim there: no military access", "no-military-access")
    owners = {state["provinces"][p]["owner"] for p in st.area_provinces(state, area)}
    if owners and all(o and st.is_player(state, o) for o in owners):
        raise Refused(f"every province of {area} belongs to {', '.join(sorted(owners))}: moving there needs "
                      "their permission (ask the GM to move your units)", "needs-permission")
    if st.influence(state, area, realm):
        return "influence"
    if state["realms"][realm]["ducats"] >= 3:
        return "ducats"
    raise Refused(f"military access into {area} costs 1 Influence there or 3 Ducats; you have neither",
                  "no-military-access")


def activate(state: dict, realm: str, path: list[str], siege: bool, events: list) -> list[dict]:
    """Move the army; returns the work items that follow (a battle, a siege)."""
    plan = check_activate(state, realm, path, siege)
    for step, how in zip([s for s in plan["steps"] if st.area_status(state, realm, s["to"]) == "neutral"],
                         plan["access"]):
        area = step["to"]
        if how == "influence":
            st.set_influence(state, area, realm, st.influence(state, area, realm) - 1)
        else:
            state["realms"][realm]["ducats"] -= 3
        events.append({"kind": "military_access", "realm": realm, "area": area, "paid": how})
    start, dest = path[0], path[-1]
    moved = state["units"][start].pop(realm)
    kept = {k: n for k, n in moved.items() if k.split("_")[-1] not in st.LAND}
    if kept:
        state["units"][start][realm] = kept
    st.tidy(state, start)
    for key, n in plan["units"].items():
        st.add_units(state, dest, realm, key, n)
    for ld in state["leaders"].get(realm, []):
        if ld.get("at") == start:
            ld["at"] = dest
    events.append({"kind": "move", "realm": realm, "path": path, "units": plan["count"],
                   "via": [s["via"] for s in plan["steps"] if s["via"]]})
    if plan["mountain_c"]:
        events.append({"kind": "monarch_power", "realm": realm, "delta": -plan["mountain_c"], "type": "military",
                       "reason": "mountain border"})
    items = []
    fight = bt.start(state, dest, realm, naval=False, came_from={realm: path[-2]}, why="movement")
    if fight:
        items.append(fight)
    if siege:
        items.append({"kind": "siege", "realm": realm, "area": dest, "provinces": [], "after_move": True})
    return items


# -- naval movement ----------------------------------------------------------------------

def sea_of(state: dict, place: str) -> str | None:
    if place in state["seas"]:
        return place
    return state["provinces"].get(place.removeprefix(st.PORT), {}).get("port")


def check_naval(state: dict, realm: str, start: str, dest: str) -> dict:
    ships = {k: n for k, n in st.units_at(state, _naval_key(state, start)).get(realm, {}).items()
             if k in ("light", "heavy", "damaged")}
    if not st.ship_count(ships):
        raise Refused(f"you have no ships in {start}", "no-ships")
    if dest in state["provinces"]:
        d = state["provinces"][dest]
        if not d.get("port"):
            raise Refused(f"{dest} has no port", "no-port")
        if not st.friendly(state, realm, d["controller"] or ""):
            raise Refused(f"the port of {dest} is not friendly: only friendly ships enter a port", "port-hostile")
        room = 6 if d.get("large") else 2
        there = sum(st.ship_count(u) for u in st.units_at(state, st.PORT + dest).values())
        if there + st.ship_count(ships) > room:
            raise Refused(f"the port of {dest} holds {room} ships", "port-full")
    s0, s1 = sea_of(state, start), sea_of(state, dest)
    steps = _sea_distance(state, realm, start, dest, s0, s1)
    if steps is None or steps > 2:
        raise Refused(f"{dest} is more than 2 spaces from {start}, or the way is blocked by a hostile or distant "
                      "sea zone", "too-far")
    return {"ships": ships}


def _naval_key(state: dict, place: str) -> str:
    return place if place in state["seas"] else st.PORT + place


def _sea_distance(state, realm, start, dest, s0, s1) -> int | None:
    spaces = 0
    if start in state["provinces"]:
        spaces += 1   # leaving port into its sea is one space
    if dest in state["provinces"]:
        spaces += 1
    if s0 == s1:
        return spaces if spaces else (0 if start == dest else None)
    for n in state["seas"][s0]["adj"]:
        if n == s1:
            return spaces + 1
    for n in state["seas"][s0]["adj"]:
        if st.sea_hostile(state, realm, n) or _distant_sea(state, n):
            continue
        if s1 in state["seas"][n]["adj"]:
            return spaces + 2
    return None


def _distant_sea(state: dict, sea: str) -> bool:
    return any(sea in d["seas"] and d.get("distant") for d in state["areas"].values())


def naval(state: dict, realm: str, start: str, dest: str, events: list) -> list[dict]:
    plan = check_naval(state, realm, start, dest)
    here = state["units"][_naval_key(state, start)][realm]
    for k in ("light", "heavy", "damaged"):
        here.pop(k, None)
    st.tidy(state, _naval_key(state, start))
    key = _naval_key(state, dest)
    for k, n in plan["ships"].items():
        if k == "damaged":
            state["units"].setdefault(key, {}).setdefault(realm, {})["damaged"] = n
        else:
            st.add_units(state, key, realm, k, n)
    events.append({"kind": "naval_move", "realm": realm, "from": start, "to": dest,
                   "ships": st.ship_count(plan["ships"])})
    if dest in state["seas"]:
        fight = bt.start(state, dest, realm, naval=True, came_from={realm: start}, why="naval movement")
        return [fight] if fight else []
    return []


# -- recruiting ----------------------------------------------------------------------------

def own_areas(state: dict, realm: str) -> set[str]:
    return {state["provinces"][p]["area"] for r in st.family(state, realm) for p in st.owned(state, r)}


def check_recruit(state: dict, realm: str, n: int, unit: str, where: str, cat: str) -> dict:
    rd = state["realms"][realm]
    if n < 1:
        raise Refused("recruit at least 1 unit", "bad-number")
    ship = unit in ("light", "heavy")
    if ship and cat != "regular":
        raise Refused("ships are recruited as regular units only", "bad-category")
    if unit == "art" and cat == "allied":
        raise Refused("there is no allied artillery (NOTES 3.3)", "bad-category")
    if unit == "art" and "cannons" not in rd["ideas"]:
        raise Refused("artillery needs the Cannons idea (ask the GM: SET IDEA)", "needs-cannons")
    cost = COST[cat][unit] * n
    if rd["ducats"] < cost:
        raise Refused(f"{n} {unit} cost {cost} Ducats; you have {rd['ducats']}", "insufficient-ducats")
    if ship:
        return _check_ships(state, realm, n, where, cost)
    if where not in state["areas"]:
        raise Refused(f"land units are recruited in an Area, not {where}", "not-an-area")
    if any(st.hostile(state, realm, r) for r in st.realms_with_land(state, where)):
        raise Refused(f"enemy units are in {where}", "enemy-units")
    mine = where in own_areas(state, realm)
    plan = {"cost": cost, "mc_from": None}
    if cat == "regular":
        if not mine:
            raise Refused(f"regular units are placed in your or your vassals' Areas; {where} is not",
                          "not-your-area")
        if rd["manpower"] < n:
            raise Refused(f"you have {rd['manpower']} available manpower for {n} regular units", "no-manpower")
        if st.regulars_deployed(state, realm) + n > MAX_REGULARS:
            raise Refused(f"you have {MAX_REGULARS} regular units in all", "unit-limit")
        plan["mc_from"] = realm
    elif cat == "merc":
        if not mine:
            raise Refused(f"mercenaries are placed in your or your vassals' Areas; {where} is not",
                          "not-your-area")
        if rd["mercs_this_turn"] + n > MAX_MERCS:
            raise Refused(f"at most {MAX_MERCS} mercenaries a turn", "merc-limit")
    else:
        if rd["allied"] < n:
            raise Refused(f"you have {rd['allied']} allied units in your manpower reserve", "no-allied-units")
        host = realm if mine else next((a for a in st.active_allies(state, realm)
                                        if where in own_areas(state, a)), None)
        if host is None:
            raise Refused(f"allied units go in your Areas or your Active Allies' Areas; {where} is neither",
                          "not-your-area")
        plan["mc_from"] = host
    if plan["mc_from"]:
        used = state["used_mc"].get(plan["mc_from"], [])
        room = capacity.mc(state, plan["mc_from"], where, used=used)
        if room < n:
            raise Refused(f"{plan['mc_from']}'s Military Capacity left in {where} this turn is {room}",
                          "no-capacity")
    return plan


def _check_ships(state, realm, n, where, cost) -> dict:
    if where not in state["seas"]:
        raise Refused(f"ships are recruited into a Sea Zone, not {where}", "not-a-sea")
    if st.sea_hostile(state, realm, where):
        raise Refused(f"enemy ships are in {where}: recruiting may not trigger a naval battle (9.2)",
                      "enemy-ships")
    if st.ships_total(state, realm) + n > MAX_SHIPS:
        raise Refused(f"you have {MAX_SHIPS} ships in all", "unit-limit")
    room = capacity.nc(state, realm, where, used=state["used_nc"].get(realm, []))
    if room < n:
        raise Refused(f"your Naval Capacity left in {where} this turn is {room}", "no-capacity")
    return {"cost": cost, "ships": True}


def recruit(state: dict, realm: str, n: int, unit: str, where: str, cat: str, events: list) -> list[dict]:
    plan = check_recruit(state, realm, n, unit, where, cat)
    rd = state["realms"][realm]
    rd["ducats"] -= plan["cost"]
    if plan.get("ships"):
        capacity.take_nc(state, realm, where, n)
        st.add_units(state, where, realm, unit, n)
    else:
        if plan["mc_from"]:
            capacity.take_mc(state, plan["mc_from"], where, n)
        if cat == "regular":
            rd["manpower"] -= n
        elif cat == "merc":
            rd["mercs_this_turn"] += n
        else:
            rd["allied"] -= n
        st.add_units(state, where, realm, ("" if cat == "regular" else f"{cat}_") + unit, n)
    events.append({"kind": "recruit", "realm": realm, "n": n, "unit": unit, "where": where, "category": cat,
                   "ducats": plan["cost"]})
    if not plan.get("ships"):
        fight = bt.start(state, where, realm, naval=False, why="recruiting")
        return [fight] if fight else []
    return []


# -- sieges ----------------------------------------------------------------------------------

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


def repair_in_port(state: dict, events: list) -> None:
    """9.5 Ships in Port / 9.9 step 4: damaged Heavy Ships that end a Turn or Round in a
    Port are repaired."""
    for loc in sorted(state["units"]):
        if not loc.startswith(st.PORT):
            continue
        for realm, units in sorted(state["units"][loc].items()):
            if units.get("damaged"):
                events.append({"kind": "repaired", "realm": realm, "port": loc.removeprefix(st.PORT),
                               "ships": units["damaged"]})
                units["damaged"] = 0


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
                       "reason": "more sieging units"})
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


def evict_ships(state: dict, events: list) -> None:
    """9.5 Ships in Port: ships in a port that is no longer friendly (an alliance
    ended) move to its sea zone when it is not hostile, else they are disbanded."""
    for key in sorted(p for p in state["units"] if p.startswith(st.PORT)):
        prov = key[len(st.PORT):]
        d = state["provinces"][prov]
        for realm in sorted(state["units"].get(key, {})):
            if st.friendly(state, realm, d["controller"] or ""):
                continue
            ships = state["units"][key].pop(realm)
            st.tidy(state, key)
            sea = d.get("port")
            if sea and not st.sea_hostile(state, realm, sea):
                for k, n in ships.items():
                    if k == "damaged":
                        state["units"].setdefault(sea, {}).setdefault(realm, {})["damaged"] = n
                    else:
                        st.add_units(state, sea, realm, k, n)
                events.append({"kind": "ships_left_port", "realm": realm, "port": prov, "to": sea})
            else:
                events.append({"kind": "ships_left_port", "realm": realm, "port": prov, "to": "disbanded"})
