"""The Administrative Phase: each Great Power's Administrative Record, Sections I-IV.

Rules: ADMINISTRATIVE RECORD; STATUS RECORD; INCOME RECORD; MAINTENANCE RECORD;
NET INCOME RECORD; CODOMINIONS (the designer's codominion income errata).

Choice (the record sheet is not in the rules text; its lines are rebuilt from the
text): 01 Dominions/States, 02 Possessions, 03 EV of 01+02; 04 Protectorates, 05 EV;
06 Influences, 07 EV; 08 Interests, 09 EV; 10 Colonial Office; 11-14 = 03x5, 05x4,
07x2, 09x1 (the marker income multipliers); 15 total income; 16 Strength Points
abroad; 17-20 = 01x30, 02x20, 04x10, 06x5 (marker maintenance); 21 total
maintenance; 22 net income.  The multipliers and costs come from ``data.markers``.
"""
from __future__ import annotations

import math

from pbem.kit.state_copy import copy_state

from ..core import board, mapgraph
from ..core.movement_units import navy_unit

#: Record lines holding (count line, EV line, income line, maintenance line) per status group.
GROUPS = (("dominion", ("dominion", "state"), "01", "03", "11", "17"),
          ("possession", ("possession",), "02", "03", "11", "18"),
          ("protectorate", ("protectorate",), "04", "05", "12", "19"),
          ("influence", ("influence",), "06", "07", "13", "20"),
          ("interest", ("interest",), "08", "09", "14", None))


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    """Rules: ADMINISTRATIVE RECORD - every Great Power, Austria-Hungary separately
    (its accounts are kept by the German player).  Minor Powers keep no accounts."""
    events: list[dict] = []
    state.setdefault("pending", {}).pop("deficit", None)
    for power in board.great_powers(state):
        events.append(record(state, data, dice, power))
    return events


def record(state: dict, data, dice, power: str) -> dict:
    """Fill in Sections I-IV for one power and move the money; returns the income event."""
    lines = status_lines(state, data, power)
    co, roll = colonial_office(state, data, dice, power)
    lines["10"] = co
    # Kept for the turn, so the Movement Phase's report can say the die (phases/obligations.py).
    state.setdefault("turn_effects", {}).setdefault("colonial_office", {})[power] = {"amount": co, "roll": roll}
    lines["15"] = co + sum(lines[k] for k in ("11", "12", "13", "14"))
    lines["16"] = unit_maintenance(state, data, power)
    lines["21"] = lines["16"] + sum(lines[k] for k in ("17", "18", "19", "20"))
    lines["22"] = lines["15"] - lines["21"]
    _forced_paid(state, data, power)
    total = board.treasury(state, power) + lines["22"]
    event = {"kind": "income", "power": power, "colonial_office": co, "roll": roll,
             "markers": lines["15"] - co, "maintenance": lines["21"], "net": lines["22"],
             "lines": lines}
    if total < 0:
        # Rules: NET INCOME RECORD - a negative result: the Treasury stays at zero and the
        # player must eliminate units abroad and/or markers worth the shortfall (this is
        # settled first thing in the Movement/Status Change Phase: settle_deficit).
        state["powers"][power]["treasury"] = 0
        state["pending"].setdefault("deficit", {})[power] = -total
        event["deficit"] = -total
    else:
        state["powers"][power]["treasury"] = total
    event["treasury"] = state["powers"][power]["treasury"]
    return event


def status_lines(state: dict, data, power: str, established_only: bool = False) -> dict:
    """Rules: STATUS RECORD and INCOME RECORD lines 01-09, 11-14, 17-20.

    Only markers with a Communication Link count ("You never receive income from an
    Area to which you cannot trace a Communication Link").  Choice: a marker without a
    link is left off the sheet entirely, so it costs no maintenance either (the text
    says not to count it on lines 01-09, which drive lines 17-20).  Unestablished
    markers pay maintenance but earn nothing.
    """
    lines = {f"{n:02d}": 0 for n in range(1, 23)}
    for area, status, established in linked_markers(state, data, power):
        if established_only and not established:
            continue
        for _, statuses, count, ev_line, _, _ in GROUPS:
            if status in statuses:
                lines[count] += 1
                if established:
                    lines[ev_line] += effective_ev(state, data, area, status)
    for key, statuses, count, ev_line, income, maint in GROUPS:
        if key != "dominion":  # dominions share line 03 with possessions
            lines[income] = lines[ev_line] * data.markers[statuses[0]].income_mult
        if maint:
            lines[maint] = lines[count] * data.markers[statuses[0]].maint
    return lines


def marker_income(state: dict, data, power: str) -> int:
    """Lines 11-14 (income from Areas only), as the Final Record re-figures it."""
    lines = status_lines(state, data, power, established_only=True)
    return sum(lines[k] for k in ("11", "12", "13", "14"))


def linked_markers(state: dict, data, power: str) -> list[tuple[str, str, bool]]:
    """(area, status, established) of the power's markers with a Communication Link."""
    out = []
    for area in board.areas_of(state, power):
        if area not in data.areas:
            continue  # a marker on a Home Country (set-up bookkeeping) earns nothing
        if not mapgraph.comm_link(state, data, power, area):
            continue
        m = board.markers_in(state, area)[power]
        out.append((area, m["status"], bool(m.get("established"))))
    return out


def effective_ev(state: dict, data, area: str, status: str) -> int:
    """Rules: CODOMINIONS - "reduce the effective economic value by 1 for every control
    marker after the first"; Interests and Influences keep the full value.
    Choice: only established Control markers are counted for the reduction."""
    ev = data.areas[area].ev
    if status not in board.CONTROL:
        return ev
    k = len(board.controllers(state, area))
    return max(0, ev - max(0, k - 1))


def colonial_office(state: dict, data, dice, power: str) -> tuple[int, int | None]:
    """Rules: INCOME RECORD - one die on the power's Colonial Office column; a power
    (not Austria-Hungary) with no Control markers on the map takes the 6-result
    without rolling.  Then this turn's Random Event multipliers (HEADLINE EVENTS).

    Choice: "no Control markers on the map" counts every Control marker, established or
    not, and none on a Home Country.  Choice: a halved result loses its fraction.
    """
    column = data.colonial_office[data.powers[power].co_level]
    has_control = any(area in data.areas and board.has_control(state, power, area, False)
                      for area in board.areas_of(state, power, board.CONTROL))
    roll = None
    if has_control or power == "Austria-Hungary":
        roll = dice.d6(f"{power} colonial office")
        base = column[roll - 1]
    else:
        base = column[5]
    mult = state.get("turn_effects", {}).get("co_mult", {}).get(power, 1)
    return int(math.floor(base * mult)), roll


def unit_maintenance(state: dict, data, power: str, units: list | None = None) -> int:
    """Rules: MAINTENANCE RECORD - one £ per Strength Point of each Army and Naval Unit
    outside the Home Area; none for US/British units in their States/Dominions."""
    return sum(unit_cost(state, data, power, u)
               for u in (units if units is not None else board.units_of(state, power)))


def unit_cost(state: dict, data, power: str, unit: dict) -> int:
    if unit["where"] == board.home_name(data, power):
        return 0
    if power in ("United States", "Britain") and \
            board.status_of(state, unit["where"], power) in ("state", "dominion"):
        return 0
    return int(unit["strength"])


def _forced_paid(state: dict, data, power: str) -> None:
    """Rules: Forced Expenditures and Tension Increases - maintenance of units counts
    toward the forced expenditure; what remains must be spent building units in the
    Movement/Status Change Phase (``forced[power]["remaining"]``)."""
    forced = state.get("turn_effects", {}).get("forced", {}).get(power)
    if not forced:
        return
    counted = [u for u in board.units_of(state, power)
               if (u["type"] == "navy" or not forced.get("naval_only"))
               and u["id"] not in indian_army_ids(state, data, power,
                                                         forced.get("excluding"))]
    paid = unit_maintenance(state, data, power, counted)
    forced["paid"] = paid
    forced["remaining"] = max(0, int(forced["amount"]) - paid)



# -- a negative net income ---------------------------------------------------------------

#: Choice: "India" (Rules: Special British Garrison Rule, defined on the unpublished Bonus
#: VP Summary) is taken as the British-held sub-continent Areas of 1880, unless the data
#: gives a region "india".
INDIA = ("Bengal", "Hindoostan", "Kashmir", "Punjab", "Rajputana", "United Provinces")
#: Rules: Special Russian Garrison Rule - where the Western Garrison stands.
RUSSIAN_WEST = ("Russia", "Serbia", "Rumania", "Greece", "Bulgaria", "Anatolia")


def india_areas(data) -> tuple[str, ...]:
    regions = getattr(data, "regions", {}) or {}
    return tuple(regions.get("india") or regions.get("India") or INDIA)


def indian_army_ids(state: dict, data, power: str, excluding=None) -> set[int]:
    """Rules: Special British Garrison Rule - the Indian Army: three British Army (10)
    Units within India.  Only British units can be excluded."""
    if power != "Britain" or (excluding is not None and "india" not in str(excluding).lower()):
        return set()
    india = set(india_areas(data))
    tens = [u for u in board.units_of(state, "Britain", type="army")
            if u["strength"] == 10 and u["where"] in india]
    return {u["id"] for u in sorted(tens, key=lambda u: u["id"])[:3]}


def settle_deficit(state: dict, data, power: str, remove_orders) -> list[dict]:
    """Rules: NET INCOME RECORD - "he must eliminate exactly (or as near to exactly as
    possible) the necessary number of Military Units abroad and/or Status markers".

    Called by the Movement/Status Change Phase first thing.  The player's own
    ``REMOVE ARMY|NAVY <strength> <place>`` and ``DOWNGRADE <area>`` orders count first,
    by the maintenance they save; the default then removes what is still needed.

    Choice (the default, in this order):
    1. units abroad that no garrison rule needs (not the last Army of a Controlled
       Area, not the Indian Army, not the Russian Western Garrison), the combination
       whose maintenance is the least that covers the shortfall;
    2. Influence markers downgraded to Interest, lowest Economic Value first;
    3. Controlled Areas given up, lowest value first: the Control marker falls to
       Influence (removed in a Codominion) and the units there are eliminated.
    Rules: Forced Expenditures - with a forced expenditure this turn units are
    maintained first, so steps 2 and 1 swap.  Every marker step lost raises the
    European Tensions Index by 1 (Rules: EUROPEAN TENSION INCREASES), blamed on the
    power.
    """
    need = int(state.get("pending", {}).get("deficit", {}).get(power, 0))
    if need <= 0:
        return []
    events: list[dict] = [{"kind": "deficit", "power": power, "amount": need}]
    for order in remove_orders or ():
        if need <= 0:
            break
        saved, evs = _apply_order(state, data, power, order)
        need -= saved
        events.extend(evs)
    forced = power in state.get("turn_effects", {}).get("forced", {})
    steps = (_downgrade_influences, _remove_surplus_units) if forced else \
        (_remove_surplus_units, _downgrade_influences)
    for step in steps + (_give_up_areas,):
        if need <= 0:
            break
        saved, evs = step(state, data, power, need)
        need -= saved
        events.extend(evs)
    state["pending"]["deficit"].pop(power, None)
    if not state["pending"]["deficit"]:
        state["pending"].pop("deficit")
    events.append({"kind": "deficit_settled", "power": power, "short": max(0, need)})
    return events


def default_plan(state: dict, data, power: str) -> list[dict]:
    """What the default would remove to meet ``power``'s deficit if it wrote no REMOVE line
    (settle_deficit tried on a copy): the reports' offer and the default say the same."""
    trial = copy_state(state)
    return [e for e in settle_deficit(trial, data, power, []) if e.get("kind") in ("unit_removed", "marker")]


def _field(order, name, *alts):
    args = order.get("args", {}) if isinstance(order, dict) else dict(order.args)
    for key in (name,) + alts:
        if key in args:
            return args[key]
    return None


def _apply_order(state: dict, data, power: str, order) -> tuple[int, list[dict]]:
    kind = str(order.get("kind") if isinstance(order, dict) else order.kind).lower()
    if kind.startswith("remove"):
        utype = str(_field(order, "type", "unit", "unit_type") or "army").lower()
        utype = "navy" if utype in ("navy", "naval", "fleet") else "army"
        strength = int(_field(order, "strength") or 0)
        where = _field(order, "where", "place", "area")
        # A navy at home lies in a Home Area sea box: the order may name the box (the
        # same lookup the order's validation uses).
        unit = navy_unit(state, data, power, strength, where) if utype == "navy" else \
            board.find_unit(state, power, utype, strength, where)
        if unit is None or unit["where"] == board.home_name(data, power):
            return 0, []  # only units abroad meet a deficit (refused at validation)
        return _drop_units(state, data, power, [unit], "deficit: player's order")
    if kind.startswith("downgrade"):
        # Choice: to meet a deficit a player may name any of its markers ("eliminate ...
        # Status markers"); without a "to" status it drops one step (a Dominion/State to
        # Possession, a Protectorate to Influence, an Interest to nothing).
        area = _field(order, "area", "where", "place")
        status = board.status_of(state, area, power)
        if status is None:
            return 0, []
        to = str(_field(order, "to", "status") or _STEP_DOWN[status]).lower()
        if board.rank(None if to == "none" else to) >= board.rank(status):
            return 0, []
        return _downgrade(state, data, power, area, to, "deficit: player's order")
    return 0, []


_STEP_DOWN = {"state": "possession", "dominion": "possession", "possession": "protectorate",
              "protectorate": "influence", "influence": "interest", "interest": "none"}


def _drop_units(state, data, power, units, reason) -> tuple[int, list[dict]]:
    saved, events = 0, []
    for u in units:
        saved += unit_cost(state, data, power, u)
        board.remove_unit(state, u["id"])
        events.append({"kind": "unit_removed", "power": power, "type": u["type"],
                       "strength": u["strength"], "where": u["where"], "reason": reason})
    return saved, events


def _downgrade(state, data, power, area, to, reason) -> tuple[int, list[dict]]:
    before = board.status_of(state, area, power)
    charged = mapgraph.comm_link(state, data, power, area)
    saved = data.markers[before].maint - (data.markers[to].maint if to != "none" else 0)
    if to == "none":
        ev = board.remove_marker(state, power, area, reason)
    else:
        ev = board.set_marker(state, power, area, to, True, reason)
    steps = board.rank(before) - board.rank(None if to == "none" else to)
    eti = board.add_eti(state, steps, f"{power} {before} in {area} not maintained", power)
    return (saved if charged else 0), [ev, eti]


def _protected_ids(state: dict, data, power: str) -> set[int]:
    keep = set(indian_army_ids(state, data, power))
    for area in board.areas_of(state, power, board.CONTROL):
        armies = sorted(board.units_of(state, power, area, "army"),
                        key=lambda u: (u["strength"], u["id"]))
        armies = [u for u in armies if u["id"] not in keep]
        if armies and not any(u["id"] in keep for u in board.units_of(state, power, area)):
            keep.add(armies[0]["id"])
    if power == "Russia":
        tens = [u for u in board.units_of(state, power, type="army")
                if u["strength"] == 10 and u["where"] in RUSSIAN_WEST]
        keep |= {u["id"] for u in sorted(tens, key=lambda u: u["id"])[:3]}
    return keep


def _remove_surplus_units(state, data, power, need) -> tuple[int, list[dict]]:
    keep = _protected_ids(state, data, power)
    pool = [u for u in board.units_of(state, power)
            if u["id"] not in keep and unit_cost(state, data, power, u) > 0]
    chosen = nearest_cover(pool, need, lambda u: unit_cost(state, data, power, u))
    return _drop_units(state, data, power, chosen, "deficit: not maintained")


def nearest_cover(items: list, need: int, cost) -> list:
    """The items whose total cost is the least total >= ``need`` (fewest items on a
    tie, then lowest ids); all of them when even the whole pool falls short."""
    best: dict[int, list] = {0: []}
    for item in sorted(items, key=lambda u: u["id"]):
        c = cost(item)
        for total, picked in sorted(best.items(), reverse=True):
            new = total + c
            if new not in best or len(best[new]) > len(picked) + 1:
                best[new] = picked + [item]
    covering = [t for t in best if t >= need]
    if not covering:
        return list(items)
    return best[min(covering)]


def _by_value(state, data, power, areas):
    return sorted(areas, key=lambda a: (data.areas[a].ev if a in data.areas else 0, a))


def _downgrade_influences(state, data, power, need) -> tuple[int, list[dict]]:
    saved, events = 0, []
    for area in _by_value(state, data, power, board.areas_of(state, power, ("influence",))):
        if saved >= need:
            break
        s, evs = _downgrade(state, data, power, area, "interest", "deficit: not maintained")
        saved += s
        events.extend(evs)
    return saved, events


def _give_up_areas(state, data, power, need) -> tuple[int, list[dict]]:
    saved, events = 0, []
    areas = [a for a in board.areas_of(state, power, board.CONTROL) if a in data.areas]
    areas.sort(key=lambda a: (board.rank(board.status_of(state, a, power)),
                              data.areas[a].ev, a))
    for area in areas:
        if saved >= need:
            break
        codominion = len(board.controllers(state, area)) > 1
        s, evs = _downgrade(state, data, power, area, "none" if codominion else "influence",
                            "deficit: not maintained")
        u, uevs = _drop_units(state, data, power, board.units_of(state, power, area),
                              "deficit: area given up")
        saved += s + u
        events.extend(evs + uevs)
    return saved, events
