"""Legality of each Movement/Status Change order, shared by validation and resolution.

Each ``check_<kind>(state, data, power, args)`` returns None when the order is
legal on that state, else ``(code, message)``.  Rules: MOVEMENT/STATUS CHANGE,
STATUS CHANGE, ALTERING EXISTING STATUS MARKERS, MOVEMENT, GARRISONS,
BUILDING CARIBBEAN-SOUTH PACIFIC CANALS, TRANSFERRING MONEY, AUSTRIA-HUNGARY.
"""
from __future__ import annotations

from collections import deque

from .. import board
from ..state import merchants_available

Fail = tuple[str, str] | None

CANAL_COST = 30          # Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS - "spend 30£"
STRENGTHS = (1, 3, 10)   # Rules: PLAYING PIECES - Military Units
ROUND = ("interest", "influence")
HEX = ("protectorate", "possession")
#: Rules: STATUS CHANGE - who may place a State or a Dominion marker.
SPECIAL = {"state": "United States", "dominion": "Britain"}
#: Rules: EUROPEAN TENSION INCREASES - these three build navies without raising tensions.
NAVAL_ETI_EXEMPT = ("United States", "Britain", "Japan")


# -- costs ---------------------------------------------------------------------
def marker_cost(state: dict, data, power: str, area: str, status: str) -> int:
    """Rules: ALTERING EXISTING STATUS MARKERS (Upgrading Status): pay the difference."""
    old = board.status_of(state, area, power)
    paid = data.markers[_type(old)].buy if old else 0
    return max(0, data.markers[_type(status)].buy - paid)


def _type(status: str) -> str:
    """Marker-table key: Dominion and State share one row in some data files."""
    return status


def cost(state: dict, data, power: str, kind: str, args: dict) -> int:
    if kind == "buy":
        try:
            return marker_cost(state, data, power, args["area"], args["status"])
        except KeyError:
            return 0
    if kind in ("build_army", "build_navy"):
        try:
            return data.unit_cost("army" if kind == "build_army" else "navy", args["strength"])
        except Exception:  # noqa: BLE001 - an impossible strength is refused by the check
            return 0
    if kind == "build_canal":
        return CANAL_COST
    if kind == "give":
        return int(args["amount"])
    return 0


def unit_spend(kind: str, c: int) -> int:
    return c if kind in ("build_army", "build_navy") else 0


# -- markers -------------------------------------------------------------------
def others(state: dict, area: str, power: str) -> dict[str, dict]:
    return {p: m for p, m in board.markers_in(state, area).items() if p != power}


def permitted(state: dict, power: str, area: str) -> bool:
    """Rules: HEADLINE EVENTS - Serbia Defies Austria-Hungary, War in South America,
    Boer Oppression of Uitlanders let one power buy Control markers where it otherwise
    could not (it still pays); War in South America allows one Area only."""
    used = state.get("turn_effects", {}).get("permission_used", {}).get(power, [])
    for perm in state.get("turn_effects", {}).get("permissions", []):
        if perm.get("power") == power and area in perm.get("areas", []):
            limit = perm.get("max_areas")
            taken = [a for a in used if a in perm.get("areas", [])]
            if area in taken or limit is None or len(taken) < int(limit):
                return True
    return False


def needs_permission(state: dict, data, power: str, area: str, status: str) -> bool:
    info = data.areas[area]
    return status in HEX and not (info.kind in ("unorganized", "chinese_vassal")
                                  or board.in_unrest(state, area))


def check_buy(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: STATUS CHANGE; ALTERING EXISTING STATUS MARKERS."""
    area, status = a["area"], a["status"]
    if area not in data.areas:
        return "not-an-area", f"{area} is not an Area: markers go only in Areas"
    info = data.areas[area]
    old = board.status_of(state, area, power)
    if old is not None and board.rank(status) <= board.rank(old):
        return "not-an-upgrade", f"{power} already has a {old} marker in {area}"
    if old is not None and not board.is_established(state, area, power):
        # Choice: a marker still under its Status Change marker cannot be upgraded again
        # until it is established ("left in the Area until it is either established or
        # eliminated").
        return "not-established", f"{power}'s {old} in {area} is not yet established"
    if status in SPECIAL:
        if SPECIAL[status] != power:
            return "wrong-power", f"only {SPECIAL[status]} can place a {status.title()} marker"
        if info.may_become != status:
            return "not-eligible", f"{area} cannot become a {status.title()}"
        if old != "possession" or not board.is_established(state, area, power):
            return "needs-possession", f"a {status.title()} needs an established Possession in {area}"
    if not board.comm_link(state, data, power, area):
        return "no-communication-link", f"{power} has no Communication Link to {area}"
    rivals = others(state, area, power)
    est = {p: m["status"] for p, m in rivals.items() if m.get("established")}
    if status == "interest" and any(s in ("possession", "state", "dominion") for s in est.values()):
        return "blocked-by-possession", f"{area} holds an established Possession of another power"
    if status != "interest" and any(s in board.CONTROL for s in est.values()):
        return "blocked-by-control", f"{area} holds an established Control marker of another power"
    if needs_permission(state, data, power, area, status) and not permitted(state, power, area):
        return "needs-unrest", (f"a {status.title()} can go in {area} ({info.kind.replace('_', ' ')}) "
                                f"only while it is in Unrest")
    return _marker_limit(state, data, power, old, status)


def limits(data, power: str) -> dict:
    table = getattr(data, "counter_limits", {}) or {}
    return table.get(power) or {}


def _marker_limit(state: dict, data, power: str, old: str | None, new: str) -> Fail:
    """Rules: PLAYING PIECES - the counters provided are an absolute limit."""
    lim = limits(data, power)
    group = "round" if new in ROUND else "hex" if new in HEX else "dominion"
    if group not in lim:
        return None
    if group == "dominion":
        used = sum(1 for ms in state.get("markers", {}).values()
                   if power in ms and ms[power]["status"] in ("state", "dominion"))
    else:
        used = board.markers_used(state, power, group)
        same_piece = old in (ROUND if group == "round" else HEX)
        used -= 1 if same_piece else 0  # an upgrade on the same piece frees it first
    if used >= int(lim[group]):
        return "counter-limit", f"{power} has no {new} marker left (all {lim[group]} in use)"
    return None


def check_downgrade(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: ALTERING EXISTING STATUS MARKERS (Downgrading Status)."""
    old = board.status_of(state, a["area"], power)
    if old is None:
        return "no-marker", f"{power} has no marker in {a['area']}"
    if old in board.CONTROL:
        return "cannot-downgrade-control", "Control markers cannot be downgraded voluntarily"
    if board.rank(None if a["to"] == "none" else a["to"]) >= board.rank(old):
        return "not-a-downgrade", f"{old} cannot be downgraded to {a['to']}"
    return None


def check_transfer(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: ALTERING EXISTING STATUS MARKERS (Transferring Status)."""
    if a["status"] in ("state", "dominion"):
        return "not-transferable", "States and Dominions cannot be transferred"
    if a["to"] == power:
        return "same-power", "a power cannot transfer a marker to itself"
    if board.status_of(state, a["area"], power) != a["status"]:
        return "no-marker", f"{power} has no {a['status']} in {a['area']}"
    return None


def check_accept(state: dict, data, power: str, a: dict) -> Fail:
    if a["status"] in ("state", "dominion"):
        return "not-transferable", "States and Dominions cannot be transferred"
    if a["from"] == power:
        return "same-power", "a power cannot accept a marker from itself"
    if board.status_of(state, a["area"], power) is not None:
        # Choice: a power holds one marker per Area; it must not already have one there.
        return "already-has-marker", f"{power} already has a marker in {a['area']}"
    return None


def check_give(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: TRANSFERRING MONEY; AUSTRIA-HUNGARY (it never gives money away)."""
    if a["amount"] <= 0:
        return "bad-amount", "the amount must be positive"
    if power == "Austria-Hungary":
        return "austria-cannot-give", "Austria-Hungary can never give money to another power"
    if a["to"] == power:
        return "same-power", "a power cannot give money to itself"
    # Choice: Minor Powers never receive income of any kind, so no money either.
    if not board.is_great(state, a["to"]):
        return "not-a-great-power", f"{a['to']} is a Minor Power and never receives money"
    return None


def check_accept_money(state: dict, data, power: str, a: dict) -> Fail:
    if a["from"] == power:
        return "same-power", "a power cannot accept money from itself"
    if a["from"] == "Austria-Hungary":
        return "austria-cannot-give", "Austria-Hungary can never give money to another power"
    return None


# -- units ---------------------------------------------------------------------
def check_build(state: dict, data, power: str, a: dict, kind: str) -> Fail:
    """Rules: MOVEMENT/STATUS CHANGE - new units are purchased and placed at home."""
    if a["strength"] not in STRENGTHS:
        return "bad-strength", f"units come in strengths 1, 3 and 10, not {a['strength']}"
    home = data.homes.get(power)
    if kind == "navy":
        if not home or not home.seas:
            return "no-coast", f"{power}'s Home Country has no Sea Zone box"
        if a.get("sea") not in home.seas:
            return "not-home-sea", f"{a.get('sea')} is not one of {power}'s Home Area sea boxes"
    lim = limits(data, power).get(f"units_{a['strength']}")
    if lim is not None:
        used = sum(1 for u in board.units_of(state, power) if u["strength"] == a["strength"])
        if used >= int(lim):
            return "counter-limit", f"{power} has no unit of strength {a['strength']} left"
    return None


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
    """A legal path for the move (the player's VIA places if given), or None."""
    src, dst = a["from"], a["to"]
    if _kind_of(state, data, power, dst) not in ("through", "end"):
        return None
    via = list(a.get("via") or [])
    if via:
        path = [src, *via, dst]
        for here, nxt in zip(path, path[1:]):
            if nxt not in board._steps(state, data, here):
                return None
        if any(_kind_of(state, data, power, p) not in ("through", "sea") for p in via):
            return None
        return path
    prev = {src: None}
    todo = deque([src])
    while todo:
        here = todo.popleft()
        for nxt in sorted(board._steps(state, data, here)):
            if nxt in prev:
                continue
            if nxt == dst:
                prev[nxt] = here
                path = [dst]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1]
            if _kind_of(state, data, power, nxt) in ("through", "sea"):
                prev[nxt] = here
                todo.append(nxt)
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
    if army_path(state, data, power, a) is None:
        return "no-path", (f"no legal path from {a['from']} to {a['to']} (through own Merchant "
                           f"Fleet seas, own established Control not in Unrest, own Home)")
    return garrison_rules(state, data, power, a)


def _within(data, centre: list[str], steps: int) -> set[str]:
    seen = set(centre)
    frontier = set(centre)
    for _ in range(steps):
        frontier = {n for p in frontier for n in board.land_neighbours(data, p)} - seen
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


# -- merchants, canals, the rest -----------------------------------------------
def _sea_ok(data, sea: str) -> Fail:
    if sea in (getattr(data, "capes", {}) or {}):
        return "cape-zone", "the Cape Zones cannot hold Merchant Fleets"
    if sea not in data.seas:
        return "unknown-sea", f"{sea} is not a Sea Zone"
    return None


def check_move_merchant(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: MOVEMENT (Merchant Fleets) - any distance, one per Sea Zone per power."""
    fail = _sea_ok(data, a["to"]) or _sea_ok(data, a["from"])
    if fail:
        return fail
    if power not in state.get("merchants", {}).get(a["from"], []):
        return "no-merchant", f"{power} has no Merchant Fleet in {a['from']}"
    if power in state.get("merchants", {}).get(a["to"], []):
        return "merchant-present", f"{power} already has a Merchant Fleet in {a['to']}"
    return None


def check_place_merchant(state: dict, data, power: str, a: dict) -> Fail:
    fail = _sea_ok(data, a["sea"])
    if fail:
        return fail
    if merchants_available(state, data, power) <= 0:
        return "no-new-merchant", f"{power} has no new Merchant Fleet from the Game Turn Track"
    if power in state.get("merchants", {}).get(a["sea"], []):
        return "merchant-present", f"{power} already has a Merchant Fleet in {a['sea']}"
    return None


def check_canal(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS."""
    area = a["area"]
    if area not in board.CANAL_AREAS:
        return "not-a-canal-site", "canals are built only in Panama or Central America"
    if area in state.get("canals", []):
        return "canal-exists", f"{area} already has a canal"
    if board.in_unrest(state, area):
        return "in-unrest", f"no canal can be built in {area} while it is in Unrest"
    status = board.status_of(state, area, power)
    needs_est = state.get("options", {}).get("canal_needs_established", True)
    if board.rank(status) < board.rank("influence") or (
            needs_est and not board.is_established(state, area, power)):
        return "needs-influence", f"a canal needs an established Influence or Control marker in {area}"
    return None


def check_suppress(state: dict, data, power: str, a: dict) -> Fail:
    """Rules: COLONIAL COMBAT TO SUPPRESS UNREST (fought next phase)."""
    if not board.in_unrest(state, a["area"]):
        return "not-in-unrest", f"{a['area']} is not in Unrest"
    return None


def check_remove(state: dict, data, power: str, a: dict) -> Fail:
    if a["type"] == "navy":
        unit = navy_unit(state, data, power, a["strength"], a["where"])
    else:
        unit = board.find_unit(state, power, "army", a["strength"], a["where"])
    if unit is None:
        return "no-such-unit", f"{power} has no {a['type']} ({a['strength']}) at {a['where']}"
    return None


def check_eliminate(state: dict, data, power: str, a: dict) -> Fail:
    if a["area"] not in data.areas:
        return "not-an-area", f"{a['area']} is not an Area"
    return None


CHECKS = {
    "buy": check_buy, "downgrade": check_downgrade, "transfer": check_transfer,
    "accept": check_accept, "give": check_give, "accept_money": check_accept_money,
    "build_army": lambda s, d, p, a: check_build(s, d, p, a, "army"),
    "build_navy": lambda s, d, p, a: check_build(s, d, p, a, "navy"),
    "move_army": check_move_army, "move_navy": check_move_navy,
    "move_merchant": check_move_merchant, "place_merchant": check_place_merchant,
    "build_canal": check_canal, "suppress": check_suppress, "remove": check_remove,
    "eliminate": check_eliminate,
}


def check(state: dict, data, power: str, kind: str, args: dict) -> Fail:
    return CHECKS[kind](state, data, power, args)
