"""Casualties (9.7 step 4, 9.9 step 4): which units a side loses for the hits it took, by
the rules' order and the realm's STANDING CASUALTIES, and a Heavy Ship's damage."""
from __future__ import annotations

from . import state as st


def _type_order(state: dict, realm: str) -> list[str]:
    pref = state["realms"].get(realm, {}).get("standing", {}).get("casualties", "")
    order = [w.lower() for w in pref.split(",") if w.lower() in ("inf", "cav", "art")]
    return order + [t for t in ("inf", "cav", "art") if t not in order]


def _take_one_land(state: dict, realm: str, units: dict, turn: list[int]) -> str | None:
    """One casualty from a realm's units, alternating Mercenary, Regular and
    Allied categories one at a time in that order (9.7 step 4)."""
    types = _type_order(state, realm)
    for i in range(3):
        cat = st.CATEGORIES[(turn[0] + i) % 3]
        prefix = {"merc": "merc_", "regular": "", "allied": "allied_"}[cat]
        for t in types:
            if units.get(prefix + t, 0) > 0:
                turn[0] = (turn[0] + i + 1) % 3
                return prefix + t
    return None


def _take_one_ship(state: dict, realm: str, units: dict) -> str | None:
    """9.9 step 4: "Players taking Casualties choose which Ships to remove from Battle", by their
    standing order (``STANDING CASUALTIES ... HEAVY``: a hit goes first to a Heavy Ship not yet
    damaged, which survives it; the default, ``LIGHT``, loses Light Ships first)."""
    pref = state["realms"].get(realm, {}).get("standing", {}).get("casualties", "").split(",")
    heavy_first = "HEAVY" in pref and ("LIGHT" not in pref or pref.index("HEAVY") < pref.index("LIGHT"))
    if heavy_first and units.get("heavy", 0) > units.get("damaged", 0):
        return "heavy"
    if units.get("light", 0) > 0:
        return "light"
    if units.get("heavy", 0) > 0:
        return "heavy"
    return None


def apply_casualties(state: dict, item: dict, forces, n: int, events_out: dict,
                     damaged: list | None = None) -> int:
    """Remove ``n`` casualties from one side, alternating between factions
    from the largest to the smallest (9.7 multiple defenders).  A hit a Heavy Ship survives
    (9.9) is listed in ``damaged`` (its realm, once a ship), not among the losses."""
    naval, loc = item["naval"], item["loc"]
    order = sorted(range(len(forces)), key=lambda i: -(st.ship_count(forces[i][1]) if naval
                                                       else st.land_count(forces[i][1])))
    turns = {r: [0] for r, _ in forces}
    taken = 0
    idx = 0
    while taken < n and any((st.ship_count(u) if naval else st.land_count(u)) > 0 for _, u in forces):
        realm, units = forces[order[idx % len(order)]]
        idx += 1
        if (st.ship_count(units) if naval else st.land_count(units)) == 0:
            continue
        if naval:
            key = _take_one_ship(state, realm, units)
            if key == "heavy" and units.get("damaged", 0) < units["heavy"]:
                units["damaged"] = units.get("damaged", 0) + 1   # 9.9: two hits sink a Heavy Ship
                _damage(state, loc, realm, 1)
                if damaged is not None:
                    damaged.append(realm.removeprefix("npr:"))
                taken += 1
                continue
            if key == "heavy":
                units["damaged"] -= 1
                _damage(state, loc, realm, -1)
        else:
            key = _take_one_land(state, realm, units, turns[realm])
        if key is None:
            continue
        units[key] -= 1
        _remove(state, loc, realm, key)
        events_out.setdefault(realm.removeprefix("npr:"), []).append(key)
        taken += 1
    return taken


def _damage(state: dict, loc: str, realm: str, delta: int) -> None:
    if realm.startswith("npr:"):
        return
    here = state["units"].setdefault(loc, {}).setdefault(realm, {})
    here["damaged"] = max(0, here.get("damaged", 0) + delta)


def _remove(state: dict, loc: str, realm: str, key: str) -> None:
    if realm.startswith("npr:"):
        return
    if realm == st.REBELS:
        state["rebels"][loc] = max(0, state["rebels"].get(loc, 0) - 1)
        if not state["rebels"][loc]:
            del state["rebels"][loc]
        return
    st.remove_units(state, loc, realm, key, 1)
    if key in st.LAND and st.kind(state, realm) != "NPR":
        state["realms"][realm]["exhausted"] += 1   # 9.3: casualties go to Exhausted manpower
