"""The Minor Powers Phase.

Rules: MINOR POWERS; DETERMINING MINOR POWER ACTIVITY; MINOR POWER/GREAT POWER STATUS
CONFLICTS; MINOR POWER/MINOR POWER STATUS CONFLICTS; MINOR POWER REACTION TO UNREST.

Every Minor Power (Netherlands, Belgium, Spain, Portugal, and Japan, Russia, Italy when
nobody plays them) rolls one die against its activity threshold; an active one rolls
two dice for a target Area and places the best marker the schedule allows there
(Possession, else Protectorate, else Influence, else Interest), re-rolling the target
until an eligible Area comes up.  Markers placed by Minor Powers are established at
once.  Then the power reacts to Unrest in the Areas it Controls (minor_unrest.py).
"""
from __future__ import annotations

from ..core import board, mapgraph, summaries
from . import minor_unrest

#: Rules: DETERMINING MINOR POWER ACTIVITY (Protectorate) - where a Protectorate may go.
ALWAYS_OPEN = ("unorganized", "chinese_vassal")
OPEN_IN_UNREST = ("independent", "chinese_empire", "ottoman")


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    events = minor_unrest.move_surplus_home(state, data)
    placed: dict[str, set[str]] = {}   # area -> minors that placed Control there this phase
    fought: set[str] = set()
    for power in board.minor_powers(state):
        if power not in data.minor_activity:
            continue
        events.extend(activity(state, data, dice, power, placed, fought))
        events.extend(minor_unrest.react(state, data, dice, power, fought))
    return events


def activity(state: dict, data, dice, power: str, placed: dict, fought: set) -> list[dict]:
    """Rules: DETERMINING MINOR POWER ACTIVITY."""
    table = data.minor_activity[power]
    roll = dice.d6(f"{power} activity")
    event = {"kind": "minor_power", "power": power, "active": roll <= table.threshold,
             "roll": roll, "area": None, "marker": None}
    if not event["active"]:
        return [event]
    if not (_free(state, data, power, "round") or _free(state, data, power, "hex")):
        # Rules: "If a Minor Power has no available Status markers ... the Minor Power is
        # considered inactive for the Game Turn."
        event.update(active=False, reason="no markers available")
        return [event]
    plans = {a: plan(state, data, power, a, placed) for a in set(table.targets.values())}
    if not any(plans.values()):
        # Choice: no Area of the table can take a marker, so re-rolling could never end;
        # the power does nothing this turn.
        event["reason"] = "no eligible area"
        return [event]
    events = [event]
    attempt = 0
    while True:
        attempt += 1
        suffix = "" if attempt == 1 else f" re-roll {attempt - 1}"
        total = dice.d6(f"{power} target first die{suffix}") + \
            dice.d6(f"{power} target second die{suffix}")
        area = table.targets[total]
        if plans.get(area):
            break
        events.append({"kind": "minor_power_reroll", "power": power, "roll": total,
                       "area": area})
    status, source = plans[area]
    event.update(area=area, marker=status, target_roll=total)
    events.extend(place(state, data, dice, power, area, status, source, placed, fought))
    return events


def plan(state: dict, data, power: str, area: str, placed: dict) -> tuple[str, dict | None] | None:
    """The marker the schedule gives ``power`` in ``area`` and where its army comes from
    (None: the Area is not eligible).  Rules: DETERMINING MINOR POWER ACTIVITY."""
    if area not in data.areas or not mapgraph.comm_link(state, data, power, area):
        return None  # every step of the schedule needs a Communication Link
    mine = board.status_of(state, area, power)
    if mine == "protectorate" and board.units_of(state, power, area, "army"):
        return "possession", None
    if board.rank(mine) >= board.rank("protectorate"):
        return None
    opposing = _opposing(state, power, area, placed)
    if not opposing & set(board.CONTROL):
        if _protectorate_open(state, data, area) and _free(state, data, power, "hex"):
            source = army_source(state, data, power, area)
            if source is not None:
                return "protectorate", source
        if board.rank(mine) < board.rank("influence") and (
                mine == "interest" and board.is_established(state, area, power)
                or _free(state, data, power, "round")):
            return "influence", None
    if mine is None and not opposing & {"possession", "dominion", "state"} \
            and _free(state, data, power, "round"):
        return "interest", None
    return None


def _opposing(state, power, area, placed) -> set[str]:
    """Statuses other powers hold in ``area``; Control markers that other Minor Powers
    placed this phase do not oppose (Rules: "If two or more Minor Powers are active in
    the same area, they will establish a codominion, if possible")."""
    partners = placed.get(area, set())
    return {m["status"] for p, m in board.markers_in(state, area).items()
            if p != power and not (p in partners and m["status"] in board.CONTROL)}


def _protectorate_open(state, data, area) -> bool:
    kind = data.areas[area].kind
    return kind in ALWAYS_OPEN or (kind in OPEN_IN_UNREST and board.in_unrest(state, area))


def _free(state: dict, data, power: str, group: str) -> bool:
    """A counter of the group ("round": Interest/Influence, "hex": Control) is not in use.
    Choice: without a counter limit in the data a power never runs out."""
    limit = _limit(data, power, group)
    return limit is None or board.markers_used(state, power, group) < limit


def _limit(data, power: str, key: str):
    limits = getattr(data, "counter_limits", None) or {}
    entry = limits.get(power) or limits.get("default") or {}
    if not hasattr(entry, "get"):
        return None
    value = entry.get(key)
    return int(value) if isinstance(value, (int, float)) else None


def army_source(state: dict, data, power: str, area: str) -> dict | None:
    """Rules: DETERMINING MINOR POWER ACTIVITY - the Army comes from the Home Area if
    possible, else from the nearest Area holding two or more of the power's Army Units,
    else from the counter tray; None when none is to be had.
    Choice: the smallest unit is taken (keeping the larger ones where they are); a new
    unit from the tray has strength 1, or the smallest strength still in the tray."""
    home = board.home_name(data, power)
    at_home = _smallest(board.units_of(state, power, home, "army"))
    if at_home:
        return {"unit": at_home["id"], "from": home}
    groups: dict[str, list[dict]] = {}
    for u in board.units_of(state, power, type="army"):
        if u["where"] != area:
            groups.setdefault(u["where"], []).append(u)
    crowded = [w for w, us in groups.items() if len(us) >= 2]
    if crowded:
        dist = mapgraph.distances(state, data, [area])
        crowded.sort(key=lambda w: (dist.get(w, 10**6), w))
        return {"unit": _smallest(groups[crowded[0]])["id"], "from": crowded[0]}
    for strength in (1, 3, 10):
        # Army and Naval Units share their pieces (printed back to back).
        limit = _limit(data, power, f"units_{strength}")
        used = sum(1 for u in board.units_of(state, power) if u["strength"] == strength)
        if limit is None or used < limit:
            return {"unit": None, "strength": strength, "from": "tray"}
    return None


def _smallest(units: list[dict]) -> dict | None:
    return min(units, key=lambda u: (u["strength"], u["id"])) if units else None


def place(state, data, dice, power, area, status, source, placed, fought) -> list[dict]:
    """Put the marker down, established at once, with its conflicts."""
    reason = "Minor Power activity"
    events: list[dict] = []
    if source is not None:
        events.append(_bring_army(state, data, power, area, source))
    events.append(board.set_marker(state, power, area, status, True, reason))
    events.extend(_resentment(state, data, power, area, status))
    if status in board.CONTROL:
        events.extend(_conflicts(state, power, area, status, placed))
        placed.setdefault(area, set()).add(power)
        if board.in_unrest(state, area) and area not in fought:
            # Rules: MINOR POWERS - "A Minor Power will, however, engage an Area in
            # Colonial Combat, to suppress Unrest in the Area, if it is directed to
            # undertake activity in the Area and meets the requirements for establishing
            # a Possession or Protectorate."
            fought.add(area)
            events.extend(minor_unrest.fight(state, data, dice, power, area))
    return events


def _bring_army(state, data, power, area, source) -> dict:
    if source["unit"] is None:
        u = board.add_unit(state, power, "army", source["strength"], area)
    else:
        u = next(x for x in state["units"] if x["id"] == source["unit"])
        u["where"] = area
    return {"kind": "unit_moved", "power": power, "type": "army", "strength": u["strength"],
            "from": source["from"], "to": area, "reason": "Minor Power activity"}


def _resentment(state, data, power, area, status) -> list[dict]:
    """Rules: CHINESE RESENTMENT (Chinese Resentment on placement).  An upgrade counts as a
    new placement at the full value of the new marker, as for a Great Power (Rules: Upgrading
    Status - "All rules applying to Status marker placement apply to upgrading", only the
    price being the difference)."""
    delta = summaries.cri_for_placement(data, area, status)
    return [board.add_cri(state, delta, f"{power} {status} in {area}")] if delta > 0 else []


def _conflicts(state, power, area, status, placed) -> list[dict]:
    """Rules: MINOR POWER/GREAT POWER STATUS CONFLICTS - a Great Power with an Influence
    marker gains a Casus Belli against a Minor Power placing a Protectorate.
    Rules: MINOR POWER/MINOR POWER STATUS CONFLICTS - a Minor Power's Influence is
    downgraded at once (to Interest, which a Protectorate allows; removed under a
    Possession), raising European Tensions; Minor Powers placing Control together waive
    their Casus Belli and share a Codominion.
    Choice: the downgrade's ETI rise blames nobody (no player acted)."""
    events: list[dict] = []
    reason = f"{power} {status} in {area}"
    for other, m in sorted(board.markers_in(state, area).items()):
        if other == power:
            continue
        if m["status"] == "influence" and status == "protectorate" and board.is_great(state, other):
            cb = board.add_cb(state, other, power, area, reason, cause="placement", rule="CB-03")
            if cb:
                events.append(cb)
        elif m["status"] == "influence" and not board.is_great(state, other):
            to = "interest" if status == "protectorate" else None
            if to:
                events.append(board.set_marker(state, other, area, to, True, reason))
            else:
                events.append(board.remove_marker(state, other, area, reason))
            events.append(board.add_eti(state, 1 if to else 2, reason, blame=None))
    partners = placed.get(area, set())
    if partners:
        for cb in [c for c in state.get("cb", []) if c.get("area") == area
                   and {c["holder"], c["against"]} <= partners | {power}]:
            events.append(board.remove_cb(state, cb, "waived: the Minor Powers share a Codominion"))
    return events
