"""Battles, land and naval (9.6 Battle Sequence, 9.7 Land Battles, 9.9 Naval
Battles, NPR defence 13.4 as summarised in NOTES 3.7).

A battle is a work item (:mod:`.phases.action`) that can stop after any round for a
retreat decision asked by mail and go on when it comes.  Dice are read in a
fixed order each round: the attacker's dice, then the defender's.
"""
from __future__ import annotations

from . import battle_explain, capacity, leaders
from . import state as st
from .casualties import apply_casualties

DIE_FOR = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "artillery"}


def start(state: dict, loc: str, attacker: str, *, naval: bool, came_from: dict | None = None,
          why: str = "") -> dict | None:
    """A battle work item when ``attacker`` has something to fight at ``loc``
    (enemy units, rebels, or an enemy NPR defending its provinces), else None."""
    item = {"kind": "battle", "loc": loc, "attacker": attacker, "naval": naval, "round": 0,
            "from": dict(came_from or {}), "npr": {}, "why": why, "rolled": False, "decided": {},
            "casualties": {}, "begun": False}
    if not _attackers(state, item) or not (_enemy_realms(state, item) or _npr_defenders(state, item, peek=True)):
        return None
    return item


def _attackers(state: dict, item: dict) -> list[str]:
    loc, att = item["loc"], item["attacker"]
    present = st.realms_with_ships(state, loc) if item["naval"] else st.realms_with_land(state, loc)
    if att == st.REBELS:
        return [st.REBELS] if st.REBELS in present else []
    return [r for r in present if r != st.REBELS and (r == att or (st.friendly(state, r, att) and any(
        st.hostile(state, r, e) for e in _enemy_realms(state, item))))]


def _enemy_realms(state: dict, item: dict) -> list[str]:
    loc, att = item["loc"], item["attacker"]
    present = st.realms_with_ships(state, loc) if item["naval"] else st.realms_with_land(state, loc)
    return [r for r in present if st.hostile(state, att, r)]


def hostile_before(state: dict, npr: str, loc: str) -> bool:
    """Units hostile to the NPR were at ``loc`` before this turn began (9.7 *)."""
    wars = state.get("present_wars", [])
    for r in state["present"].get(loc, []):
        if r != st.REBELS and st.pair(st.top(state, r), npr) in wars:
            return True
    return False


def _npr_defenders(state: dict, item: dict, peek: bool = False, reserve: bool = False) -> dict[str, int]:
    """Enemy NPRs defending their own provinces (land) or ports (sea) with
    their capacity, halved for an Active Ally; none when units hostile to
    that NPR were there before this turn (9.7, 9.9)."""
    if item.get("npr_set") and not peek:
        return item["npr"]
    loc, att = item["loc"], item["attacker"]
    out = {}
    if item["naval"]:
        owners = {st.top(state, state["provinces"][p]["owner"]) for p in state["provinces"]
                  if state["provinces"][p].get("port") == loc and not st.occupied(state, p)}
    else:
        owners = {st.top(state, state["provinces"][p]["controller"]) for p in st.area_provinces(state, loc)
                  if state["provinces"][p]["controller"] not in (None, st.REBELS)}
    for npr in sorted(o for o in owners if o and st.kind(state, o) == "NPR" and st.hostile(state, att, o)):
        if hostile_before(state, npr, loc):
            continue
        used = state["npr_used"]["nc" if item["naval"] else "mc"]
        if reserve:
            used = used + _reserved(state, item, npr)
        if item["naval"]:
            n = capacity.nc(state, npr, loc, used=used, npr_defence=True)
        else:
            n = capacity.mc(state, npr, loc, used=used, npr_defence=True)
        if st.active_ally_of(state, npr):
            n //= 2   # 11.3: Active Allies defend with half MC
        if n > 0:
            out[npr] = n
    return out


def _capacity_provinces(state: dict, npr: str, item: dict, used: list[str]) -> list[str]:
    if item["naval"]:
        return capacity.nc_provinces(state, npr, item["loc"], used=used)
    return capacity.mc_provinces(state, npr, item["loc"], used=used)


def _reserved(state: dict, item: dict, npr: str) -> list[str]:
    """Provinces an NPR keeps for a battle against it still waiting this turn that comes first
    (9.2, 13.4 as summarised in NOTES 3.7): a battle in its capital Area (at sea: a Sea Zone of
    its capital Area), then the one against the largest enemy force, then the first fought.
    Choice: only battles already waiting when this one starts are weighed (a declaration's
    battles); one triggered later in the turn gets what is left."""
    waiting = [b for b in state.get("queue", []) if b.get("kind") == "battle" and b is not item
               and not b.get("begun") and b["naval"] == item["naval"] and b["loc"] != item["loc"]]
    if not waiting:
        return []
    cap = st.capital_area(state, npr)

    def rank(b: dict, index: int) -> tuple:
        at_capital = bool(cap) and (b["loc"] in state["areas"][cap]["seas"] if b["naval"] else b["loc"] == cap)
        return (not at_capital, -strength(factions(state, b, "attacker"), b["naval"]), index)

    mine, out = rank(item, -1), []
    used = state["npr_used"]["nc" if item["naval"] else "mc"]
    for i, b in enumerate(waiting):
        if rank(b, i) < mine and npr in _npr_defenders(state, b, peek=True):
            out += _capacity_provinces(state, npr, b, used)
    return out


def _claim_npr(state: dict, item: dict) -> None:
    if item.get("npr_set"):
        return
    item["npr"] = _npr_defenders(state, item, peek=True, reserve=True)
    item["npr_set"] = True
    key = "nc" if item["naval"] else "mc"
    for npr in item["npr"]:
        kept = _reserved(state, item, npr)
        provs = _capacity_provinces(state, npr, item, state["npr_used"][key] + kept)
        state["npr_used"][key].extend(provs)   # 9.2: each province's MC/NC once per turn


# -- forces ---------------------------------------------------------------------------

def factions(state: dict, item: dict, side: str) -> list[tuple[str, dict]]:
    loc = item["loc"]
    realms = _attackers(state, item) if side == "attacker" else _enemy_realms(state, item)
    out = []
    for r in realms:
        if r == st.REBELS:
            out.append((r, {"inf": state["rebels"].get(loc, 0)}))
        else:
            out.append((r, dict(st.units_at(state, loc).get(r, {}))))
    if side == "defender":
        for npr, n in item["npr"].items():
            if n > 0:
                out.append((f"npr:{npr}", {"inf": n} if not item["naval"] else {"light": n}))
    return out


def strength(forces: list[tuple[str, dict]], naval: bool) -> int:
    return sum((st.ship_count(u) if naval else st.land_count(u)) for _, u in forces)


def _types(units: dict, naval: bool) -> dict[str, int]:
    if naval:
        return {"ships": st.ship_count(units), "heavy": units.get("heavy", 0)}
    out = {"inf": 0, "cav": 0, "art": 0}
    for k, n in units.items():
        base = k.split("_")[-1]
        if base in out:
            out[base] += n
    return out


def main_defender(state: dict, item: dict) -> str | None:
    return _main(state, factions(state, item, "defender"), item["naval"])


def _main(state: dict, forces: list[tuple[str, dict]], naval: bool) -> str | None:
    """The Main Defender: the realm with most units (9.7 Fighting multiple Enemies)."""
    real = [(r, u) for r, u in forces if not r.startswith("npr:")]
    if not real:
        return None
    return max(real, key=lambda f: ((st.ship_count(f[1]) if naval else st.land_count(f[1])), f[0]))[0]


def _leader(state: dict, realm: str | None, loc: str, naval: bool, item: dict | None = None) -> dict | None:
    """The leader adding dice for ``realm``: the one chosen at the battle's start (9.7 step 1),
    else (a realm that became Main Defender later) its best leader there."""
    if realm is None or realm == st.REBELS:
        return None
    if item is not None and realm in item.get("leaders", {}):
        ld = leaders.find(state, realm, item["leaders"][realm]) if item["leaders"][realm] else None
        return ld if ld and ld.get("at") == loc else None
    here = [ld for ld in state["leaders"].get(realm, []) if ld.get("at") == loc
            and not (naval and ld.get("ruler"))]   # 9.4: a Ruler is never an Admiral
    return max(here, key=lambda ld: (len(ld["dice"]), ld["name"])) if here else None


def dice_plan(state: dict, realm: str | None, forces, naval: bool, loc: str,
              item: dict | None = None) -> list[tuple[str, str]]:
    """Each Battle Die a side rolls with its cause, in the order they are read: the 3 base
    dice (9.7 step 3, 9.9 step 3), the leader's (9.4), battle actions the GM ruled on (9.6 step 2)."""
    if naval:
        plan = [("artillery", "base")] * 3
    else:
        plan = [("infantry", "base")] * 3
        rd = state["realms"].get(realm or "", {})
        units = dict(forces).get(realm, {})
        # NOTES 3.11: Muslim PRs may roll 3 cavalry dice instead (Choice: when they field cavalry).
        if rd.get("religion") == "muslim" and _types(units, False)["cav"] > 0:
            plan = [("cavalry", "base: a Muslim realm fielding cavalry")] * 3
    if realm == st.REBELS:
        return plan
    leader = _leader(state, realm, loc, naval, item)
    if leader:
        plan += [(k, f"leader {leader['name']}") for k in leader["dice"]]
    plan += [(k, "battle action") for k in state["bonus"].get(realm or "", [])]
    return plan


def _roll(state: dict, dice, kinds: list[str], why: str) -> tuple[list[int], list[str]]:
    """The numbers rolled and the face each shows on its kind of die (the scenario's dice table)."""
    table = state["dice_tables"]["battle_die"]
    rolls = [dice.roll(6, f"{why} {k} die") for k in kinds]
    return rolls, [table[DIE_FOR[k]][n - 1] for k, n in zip(kinds, rolls)]


def icons(faces: list[str], naval: bool) -> dict[str, int]:
    """The icons rolled that can hit (9.7 step 3: f and g infantry, h cavalry, i artillery;
    at sea only i counts, 9.9 step 3)."""
    if naval:
        return {"ships": faces.count("i")}
    return {"inf": faces.count("f") + faces.count("g"), "cav": faces.count("h"), "art": faces.count("i")}


def side_types(forces, naval: bool) -> dict[str, int]:
    """A side's units by the type its icons are matched to."""
    total = {"ships": 0, "heavy": 0} if naval else {"inf": 0, "cav": 0, "art": 0}
    for _, u in forces:
        for k, n in _types(u, naval).items():
            total[k] += n
    return total


def _hits(faces: list[str], forces, naval: bool) -> int:
    total, got = side_types(forces, naval), icons(faces, naval)
    if naval:
        return min(got["ships"], total["ships"]) + total["heavy"]   # 9.9: each Heavy Ship hits
    return sum(min(got[t], total[t]) for t in ("inf", "cav", "art"))   # 9.7 step 4: one hit per unit


# -- one round --------------------------------------------------------------------------

def roll_round(state: dict, item: dict, dice, events: list) -> None:
    _claim_npr(state, item)
    item["round"] += 1
    naval, loc = item["naval"], item["loc"]
    att_f, def_f = factions(state, item, "attacker"), factions(state, item, "defender")
    fixed = item.get("main_fixed")
    # 9.6 step 1: the Main Defender is named once, in the first round's preparations.
    def_main = fixed if fixed and strength([f for f in def_f if f[0] == fixed], naval) else _main(state, def_f, naval)
    att_main = item["attacker"]
    item["main_defender"] = def_main
    plans = {"attacker": dice_plan(state, att_main, att_f, naval, loc, item),
             "defender": dice_plan(state, def_main, def_f, naval, loc, item)}
    commanders = (_name(_leader(state, att_main, loc, naval, item)), _name(_leader(state, def_main, loc, naval, item)))
    before = {"attacker": [(r, dict(u)) for r, u in att_f], "defender": [(r, dict(u)) for r, u in def_f]}
    why = f"battle {loc} round {item['round']}"
    att_rolls, att_faces = _roll(state, dice, [k for k, _ in plans["attacker"]], why + " attacker")
    def_rolls, def_faces = _roll(state, dice, [k for k, _ in plans["defender"]], why + " defender")
    att_hits, def_hits = _hits(att_faces, att_f, naval), _hits(def_faces, def_f, naval)
    lost: dict[str, list] = {}
    damaged: list[str] = []
    def_lost = apply_casualties(state, item, def_f, att_hits, lost, damaged)
    att_lost = apply_casualties(state, item, att_f, def_hits, lost, damaged)
    item["npr"] = {r.removeprefix("npr:"): st.ship_count(u) if naval else st.land_count(u)
                   for r, u in def_f if r.startswith("npr:")}
    wounds = _wounds(state, loc, naval, att_faces, def_main, def_lost, events, item)
    wounds += _wounds(state, loc, naval, def_faces, att_main, att_lost, events, item)
    item["last_faces"] = {"attacker": att_faces, "defender": def_faces}
    item["last_lost"] = {"attacker": att_lost, "defender": def_lost}
    events.append({"kind": "battle_round", "area": loc, "round": item["round"], "attacker": att_main,
                   "defender": def_main or _npr_name(item), "naval": naval,
                   "dice": {"attacker": att_faces, "defender": def_faces},
                   "rolls": {"attacker": att_rolls, "defender": def_rolls},
                   "hits": {"attacker": att_hits, "defender": def_hits},
                   "casualties": lost, "wounds": wounds, **({"damaged": damaged} if damaged else {}),
                   "attacker_leader": commanders[0], "defender_leader": commanders[1]})
    sides = {side: {"forces": {r: _types(u, naval) for r, u in before[side]}, "types": side_types(before[side], naval),
                    "icons": icons(faces, naval), "dice": plans[side], "rolls": rolls, "faces": faces,
                    "hits": hits}
             for side, faces, rolls, hits in (("attacker", att_faces, att_rolls, att_hits),
                                              ("defender", def_faces, def_rolls, def_hits))}
    events.extend(battle_explain.round_events(state, item, sides, lost))


def _name(leader: dict | None) -> str:
    return leader["name"] if leader else "none"


def _npr_name(item: dict) -> str:
    return ",".join(sorted(item["npr"])) or "none"


def _wounds(state: dict, loc: str, naval: bool, faces: list[str], enemy_main: str | None, enemy_lost: int,
            events: list, item: dict | None = None) -> list[str]:
    """9.7 step 5: every pair of g wounds the enemy leader in use, when the
    enemy lost at least one unit; a second wound kills him."""
    leader = _leader(state, enemy_main, loc, naval, item)
    pairs = faces.count("g") // 2
    if not leader or not pairs or not enemy_lost:
        return []
    out = []
    for _ in range(pairs):
        leader["wounds"] += 1
        out.append(leader["name"])
        if leader["wounds"] >= 2:
            state["leaders"][enemy_main].remove(leader)
            events.append({"kind": "leader_died", "realm": enemy_main, "leader": leader["name"],
                           "ruler": leader.get("ruler", False)})
            if leader.get("ruler"):
                state["realms"][enemy_main]["ruler"] = False   # 3.5 Ruler death: Interregnum
            break
    return out


def captures(state: dict, item: dict, events: list) -> None:
    """9.9 step 5B: with ships left and every enemy ship gone, each g rolled in
    the final round turns one enemy casualty of that round into a captured ship."""
    if not item["naval"]:
        return
    for side, other in (("attacker", "defender"), ("defender", "attacker")):
        mine = strength(factions(state, item, side), True)
        theirs = strength(factions(state, item, other), True)
        if mine and not theirs:
            n = min(item["last_faces"][side].count("g"), item["last_lost"][other])
            taker = item["attacker"] if side == "attacker" else item.get("main_defender")
            if n and taker and not taker.startswith("npr:"):
                st.add_units(state, item["loc"], taker, "light", n)
                events.append({"kind": "captured", "realm": taker, "sea": item["loc"], "ships": n})
