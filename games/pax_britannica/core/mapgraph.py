"""The map as a graph: neighbours by Overland Route and Sea Zone, the coasts on a sea, distances,
the Communication Links over a power's holdings, and where a beaten army may retreat.

Rules: THE MAP; GAME TERMS (Adjacent, Communication Link); BUILDING CARIBBEAN-SOUTH PACIFIC
CANALS; COLONIAL COMBAT RESOLUTION (AR).  Read-only: every function works on the plain JSON
state and the map data (``mapdata.py``) and changes neither.
"""
from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from typing import Iterator

from . import board

# While a read-only pass over one state runs (the order guide asks for each of hundreds of
# Areas whether it has a Communication Link), each power's link component is found once:
# (state, data, power) -> component, the state and data kept so their ids cannot be reused.
_components: dict[tuple[int, int, str], tuple[dict, object, set[str]]] | None = None


@contextmanager
def components_kept() -> Iterator[None]:
    """Within: :func:`link_component` finds each power's component once per state.  Only for
    work that changes no state while it runs (a changed state would keep its old links)."""
    global _components
    outer = _components
    if outer is None:
        _components = {}
    try:
        yield
    finally:
        _components = outer


def coastal_index(data) -> dict[str, set[str]]:
    """sea -> land places (areas and home countries) on it."""
    cached = getattr(data, "_pb_coastal", None)
    if cached is not None:
        return cached
    index: dict[str, set[str]] = {s: set() for s in data.seas}
    for a in data.areas.values():
        for s in a.seas:
            index.setdefault(s, set()).add(a.name)
    for h in data.homes.values():
        for s in h.seas:
            index.setdefault(s, set()).add(h.name)
    try:
        object.__setattr__(data, "_pb_coastal", index)
    except (AttributeError, TypeError):  # a data object that refuses attributes
        pass
    return index


def _land_place(data, place: str):
    """The Area or Home Country record for ``place`` (None for seas and unknowns)."""
    if place in data.areas:
        return data.areas[place]
    power = data.home_of(place)
    return data.homes[power] if power is not None else None


def land_neighbours(data, place: str) -> frozenset[str]:
    record = _land_place(data, place)
    return frozenset(record.neighbours) if record is not None else frozenset()


def seas_of(data, place: str) -> frozenset[str]:
    record = _land_place(data, place)
    return frozenset(record.seas) if record is not None else frozenset()


def sea_neighbours(state: dict, data, sea: str) -> set[str]:
    """Adjacent Sea Zones; a built canal joins the Caribbean and the South Pacific.
    Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS (access is denied only in War)."""
    out = set(data.seas[sea].adjacent) if sea in data.seas else set()
    if state.get("canals") and sea in board.CANAL_SEAS:
        out |= set(board.CANAL_SEAS) - {sea}
    return out


def is_sea(data, place: str) -> bool:
    return place in data.seas


def is_coastal(data, place: str) -> bool:
    return bool(seas_of(data, place))


def merchant_seas(state: dict, power: str) -> set[str]:
    return {s for s, ps in state.get("merchants", {}).items() if power in ps}


def _link_nodes(state: dict, data, power: str) -> set[str]:
    """Places a Communication Link may pass through: own home, Controlled Areas,
    seas with own Merchant Fleet (Rules: GAME TERMS, Communication Link).
    Choice: a Controlled Area in Unrest still carries the link."""
    nodes = {a for a in board.areas_of(state, power, board.CONTROL) if board.is_established(state, a, power)}
    nodes |= merchant_seas(state, power)
    home = board.home_name(data, power)
    if home:
        nodes.add(home)
    return nodes


def steps_from(state: dict, data, place: str) -> set[str]:
    """The places one step from ``place``: neighbouring Areas and Sea Zones, and from a Sea Zone the
    coasts on it."""
    if place in data.seas:
        return sea_neighbours(state, data, place) | coastal_index(data).get(place, set())
    return set(land_neighbours(data, place)) | set(seas_of(data, place))


def distances(state: dict, data, starts) -> dict[str, int]:
    """Steps from the nearest of ``starts`` to every place reached over Overland Routes and
    Sea Zones (Choice: "nearest" counts every Area, Home Country and Sea Zone passed through)."""
    seen = {s: 0 for s in starts}
    todo = deque(seen)
    while todo:
        here = todo.popleft()
        for nxt in steps_from(state, data, here):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                todo.append(nxt)
    return seen


def link_component(state: dict, data, power: str) -> set[str]:
    """Every link node connected to the power's Home Country."""
    if _components is None:
        return _link_component(state, data, power)
    key = (id(state), id(data), power)
    kept = _components.get(key)
    if kept is None or kept[0] is not state or kept[1] is not data:
        kept = _components[key] = (state, data, _link_component(state, data, power))
    return kept[2]


def _link_component(state: dict, data, power: str) -> set[str]:
    nodes = _link_nodes(state, data, power)
    home = board.home_name(data, power)
    if not home:
        return set()
    seen, todo = {home}, deque([home])
    while todo:
        here = todo.popleft()
        for nxt in steps_from(state, data, here):
            if nxt in nodes and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def comm_link(state: dict, data, power: str, area: str) -> bool:
    """Rules: GAME TERMS (Communication Link): a path from ``area`` to the Home
    Country through Controlled Areas, own Merchant Fleet seas and the Home Country."""
    comp = link_component(state, data, power)
    return area in comp or bool(steps_from(state, data, area) & comp)


# -- retreats ---------------------------------------------------------------
def retreat_destinations(state: dict, data, power: str, area: str) -> list[str]:
    """Rules: COLONIAL COMBAT RESOLUTION (AR): an adjacent Controlled Area, or by
    sea through own Merchant Fleet seas to any Controlled Area or the Home Area.
    Nearest first, then by name."""
    home = board.home_name(data, power)

    def ok(place: str) -> bool:
        return place != area and (place == home or board.has_control(state, power, place)
                                  and not board.in_unrest(state, place))

    found: dict[str, int] = {}
    for n in land_neighbours(data, area):
        if ok(n):
            found[n] = 1
    fleets = merchant_seas(state, power)
    start = [s for s in seas_of(data, area) if s in fleets]
    seen, todo = set(start), deque((s, 1) for s in start)
    while todo:
        sea, dist = todo.popleft()
        for place in coastal_index(data).get(sea, set()):
            if ok(place) and place not in found:
                found[place] = dist + 1
        for nxt in sea_neighbours(state, data, sea):
            if nxt in fleets and nxt not in seen:
                seen.add(nxt)
                todo.append((nxt, dist + 1))
    return sorted(found, key=lambda p: (found[p], p))
