"""Disputes: Casus Belli grouped by what they are about, markers that break the status
rules, and how a dispute left unsettled is cleared from the map.

Rules: Casus Belli; Casus Belli Markers ("All of these markers must be removed by the end of
the Game Turn"); NEGOTIATION (2: Influence cannot remain where a Control marker is
established); STATUS CHANGE (no Interest beside an established Possession); CODOMINIONS;
CONGRESS OF EUROPE ("the markers of the players who originally had Casus Belli, but refuse
to use them to declare war, are removed from the Area, any Military Units illegally in the
Area are removed to their Home Countries, and the Casus Belli marker is removed");
EUROPEAN TENSION INCREASES (one point a step, and who is blamed).

A *dispute* is a set of this turn's Casus Belli: those over one Area form one dispute, and
those without an Area one dispute per pair of powers.  A Casus Belli marker is "on the map"
while its Area holds a marker the status rules forbid; a dispute whose Area is lawful is a
grievance only (its holder may still call a Congress or declare War this turn).
"""
from __future__ import annotations

from . import board, summaries
from .state import by_rules_order, power_order

POSSESSION_LIKE = ("possession", "dominion", "state")
ROUND = ("interest", "influence")


# -- the register ---------------------------------------------------------------------
def current(state: dict) -> list[dict]:
    """This turn's Casus Belli (Rules: Casus Belli - each lasts the turn it arose in)."""
    return [cb for cb in state.get("cb", []) if cb.get("turn", state.get("turn")) == state.get("turn")]


def find(state: dict, cb_id: str) -> dict | None:
    return next((cb for cb in state.get("cb", []) if cb.get("id") == cb_id), None)


def against(state: dict, holder: str, target: str) -> list[dict]:
    return [cb for cb in current(state) if cb["holder"] == holder and cb["against"] == target]


def at_war(state: dict, a: str, b: str) -> bool:
    """Whether one of the two declared War on the other this turn (the War itself is
    played in the War Phase)."""
    for d in state.get("declarations", []):
        if d.get("turn") != state.get("turn"):
            continue
        if (d["by"] == a and b in d["against"]) or (d["by"] == b and a in d["against"]):
            return True
    return False


def group(cbs: list[dict]) -> list[dict]:
    """Disputes: CBs over one Area together; Area-less ones by pair of powers."""
    found: dict[tuple, dict] = {}
    for cb in cbs:
        key = ("area", cb["area"]) if cb.get("area") else \
            ("pair",) + tuple(sorted((cb["holder"], cb["against"])))
        d = found.setdefault(key, {"area": cb.get("area"), "cbs": [], "parties": set()})
        d["cbs"].append(cb["id"])
        d["parties"] |= {cb["holder"], cb["against"]}
    out = []
    for n, (_, d) in enumerate(sorted(found.items(), key=lambda kv: (kv[0][0], str(kv[0][1:]))), 1):
        out.append({"id": f"D{n}", "area": d["area"], "cbs": d["cbs"],
                    "parties": by_rules_order(d["parties"])})
    return out


def disputes(state: dict) -> list[dict]:
    return group(current(state))


def parties(state: dict, cbs: list[dict] | None = None) -> set[str]:
    out: set[str] = set()
    for cb in current(state) if cbs is None else cbs:
        out |= {cb["holder"], cb["against"]}
    return out


# -- what the status rules forbid ---------------------------------------------------------
def rival_pairs(state: dict, area: str) -> list[tuple[str, str]]:
    """Two powers that both established Control in the Area (CB-02) and have agreed no
    Codominion: their Casus Belli stands while both still Control it."""
    ctrl = set(board.controllers(state, area))
    out = []
    for cb in current(state):
        if cb.get("area") == area and cb.get("rule") == "CB-02" and \
                {cb["holder"], cb["against"]} <= ctrl:
            pair = tuple(sorted((cb["holder"], cb["against"])))
            if pair not in out:
                out.append(pair)
    return out


def illegal_markers(state: dict, area: str) -> dict[str, str]:
    """power -> why its marker may not stay (Rules: NEGOTIATION (2); STATUS CHANGE;
    CODOMINIONS).  Only established markers count: after the Marker Adjustment Phase every
    marker is established."""
    ctrl = board.controllers(state, area)
    heavy = [p for p in ctrl if board.status_of(state, area, p) in POSSESSION_LIKE]
    out: dict[str, str] = {}
    for power, marker in sorted(board.markers_in(state, area).items()):
        if power in ctrl:
            continue
        if marker["status"] == "influence" and ctrl:
            out[power] = "Influence beside an established Control marker"
        elif marker["status"] == "interest" and [h for h in heavy if h != power]:
            out[power] = "Interest beside an established Possession"
    for a, b in rival_pairs(state, area):
        out[a] = out[b] = "Control marker beside a rival's, with no Codominion agreed"
    return out


def troubled_areas(state: dict) -> list[str]:
    return sorted(a for a in state.get("markers", {}) if illegal_markers(state, a))


def blame(state: dict, area: str, candidates: list[str]) -> str | None:
    """Rules: EUROPEAN TENSION INCREASES (clarifications) - the power that placed the Control
    (or Possession) is blamed.  Choice: the one established this turn, else the first in the
    rules' order of powers."""
    if not candidates:
        return None
    turn = state.get("turn")
    fresh = [p for p in candidates
             if board.markers_in(state, area)[p].get("established_turn") == turn]
    return sorted(fresh or candidates, key=power_order)[0]


def conflict_blame(state: dict, area: str, power: str, before: str | None) -> str:
    """Rules: EUROPEAN TENSION INCREASES - "The power committing the action which causes the
    increase always receives the blame, except ...  If an Interest is forced to be downgraded
    by the placement of a Possession, the power who placed the Possession is responsible" and
    "Should a downgrade be forced by a conflict between a Control and an Influence, the power
    who placed the Control is to blame."  Choice: the placer is the one established this turn,
    else the first in the rules' order (as in the Marker Adjustment Phase)."""
    ctrl = [p for p in board.controllers(state, area) if p != power]
    heavy = [p for p in ctrl if board.status_of(state, area, p) in POSSESSION_LIKE]
    if before == "influence" and ctrl:
        return blame(state, area, ctrl) or power
    if before == "interest" and heavy:
        return blame(state, area, heavy) or power
    return power


def lower(state: dict, power: str, area: str, new: str | None, reason: str,
          blame: str | None = None, eti: bool = True) -> list[dict]:
    """Downgrade (``new``) or remove (None) a marker; one point of European Tensions per
    step (Rules: EUROPEAN TENSION INCREASES), blamed as the rules say unless ``blame``."""
    before = board.status_of(state, area, power)
    if before is None or board.rank(new) >= board.rank(before):
        return []
    who = blame or conflict_blame(state, area, power, before)
    if new is None or new == "none":
        events = [board.remove_marker(state, power, area, reason)]
    else:
        events = [board.set_marker(state, power, area, new, True, reason)]
    steps = summaries.eti_steps(before, None if new in (None, "none") else new)
    if eti and steps:
        events.append(board.add_eti(state, steps, f"{power}'s {before} in {area}: {reason}", who))
    return events


def lawful_level(state: dict, area: str, power: str) -> str | None:
    """The highest marker ``power`` could keep in ``area`` beside the others' markers."""
    others = [p for p in board.controllers(state, area) if p != power]
    if not others:
        return board.status_of(state, area, power)
    if any(board.status_of(state, area, p) in POSSESSION_LIKE for p in others):
        return None
    return "interest"


# -- units ----------------------------------------------------------------------------------
def send_home(state: dict, data, unit: dict, reason: str) -> dict:
    """Rules: CONGRESS OF EUROPE - units "illegally in the Area are removed to their Home
    Countries" (navies to the first of their Home Area sea boxes, alphabetically)."""
    home = board.home_name(data, unit["power"])
    before = unit["where"]
    unit["where"] = home
    unit["sea"] = None
    if unit["type"] == "navy" and home and data.homes.get(unit["power"]):
        seas = sorted(data.homes[unit["power"]].seas)
        unit["sea"] = seas[0] if seas else None
    return {"kind": "unit_moved", "power": unit["power"], "type": unit["type"],
            "strength": unit["strength"], "from": before, "to": home, "reason": reason}


def illegal_units(state: dict, data, area: str) -> list[dict]:
    """Units in ``area`` whose power holds no Control marker there (Rules: MOVEMENT)."""
    powers = set(state.get("powers", {}))
    return [u for u in sorted(board.units_of(state, where=area), key=lambda u: u["id"])
            if u["power"] in powers and not board.has_control(state, u["power"], area)]


def send_strays_home(state: dict, data, why: str) -> list[dict]:
    """Units left in an Area where their power holds no Control marker (it gave it up, or lost
    it) go home (Rules: MOVEMENT; CONGRESS OF EUROPE).  Choice: powers at War this turn keep
    their units where they are, for the War."""
    events = []
    for area in sorted({u["where"] for u in state.get("units", []) if u["where"] in data.areas}):
        for unit in illegal_units(state, data, area):
            if not any(at_war(state, unit["power"], p) for p in board.markers_in(state, area)):
                events.append(send_home(state, data, unit, why))
    return events


# -- clearing what is left -------------------------------------------------------------------
def contested_by_war(state: dict, area: str) -> bool:
    """Whether the Area's dispute goes to the War: a power with a marker there, or a party to a
    Casus Belli over it, is at War this turn with another of them."""
    powers = set(board.markers_in(state, area))
    powers |= parties(state, [cb for cb in current(state) if cb.get("area") == area])
    return any(at_war(state, a, b) for a in powers for b in powers if a < b)


def clear_area(state: dict, data, area: str, why: str) -> list[dict]:
    """Rules: CONGRESS OF EUROPE - a Casus Belli marker still on the map when nobody goes to
    War: the markers of the Casus Belli holders are removed from the Area, units illegally
    there go home, and the holders' Casus Belli over the Area are spent.  Other markers the
    status rules forbid (no Casus Belli behind them: a Minor Power's, an Interest beside a
    Possession) are reduced as in the Marker Adjustment Phase.
    Choice: an Area whose powers went to War with each other this turn is left for the War."""
    if not illegal_markers(state, area) or contested_by_war(state, area):
        return []
    cbs = [cb for cb in current(state) if cb.get("area") == area]
    holders = {cb["holder"] for cb in cbs}
    events: list[dict] = []
    for power in by_rules_order(holders):
        events += lower(state, power, area, None, why)
    for power in by_rules_order(illegal_markers(state, area)):
        events += lower(state, power, area, lawful_level(state, area, power), why)
    for cb in [c for c in cbs if c in state.get("cb", [])]:
        if board.status_of(state, area, cb["holder"]) is None:
            ev = board.remove_cb(state, cb, f"not used: {why}")
            if ev:
                events.append(ev)
    for unit in illegal_units(state, data, area):
        events.append(send_home(state, data, unit, why))
    return events


def clear_all(state: dict, data, why: str, areas: list[str] | None = None) -> list[dict]:
    events: list[dict] = []
    for area in troubled_areas(state) if areas is None else sorted(areas):
        if state.get("great_war"):
            break
        events += clear_area(state, data, area, why)
    return events


def expire(state: dict) -> list[dict]:
    """Rules: Casus Belli - "a Casus Belli is effective for only one Game Turn": at the end
    of the turn every one left in the register expires."""
    events = []
    for cb in list(state.get("cb", [])):
        ev = board.remove_cb(state, cb, "expired at the end of the Game Turn")
        if ev:
            events.append(ev)
    return events
