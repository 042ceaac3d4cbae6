"""An Alliance Attack Phase: the attacks ordered, those the rules make automatic, and what is
conquered when the phase ends.

Rules: COMBAT DURING A WAR ("When Army combat occurs, any player with Army Units in the Area ...
can declare that he is attacking the enemy. Any allied player can participate in the attack, or
refuse to do so ... Minor Power allies of Great Powers will always attack if any Great Power in
an Area chooses to attack. Minor Power Units in Areas where no Great Power ally's Units are
located will attack only if all allied Great Powers agree"; "The Alliance whose Attack Phase is
in progress can resolve attacks in any order"); Naval Combat; CONQUERED AREAS; CHINESE
REBELLION (Chinese armies attack "regardless of the odds"; colonial armies entering an Area not
yet defeated "will have to engage the Area in combat").
"""
from __future__ import annotations

from ..core import board
from . import battle, model, natives, orders_of
from ..core.state import by_rules_order

KINDS = ("army", "navy")


def resolve(state: dict, orders: dict, dice, data, index: int) -> list[dict]:
    """The Attack Phase of alliance ``index`` in every war being fought."""
    events: list[dict] = []
    retreated: set[int] = set()
    for war in model.fighting(state):
        if index >= len(war["sides"]):
            continue
        phasing = war["sides"][index]
        for power in phasing:
            if model.engine_moved(state, war, power):
                events += native_attacks(state, data, dice, war, power, retreated)
        for place, kind, attackers in planned(state, data, war, orders, phasing):
            events += combat(state, data, dice, war, place, kind, attackers, retreated)
        events += forced(state, data, dice, war, phasing, retreated)
    events += stranded(state, data)
    for war in model.fighting(state):
        events += conquests(state, data, war)
        if war.get("kind") == "rebellion" and index == 1:
            events += natives.clear_behind(state, data, war)
    return events


def planned(state: dict, data, war: dict, orders: dict, phasing: list[str]) -> list[tuple]:
    """(place, kind, attacking powers) in the order first written.  Choice: the alliance's
    powers in the rules' order, each power's ATTACK lines as written; ``ATTACK <place>`` fights
    every combat the power can fight there (army combat first, then naval), ``ATTACK ARMY|NAVY
    <place>`` only that one."""
    wanted: dict[tuple[str, str], list[str]] = {}
    for power in by_rules_order(phasing):
        if model.engine_moved(state, war, power):
            continue
        for o in orders_of.chosen(state, war, power, orders):
            if o.kind != "attack":
                continue
            kinds = [o.args["type"]] if o.args.get("type") else list(KINDS)
            for kind in kinds:
                wanted.setdefault((o.args["place"], kind), [])
                if power not in wanted[(o.args["place"], kind)]:
                    wanted[(o.args["place"], kind)].append(power)
    out = []
    for (place, kind), powers in wanted.items():
        great_here = [p for p in phasing if board.is_great(state, p) and units(state, p, place, kind)]
        if any(board.is_great(state, p) for p in powers):
            # Minor Power allies "will always attack if any Great Power in an Area chooses to".
            powers = powers + [p for p in phasing if p not in powers and not board.is_great(state, p)
                               and not model.is_native(p) and units(state, p, place, kind)]
        elif great_here:
            powers = []  # a Minor Power beside a Great Power ally attacks only with it
        out.append((place, kind, by_rules_order(powers)))
    out.sort(key=lambda x: KINDS.index(x[1]))  # army combat before naval, order kept otherwise
    return [x for x in out if x[2]]


def units(state: dict, power: str, place: str, kind: str, skip: set[int] = frozenset()) -> list[dict]:
    return [u for u in board.units_of(state, power, place, kind) if u["id"] not in skip]


def combat(state: dict, data, dice, war: dict, place: str, kind: str, attackers: list[str],
           retreated: set[int]) -> list[dict]:
    """One Army combat in an Area, or one Naval combat in an Area or Sea Zone."""
    attack_units = [u for p in attackers for u in units(state, p, place, kind, retreated)]
    joined_a = [u for p in attackers for u in board.units_of(state, p, place, kind) if u["id"] in retreated]
    if not attack_units:
        return [{"kind": "order_failed", "power": attackers[0], "order": f"ATTACK {place}",
                 "code": "no-units", "reason": f"no {kind} of {'/'.join(attackers)} left in {place} to attack"}]
    foes = [u for u in board.units_of(state, where=place, type=kind)
            if any(model.enemies_in(war, p, u["power"]) for p in attackers)]
    strength = natives.area_strength(state, data, war, place) if kind == "army" else 0
    if not foes and not strength:
        return []
    defend = battle.Side([u for u in foes if u["id"] not in retreated],
                         [u for u in foes if u["id"] in retreated], area=strength)
    attack = battle.Side(attack_units, joined_a)
    ev = battle.fight(state, data, dice, war, place, kind, attack, defend, False, retreated)
    war["fought"] = True
    return [ev] + defeat(war, place, ev)


def defeat(war: dict, place: str, ev: dict) -> list[dict]:
    if ev.get("defeated") and place not in war.setdefault("defeated", []):
        war["defeated"].append(place)
        return [{"kind": "area_defeated", "war": war["id"], "area": place}]
    return []


def native_attacks(state: dict, data, dice, war: dict, power: str, retreated: set[int]) -> list[dict]:
    """Every Chinese (or unallied Ottoman) army in an Area with enemy armies attacks, the armies
    of one Area together, with the Area's own strength while it keeps it."""
    events = []
    for place in sorted({u["where"] for u in board.units_of(state, power, type="army")}):
        mine = units(state, power, place, "army", retreated)
        foes = natives.enemy_armies(state, war, power, place)
        if not mine or not foes:
            continue
        attack = battle.Side(mine, area=natives.area_strength(state, data, war, place))
        defend = battle.Side([u for u in foes if u["id"] not in retreated],
                             [u for u in foes if u["id"] in retreated])
        ev = battle.fight(state, data, dice, war, place, "army", attack, defend, True, retreated)
        war["fought"] = True
        events += [ev] + defeat(war, place, ev)
    return events


def forced(state: dict, data, dice, war: dict, phasing: list[str], retreated: set[int]) -> list[dict]:
    """Rules: CHINESE REBELLION (clarification) - "Unless the Area has previously been defeated,
    the Army Units will have to engage the Area in combat".  Choice: the Ottomans' Areas alike;
    all the alliance's armies in the Area fight, in the Areas' alphabetical order."""
    if war.get("kind") not in ("rebellion", "ottoman"):
        return []
    events = []
    colonial = [p for p in phasing if not model.is_native(p)]
    places = sorted({u["where"] for p in colonial for u in board.units_of(state, p, type="army")})
    for place in places:
        if not natives.area_strength(state, data, war, place):
            continue
        here = [p for p in colonial if units(state, p, place, "army", retreated)]
        if here:
            events += combat(state, data, dice, war, place, "army", here, retreated)
    return events


def stranded(state: dict, data) -> list[dict]:
    """Rules: Naval Combat - "If, at the end of combat in a Sea Zone, Army Units find themselves
    alone in a Sea Zone containing enemy Naval Units but no friendly Naval Units, those Army Units
    immediately surrender"."""
    events = []
    for war in model.fighting(state):
        for army in sorted(board.units_of(state, type="army"), key=lambda u: u["id"]):
            place, power = army["where"], army["power"]
            if place not in data.seas and place not in data.capes or model.side_index(war, power) is None:
                continue
            navies = board.units_of(state, where=place, type="navy")
            hostile = [u for u in navies if model.enemies_in(war, power, u["power"])]
            friends = [u for u in navies if model.side_index(war, u["power"]) == model.side_index(war, power)]
            if hostile and not friends:
                fate = battle.surrender(state, war, army)
                events.append({"kind": "unit_surrendered", "war": war["id"], "power": power,
                               "type": "army", "strength": army["strength"], "where": place,
                               "reason": "alone at sea beside enemy Naval Units", **{"fate": fate["fate"]}})
    return events


def conquests(state: dict, data, war: dict) -> list[dict]:
    """Rules: CONQUERED AREAS - "If, at the end of an Alliance Attack Phase, one Alliance has Army
    Units in an Area which is Controlled by an enemy Power, and no enemy Army Unit remains in the
    Area, the Alliance has conquered the Area ... the Area can be reconquered".  Choice: an Area
    won back by its owner's alliance is simply no longer conquered."""
    events = []
    for area in sorted(state.get("markers", {})):
        ctrl = board.controllers(state, area)
        present = {u["power"] for u in board.units_of(state, where=area, type="army")}
        for i, side in enumerate(war["sides"]):
            mine = present & set(side)
            foes = {p for p in present if model.enemies_in(war, side[0], p)} if side else set()
            if not mine or foes:
                continue
            enemy_ctrl = [p for p in ctrl if model.enemies_in(war, side[0], p)]
            held = war["conquered"].get(area)
            if enemy_ctrl and held != sorted(side):
                war["conquered"][area] = sorted(side)
                events.append({"kind": "conquered", "war": war["id"], "area": area,
                               "by": by_rules_order(side), "from": enemy_ctrl})
            elif held and not enemy_ctrl and set(ctrl) & set(side) and not set(held) & set(side):
                war["conquered"].pop(area)
                events.append({"kind": "conquered", "war": war["id"], "area": area,
                               "by": by_rules_order(side), "from": held, "retaken": True})
    return events
