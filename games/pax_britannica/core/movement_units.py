"""Where armies and navies may go in the Movement/Status Change Phase.

Rules: MOVEMENT (Army Units, Naval Units); GARRISONS (Special British and Russian
Garrison Rules).  Each ``check_*`` returns None or ``(code, message)``.
"""
from __future__ import annotations

from collections import deque

from . import board, mapgraph

Fail = tuple[str, str] | None


def _kind_of(state: dict, data, power: str, place: str) -> str:
    """How an army may use ``place`` (Rules: MOVEMENT, Army Units): "through"
    (pass and stop), "sea" (pass only), "end" (stop only) or "" (never)."""
    if place in data.seas:
        return "sea" if power in state.get("merchants", {}).get(place, []) else ""
    if place == board.home_name(data, power):
        return "through"
    if data.home_of(place):
        return ""  # another power's Home Country
    m = board.markers_in(state, place).get(power)
    if not m or m["status"] not in board.CONTROL:
        return ""
    if board.in_unrest(state, place):
        return "end"
    return "through" if m.get("established") else "end"


def _starts(state: dict, data, power: str, place: str) -> bool:
    return place == board.home_name(data, power) or board.has_control(state, power, place)


def army_path(state: dict, data, power: str, a: dict) -> list[str] | None:
    """A legal path for the move, or None.  Rules: MOVEMENT (Army Units) - "An
    Army Unit must trace a path of movement".  Choice: the player's VIA places
    are waypoints the army passes in that order; between them (and to the end)
    it takes the shortest legal way, so ``VIA Mediterranean Sea`` need not name
    every sea and Area on the way."""
    src, dst = a["from"], a["to"]
    if _kind_of(state, data, power, dst) not in ("through", "end"):
        return None
    via = list(a.get("via") or [])
    if any(_kind_of(state, data, power, p) not in ("through", "sea") for p in via):
        return None
    path = [src]
    for goal in [*via, dst]:
        leg = _shortest(state, data, power, path[-1], goal)
        if leg is None:
            return None
        path += leg[1:]
    return path


def _shortest(state: dict, data, power: str, src: str, dst: str) -> list[str] | None:
    """The shortest way from ``src`` to ``dst`` passing only places an army may
    pass through (Rules: MOVEMENT, Army Units); alphabetical among equals."""
    if src == dst:
        return [src]
    prev = {src: None}
    todo = deque([src])
    while todo:
        here = todo.popleft()
        for nxt in sorted(mapgraph.steps_from(state, data, here)):
            if nxt in prev:
                continue
            if nxt == dst:
                path = [dst, here]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1]
            if _kind_of(state, data, power, nxt) in ("through", "sea"):
                prev[nxt] = here
                todo.append(nxt)
    return None


def via_fail(state: dict, data, power: str, via: list[str]) -> Fail:
    """Why a VIA place cannot be passed, in the player's terms (None: each can be)."""
    for place in via:
        kind = _kind_of(state, data, power, place)
        if kind in ("through", "sea"):
            continue
        if place in data.seas:
            why = f"{power} has no Merchant Fleet in {place}"
        elif data.home_of(place):
            why = f"{place} is another power's Home Country"
        elif kind == "end":
            why = f"{power}'s marker in {place} is not established or the Area is in Unrest"
        else:
            why = f"{power} has no Control marker in {place}"
        return "bad-via", (f"the army cannot pass through {place}: {why} (an army passes only own "
                           "Merchant Fleet seas, own established Control not in Unrest, and its Home)")
    return None


def check_move_army(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: MOVEMENT (Army Units); GARRISONS (Special British / Russian rules)."""
    if a["from"] == a["to"]:
        return "same-place", "the army would not move"
    if board.find_unit(state, power, "army", a["strength"], a["from"]) is None:
        return "no-such-unit", f"{power} has no Army ({a['strength']}) in {a['from']}"
    if not _starts(state, data, power, a["from"]):
        return "bad-start", (f"an army moves only from the Home Country or an Area with an "
                             f"established Control marker, not {a['from']}")
    if a["to"] in data.seas:
        return "cannot-end-at-sea", "an army cannot end its move in a Sea Zone"
    if _kind_of(state, data, power, a["to"]) == "":
        return "bad-destination", (f"an army can enter {a['to']} only with an own Control marker "
                                   f"there (established, or unestablished / in Unrest)")
    fail = via_fail(state, data, power, list(a.get("via") or []))
    if fail:
        return fail
    if army_path(state, data, power, a) is None:
        via = a.get("via") or []
        return "no-path", (f"no legal path from {a['from']} to {a['to']}"
                           + (f" by way of {', '.join(via)}" if via else "")
                           + " (through own Merchant Fleet seas, own established Control not in "
                           "Unrest, own Home)")
    return garrison_rules(state, data, power, a)


def _within(data, centre: list[str], steps: int) -> set[str]:
    seen = set(centre)
    frontier = set(centre)
    for _ in range(steps):
        frontier = {n for p in frontier for n in mapgraph.land_neighbours(data, p)} - seen
        seen |= frontier
    return seen


def region(data, name: str) -> list[str]:
    return list((getattr(data, "regions", {}) or {}).get(name, ()))


def garrison_rules(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: GARRISONS - the Indian Army (three Army (10) Units within two Areas of
    India, by Overland Routes) and the Russian Western Garrison (three Army (10) Units
    in Russia, Serbia, Rumania, Greece, Bulgaria, Anatolia; with fewer than four Army
    (10) Units none may go elsewhere)."""
    if a["strength"] != 10 or not board.is_great(state, power):
        return None
    tens = [u for u in board.units_of(state, power, type="army") if u["strength"] == 10]
    # Choice: only moves of an Army (10) out of the zone are checked; Russia's rule only
    # binds a Great Power Russia ("the Russian player (if any)").
    if power == "Britain" and region(data, "india"):
        zone = _within(data, region(data, "india"), 2)
        inside = sum(1 for u in tens if u["where"] in zone)
        if a["from"] in zone and a["to"] not in zone and inside - 1 < 3:
            return "indian-army", ("the Indian Army must keep three Army (10) Units within two "
                                   "Areas of India")
    if power == "Russia" and region(data, "western_garrison"):
        zone = set(region(data, "western_garrison"))
        inside = sum(1 for u in tens if u["where"] in zone)
        if a["to"] not in zone and (len(tens) < 4 or a["from"] in zone and inside - 1 < 3):
            return "western-garrison", ("the Western Garrison must keep three Army (10) Units in "
                                        "Russia and the Balkans (none may leave with fewer than four)")
    return None


def navy_unit(state: dict, data, power: str, strength: int, place: str) -> dict | None:
    """A navy at ``place``: an Area, the Home Country, or a Home Area sea box."""
    # Choice: naming the Home Country means any of its boxes (lowest unit id first).
    unit = board.find_unit(state, power, "navy", strength, place)
    if unit is None and place in data.seas:
        home = board.home_name(data, power)
        for u in sorted(board.units_of(state, power, home, "navy"), key=lambda u: u["id"]):
            if u["strength"] == strength and u.get("sea") == place:
                return u
    return unit


def navy_target(state: dict, data, power: str, place: str) -> tuple[str, str | None] | None:
    """Where a navy ordered to ``place`` ends: (where, sea box) or None if not allowed.
    Rules: MOVEMENT (Naval Units) - a coastal Area with an own established Control
    marker, or any of the power's Home Area sea boxes."""
    home = data.homes.get(power)
    if home is None:
        return None
    if place == home.name:
        return (home.name, sorted(home.seas)[0]) if home.seas else None
    if place in data.seas:
        return (home.name, place) if place in home.seas else None
    if place in data.areas and data.areas[place].seas and board.has_control(state, power, place):
        # Choice: in an Area on two seas the navy lies on the first alphabetically.
        seas = sorted(data.areas[place].seas)
        return place, seas[0] if len(seas) > 1 else None
    return None


def check_move_navy(state: dict, data, power: str, a: dict) -> Fail:
    if navy_unit(state, data, power, a["strength"], a["from"]) is None:
        return "no-such-unit", f"{power} has no Navy ({a['strength']}) at {a['from']}"
    if navy_target(state, data, power, a["to"]) is None:
        return "bad-destination", (f"a navy moves only to a coastal Area with an own established "
                                   f"Control marker or to a Home Area sea box, not {a['to']}")
    return None


def garrison_zone(data, power: str) -> set[str]:
    """Where the Indian Army (within two Overland Routes of India) or the Russian Western
    Garrison (Russia and the listed Areas) must stand; empty for other powers."""
    if power == "Britain" and region(data, "india"):
        return _within(data, region(data, "india"), 2)
    if power == "Russia" and region(data, "western_garrison"):
        return set(region(data, "western_garrison"))
    return set()


def garrison_shortfall(state: dict, data, power: str) -> int:
    """Rules: Special British Garrison Rule; Special Russian Garrison Rule - how many
    Army (10) Units the Indian Army or the Western Garrison lacks of its three."""
    zone = garrison_zone(data, power)
    if not zone or not board.is_great(state, power):
        return 0
    inside = sum(1 for u in board.units_of(state, power, type="army")
                 if u["strength"] == 10 and u["where"] in zone)
    return max(0, 3 - inside)

