"""The Random Events Phase.

Rules: GAME TURN SEQUENCE (Random Events Phase); RANDOM EVENTS; DETERMINING RANDOM
EVENTS; HEADLINE EVENTS; UNREST; Forced Expenditures and Tension Increases.

One die gives the number of events; each event is two dice read in order
("d1-d2") looked up in the Random Events Table (``data.random_events``).  A
headline event's lasting effects are written into ``state["turn_effects"]``,
which later phases of the same turn read:

- ``co_mult[power]``: the product of every Colonial Office multiplier this turn
  (Navy League x Colonial League = 4; Upheaval in Russia = 0).
- ``forced[power]``: ``{"amount", "naval_only", "excluding", "event"}``, the
  least the power must spend on units (maintenance first, see administrative).
- ``spend_cap[power]``: the most the power may spend buying units.
- ``pressure``: ``[{"power", "area", "status", "event", "possible"}]``.
- ``permissions``: ``[{"power", "areas", "action", "max_areas", "event"}]``.
- ``events``: the rolls that took effect, in order; ``headlines`` their names.
"""
from __future__ import annotations

from ..core import board
from . import unrest_rolls

#: Rules: HEADLINE EVENTS - "War in South America: Panama is considered part of
#: South America."  Used only when the data has no "south_america" region.
SOUTH_AMERICA = ("Panama", "Colombia", "Venezuela", "Guiana", "Ecuador", "Peru", "Brasil",
                 "Bolivia", "Chile", "Argentina")
#: Rules: HEADLINE EVENTS (Clarifications) - Conservative and Liberal victories in
#: Britain exclude each other; used when the data gives no ``excludes``.
EXCLUSIVE = {"1-2": ("1-3",), "1-3": ("1-2",)}


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    """Rules: DETERMINING RANDOM EVENTS.  Clears last turn's effects and orders first."""
    state["turn_effects"] = {}
    state["turn_orders"] = {}
    effects = state["turn_effects"]
    count = dice.d6("number of random events")
    events: list[dict] = [{"kind": "random_events", "count": count}]
    rolled: list[str] = []
    for n in range(1, count + 1):
        if state.get("great_war"):
            # Rules: EUROPEAN TENSIONS AND THE GREAT WAR - the game ends at once.
            break
        event = _draw_event(dice, data, n, rolled, events)
        rolled.append(event.roll)
        events.append({"kind": "random_event", "roll": event.roll, "name": event.name,
                       "number": n})
        events.extend(apply_event(state, data, dice, event, n))
    effects["events"] = rolled
    return events


def _draw_event(dice, data, n: int, rolled: list[str], events: list[dict]):
    """Rules: HEADLINE EVENTS - a headline event already rolled this phase, or one
    excluded by an event already rolled (Conservative/Liberal), is re-rolled."""
    attempt = 0
    while True:
        attempt += 1
        suffix = "" if attempt == 1 else f" re-roll {attempt - 1}"
        first = dice.d6(f"event {n} first die{suffix}")
        second = dice.d6(f"event {n} second die{suffix}")
        event = data.random_events[f"{first}-{second}"]
        if event.kind == "headline" and _blocked(event, rolled):
            events.append({"kind": "random_event_reroll", "roll": event.roll,
                           "name": event.name, "number": n})
            continue
        return event


def _blocked(event, rolled: list[str]) -> bool:
    if event.roll in rolled:
        return True
    excluded = tuple(getattr(event, "excludes", ()) or ()) or EXCLUSIVE.get(event.roll, ())
    return any(r in rolled for r in excluded)


def apply_event(state: dict, data, dice, event, n: int = 1) -> list[dict]:
    """Carry out one event's effects (Rules: HEADLINE EVENTS; UNREST)."""
    if event.kind == "unrest":
        return unrest_rolls.place_unrest(state, data, dice, event.table, n)
    out: list[dict] = []
    reason = f"random event {event.roll} {event.name}"
    effects = state.setdefault("turn_effects", {})
    effects.setdefault("headlines", []).append(event.name)
    power = event.power
    if power and event.co_mult is not None and float(event.co_mult) != 1:
        mult = effects.setdefault("co_mult", {})
        # Rules: HEADLINE EVENTS (Clarifications) - multipliers stack: Navy League and
        # Colonial League together quadruple; Upheaval in Russia (x0) wipes the income.
        mult[power] = mult.get(power, 1) * float(event.co_mult)
    if power and getattr(event, "forced_spend", 0) and board.is_great(state, power):
        # Rules: Forced Expenditures and Tension Increases.
        effects.setdefault("forced", {})[power] = {
            "amount": int(event.forced_spend),
            "naval_only": bool(event.forced_naval_only),
            "excluding": event.forced_excludes,
            "event": event.name}
    if power and getattr(event, "spend_cap", None) is not None:
        effects.setdefault("spend_cap", {})[power] = int(event.spend_cap)
    if event.eti:
        # Rules: HEADLINE EVENTS - a Random Event never blames a player for a Great War.
        out.append(board.add_eti(state, int(event.eti), reason, blame=None))
    if event.cri:
        out.append(board.add_cri(state, int(event.cri), reason))
    target = getattr(event, "cb_against", None)
    if power and target:
        # Rules: HEADLINE EVENTS - American "Yellow Press": a one-time CB against Spain.
        cb = board.add_cb(state, power, target, None, reason, once=True, cause="event")
        if cb:
            out.append(cb)
    if getattr(event, "permission", None):
        out.extend(_permission(state, data, event))
    if getattr(event, "pressure", None):
        out.extend(_pressure(state, event))
    return out


def _permission(state: dict, data, event) -> list[dict]:
    """Rules: HEADLINE EVENTS - Serbia Defies Austria-Hungary, War in South America,
    Boer Oppression of Uitlanders: the power may buy a Control marker in the listed
    Areas this turn (and must pay for it), move Army Units in and fight there."""
    p = dict(event.permission)
    power = p.get("power") or event.power
    areas = list(p.get("areas") or ())
    region = p.get("region")
    if not areas and region:
        regions = getattr(data, "regions", None) or {}
        areas = list(regions.get(region) or (SOUTH_AMERICA if region == "south_america" else ()))
    entry = {"power": power, "areas": areas, "action": p.get("action", "establish_control"),
             "max_areas": p.get("count"), "event": event.name}
    state["turn_effects"].setdefault("permissions", []).append(entry)
    return [{"kind": "permission", **entry}]


def _pressure(state: dict, event) -> list[dict]:
    """Rules: HEADLINE EVENTS (Australian/New Zealand/South African Pressure for
    Dominion, Alaskan Pressure for Statehood): grant it this turn or lose VP.

    Choice: pressure only bites a power holding an established Possession there (the
    only status that may be raised).  If it already holds the Dominion/State, or holds
    less than an established Possession, the event has no effect ("possible": false).
    """
    p = dict(event.pressure)
    power = p.get("power") or event.power
    area = p["area"]
    status = p.get("status") or ("state" if power == "United States" else "dominion")
    m = board.markers_in(state, area).get(power)
    possible = bool(m and m["status"] == "possession" and m.get("established"))
    entry = {"power": power, "area": area, "status": status, "event": event.name,
             "vp": -abs(int(p.get("vp", 5))), "possible": possible}
    state["turn_effects"].setdefault("pressure", []).append(entry)
    return [{"kind": "pressure", **entry}]
