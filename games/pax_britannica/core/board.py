"""Shared board logic: the powers, markers, Control, units, Casus Belli and the indices (the map
as a graph, with Communication Links and retreats, is mapgraph.py).

Every function works on the plain JSON state (see README.md) and the read-only
map data from :mod:`games.pax_britannica.mapdata`.  Functions whose name starts
with ``add_``/``set_``/``remove_`` mutate the state and return the event(s)
describing the change; everything else is read-only.
"""
from __future__ import annotations

from typing import Any, Iterable

from pbem.kit.audience import Audience, of, public, tag

#: Status levels, lowest first ("none" is the absence of a marker).
STATUS_RANK = {"none": 0, "interest": 1, "influence": 2, "protectorate": 3,
               "possession": 4, "dominion": 5, "state": 5}
STATUSES = ("interest", "influence", "protectorate", "possession", "dominion", "state")
# Rules: GAME TERMS (Control) - the hexagonal markers are the Control markers.
CONTROL = ("protectorate", "possession", "dominion", "state")
#: Canal areas and the seas a canal joins (Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS).
CANAL_AREAS = ("Panama", "Central America")
CANAL_SEAS = ("Caribbean Sea", "South Pacific Ocean")


# -- powers ------------------------------------------------------------------
def is_great(state: dict, power: str) -> bool:
    """Rules: GAME TERMS (Colonial Power).  Austria-Hungary is great with Germany."""
    info = state.get("powers", {}).get(power)
    if info is not None and "great" in info:
        return bool(info["great"])
    players = state.get("players", [])
    return power in players or (power == "Austria-Hungary" and "Germany" in players)


def great_powers(state: dict) -> list[str]:
    return [p for p in state.get("powers", {}) if is_great(state, p)]


def minor_powers(state: dict) -> list[str]:
    return [p for p in state.get("powers", {}) if not is_great(state, p)]


def home_name(data, power: str) -> str | None:
    home = data.homes.get(power)
    return home.name if home is not None else None


def home_power(data, place: str) -> str | None:
    """The power whose Home Country ``place`` is (None for areas and seas)."""
    return data.home_of(place)


# -- markers -----------------------------------------------------------------
def markers_in(state: dict, area: str) -> dict[str, dict]:
    """power -> {"status", "established"} for every marker in ``area``."""
    return state.get("markers", {}).get(area, {})


def status_of(state: dict, area: str, power: str) -> str | None:
    m = markers_in(state, area).get(power)
    return m["status"] if m else None


def is_established(state: dict, area: str, power: str) -> bool:
    m = markers_in(state, area).get(power)
    return bool(m and m.get("established"))


def rank(status: str | None) -> int:
    return STATUS_RANK[status or "none"]


def controllers(state: dict, area: str) -> list[str]:
    """Powers with an established Control marker in ``area`` (Rules: GAME TERMS, Control)."""
    return sorted(p for p, m in markers_in(state, area).items()
                  if m["status"] in CONTROL and m.get("established"))


def has_control(state: dict, power: str, area: str, established: bool = True) -> bool:
    m = markers_in(state, area).get(power)
    if not m or m["status"] not in CONTROL:
        return False
    return bool(m.get("established")) or not established


def areas_of(state: dict, power: str, statuses: Iterable[str] | None = None) -> list[str]:
    wanted = set(statuses) if statuses is not None else None
    return sorted(a for a, ms in state.get("markers", {}).items()
                  if power in ms and (wanted is None or ms[power]["status"] in wanted))


def in_unrest(state: dict, area: str) -> bool:
    return area in state.get("unrest", [])


def set_marker(state: dict, power: str, area: str, status: str, established: bool,
               reason: str = "") -> dict:
    """Put ``power``'s marker in ``area`` at ``status`` (replacing any it had)."""
    before = status_of(state, area, power) or "none"
    state.setdefault("markers", {}).setdefault(area, {})[power] = {
        "status": status, "established": bool(established)}
    return {"kind": "marker", "power": power, "area": area, "from": before, "to": status,
            "established": bool(established), "reason": reason}


def remove_marker(state: dict, power: str, area: str, reason: str = "") -> dict:
    before = status_of(state, area, power) or "none"
    area_markers = state.get("markers", {}).get(area, {})
    area_markers.pop(power, None)
    if not area_markers:
        state.get("markers", {}).pop(area, None)
    return {"kind": "marker", "power": power, "area": area, "from": before, "to": "none",
            "established": False, "reason": reason}


def markers_used(state: dict, power: str, group: str) -> int:
    """Counters of one physical kind on the map ("round": interest/influence, "hex": control)."""
    kinds = ("interest", "influence") if group == "round" else CONTROL
    return sum(1 for ms in state.get("markers", {}).values()
               if power in ms and ms[power]["status"] in kinds)


# -- units -------------------------------------------------------------------
def units_of(state: dict, power: str | None = None, where: str | None = None,
             type: str | None = None) -> list[dict]:
    return [u for u in state.get("units", [])
            if (power is None or u["power"] == power)
            and (where is None or u["where"] == where)
            and (type is None or u["type"] == type)]


def add_unit(state: dict, power: str, type: str, strength: int, where: str,
             sea: str | None = None) -> dict:
    uid = state.get("next_unit_id", 1)
    state["next_unit_id"] = uid + 1
    unit = {"id": uid, "power": power, "type": type, "strength": int(strength),
            "where": where, "sea": sea}
    state.setdefault("units", []).append(unit)
    return unit


def remove_unit(state: dict, unit_id: int) -> dict | None:
    for i, u in enumerate(state.get("units", [])):
        if u["id"] == unit_id:
            return state["units"].pop(i)
    return None


def army_strength(state: dict, power: str, area: str) -> int:
    return sum(u["strength"] for u in units_of(state, power, area, "army"))


def navy_strength(state: dict, power: str, place: str) -> int:
    return sum(u["strength"] for u in units_of(state, power, place, "navy"))


def find_unit(state: dict, power: str, type: str, strength: int, where: str,
              exclude: Iterable[int] = ()) -> dict | None:
    """The lowest-numbered matching unit (deterministic choice among equals)."""
    skip = set(exclude)
    for u in sorted(units_of(state, power, where, type), key=lambda u: u["id"]):
        if u["strength"] == strength and u["id"] not in skip:
            return u
    return None


# -- indices, Casus Belli ------------------------------------------------------
#: Rules: Casus Belli; Treaties and Casus Belli; CONGRESS OF EUROPE; NEGOTIATION;
#: MINOR POWER/GREAT POWER STATUS CONFLICTS; RANDOM EVENTS - why a Casus Belli arose.
CB_CAUSES = ("placement", "treaty_breach", "congress_refusal", "treaty", "codominion",
             "minor_rights", "event", "gm")


def add_cb(state: dict, holder: str, against: str, area: str | None, reason: str,
           once: bool = False, cause: str = "placement", rule: str | None = None,
           audience: Audience | None = None) -> dict | None:
    """Record a Casus Belli in the register (Rules: GAME TERMS, Casus Belli): who holds
    it, against whom, over which Area, why (``cause``, one of CB_CAUSES; ``rule`` names
    the summary entry), and the Game Turn it arose in (Rules: Casus Belli - "a Casus
    Belli is effective for only one Game Turn").  None if the same one is already held.
    ``audience``: who may know of it (default everyone; a secret treaty's parties for one
    the treaty gives)."""
    for cb in state.setdefault("cb", []):
        if cb["holder"] == holder and cb["against"] == against and cb.get("area") == area:
            return None
    number = state.get("next_cb", len(state["cb"]) + 1)
    state["next_cb"] = number + 1
    record = {"id": f"CB{number}", "holder": holder, "against": against, "area": area,
              "cause": cause, "rule": rule, "reason": reason, "turn": state.get("turn"),
              "once": bool(once)}
    if audience is not None:
        tag(record, audience)
    state["cb"].append(record)
    return cb_event(record, removed=False)


def cb_event(cb: dict, removed: bool, why: str | None = None) -> dict:
    """A Casus Belli made or struck off, seen by whoever may know of the Casus Belli."""
    event = {"kind": "cb", "holder": cb["holder"], "against": cb["against"], "area": cb.get("area"),
             "cause": cb.get("cause"), "reason": why or cb.get("reason"), "removed": removed,
             "id": cb.get("id")}
    return tag(event, of(cb) or public())


def remove_cb(state: dict, cb: dict, why: str) -> dict | None:
    """Take a Casus Belli out of the register (settled, used up or expired)."""
    held = state.get("cb", [])
    for i, other in enumerate(held):
        if other is cb or (other.get("id") and other.get("id") == cb.get("id")):
            held.pop(i)
            return cb_event(other, removed=True, why=why)
    return None


def has_cb(state: dict, holder: str, against: str) -> bool:
    return any(cb["holder"] == holder and cb["against"] == against for cb in state.get("cb", []))


def add_eti(state: dict, delta: int, reason: str, blame: str | list | None = None) -> dict:
    """Rules: EUROPEAN TENSION INCREASES.  Reaching 100 starts the Great War
    (Rules: EUROPEAN TENSIONS AND THE GREAT WAR).  ``blame`` names the power (or powers)
    whose action raised the Index; the event carries one name, a list when several are
    blamed, or None.  The Great War blames them and, by "He was the first player to declare
    War and, in the course of that War, the European Tensions Index rose to 100", the first
    power to declare War this turn."""
    blamed = [b for b in ([blame] if isinstance(blame, str) else list(blame or ())) if b]
    before = state.get("eti", 0)
    state["eti"] = max(0, before + delta)
    if before < 100 <= state["eti"] and not state.get("great_war"):
        culprits = list(blamed)
        declarations = [d for d in state.get("declarations", [])
                        if d.get("turn") == state.get("turn") and d.get("player", True)]
        if blamed and declarations and declarations[0]["by"] not in culprits:
            # Choice: a war declared this turn is "in the course of" until the turn ends;
            # a Random Event's increase (no blame) still blames nobody (HEADLINE EVENTS).
            culprits.append(declarations[0]["by"])
        state["great_war"] = {"blamed": culprits, "turn": state.get("turn")}
    shown: str | list | None = blamed[0] if len(blamed) == 1 else (blamed or None)
    return {"kind": "eti", "delta": delta, "reason": reason, "blame": shown,
            "value": state["eti"]}


def add_cri(state: dict, delta: int, reason: str) -> dict:
    """Rules: CHINESE REBELLION (the Chinese Resentment Index)."""
    state["cri"] = max(0, state.get("cri", 0) + delta)
    return {"kind": "cri", "delta": delta, "reason": reason, "value": state["cri"]}


def add_vp(state: dict, power: str, delta: int, reason: str) -> dict:
    info = state["powers"][power]
    info["vp"] = info.get("vp", 0) + delta
    return {"kind": "vp", "power": power, "delta": delta, "reason": reason}


def add_money(state: dict, power: str, delta: int) -> None:
    info = state["powers"][power]
    info["treasury"] = info.get("treasury", 0) + delta


def treasury(state: dict, power: str) -> int:
    return state["powers"][power].get("treasury", 0)


def jsonable(value: Any) -> bool:
    """True when ``value`` is plain JSON data (used by tests and the dispatcher)."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return True
    if isinstance(value, list):
        return all(jsonable(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and jsonable(v) for k, v in value.items())
    return False
