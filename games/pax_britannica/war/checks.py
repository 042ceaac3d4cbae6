"""Judging war orders for the reply, read-only, each on the board the lines above it leave.

Rules: THE WAR SEQUENCE (only the alliance whose phase it is moves and attacks); and the rules
each order belongs to (see ``orders.py``).  Resolution calls the same checks, so what the reply
accepts is what the phase does, as far as the other powers' orders of the window allow.
"""
from __future__ import annotations

import copy

from pbem.kit.gameapi import Order, Problem

from ..core import board
from . import decisions, declare, model, moves, natives, resolution, sequence

ANYTIME = ("declare_war", "deny", "grant", "end_war", "delay_end", "end_rebellion")
ALLIANCES = ("join", "refuse", "support")
RESOLUTION = ("place", "demand", "decline")
WHERE = {"war_move": "an Alliance Maneuver Phase (your alliance's)",
         "attack": "an Alliance Attack Phase (your alliance's)",
         "join": "Alliance Determination", "refuse": "Alliance Determination",
         "support": "the Alliance Determination of an Ottoman war",
         "place": "the Resolution Phase after a War", "demand": "the Resolution Phase after a Rebellion",
         "decline": "the Resolution Phase after a Rebellion"}


def allowed(phase: str) -> tuple[str, ...]:
    found = sequence.step_of(phase)
    if phase == "war":
        return ("declare_war",)
    if phase == "war_alliances":
        return ANYTIME + ALLIANCES
    if phase == "war_resolution":
        return RESOLUTION
    if found and found[0] == "maneuver":
        return ANYTIME + ("war_move",)
    if found and found[0] == "attack":
        return ANYTIME + ("attack",)
    return ANYTIME


def may_write_for(state: dict, player: str, power: str) -> bool:
    if power == player or model.speaker(state, power) == player:
        return True
    return any(player in model.controllers(state, w, power) for w in model.open_wars(state)
               if model.side_index(w, power) is not None)


def validate(state: dict, power: str, orders: list[Order], data) -> list[Problem]:
    problems: list[Problem] = []
    phase = state.get("phase")
    # moves are tried on a copy, each on the board the lines above it leave
    sim = copy.deepcopy(state) if any(o.kind == "war_move" for o in orders) else state
    moved: set[int] = set()
    for o in orders:
        who = o.power or power
        if not may_write_for(state, power, who):
            problems.append(Problem("not-your-power", f"{power} does not move {who}'s units in this War", o.line))
            continue
        if o.kind not in allowed(phase):
            where = WHERE.get(o.kind, "the outset of the War Phase, or any window of the War")
            problems.append(Problem("wrong-phase", f"{o.canonical} is an order of {where}; now: "
                                    f"{sequence.title(state)}", o.line))
            continue
        fail = judge(state, sim, data, power, who, o, moved)
        if fail:
            problems.append(Problem(fail[0], fail[1], o.line, fail[2] if len(fail) > 2 else None))
    return problems


def phasing(state: dict, who: str) -> bool:
    found = sequence.step_of(state.get("phase", ""))
    war = model.war_of(state, who)
    return bool(found and war and model.side_index(war, who) == found[1])


def judge(state: dict, sim: dict, data, player: str, who: str, o: Order, moved: set[int]) -> tuple | None:
    a = o.args
    if o.kind in ("war_move", "attack") and not phasing(state, who):
        return "not-your-phase", f"it is not {who}'s alliance's phase: only the alliance whose phase it is moves and attacks"
    if o.kind == "war_move":
        unit = moves.find_unit(sim, data, who, a["type"], a["strength"], a["from"], moved, a["to"])
        if unit is None:
            return "no-such-unit", f"{who} has no {a['type']} ({a['strength']}) left to move at {a['from']}"
        fail = moves.check(sim, data, who, unit, a["to"])
        if fail:
            return fail
        moved.add(unit["id"])
        moves.apply(sim, data, who, unit, a["to"])
        return None
    if o.kind == "attack":
        return check_attack(sim, data, who, a)
    if o.kind == "declare_war":
        return next((f for f in declare.check_targets(state, who, a["against"]).values() if f), None)
    if o.kind in ("join", "refuse"):
        return check_join(state, who, a["with"], o.kind)
    if o.kind == "support":
        return declare.check_helper(state, who, model.OTTOMANS)
    if o.kind in decisions.CHECKS:
        return decisions.CHECKS[o.kind](state, data, who, a)
    if o.kind in RESOLUTION:
        return check_resolution(state, data, who, o)
    return None


def check_attack(state: dict, data, who: str, a: dict) -> tuple | None:
    war = model.war_of(state, who)
    kinds = [a["type"]] if a.get("type") else ["army", "navy"]
    present = False
    for kind in kinds:
        mine = board.units_of(state, who, a["place"], kind)
        foes = [u for u in board.units_of(state, where=a["place"], type=kind) if model.enemies_in(war, who, u["power"])]
        if mine and (foes or kind == "army" and natives.area_strength(state, data, war, a["place"])):
            return None
        present = present or bool(mine)
    which = f" ({a['type']} combat)" if a.get("type") else ""
    if present:
        # Rules: COMBAT (WAR) - "Units in one Area or Sea Zone can attack only enemy Units within
        # the same Area or Sea Zone": a navy based in an Area is fought in that Area.
        return "no-combat", (f"no enemy unit is in {a['place']} to fight{which}: units attack only enemies in "
                             "the same Area or Sea Zone (a navy based in an Area is fought in that Area)")
    return "no-combat", f"{who} has no unit in {a['place']} facing enemy units there{which}"


def check_join(state: dict, who: str, ally: str, kind: str) -> tuple | None:
    duties = [d for d in declare.pending(state) if d["power"] == who and d["ally"] == ally
              and declare.void(state, d) is None]
    if duties:
        return None
    if kind == "refuse":
        return "no-duty", f"{who} has no duty to join {ally}'s War to refuse"
    return declare.check_helper(state, who, ally)


def check_resolution(state: dict, data, who: str, o: Order) -> tuple | None:
    ended = [w for w in model.group_wars(state) if w.get("status") == "ended"
             and model.side_index(w, who) is not None]
    if not ended:
        return "not-at-war", f"{who} has nothing to settle after a War"
    war = ended[0]
    if o.kind == "place":
        return resolution.check_place(state, data, war, who, o.args["area"], o.args["status"])
    if who not in resolution.demanders(state, data, war):
        return "no-reparations", (f"{who} may not demand reparations: only the powers with Army Units in "
                                  f"China when the Rebellion ends do")
    if o.kind == "demand" and o.args["area"] not in war.get("defeated", []):
        return "not-defeated", (f"only a defeated Area can be ceded; defeated: "
                                f"{', '.join(sorted(war.get('defeated', []))) or 'none'}")
    return None
