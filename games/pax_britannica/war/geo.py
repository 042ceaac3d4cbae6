"""The map in War: passages that can be denied, coaling rights, lines of supply, blockades,
and where an alliance's armies could reach given enough time.

Rules: CANALS AND STRAITS; MOVEMENT DURING AN ALLIANCE MANEUVER PHASE (Coaling Rights, Cape
Zones); SUPPLY; CONQUERED AREAS ("a conquered Coastal Area can be used by the conquering
Alliance for purposes of Coaling Rights").
"""
from __future__ import annotations

from collections import deque

from ..core import board, mapgraph
from . import model
from .natives import native_reach

#: Rules: CANALS AND STRAITS - "During a War (only), all Canal Areas are considered to have two
#: coasts."  Choice: the Straits (Anatolia) too; an enemy navy blockades only the coast it lies
#: on there, and every coast of any other Area.
TWO_COASTS = ("Egypt", "Panama", "Central America", "Anatolia")
SOURCE_STATUSES = ("dominion", "state")


# -- canals and straits ----------------------------------------------------------------------
def passage_areas(state: dict, data, s1: str, s2: str) -> list[str] | None:
    """The Areas whose controller may deny the link between two seas, or None for an open sea
    link.  Suez (Egypt) joins the Mediterranean and the Indian Ocean, the Straits (Anatolia) the
    Black Sea and the Mediterranean; a built canal (Panama, Central America) the Caribbean and
    the South Pacific."""
    pair = {s1, s2}
    found = [a for a, seas in (getattr(data, "straits", {}) or {}).items() if set(seas) == pair]
    if not found:
        return None
    built = [a for a in found if a not in board.CANAL_AREAS or a in state.get("canals", [])]
    return built


def denied(state: dict, war: dict | None, power: str, area: str) -> bool:
    """Rules: CANALS AND STRAITS - the controller of the Area denies it ("If no player has
    Control of a canal or straits Area, access cannot be denied.  If such an Area is a
    Codominion, all member players must agree")."""
    if war is None:
        return False
    ctrl = board.controllers(state, area)
    if not ctrl:
        return False
    by = {d["by"] for d in war.get("denials", []) if d["area"] == area and d["to"] == power}
    return set(ctrl) <= by


def link_open(state: dict, data, power: str, s1: str, s2: str, war: dict | None = None) -> bool:
    areas = passage_areas(state, data, s1, s2)
    if areas is None:
        return True
    # "If both Panama and Central America canals exist, access ... is denied only if a Power is
    # denied access to both canals."
    war = war if war is not None else model.war_of(state, power)
    return any(not denied(state, war, power, a) for a in areas)


def sea_steps(state: dict, data, power: str, sea: str, war_time: bool = True) -> set[str]:
    """Sea spaces a power's units (war_time: with the Cape Zones) or its Line of Supply
    (war_time False: Choice, the Cape Zones concern movement only) pass to from ``sea``."""
    canal = any(a in state.get("canals", []) for a in board.CANAL_AREAS)
    if sea not in data.seas and sea not in data.capes:
        return set()
    near = data.sea_neighbours(sea, war=war_time, canal=canal)
    war = model.war_of(state, power)
    return {s for s in near if s in data.capes or link_open(state, data, power, sea, s, war)}


# -- blockades ------------------------------------------------------------------------------
def blocked_coasts(state: dict, data, power: str) -> set[tuple[str, str]]:
    """(Area, Sea Zone) pairs a Line of Supply of ``power`` cannot cross.  Rules: SUPPLY - "a Line
    of Supply cannot be traced from an Area to an adjacent Sea Zone if the Area contains an enemy
    Naval Unit"; Home Countries cannot be blockaded."""
    enemies = model.enemies_of(state, power)
    out = set()
    for u in state.get("units", []):
        if u["type"] != "navy" or u["power"] not in enemies or u["where"] not in data.areas:
            continue
        area = u["where"]
        if area in TWO_COASTS and u.get("sea"):
            out.add((area, u["sea"]))
        else:
            out |= {(area, s) for s in data.areas[area].seas}
    return out


def blockaded_anywhere(state: dict, data, power: str, area: str, blocked: set | None = None) -> bool:
    blocked = blocked_coasts(state, data, power) if blocked is None else blocked
    return any((area, s) in blocked for s in mapgraph.seas_of(data, area))


# -- coaling rights ----------------------------------------------------------------------------
def coaling_seas(state: dict, data, power: str) -> set[str]:
    """Rules: MOVEMENT DURING AN ALLIANCE MANEUVER PHASE (Coaling Rights; Cape Zones) - the Sea
    Zones next to the Home Country, or next to an Area with an Influence or Control marker of the
    power's alliance, a neutral's Control marker volunteered to it, or a conquered enemy Control
    marker; a Cape Zone when either Sea Zone beside it has them."""
    war = model.war_of(state, power)
    alliance = model.allies_of(state, power)
    home = board.home_name(data, power)
    out = set(mapgraph.seas_of(data, home)) if home else set()
    granted = {g["area"] for g in (war or {}).get("grants", []) if g["to"] == power
               and board.has_control(state, g["by"], g["area"])}
    conquered = {a for a, who in (war or {}).get("conquered", {}).items() if power in who}
    for area, markers in state.get("markers", {}).items():
        if area not in data.areas:
            continue
        ok = area in granted or area in conquered or any(
            p in alliance and m["status"] != "interest" for p, m in markers.items())
        if ok:
            out |= set(data.areas[area].seas)
    for cape in data.capes.values():
        if out & set(cape.between):
            out.add(cape.name)
    return out


def has_coaling(state: dict, data, power: str, unit: dict, seas: set[str] | None = None) -> bool:
    """A Fleet Unit's coaling rights where it stands: in a Sea or Cape Zone, that zone's; at
    home, always.  Choice: a fleet in an Area coals from the sea it lies on (any of the Area's
    seas when it lies on none)."""
    seas = coaling_seas(state, data, power) if seas is None else seas
    where = unit["where"]
    if where in data.seas or where in data.capes:
        return where in seas
    if where == board.home_name(data, power):
        return True
    coasts = [unit["sea"]] if unit.get("sea") else list(mapgraph.seas_of(data, where))
    return any(s in seas for s in coasts)


# -- lines of supply -----------------------------------------------------------------------------
def conquered_by_enemy(state: dict, war: dict | None, power: str, area: str) -> bool:
    holders = (war or {}).get("conquered", {}).get(area)
    return bool(holders) and power not in holders


def supply_nodes(state: dict, data, power: str, blocked: set) -> tuple[set[str], set[str]]:
    """(sources, passable places) of ``power``'s Lines of Supply.  Rules: SUPPLY."""
    war = model.war_of(state, power)
    alliance = model.allies_of(state, power)
    sources, passable = set(), set()
    for p in alliance:
        home = board.home_name(data, p)
        if home:
            sources.add(home)
            passable.add(home)
    for area, markers in state.get("markers", {}).items():
        if area not in data.areas or conquered_by_enemy(state, war, power, area):
            continue
        held = [p for p in alliance if board.has_control(state, p, area)]
        if held:
            passable.add(area)
            if any(markers[p]["status"] in SOURCE_STATUSES for p in held) \
                    and not blockaded_anywhere(state, data, power, area, blocked):
                sources.add(area)
    for area, who in (war or {}).get("conquered", {}).items():
        if power in who:
            passable.add(area)
    passable |= mapgraph.merchant_seas(state, power)
    return sources, passable


class Lines:
    """Where ``power``'s Lines of Supply reach, worked out once."""

    def __init__(self, state: dict, data, power: str):
        self.state, self.data, self.power = state, data, power
        self.blocked = blocked_coasts(state, data, power)
        self.seas: dict[str, set[str]] = {}
        sources, passable = supply_nodes(state, data, power, self.blocked)
        seen, todo = set(sources), deque(sources)
        while todo:
            here = todo.popleft()
            for nxt in self.steps(here):
                if nxt in passable and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        self.reached = seen

    def steps(self, place: str) -> set[str]:
        """Places one step from ``place`` along a Line of Supply (blockades respected)."""
        data = self.data
        if place in data.seas:
            if place not in self.seas:
                self.seas[place] = sea_steps(self.state, data, self.power, place, war_time=False)
            return self.seas[place] | {p for p in mapgraph.coastal_index(data).get(place, set())
                                       if (p, place) not in self.blocked}
        return set(mapgraph.land_neighbours(data, place)) | {
            s for s in mapgraph.seas_of(data, place) if (place, s) not in self.blocked}

    def __contains__(self, place: str) -> bool:
        """Rules: SUPPLY - in supply in the Home Country, an unblockaded own Dominion or State, or
        when the place is connected to a source by a Line of Supply."""
        state, data, power = self.state, self.data, self.power
        if place == board.home_name(data, power):
            return True
        status = board.status_of(state, place, power)
        if status in SOURCE_STATUSES and board.is_established(state, place, power) \
                and not blockaded_anywhere(state, data, power, place, self.blocked):
            return True
        return place in self.reached or bool(self.steps(place) & self.reached)


def supplied(state: dict, data, power: str) -> Lines:
    return Lines(state, data, power)


def in_supply(state: dict, data, power: str, place: str, lines: Lines | None = None) -> bool:
    return place in (lines if lines is not None else Lines(state, data, power))


# -- reach ---------------------------------------------------------------------------------------
def may_enter_area(state: dict, data, war: dict, power: str, area: str) -> bool:
    """An Area an army of ``power`` may enter in ``war`` (Rules: Army Unit Movement - "Any
    adjacent Area containing a Control marker that belongs to either Alliance"; CHINESE
    REBELLION - "colonial Power Units can enter any Chinese Empire or Chinese Vassal Area";
    Choice: the Ottomans' enemies and allies may likewise enter any Ottoman Empire Area)."""
    if area not in data.areas:
        return False
    warring = set(model.members(war))
    if any(p in warring and m["status"] in board.CONTROL
           for p, m in board.markers_in(state, area).items()):
        return True
    kind = data.areas[area].kind
    if war.get("kind") == "rebellion" and kind in ("chinese_empire", "chinese_vassal"):
        return True
    return war.get("kind") == "ottoman" and kind == "ottoman"


def army_reach(state: dict, data, war: dict, index: int) -> set[str]:
    """Places the armies of alliance ``index`` could reach given enough time (Rules: SUPPLY -
    "Army Units of the opposing alliance are capable of reaching it given enough time";
    NEGOTIATION AND ENDING A WAR).  Choice: navies and enemy armies in the way are ignored
    (they may move); markers are taken as they stand."""
    reach: set[str] = set()
    for power in war["sides"][index]:
        if model.is_native(power):
            reach |= native_reach(state, data, war, power)
            continue
        start = {u["where"] for u in board.units_of(state, power, type="army")}
        fleets = mapgraph.merchant_seas(state, power)
        home = board.home_name(data, power)
        seen, todo = set(start), deque(start)
        while todo:
            here = todo.popleft()
            if here in data.seas or here in data.capes:
                nxt = sea_steps(state, data, power, here) | mapgraph.coastal_index(data).get(here, set())
            else:
                nxt = set(mapgraph.land_neighbours(data, here)) | set(mapgraph.seas_of(data, here))
            for p in nxt:
                if p in seen:
                    continue
                ok = (p in data.seas and p in fleets) or p == home or \
                    may_enter_area(state, data, war, power, p)
                if ok:
                    seen.add(p)
                    todo.append(p)
        reach |= seen
    return reach
