"""Legality of each Movement/Status Change order, shared by validation and resolution.

Each ``check_<kind>(state, data, power, args)`` returns None when the order is
legal on that state, else ``(code, message)``.  Rules: MOVEMENT/STATUS CHANGE,
STATUS CHANGE, ALTERING EXISTING STATUS MARKERS, MOVEMENT, GARRISONS,
BUILDING CARIBBEAN-SOUTH PACIFIC CANALS, TRANSFERRING MONEY, AUSTRIA-HUNGARY.
"""
from __future__ import annotations

from ..core import board, mapgraph
from ..core.state import merchants_available
from ..core.movement_units import (army_path, check_move_army, check_move_navy,  # noqa: F401
                                   garrison_rules, navy_target, navy_unit)

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
        # until it is established ("it must be left in the Area until it is either
        # established or eliminated").
        return "not-established", f"{power}'s {old} in {area} is not yet established"
    if old is not None and board.markers_in(state, area)[power].get("phase_from"):
        # Choice: the same holds for an upgrade established at once this phase ("Whenever a
        # Status marker is placed ... it must have a Status Change marker placed on top of it").
        return "not-established", (f"{power}'s {old} in {area} was placed this phase; it can be "
                                   "upgraded again from the next Movement/Status Change Phase")
    if status in SPECIAL:
        if SPECIAL[status] != power:
            return "wrong-power", f"only {SPECIAL[status]} can place a {status.title()} marker"
        if info.may_become != status:
            return "not-eligible", f"{area} cannot become a {status.title()}"
        if old != "possession" or not board.is_established(state, area, power):
            return "needs-possession", f"a {status.title()} needs an established Possession in {area}"
    if not mapgraph.comm_link(state, data, power, area):
        return "no-communication-link", f"{power} has no Communication Link to {area}"
    rivals = others(state, area, power)
    # Choice (simultaneous between powers): another power's upgrade of this phase counts
    # for this power when the phase ends, so its marker blocks as it stood at the start.
    est = {p: m.get("phase_from") or m["status"] for p, m in rivals.items() if m.get("established")}
    if status in SPECIAL and any(s in board.CONTROL for s in est.values()):
        # Rules: CODOMINIONS (clarification) - "States and Dominions cannot be part of
        # Codominions".
        return "codominion", (f"{area} is a Codominion: States and Dominions cannot be part "
                              "of Codominions")
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
    ctrl = board.controllers(state, a["area"])
    if ctrl and power not in ctrl:
        # Rules: Unrest in a Controlled Area - "other colonial Powers cannot intervene"
        return "blocked-by-control", (f"{' and '.join(ctrl)} Control{'s' if len(ctrl) == 1 else ''} "
                                      f"{a['area']}: the Unrest there is a revolt against "
                                      f"{'it' if len(ctrl) == 1 else 'them'}, and other powers cannot intervene")
    return None


def check_remove(state: dict, data, power: str, a: dict) -> Fail:
    if a["type"] == "navy":
        unit = navy_unit(state, data, power, a["strength"], a["where"])
    else:
        unit = board.find_unit(state, power, "army", a["strength"], a["where"])
    if unit is None:
        return "no-such-unit", f"{power} has no {a['type']} ({a['strength']}) at {a['where']}"
    if unit["where"] == board.home_name(data, power):
        # Rules: NET INCOME RECORD - a deficit is met by eliminating "Military Units
        # abroad" and/or Status markers; a unit in the Home Area (sea boxes included)
        # costs no maintenance (MAINTENANCE RECORD), so removing it meets nothing.
        return "not-abroad", (f"{power}'s {a['type']} ({a['strength']}) at {a['where']} is in its "
                              "Home Area: it costs no maintenance, and only units abroad are "
                              "eliminated to meet a deficit")
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
