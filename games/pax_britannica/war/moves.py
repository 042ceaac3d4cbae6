"""Movement during an Alliance Maneuver Phase: one Area or Sea Zone per unit per phase.

Rules: MOVEMENT DURING AN ALLIANCE MANEUVER PHASE ("The following rules for movement totally
supercede the normal movement rules ... each Military Unit can move only one Sea Zone or Area
each Alliance Maneuver Phase"): Naval Unit Movement, Army Unit Movement, Restrictions on Army
Unit Movement, Cape Zones, Minor Power Movement; CODOMINIONS AND WARS; CANALS AND STRAITS;
GARRISONS (the Indian Army and the Western Garrison bind in War too); AUSTRIA-HUNGARY ("German
Army Units can move through Austria-Hungary and its Controlled Areas during a War provided both
countries are at War").
"""
from __future__ import annotations

from ..core import board, mapgraph
from ..core.movement_units import garrison_rules
from . import geo, model

Fail = tuple[str, str] | None
#: Rules: Naval Unit Movement (Important Note) - "a Naval Unit in the North Atlantic/Caribbean
#: [box of the US Home Area] could move to either of those Sea Zones".
SHARED_PORTS = {"United States": ({"North Atlantic Ocean", "Caribbean Sea"},)}


def is_sea(data, place: str) -> bool:
    return place in data.seas or place in data.capes


def port_seas(data, power: str, box: str | None) -> set[str]:
    """The Sea Zones a Naval Unit in the Home Area box ``box`` sails to."""
    home = data.homes.get(power)
    if home is None:
        return set()
    if box is None:
        return set(home.seas)
    for port in SHARED_PORTS.get(power, ()):
        if box in port:
            return set(port) & set(home.seas)
    return {box} & set(home.seas)


def steps(state: dict, data, power: str, unit: dict) -> set[str]:
    """Places one move away from the unit (passages a denial closes included)."""
    src = unit["where"]
    canal = any(a in state.get("canals", []) for a in board.CANAL_AREAS)
    if is_sea(data, src):
        out = set(data.sea_neighbours(src, war=True, canal=canal))
        out |= set(mapgraph.coastal_index(data).get(src, set()))
        return out
    if src == board.home_name(data, power):
        seas = port_seas(data, power, unit.get("sea")) if unit["type"] == "navy" \
            else set(mapgraph.seas_of(data, src))
        return seas | (set(mapgraph.land_neighbours(data, src)) if unit["type"] == "army" else set())
    if unit["type"] == "navy":
        return {unit["sea"]} if unit.get("sea") else set(mapgraph.seas_of(data, src))
    return set(mapgraph.land_neighbours(data, src)) | set(mapgraph.seas_of(data, src))


def enemy_units(state: dict, power: str, place: str, kind: str | None = None) -> list[dict]:
    enemies = model.enemies_of(state, power)
    return [u for u in board.units_of(state, where=place, type=kind) if u["power"] in enemies]


def friendly_units(state: dict, power: str, place: str, kind: str | None = None) -> list[dict]:
    alliance = model.allies_of(state, power)
    return [u for u in board.units_of(state, where=place, type=kind) if u["power"] in alliance]


def check(state: dict, data, power: str, unit: dict, dst: str) -> Fail:
    """Why ``unit`` of ``power`` cannot move to ``dst`` now (None: it can)."""
    war = model.war_of(state, power)
    if war is None:
        return "not-at-war", f"{power} is not at War in the war being fought"
    src = unit["where"]
    if dst == src:
        return "same-place", "the unit would not move"
    owner = data.home_of(dst)
    if owner and owner != power and not (unit["type"] == "army" and power == "Germany"
                                         and owner == "Austria-Hungary"
                                         and model.allied(state, "Germany", "Austria-Hungary")):
        return "foreign-home", f"no unit may ever enter another power's Home Country ({dst})"
    if dst not in steps(state, data, power, unit):
        return "not-adjacent", (f"{dst} is not next to {src}: in War a unit moves one Area or Sea Zone "
                                f"per Alliance Maneuver Phase")
    if is_sea(data, src) and is_sea(data, dst) and dst in data.seas and not \
            geo.link_open(state, data, power, src, dst, war):
        area = ", ".join(geo.passage_areas(state, data, src, dst) or [])
        return "passage-denied", f"{power} is denied the passage through {area} from {src} to {dst}"
    if unit["type"] == "navy":
        return check_navy(state, data, power, war, unit, dst)
    return check_army(state, data, power, war, unit, dst)


def check_navy(state: dict, data, power: str, war: dict, unit: dict, dst: str) -> Fail:
    """Rules: Naval Unit Movement."""
    src = unit["where"]
    if is_sea(data, dst):
        if dst not in geo.coaling_seas(state, data, power):
            return "no-coaling", f"{power} has no Coaling Rights in {dst}"
        return None
    if dst == board.home_name(data, power):
        return None
    if not is_sea(data, src):
        return "not-adjacent", "a Naval Unit moves between a Sea Zone and a Coastal Area or its Home Country"
    warring = set(model.members(war))
    if not any(p in warring and m["status"] in board.CONTROL for p, m in board.markers_in(state, dst).items()):
        return "no-control-marker", (f"a Naval Unit enters only a Coastal Area holding a Control marker "
                                     f"of a power in the War, and {dst} holds none")
    return None


def check_army(state: dict, data, power: str, war: dict, unit: dict, dst: str) -> Fail:
    """Rules: Army Unit Movement; Restrictions on Army Unit Movement; Cape Zones."""
    src = unit["where"]
    home = board.home_name(data, power)
    fleets = mapgraph.merchant_seas(state, power)
    if is_sea(data, dst):
        if dst in data.capes:
            if not fleets & set(data.capes[dst].between):
                return "no-merchant", f"an army enters {dst} only with an own Merchant Fleet beside it"
        elif dst not in fleets:
            return "no-merchant", (f"an army enters a Sea Zone only with {poss(power)} own Merchant Fleet "
                                   f"there (allies' fleets do not carry it)")
        if enemy_units(state, power, dst, "navy") and not friendly_units(state, power, dst, "navy"):
            return "enemy-navy", f"enemy Naval Units hold {dst} and no Naval Unit of your alliance is there"
        if not is_sea(data, src) and enemy_units(state, power, src, "navy"):
            return "enemy-navy", f"an enemy Naval Unit in {src} keeps the army from putting to sea"
        return garrisons(state, power, unit, dst, data)
    if dst != home and not geo.may_enter_area(state, data, war, power, dst) and not (
            power == "Germany" and data.home_of(dst) == "Austria-Hungary"):
        return "no-control-marker", (f"an army enters only an Area holding a Control marker of a power "
                                     f"in the War, and {dst} holds none")
    if is_sea(data, src) and enemy_units(state, power, dst, "navy"):
        return "enemy-navy", f"an army cannot land from the sea in {dst}: an enemy Naval Unit is there"
    if not is_sea(data, src) and enemy_units(state, power, src, "army") \
            and enemy_units(state, power, dst, "army"):
        return "enemy-armies", (f"an army cannot move from an Area held by enemy armies ({src}) to "
                                f"another held by enemy armies ({dst})")
    return garrisons(state, power, unit, dst, data)


def garrisons(state: dict, power: str, unit: dict, dst: str, data) -> Fail:
    if unit["strength"] == 10 and board.is_great(state, power):
        return garrison_rules(state, data, power, {"strength": 10, "from": unit["where"], "to": dst})
    return None


def poss(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def find_unit(state: dict, data, power: str, kind: str, strength: int, place: str,
              moved: set[int], dst: str | None = None) -> dict | None:
    """The unit an order means: of that kind and strength at ``place`` and not yet moved this
    phase.  At home, a Naval Unit in a box that sails to ``dst`` comes first."""
    found = [u for u in sorted(board.units_of(state, power, place, kind), key=lambda u: u["id"])
             if u["strength"] == strength and u["id"] not in moved]
    if kind == "navy" and place == board.home_name(data, power) and dst:
        fits = [u for u in found if dst in port_seas(data, power, u.get("sea"))]
        found = fits + [u for u in found if u not in fits]
    return found[0] if found else None


def apply(state: dict, data, power: str, unit: dict, dst: str) -> list[dict]:
    """Move the unit (already checked); a neutral sharing a Codominion may gain a Casus Belli."""
    src = unit["where"]
    unit["where"] = dst
    if unit["type"] == "navy" and dst == board.home_name(data, power):
        unit["sea"] = src
    elif unit["type"] == "navy" and not is_sea(data, dst) and len(mapgraph.seas_of(data, dst)) > 1:
        # Rules: Naval Unit Movement (Important Note) - it lies on the side it came from.
        unit["sea"] = src
    else:
        unit["sea"] = None
    war = model.war_of(state, power)
    events = [{"kind": "war_move", "war": war["id"] if war else None, "power": power,
               "type": unit["type"], "strength": unit["strength"], "from": src, "to": dst}]
    if dst in data.areas:
        events += codominion_entry(state, power, dst)
    return events


def codominion_entry(state: dict, power: str, area: str) -> list[dict]:
    """Rules: CODOMINIONS AND WARS - "If a Power that is not part of the Codominion moves a
    Military Unit to the Area, the neutral player has a Casus Belli against the moving player",
    but not when the mover is a member (Hawaii) or an ally of one (Japan allied with Britain).
    It may be used "only immediately upon the Military Unit's entry": in the next window."""
    ctrl = board.controllers(state, area)
    if len(ctrl) < 2 or power in ctrl or any(model.allied(state, power, p) for p in ctrl):
        return []
    war = model.war_of(state, power)
    warring = set(model.members(war)) if war else set()
    events = []
    for neutral in ctrl:
        if neutral in warring:
            continue
        ev = board.add_cb(state, neutral, power, area,
                          f"{power} entered {area}, a Codominion of {neutral}'s",
                          cause="war_entry", rule="CB-07")
        if ev:
            mark_immediate(state, ev)
            events.append(ev)
    return events


def mark_immediate(state: dict, event: dict) -> None:
    """A Casus Belli that may be used only at once: in the window after the one it arose in."""
    for cb in state.get("cb", []):
        if cb["id"] == event.get("id"):
            cb["window"] = state.get("war_window", 0) + 1
