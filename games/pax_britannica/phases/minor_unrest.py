"""Minor Powers and Unrest: moving units to an Area in revolt, Colonial Combat,
retreats, and sending surplus units home the turn after.

Rules: MINOR POWER REACTION TO UNREST; COLONIAL COMBAT; COLONIAL COMBAT RESOLUTION.
"""
from __future__ import annotations

from collections import deque

from ..core import board, mapgraph
from . import colonial_combat


def move_surplus_home(state: dict, data) -> list[dict]:
    """Rules: MINOR POWER REACTION TO UNREST - "If on the turn following one in which a
    Minor Power moved Units to suppress Unrest, the Area ... contains more than one Army
    Unit, the surplus Units (that is, all but the smallest) are moved to the Minor
    Power's Home Area."  Entries are written by :func:`react` with their turn."""
    events: list[dict] = []
    pending = state.get("pending", {}).get("minor_surplus", [])
    keep = []
    for entry in pending:
        if entry["turn"] >= state.get("turn", 0):
            keep.append(entry)
            continue
        power, area = entry["power"], entry["area"]
        armies = sorted(board.units_of(state, power, area, "army"),
                        key=lambda u: (u["strength"], u["id"]))
        home = board.home_name(data, power)
        for u in armies[1:]:
            u["where"] = home
            events.append({"kind": "unit_moved", "power": power, "type": "army",
                           "strength": u["strength"], "from": area, "to": home,
                           "reason": "surplus after suppressing Unrest"})
    if pending:
        state["pending"]["minor_surplus"] = keep
        if not keep:
            state["pending"].pop("minor_surplus")
    return events


def react(state: dict, data, dice, power: str, fought: set) -> list[dict]:
    """Rules: MINOR POWER REACTION TO UNREST - a Minor Power fights Unrest in every Area
    it Controls (even when its activity roll failed); Interest/Influence Areas are
    ignored.  Its Home Area armies, and movable armies from its colonies (never the only
    unit of a colony), go to the Unrest Area of highest Economic Value (ties by dice).

    Choice: from a colony with several armies all but its smallest move (the smallest
    stays as garrison, as the one-unit exception intends); other Controlled Areas in
    Unrest fight with the units already there.
    """
    areas = [a for a in state.get("unrest", []) if a in data.areas
             and board.has_control(state, power, a, established=False)]
    if not areas:
        return []
    target = _pick_target(state, data, dice, power, areas)
    events = _reinforce(state, data, power, target)
    moved = any(e["kind"] == "unit_moved" for e in events)
    for area in [target] + sorted(a for a in areas if a != target):
        if area in fought or not board.units_of(state, power, area, "army"):
            continue
        fought.add(area)
        events.extend(fight(state, data, dice, power, area, upgrade=True))
    if moved and board.has_control(state, power, target, established=False):
        state.setdefault("pending", {}).setdefault("minor_surplus", []).append(
            {"power": power, "area": target, "turn": state.get("turn", 0)})
    return events


def _pick_target(state, data, dice, power, areas: list[str]) -> str:
    """Highest Economic Value; "if two or more Areas have the same Economic Value, the
    players should roll dice" - one die each, highest wins, ties roll again."""
    top = max(data.areas[a].ev for a in areas)
    tied = sorted(a for a in areas if data.areas[a].ev == top)
    while len(tied) > 1:
        rolls = {a: dice.d6(f"{power} unrest target {a}") for a in tied}
        best = max(rolls.values())
        tied = [a for a in tied if rolls[a] == best]
    return tied[0]


def _reinforce(state, data, power, target) -> list[dict]:
    events = []
    home = board.home_name(data, power)
    movers = list(board.units_of(state, power, home, "army"))
    by_area: dict[str, list[dict]] = {}
    for u in board.units_of(state, power, type="army"):
        if u["where"] not in (home, target) and u["where"] in data.areas:
            by_area.setdefault(u["where"], []).append(u)
    for area in sorted(by_area):
        armies = sorted(by_area[area], key=lambda u: (u["strength"], u["id"]))
        if len(armies) < 2 or not can_reach(state, data, power, area, target):
            continue  # Rules: "If the Minor Power has only one Unit in a given colonial
            # Area, that Unit is never moved."
        movers.extend(armies[1:])
    for u in movers:
        events.append({"kind": "unit_moved", "power": power, "type": "army",
                       "strength": u["strength"], "from": u["where"], "to": target,
                       "reason": "Minor Power reaction to Unrest"})
        u["where"] = target
    return events


def can_reach(state: dict, data, power: str, start: str, target: str) -> bool:
    """Rules: MOVEMENT (Army Units) - a path through the power's established Controlled
    Areas not in Unrest, its Merchant Fleet seas and its Home Country, ending in
    ``target``."""
    home = board.home_name(data, power)
    fleets = mapgraph.merchant_seas(state, power)

    def passable(place: str) -> bool:
        if place in data.seas:
            return place in fleets
        if place == home:
            return True
        return board.has_control(state, power, place) and not board.in_unrest(state, place)

    seen, todo = {start}, deque([start])
    while todo:
        here = todo.popleft()
        for nxt in steps(state, data, here):
            if nxt == target:
                return True
            if nxt not in seen and passable(nxt):
                seen.add(nxt)
                todo.append(nxt)
    return False


def steps(state, data, place: str) -> set[str]:
    """Places one step away: Overland Routes and coasts, or a sea's neighbours and shores."""
    if place in data.seas:
        return mapgraph.sea_neighbours(state, data, place) | mapgraph.coastal_index(data).get(place, set())
    return set(mapgraph.land_neighbours(data, place)) | set(mapgraph.seas_of(data, place))


def fight(state: dict, data, dice, power: str, area: str, upgrade: bool = False) -> list[dict]:
    """Rules: MINOR POWER REACTION TO UNREST - "It automatically attacks the Combat
    Strength of the Area ... according to the normal rules for Colonial Combat": the
    Great Powers' combat (colonial_combat.fight), with the Minor Powers' own retreat
    (:func:`retreat_place`).  With ``upgrade``, a Protectorate whose Unrest is
    suppressed becomes a Possession."""
    events = colonial_combat.fight(state, data, dice, [power], area, "suppress",
                                   retreat_to=retreat_place)
    if upgrade and colonial_combat.area_defeated(events) \
            and board.status_of(state, area, power) == "protectorate":
        events.append(board.set_marker(state, power, area, "possession", True,
                                       "Unrest suppressed by a Minor Power"))
    return events


def retreat_place(state: dict, data, power: str, area: str) -> str | None:
    """Rules: MINOR POWER REACTION TO UNREST - retreat to an adjacent Controlled Area of
    the power if possible, else to its Home Area, else the units are eliminated (None).
    Choice: the Home Area is reachable when the Area has a Communication Link; among
    adjacent Areas the first by name."""
    options = sorted(n for n in mapgraph.land_neighbours(data, area)
                     if n in data.areas and board.has_control(state, power, n)
                     and not board.in_unrest(state, n))
    if options:
        return options[0]
    if mapgraph.comm_link(state, data, power, area):
        return board.home_name(data, power)
    return None
