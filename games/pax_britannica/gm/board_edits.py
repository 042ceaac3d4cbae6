"""The GM's edits of the board and the sheets: treasuries, Victory Points, markers, units,
Merchant Fleets, Unrest, the two indices, Casus Belli, canals and this turn's effects."""
from __future__ import annotations

from pbem.kit.gameapi import GMError

from ..core import board
from ..core.state import NATIVES
from .args import NATIVE_STRENGTH, STATUS_WORDS, UNIT_STRENGTHS, home_aware, private_edit

def set_treasury(state, a, data):
    p, n = a.power(), a.num()
    state["powers"][p]["treasury"] = n
    return private_edit(state, p, "treasury", n)


def set_vp(state, a, data):
    p, n = a.power(), a.num()
    state["powers"][p]["vp"] = n
    return [{"kind": "gm", "text": f"vp {p} = {n}"}]


def set_marker(state, a, data):
    p = a.power()
    status = a.kw(*STATUS_WORDS).lower()
    area = a.place("area")
    established = not a.opt("UNESTABLISHED")
    a.opt("ESTABLISHED")
    if status in ("dominion", "state"):
        status = "state" if p == "United States" else "dominion"
    return [board.set_marker(state, p, area, status, established, "GM")]


def remove_marker(state, a, data):
    p, area = a.power(), a.place("area")
    if board.status_of(state, area, p) is None:
        raise GMError(f"{p} has no marker in {area}")
    return [board.remove_marker(state, p, area, "GM")]


def _unit_where(state, a, data, power: str) -> tuple[str, str | None]:
    home_aware(a, power)
    place = a.place("area|home|sea", power)
    home = board.home_name(data, power)
    if place in data.seas and home and place in data.homes[power].seas:
        return home, place  # a navy in its Home Area sea box
    return place, None


def set_unit(kind):
    def handler(state, a, data):
        p = a.power(natives=(kind == "army"))
        strength = a.num()
        allowed = (NATIVE_STRENGTH,) if p in NATIVES else UNIT_STRENGTHS
        if strength not in allowed:
            raise GMError(f"strength must be one of {allowed}, not {strength}")
        if p in NATIVES:
            where, sea = a.place("area"), None
        elif kind == "army":
            home_aware(a, p)
            where, sea = a.place("area|home|sea", p), None
        else:
            where, sea = _unit_where(state, a, data, p)
            if a.opt("AT"):
                # ``... <Sea> AT SEA``: at sea in a War, not in the Home Area box of that sea
                a.kw("SEA")
                where, sea = sea or where, None
                if where not in data.seas and where not in data.capes:
                    raise GMError("AT SEA follows a Sea Zone or Cape Zone")
        if kind == "navy" and sea is None and where == board.home_name(data, p):
            sea = sorted(data.homes[p].seas)[0] if data.homes[p].seas else None
        if kind == "army" and where in data.seas and p not in state.get("merchants", {}).get(where, []):
            # Rules: Army Unit Movement - an army stands at sea only on its own Merchant Fleet.
            raise GMError(f"an army stands in a Sea Zone only with its own Merchant Fleet there "
                          f"(SET MERCHANT {p} {where} first)")
        unit = board.add_unit(state, p, kind, strength, where, sea)
        return [{"kind": "gm", "text": f"{kind} {p} {strength} at {where}", "unit": unit["id"]}]
    return handler


def remove_unit(kind):
    def handler(state, a, data):
        p = a.power(natives=(kind == "army"))
        strength = a.num()
        if p in NATIVES:
            where = a.place("area")
        elif kind == "army":
            home_aware(a, p)
            where = a.place("area|home|sea", p)
        else:
            where = _unit_where(state, a, data, p)[0]
        unit = board.find_unit(state, p, kind, strength, where)
        if unit is None:
            raise GMError(f"{p} has no {kind} of strength {strength} at {where}")
        board.remove_unit(state, unit["id"])
        return [{"kind": "gm", "text": f"removed {kind} {p} {strength} at {where}"}]
    return handler


def set_merchant(state, a, data):
    p, sea = a.power(), a.place("sea")
    if sea in data.capes:
        raise GMError("the Cape Zones cannot hold Merchant Fleets")
    fleets = state.setdefault("merchants", {}).setdefault(sea, [])
    if p not in fleets:
        fleets.append(p)
        fleets.sort()
    return [{"kind": "merchant", "power": p, "sea": sea, "action": "GM"}]


def remove_merchant(state, a, data):
    p, sea = a.power(), a.place("sea")
    fleets = state.get("merchants", {}).get(sea, [])
    if p not in fleets:
        raise GMError(f"{p} has no Merchant Fleet in {sea}")
    fleets.remove(p)
    return [{"kind": "merchant", "power": p, "sea": sea, "action": "GM removed"}]


def set_unrest(state, a, data):
    area = a.place("area")
    if area not in state.setdefault("unrest", []):
        state["unrest"].append(area)
        state["unrest"].sort()
    return [{"kind": "unrest", "area": area}]


def clear_unrest(state, a, data):
    area = a.place("area")
    if area in state.get("unrest", []):
        state["unrest"].remove(area)
    return [{"kind": "gm", "text": f"unrest cleared in {area}"}]


def set_index(key):
    def handler(state, a, data):
        state[key] = a.num()
        return [{"kind": "gm", "text": f"{key} = {state[key]}"}]
    return handler


def set_cb(state, a, data):
    holder, against = a.power(natives=True), a.power(natives=True)
    area = a.place("area") if a.opt("AREA") else None
    once = a.opt("ONCE")
    return [board.add_cb(state, holder, against, area, "GM", once, cause="gm")]


def add_eti(state, a, data):
    """``ADD ETI <n> [BLAME <Power>[,<Power>]]``: a GM ruling that raises tensions, with the
    blame the Great War penalty reads (Rules: EUROPEAN TENSIONS AND THE GREAT WAR)."""
    n = a.num()
    blame = []
    if a.opt("BLAME"):
        while a.more():
            blame.append(a.power())
    return [board.add_eti(state, n, "GM ruling", blame or None)]


def set_canal(state, a, data):
    area = a.place("area")
    if area not in board.CANAL_AREAS:
        raise GMError(f"a canal can only be in {' or '.join(board.CANAL_AREAS)}")
    if area not in state.setdefault("canals", []):
        state["canals"].append(area)
    return [{"kind": "canal", "area": area, "power": None, "reason": "GM"}]


def set_pool(state, a, data):
    p, n = a.power(), a.num()
    state.setdefault("merchant_pool", {})[p] = n
    state.setdefault("merchants_taken", {})[p] = state["turn"]
    return private_edit(state, p, "merchant pool", n)


def set_deficit(state, a, data):
    p, n = a.power(), a.num()
    state.setdefault("pending", {}).setdefault("deficit", {})[p] = n
    return private_edit(state, p, "deficit", n)


def set_headline(state, a, data):
    name = a.name()
    state.setdefault("turn_effects", {}).setdefault("headlines", []).append(name)
    return [{"kind": "gm", "text": f"headline {name}"}]


def set_permission(state, a, data):
    p = a.power()
    areas = []
    while a.more() and not a.peek_kw("MAX"):
        areas.append(a.place("area"))
    limit = a.num() if a.opt("MAX") else None
    state.setdefault("turn_effects", {}).setdefault("permissions", []).append(
        {"power": p, "areas": areas, "action": "establish_control", "max_areas": limit,
         "event": "GM"})
    return [{"kind": "gm", "text": f"permission {p}: {', '.join(areas)}"}]


def set_spendcap(state, a, data):
    p, n = a.power(), a.num()
    state.setdefault("turn_effects", {}).setdefault("spend_cap", {})[p] = n
    return private_edit(state, p, "spend cap", n)


def set_forced(state, a, data):
    p, n = a.power(), a.num()
    naval = a.opt("NAVAL")
    state.setdefault("turn_effects", {}).setdefault("forced", {})[p] = {"amount": n,
                                                                       "naval_only": naval}
    return private_edit(state, p, "forced expenditure", n)
