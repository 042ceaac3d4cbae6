"""The Chinese and Ottoman armies, which the engine moves when no player does.

Rules: CHINESE REBELLION (placing the Chinese Armies; Determining Chinese Army Movement;
attacks "regardless of the odds"; retreat preferences; the Areas' own Combat Strength and when
it is defeated; markers removed where a Chinese Army stands alone); WAR WITH THE OTTOMANS ("it
acts like the Chinese Empire during a Chinese Rebellion; that is it is the First Alliance, it
moves to Areas within the Ottoman Empire containing enemy Units, and attacks them"; Egypt;
"Independent Ottoman Areas ... retain their Area Combat Strengths").
"""
from __future__ import annotations

from collections import deque

from ..core import board, mapgraph
from . import model

CHINESE = ("chinese_empire", "chinese_vassal")
#: Rules: CHINESE REBELLION - "Chinese Empire and Chinese Vassal Areas that are neither
#: Protectorates nor Possessions retain their intrinsic Combat Strengths" (nor, Choice, a
#: State or Dominion).
NOT_RETAINING = ("protectorate", "possession", "dominion", "state")
STRENGTH = 5


def pick(dice, options: list, why: str):
    """One of ``options`` by die (Rules: "roll a die to determine"; "use a random method").
    Choice: the options in order, one die read in turn (1 the first, 2 the second ...), rolled
    again when it names none, so each is equally likely; two dice read as one number beyond six."""
    options = list(options)
    if len(options) <= 1:
        return options[0] if options else None
    if len(options) <= 6:
        usable = len(options) * (6 // len(options))
        while True:
            d = dice.d6(why)
            if d <= usable:
                return options[(d - 1) % len(options)]
    usable = len(options) * (36 // len(options))
    while True:
        d = (dice.d6(why) - 1) * 6 + dice.d6(why)
        if d <= usable:
            return options[(d - 1) % len(options)]


def native_areas(state: dict, data, war: dict, power: str) -> set[str]:
    """Where the power's armies may stand.  Rules: "Chinese Armies can enter only Chinese Empire
    and Chinese Vassal Areas"; "If Egypt is not Controlled by any Power, Ottoman Units can enter
    the Area ... If Egypt is Controlled by an Ottoman ally or Ottoman enemy, Ottoman Units can
    similarly enter ... Ottoman Units can never enter any other Area outside the Ottoman Empire"."""
    if power == model.CHINA:
        return {a for a, info in data.areas.items() if info.kind in CHINESE}
    out = {a for a, info in data.areas.items() if info.kind == "ottoman"}
    if "Egypt" in data.areas:
        ctrl = board.controllers(state, "Egypt")
        if not ctrl or set(ctrl) & set(model.members(war)):
            out.add("Egypt")
    return out


def area_strength(state: dict, data, war: dict | None, area: str) -> int:
    """The Area's own Combat Strength while it fights beside the natives, or 0."""
    if war is None or area not in data.areas or area in war.get("defeated", []):
        return 0
    kind = data.areas[area].kind
    markers = board.markers_in(state, area).values()
    if war.get("kind") == "rebellion" and kind in CHINESE:
        if any(m["status"] in NOT_RETAINING for m in markers):
            return 0
        return int(data.areas[area].cs)
    if war.get("kind") == "ottoman" and kind == "ottoman":
        if any(m["status"] in board.CONTROL for m in markers):
            return 0
        return int(data.areas[area].cs)
    return 0


def native_reach(state: dict, data, war: dict, power: str) -> set[str]:
    allowed = native_areas(state, data, war, power)
    start = {u["where"] for u in board.units_of(state, power, type="army")}
    seen, todo = set(start), deque(start)
    while todo:
        here = todo.popleft()
        for n in mapgraph.land_neighbours(data, here):
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def enemy_armies(state: dict, war: dict, power: str, area: str) -> list[dict]:
    return [u for u in board.units_of(state, where=area, type="army") if model.enemies_in(war, power, u["power"])]


def targets(state: dict, data, war: dict, power: str) -> set[str]:
    """Areas the natives march on: those of their lands holding enemy armies (Chinese: any
    colonial army in a Chinese Area; Ottomans: the armies of powers at War with them)."""
    allowed = native_areas(state, data, war, power)
    return {u["where"] for u in board.units_of(state, type="army") if u["where"] in allowed
            and model.enemies_in(war, power, u["power"])}


def distances(data, start: str, allowed: set[str]) -> dict[str, int]:
    dist, todo = {start: 0}, deque([start])
    while todo:
        here = todo.popleft()
        for n in sorted(mapgraph.land_neighbours(data, here)):
            if n in allowed and n not in dist:
                dist[n] = dist[here] + 1
                todo.append(n)
    return dist


def move_all(state: dict, data, dice, war: dict, power: str) -> list[dict]:
    """Rules: Determining Chinese Army Movement - an army with colonial armies beside it stays;
    another moves one Area toward the closest Area holding one ("If two or more eligible Areas
    are equidistant, roll a die")."""
    events = []
    allowed = native_areas(state, data, war, power)
    aims = targets(state, data, war, power)
    for unit in sorted(board.units_of(state, power, type="army"), key=lambda u: u["id"]):
        here = unit["where"]
        if enemy_armies(state, war, power, here) or not aims:
            continue
        dist = distances(data, here, allowed | {here})
        reachable = {a: d for a, d in dist.items() if a in aims}
        if not reachable:
            continue
        nearest = min(reachable.values())
        goal = pick(dice, sorted(a for a, d in reachable.items() if d == nearest),
                    f"{power} army {unit['id']} in {here}: which Area it marches on")
        back = distances(data, goal, allowed | {here})
        step = sorted(n for n in mapgraph.land_neighbours(data, here)
                      if n in allowed and back.get(n) == back[here] - 1)[0]
        unit["where"] = step
        events.append({"kind": "war_move", "war": war["id"], "power": power, "type": "army",
                       "strength": unit["strength"], "from": here, "to": step,
                       "reason": f"marches on {goal}"})
    return events


def retreat_place(state: dict, data, war: dict, unit: dict, place: str, dice=None) -> str | None:
    """Rules: CHINESE REBELLION - "(1) into an Area that contains no enemy Units and is free of
    Control markers; or (2) into an Area that contains a Control marker, but no enemy Units ...
    A Chinese Army that cannot retreat is eliminated".  Choice: the Ottomans alike.  Ties: the
    first by name (the die of "a random method" is rolled by the caller when it has dice)."""
    allowed = native_areas(state, data, war, unit["power"])
    best: dict[int, list[str]] = {}
    for n in sorted(mapgraph.land_neighbours(data, place)):
        if n not in allowed:
            continue
        if any(model.enemies_in(war, unit["power"], u["power"]) for u in board.units_of(state, where=n)):
            continue
        ctrl = any(m["status"] in board.CONTROL for m in board.markers_in(state, n).values())
        best.setdefault(1 if ctrl else 0, []).append(n)
    if not best:
        return None
    options = best[min(best)]
    if dice is not None:
        return pick(dice, options, f"{unit['power']} army retreating from {place}")
    return options[0]


def place_chinese(state: dict, data, dice, war: dict) -> list[dict]:
    """Rules: CHINESE REBELLION - "Roll one die; the number rolled is the number of Chinese
    Armies that appear ... roll once on the Chinese Army Placement Table ... No Army can appear
    in an Area that is a Possession of a colonial Power".  The table is data (assumed; a GM may
    override it).  Choice: a roll naming a Possession (or a State or Dominion) is rolled again."""
    table = dict(getattr(data, "chinese_army_placement", {}) or {})
    entries = {int(k): v for k, v in (table.get("targets") or {}).items()}
    limit = int((getattr(data, "counter_limits", {}) or {}).get("chinese_ottoman_armies", 6))
    count = dice.d6("number of Chinese Armies")
    events = [{"kind": "chinese_armies", "war": war["id"], "count": count}]
    heavy = ("possession", "dominion", "state")
    open_areas = [a for a in entries.values()
                  if not any(m["status"] in heavy for m in board.markers_in(state, a).values())]
    for n in range(1, count + 1):
        if not open_areas or len(board.units_of(state, model.CHINA)) >= limit:
            break
        while True:
            d1, d2 = dice.d6(f"Chinese Army {n} placement, first die"), dice.d6(f"Chinese Army {n} placement, second die")
            area = entries.get(d1 + d2)
            if area in open_areas:
                break
        board.add_unit(state, model.CHINA, "army", STRENGTH, area)
        events.append({"kind": "war_placed", "war": war["id"], "power": model.CHINA, "area": area,
                       "roll": d1 + d2, "strength": STRENGTH})
    return events


def place_ottomans(state: dict, war: dict) -> list[dict]:
    """Rules: WAR WITH THE OTTOMANS - "place 3 Ottoman Armies in Anatolia (regardless of whether
    or not that Area is Controlled)"."""
    events = []
    for _ in range(3):
        board.add_unit(state, model.OTTOMANS, "army", STRENGTH, "Anatolia")
    events.append({"kind": "war_placed", "war": war["id"], "power": model.OTTOMANS, "area": "Anatolia",
                   "count": 3, "strength": STRENGTH})
    return events


def clear_behind(state: dict, data, war: dict) -> list[dict]:
    """Rules: CHINESE REBELLION - "If, at the end of any Second Alliance Attack Phase a Chinese
    Army is in an Area that contains no colonial Armies but contains Status markers of any kind,
    those Status markers are removed. If the removed Status marker is a Control marker, the Area
    immediately regains its Combat Strength."  Choice: no European Tensions (no European power's
    act; as for Unrest)."""
    events = []
    for area in sorted({u["where"] for u in board.units_of(state, model.CHINA)}):
        if enemy_armies(state, war, model.CHINA, area) or not board.markers_in(state, area):
            continue
        lost_control = False
        for power, m in sorted(board.markers_in(state, area).items()):
            lost_control |= m["status"] in board.CONTROL
            events.append(board.remove_marker(state, power, area, "the Chinese Rebellion"))
        if lost_control and area in war.get("defeated", []):
            war["defeated"].remove(area)
            events.append({"kind": "area_restored", "war": war["id"], "area": area})
    return events
