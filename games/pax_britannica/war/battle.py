"""One combat of a War: strengths, the odds, the die, and what each result does to each side.

Rules: COMBAT DURING A WAR (the ratio "rounded off in favor of the defender"; The Combat
Results Tables; E, AR, EX, HALF_EX, DR, DE in War; Naval Combat); SURRENDERED UNITS ("When
forced to retreat and unable to do so"); CHINESE REBELLION and WAR WITH THE OTTOMANS (an
Area's own Combat Strength beside its Chinese or Ottoman armies, and when it is defeated).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core import board, combat_table
from ..core.combat_table import cheapest_cover
from . import model, moves, natives
from ..core.state import by_rules_order


@dataclass
class Side:
    """One side of a combat: its units (those that fight, and those that retreated into the
    place this phase, which add nothing but share the fate), and an Area's own strength."""
    units: list[dict]
    joined: list[dict] = field(default_factory=list)
    area: int = 0          # a Chinese or Ottoman Area's Combat Strength on this side

    @property
    def strength(self) -> int:
        return sum(u["strength"] for u in self.units) + self.area

    @property
    def powers(self) -> list[str]:
        return by_rules_order(u["power"] for u in self.units + self.joined)

    def all(self) -> list[dict]:
        return self.units + self.joined


def losses_cover(state: dict, units: list[dict], need: int) -> list[dict]:
    """Units removed for at least ``need`` strength.  Rules: EX - "If the stronger side consists
    of Units belonging to more than one Power, all Great Power Units are removed before any Minor
    Power Units ... the players with Units in the Area must agree which Units are to be removed".
    Choice: the engine takes the cheapest set (least strength, then fewest units, lowest unit
    numbers), the Great Powers' first; by mail that is the agreement."""
    if need <= 0:
        return []
    great = [u for u in units if board.is_great(state, u["power"]) or model.is_native(u["power"])]
    minor = [u for u in units if u not in great]
    total = sum(u["strength"] for u in great)
    if total >= need:
        return cheapest_cover(great, need)
    return great + cheapest_cover(minor, need - total)


def fight(state: dict, data, dice, war: dict, place: str, kind: str, attack: Side,
          defend: Side, natives_attack: bool, retreated: set[int]) -> dict:
    """Resolve one combat and apply its result; returns the ``war_combat`` event."""
    a, d = attack.strength, defend.strength
    ev = {"kind": "war_combat", "war": war["id"], "area": place, "type": kind,
          "attackers": attack.powers, "defenders": defend.powers, "attack": a, "defense": d,
          "area_strength": attack.area or defend.area or 0}
    if d <= 0:
        ev.update(ratio=None, table=None, die=None, result="DE")
    else:
        die = dice.d6(f"war combat: {'+'.join(attack.powers)} against {'+'.join(defend.powers)} in {place}")
        ev.update(combat_table.resolve(data, a, d, die), die=die)
    ev["losses"] = apply_result(state, data, war, place, kind, ev["result"], attack, defend, retreated,
                                dice)
    native_area = attack.area or defend.area
    ev["defeated"] = bool(native_area) and area_defeated(ev["result"], natives_attack, a, d)
    return ev


def area_defeated(result: str, natives_attack: bool, a: int, d: int) -> bool:
    """Rules: CHINESE REBELLION - "If Chinese Armies attacking in such an Area suffer an Attacker
    Eliminated or Attacker Retreat result, the Area is considered defeated. Likewise, an Area is
    defeated if a Defender Retreat or Defender Eliminated result, or an Ex or ½Ex result if the
    defending strength is less than the attacking strength, is inflicted on the Area by colonial
    Units"."""
    if natives_attack:
        return result in ("E", "AR")
    return result in ("DR", "DE") or (result in ("EX", "HALF_EX") and d < a)


def apply_result(state: dict, data, war: dict, place: str, kind: str, result: str,
                 attack: Side, defend: Side, retreated: set[int], dice=None) -> list[dict]:
    """The War meanings of the six results.  Returns what happened to each unit."""
    out: list[dict] = []
    if result == "E":
        out += remove(state, attack.all(), "eliminated")
    elif result == "DE":
        out += remove(state, defend.all(), "eliminated")
    elif result == "AR":
        out += retreat(state, data, war, place, attack.all(), retreated, dice)
    elif result == "DR":
        out += retreat(state, data, war, place, defend.all(), retreated, dice)
    elif result in ("EX", "HALF_EX"):
        # EX: "All Units belonging to the smaller force ... are removed"; HALF_EX: "If both powers
        # have the same strength, the attacker is treated as the weaker force".
        weak, strong = (attack, defend) if attack.strength <= defend.strength else (defend, attack)
        need = weak.strength if result == "EX" else math.ceil(weak.strength / 2)
        out += remove(state, weak.all(), "eliminated")
        pool = strong.units + strong.joined
        out += remove(state, losses_cover(state, pool, need), "eliminated")
    return out


def remove(state: dict, units: list[dict], fate: str) -> list[dict]:
    out = []
    for u in units:
        if board.remove_unit(state, u["id"]) is not None:
            out.append(record(u, fate))
    return out


def record(u: dict, fate: str, to: str | None = None) -> dict:
    return {"power": u["power"], "type": u["type"], "strength": u["strength"], "fate": fate,
            **({"to": to} if to else {})}


def surrender(state: dict, war: dict, unit: dict) -> dict:
    """Rules: SURRENDERED UNITS - "it is removed from the map. It is not considered eliminated
    ... At the end of the war, they are returned to play"."""
    board.remove_unit(state, unit["id"])
    war.setdefault("surrendered", []).append(dict(unit))
    return record(unit, "surrendered")


def retreat(state: dict, data, war: dict, place: str, units: list[dict],
            retreated: set[int], dice=None) -> list[dict]:
    """Rules: AR/DR - "move to an adjacent Area or Sea Zone to which they could legally move
    during an Alliance Maneuver Phase. If there is no such Area ... the Units must surrender";
    Naval Combat - armies at sea retreat with their navies.  Chinese and Ottoman armies follow
    their own preferences (natives.retreat_place)."""
    out = []
    sea_armies: list[dict] = []
    for u in sorted(units, key=lambda u: u["id"]):
        if board.find_unit(state, u["power"], u["type"], u["strength"], u["where"]) is None:
            continue
        if model.is_native(u["power"]):
            dest = natives.retreat_place(state, data, war, u, place, dice)
        else:
            dest = retreat_place(state, data, u)
        if dest is None:
            out.append(surrender(state, war, u) if not model.is_native(u["power"])
                       else remove(state, [u], "eliminated (no retreat)")[0])
            continue
        moves.apply(state, data, u["power"], u, dest)
        retreated.add(u["id"])
        out.append(record(u, "retreated", dest))
        if u["type"] == "navy" and moves.is_sea(data, place):
            sea_armies += [a for a in moves.friendly_units(state, u["power"], place, "army")
                           if a not in units and a not in sea_armies]
    if sea_armies:
        out += retreat(state, data, war, place, sea_armies, retreated, dice)
    return out


def retreat_place(state: dict, data, unit: dict) -> str | None:
    """Choice: where a retreating unit goes, among the places it could move to: its Home Country;
    then a place of its alliance holding no enemy unit (an own Control marker first, then a Sea
    Zone with its Coaling Rights or Merchant Fleet); then any other legal place; by name on a tie.
    Armies never retreat where enemy armies stand; navies not into an Area with enemy units and
    no friendly ones (Rules: Naval Combat).  The garrison rules do not bind a retreat."""
    power = unit["power"]
    home = board.home_name(data, power)
    options = []
    for dst in sorted(moves.steps(state, data, power, unit)):
        fail = moves.check(state, data, power, unit, dst)
        if fail and fail[0] not in ("indian-army", "western-garrison"):
            continue
        hostile = moves.enemy_units(state, power, dst)
        if unit["type"] == "army" and moves.enemy_units(state, power, dst, "army"):
            continue
        if unit["type"] == "navy" and not moves.is_sea(data, dst) and hostile \
                and not moves.friendly_units(state, power, dst):
            continue
        rank = 0 if dst == home else 1 if board.has_control(state, power, dst) and not hostile \
            else 2 if moves.is_sea(data, dst) and not hostile else 3
        options.append((rank, dst))
    return min(options)[1] if options else None
