"""The Colonial Combat Phase.

Rules: COLONIAL COMBAT; COLONIAL COMBAT TO ESTABLISH A CONTROL MARKER; COLONIAL COMBAT TO
SUPPRESS UNREST (Unrest in a Controlled Area, Unrest in an Influence Area, Unrest in a
Neutral Area, Unrest in Codominions); COLONIAL COMBAT RESOLUTION.

Who fights, and in what order (all deterministic, so scripted dice line up):
- Areas are taken in alphabetical order.
- A Great Power fights automatically for every unestablished Control marker it has where it
  has Army Units, and where it wrote ``SUPPRESS <area>`` (kept by the movement phase in
  ``state["turn_orders"]``).  Minor Powers never fight merely to establish (their markers are
  established at once) and suppress Unrest in the Minor Powers Phase, through :func:`fight`.
- In an Area in Unrest the would-be suppressors fight one after another until the Area is
  defeated.  Choice: the strongest force first, ties in the rules' order of the powers
  (Britain, France, Germany, ...); a Codominion's members fight together as one force.
- Once the Unrest is gone, every power still holding an unestablished Control marker there
  fights on its own, only to establish it.  No power fights twice in one Area.
"""
from __future__ import annotations

import math

from ..core import board, combat_table, mapgraph
from ..core.combat_table import cheapest_cover
from ..core.state import power_order

CONTROL = board.CONTROL


# -- who fights ----------------------------------------------------------------
def turn_orders(state: dict, kind: str) -> list[dict]:
    """This turn's stored orders of one kind (the movement phase keeps them)."""
    found = []
    for sender, items in sorted(state.get("turn_orders", {}).items()):
        for order in items or ():
            if order.get("kind") == kind:
                found.append({**order, "power": order.get("power") or sender})
    return found


def needs_combat(state: dict, area: str, power: str) -> bool:
    """Rules: ALTERING EXISTING STATUS MARKERS (Upgrading Status) - an upgrade from a
    Protectorate, and so every Dominion or State, is established without combat.
    The movement phase notes the marker an upgrade replaced in ``was``."""
    marker = board.markers_in(state, area).get(power)
    if not marker or marker["status"] not in CONTROL or marker.get("established"):
        return False
    if marker["status"] in ("dominion", "state"):
        return False
    return previous_status(marker) not in CONTROL


def previous_status(marker: dict) -> str | None:
    """The established marker an upgrade replaced (the movement phase keeps it in "was")."""
    return marker.get("was") or marker.get("from") or marker.get("upgraded_from")


def fail_marker(state: dict, power: str, area: str, reason: str) -> dict:
    """Rules: COLONIAL COMBAT TO ESTABLISH A CONTROL MARKER - the unestablished marker is
    removed.  Choice: an upgrade falls back to the established marker it replaced (an
    Influence stays an Influence); only the new marker is lost, so no European Tensions."""
    marker = board.markers_in(state, area).get(power) or {}
    before = previous_status(marker)
    if before and before not in CONTROL:
        return board.set_marker(state, power, area, before, True, f"{reason}: back to {before}")
    return board.remove_marker(state, power, area, reason)


def may_suppress(state: dict, power: str, area: str) -> bool:
    """Rules: Unrest in a Controlled Area ("other colonial Powers cannot intervene") and
    Unrest in Codominions (members only); Influence and Neutral Areas are open to all."""
    if not board.in_unrest(state, area):
        return False
    ctrl = board.controllers(state, area)
    return not ctrl or power in ctrl


def _strength(state: dict, powers: list[str], area: str) -> int:
    return sum(board.army_strength(state, p, area) for p in powers)


def _ordered(state: dict, groups: list[list[str]], area: str) -> list[list[str]]:
    """Choice: strongest force first, then the rules' order of the powers."""
    return sorted(groups, key=lambda g: (-_strength(state, g, area), power_order(g[0])))


def _suppress_orders(state: dict, area: str) -> set[str]:
    return {o["power"] for o in turn_orders(state, "suppress")
            if (o.get("args") or {}).get("area") == area}


def combat_areas(state: dict) -> list[str]:
    """Areas where some Great Power may have to fight this phase, alphabetically."""
    areas = {a for a, ms in state.get("markers", {}).items()
             if any(m["status"] in CONTROL and not m.get("established") for m in ms.values())}
    areas |= {(o.get("args") or {}).get("area") for o in turn_orders(state, "suppress")}
    return sorted(a for a in areas if a)


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    """Rules: GAME TURN SEQUENCE (Colonial Combat Phase).  Orders handed to this phase
    directly (a GM re-run, a scenario) count as if written in the movement phase."""
    for power, items in sorted((orders or {}).items()):
        kept = state.setdefault("turn_orders", {}).setdefault(power, [])
        kept += [o.to_json() if hasattr(o, "to_json") else dict(o) for o in items]
    events: list[dict] = []
    for area in combat_areas(state):
        if area in data.areas:
            events += area_combats(state, data, dice, area)
    return events


def area_combats(state: dict, data, dice, area: str) -> list[dict]:
    """Every combat of one Area, in order, then any Casus Belli between new controllers."""
    events: list[dict] = []
    great = [p for p in board.markers_in(state, area) if board.is_great(state, p)]
    for p in sorted(great, key=power_order):
        marker = board.markers_in(state, area)[p]
        if marker["status"] in CONTROL and not marker.get("established") \
                and not needs_combat(state, area, p):
            events.append(establish(state, p, area, "upgrade: no combat needed"))
    establishing = {p for p in great if needs_combat(state, area, p)
                    and board.army_strength(state, p, area) > 0}
    suppressors = {p for p in _suppress_orders(state, area)
                   if board.is_great(state, p) and may_suppress(state, p, area)
                   and board.army_strength(state, p, area) > 0}
    fought: set[str] = set()
    won: list[str] = []
    if board.in_unrest(state, area):
        ctrl = board.controllers(state, area)
        eligible = sorted((p for p in establishing | suppressors
                           if may_suppress(state, p, area)), key=power_order)
        if len(ctrl) >= 2 and eligible:
            groups = [eligible]  # Rules: Unrest in Codominions - members may combine
        else:
            groups = [[p] for p in eligible]
        for group in _ordered(state, groups, area):
            if not board.in_unrest(state, area):
                break
            purpose = "both" if set(group) & establishing else "suppress"
            result = fight(state, data, dice, group, area, purpose)
            events += result
            fought |= set(group)
            if area_defeated(result):
                won += [p for p in group if p in establishing]
    rest = [[p] for p in sorted(establishing - fought, key=power_order)]
    for group in _ordered(state, rest, area):
        result = fight(state, data, dice, group, area, "establish")
        events += result
        if area_defeated(result):
            won += group
    events += casus_belli(state, area, won)
    return events


def casus_belli(state: dict, area: str, won: list[str]) -> list[dict]:
    """Rules: COLONIAL COMBAT TO ESTABLISH A CONTROL MARKER - two or more powers that
    establish Control in one Area have a Casus Belli (each against each)."""
    events = []
    for holder in won:
        for against in won:
            if holder != against:
                ev = board.add_cb(state, holder, against, area,
                                  "both established Control in the same Area",
                                  cause="placement", rule="CB-02")
                if ev:
                    events.append(ev)
    return events


def area_defeated(events: list[dict]) -> bool:
    return any(e.get("kind") == "colonial_combat" and e.get("defeated") for e in events)


# -- one combat ----------------------------------------------------------------
def fight(state: dict, data, dice, powers: list[str], area: str, purpose: str,
          retreat_to=None) -> list[dict]:
    """One Colonial Combat of ``powers`` (one power, or Codominion members together) against
    ``area``.  ``purpose``: "establish", "suppress" or "both".  Applies every consequence
    (losses, retreats, the marker, the Unrest marker) and returns the events; the
    ``colonial_combat`` event carries ``defeated``.  Rules: COLONIAL COMBAT RESOLUTION.

    ``retreat_to(state, data, power, area)`` names where a beaten power's armies go (None:
    eliminated); by default :func:`retreat_place`.  Minor Powers reacting to Unrest pass
    their own rule (Rules: MINOR POWER REACTION TO UNREST)."""
    powers = [powers] if isinstance(powers, str) else list(powers)
    attack = _strength(state, powers, area)
    if attack <= 0:
        return []
    defense = int(data.areas[area].cs)
    ev = {"kind": "colonial_combat", "area": area, "power": powers[0], "powers": powers,
          "purpose": purpose, "attack": attack, "defense": defense}
    events = [ev]
    if defense <= 0:
        # Rules: COLONIAL COMBAT - a zero Combat Strength falls without a die.
        ev.update(ratio=None, table=None, die=None, result="auto", defeated=True)
    else:
        die = dice.d6(f"colonial combat: {'+'.join(powers)} in {area}")
        ev.update(combat_table.resolve(data, attack, defense, die), die=die)
        defeated, losses = apply_result(state, powers, area, ev["result"], defense)
        ev["defeated"] = defeated
        events += losses
    if ev["defeated"]:
        events += _won(state, powers, area)
    else:
        events += _lost(state, data, powers, area, purpose, retreat_to)
    return events


def apply_result(state: dict, powers: list[str], area: str, result: str,
                 defense: int) -> tuple[bool, list[dict]]:
    """Rules: COLONIAL COMBAT RESOLUTION - the six results' colonial meanings.
    Returns (Area defeated?, unit_lost events)."""
    units = [u for p in powers for u in board.units_of(state, p, area, "army")]
    attack = sum(u["strength"] for u in units)
    if result in combat_table.DEFENDER_LOSES:
        return True, []
    if result == "AR":
        return False, []  # the retreat follows in _lost
    if result == "EX" and defense < attack:
        need = defense
    elif result == "HALF_EX" and defense <= attack:
        need = math.ceil(defense / 2)  # "at least equal to one-half": halves round up
    else:  # E, and EX/HALF_EX against the stronger Area, count as E
        need = attack
    chosen = choose_losses(units, need, _elimination_prefs(state, powers, area))
    events = [lose_unit(state, u, "colonial combat") for u in chosen]
    # "If, after he has made his elimination, he has any Units remaining ... defeated"
    return any(u not in chosen for u in units), events


def _elimination_prefs(state: dict, powers: list[str], area: str) -> list[tuple[str, int]]:
    """Players' ``ELIMINATE`` orders for this Area: (power, strength) in the order written."""
    prefs = []
    for o in turn_orders(state, "eliminate"):
        args = o.get("args") or {}
        if o["power"] in powers and args.get("area") in (None, area) and args.get("strength"):
            prefs.append((o["power"], int(args["strength"])))
    return prefs


def choose_losses(units: list[dict], need: int,
                  prefs: list[tuple[str, int]] = ()) -> list[dict]:
    """Units to eliminate for at least ``need`` strength points.  The player's own choices
    come first; the rest is chosen to lose the least.  Choice: the smallest total strength
    that meets the requirement, then the fewest units, then the lowest unit numbers."""
    chosen: list[dict] = []
    pool = sorted(units, key=lambda u: u["id"])
    for power, strength in prefs:
        if sum(u["strength"] for u in chosen) >= need:
            break
        match = next((u for u in pool if u["power"] == power and u["strength"] == strength
                      and u not in chosen), None)
        if match:
            chosen.append(match)
    short = need - sum(u["strength"] for u in chosen)
    if short <= 0:
        return chosen
    rest = [u for u in pool if u not in chosen]
    return chosen + cheapest_cover(rest, short)


def lose_unit(state: dict, unit: dict, reason: str) -> dict:
    board.remove_unit(state, unit["id"])
    return {"kind": "unit_lost", "power": unit["power"], "unit": unit["id"],
            "type": unit["type"], "strength": unit["strength"], "area": unit["where"],
            "reason": reason}


# -- consequences ----------------------------------------------------------------
def establish(state: dict, power: str, area: str, reason: str) -> dict:
    """Remove the Status Change marker: the marker is established."""
    status = board.status_of(state, area, power)
    ev = board.set_marker(state, power, area, status, True, reason)
    # Kept so Marker Adjustment can blame the newcomer in a marker conflict.
    state["markers"][area][power]["established_turn"] = state.get("turn")
    ev["from"] = status
    return ev


def _won(state: dict, powers: list[str], area: str) -> list[dict]:
    """Rules: COLONIAL COMBAT TO ESTABLISH A CONTROL MARKER / TO SUPPRESS UNREST."""
    events = []
    for p in powers:
        if needs_combat(state, area, p):
            events.append(establish(state, p, area, "colonial combat won"))
    if board.in_unrest(state, area):
        state["unrest"].remove(area)
        events.append({"kind": "unrest", "area": area, "cleared": True,
                       "by": "+".join(powers), "reason": "suppressed"})
    return events


def _lost(state: dict, data, powers: list[str], area: str, purpose: str,
          retreat_to=None) -> list[dict]:
    """Rules: COLONIAL COMBAT TO ESTABLISH A CONTROL MARKER - the unestablished marker is
    removed and the Army Units retreat (AR retreats them whatever the purpose)."""
    events = []
    for p in powers:
        if purpose != "suppress" and needs_combat(state, area, p):
            events.append(fail_marker(state, p, area, "colonial combat lost"))
        armies = board.units_of(state, p, area, "army")
        # One destination per power, judged before any of its units leaves.
        dest = (retreat_to or retreat_place)(state, data, p, area) if armies else None
        for unit in armies:
            events.append(retreat_unit(state, data, unit, dest=dest))
    return events


# -- retreats ----------------------------------------------------------------------
def retreat_place(state: dict, data, power: str, area: str) -> str | None:
    """Rules: COLONIAL COMBAT RESOLUTION (AR).  Choice: the Home Country when it can be
    reached (always legal, no maintenance), else the nearest Controlled Area, by name."""
    places = mapgraph.retreat_destinations(state, data, power, area)
    home = board.home_name(data, power)
    if home in places:
        return home
    return places[0] if places else None


_UNSET = object()


def retreat_unit(state: dict, data, unit: dict, reason: str = "retreat", dest=_UNSET) -> dict:
    """Move one unit out; with nowhere to go it is eliminated.  Naval Units sail home
    (Rules: MOVEMENT, Naval Units - they may always go to a Home Area Sea Zone Box).
    An army goes to ``dest`` when given (None: nowhere), else to :func:`retreat_place`."""
    origin = unit["where"]
    home = board.home_name(data, unit["power"])
    if unit["type"] == "navy":
        dest = home
    elif dest is _UNSET:
        dest = retreat_place(state, data, unit["power"], origin)
    if dest is None:
        return lose_unit(state, unit, f"{reason}: no retreat possible")
    unit["where"] = dest
    unit["sea"] = _home_sea(data, unit["power"], origin) \
        if dest == home and unit["type"] == "navy" else None
    return {"kind": "unit_retreated", "power": unit["power"], "unit": unit["id"],
            "type": unit["type"], "strength": unit["strength"], "from": origin, "to": dest,
            "reason": reason}


def _home_sea(data, power: str, origin: str) -> str | None:
    """Choice: a unit arriving home is kept in the Home Area box of a sea it could have
    sailed by (one the origin touches), else the first of the home's seas by name."""
    home = data.homes.get(power)
    if home is None or not home.seas:
        return None
    near = sorted(set(home.seas) & set(mapgraph.seas_of(data, origin)))
    return near[0] if near else sorted(home.seas)[0]
