"""Military actions: Activate Units (land and naval movement, 9.5) and Recruit
Units (NOTES 3.3), and ships in port; Sieges (9.8) are in :mod:`.sieges`.  Each
``check_*`` raises Refused and is what validation runs; the action itself runs
the same check first."""
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


def taken(state: dict, realm: str, start: str, taking: dict | None) -> dict:
    """9.5 Land Movement: "activate and move a single Army or Regular Unit"; an army "may be split
    up": the units named (``{"inf": 2}``) move, the others stay as an army of their own (Choice:
    the units a realm has in one Area are one army).  Of each type, regular units are taken first,
    then mercenary, then allied.  None: the whole army."""
    units = land_units(state, realm, start)
    if not taking:
        return units
    out = {}
    for unit, n in taking.items():
        if unit not in st.LAND:
            raise Refused(f"{unit.upper()} is not a land unit: ACTIVATE moves land units (NAVAL moves ships)",
                          "no-units")
        have = sum(c for k, c in units.items() if k.split("_")[-1] == unit)
        if n < 1 or n > have:
            raise Refused(f"you have {have} {unit.upper()} in {start}, not {n}", "no-units")
        for key in sorted((k for k in units if k.split("_")[-1] == unit),
                          key=lambda k: ("_" in k, k.startswith("allied"), k)):
            take = min(n, units[key])
            if take:
                out[key] = take
                n -= take
    return out


def check_activate(state: dict, realm: str, path: list[str], siege: bool, taking: dict | None = None) -> dict:
    start = path[0]
    if not st.land_count(land_units(state, realm, start)):
        raise Refused(f"you have no land units in {start}", "no-units")
    units = taken(state, realm, start, taking)
    count = st.land_count(units)
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
                              f"{count} unit{'' if count == 1 else 's'} there", "not-adjacent", )
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


def activate(state: dict, realm: str, path: list[str], siege: bool, events: list,
             taking: dict | None = None) -> list[dict]:
    """Move the army (or the units named, 9.5); returns the work items that follow (a battle, a
    siege).  Choice: the realm's leaders in the start Area go with the units that move."""
    plan = check_activate(state, realm, path, siege, taking)
    for step, how in zip([s for s in plan["steps"] if st.area_status(state, realm, s["to"]) == "neutral"],
                         plan["access"]):
        area = step["to"]
        if how == "influence":
            st.set_influence(state, area, realm, st.influence(state, area, realm) - 1)
        else:
            state["realms"][realm]["ducats"] -= 3
        events.append({"kind": "military_access", "realm": realm, "area": area, "paid": how})
    start, dest = path[0], path[-1]
    for key, n in plan["units"].items():
        st.remove_units(state, start, realm, key, n)
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
                       "reason": f"{plan['count']} units cross a mountain border: 1 for each 3 beyond the "
                                 "first 3 (9.5 Mountain Borders)"})
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
            raise Refused(f"the port of {dest} holds {room} ship{'' if room == 1 else 's'}", "port-full")
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
            raise Refused(f"you have {rd['allied']} allied unit{'' if rd['allied'] == 1 else 's'} in your manpower "
                          "reserve", "no-allied-units")
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


# -- ports ------------------------------------------------------------------------------------

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
