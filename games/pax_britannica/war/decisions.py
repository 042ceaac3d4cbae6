"""Decisions a player may send in any window of a War, carried out before the phase's own work.

Rules: CANALS AND STRAITS ("During a War (only), a player who Controls Egypt can deny use of
the canal to any other Power ... If such an Area is a Codominion, all member players must agree
for access to be denied. If a neutral player denies use of the straits to one (but not both)
Alliances in a War, or is a member of a Codominion and agrees to closing the straits, the
Alliance which is denied has a Casus Belli against the neutral player. Any member of the
Alliance can, if he wishes, immediately declare War against the neutral player"); Coaling
Rights ("A neutral Power's Control marker, provided the neutral Power volunteers the Area for
your coaling use. (Once volunteered ..., such a neutral Area remains a coaling Area for the
duration of the War"); NEGOTIATION AND ENDING A WAR ("Players can negotiate at any time during a
War"); THE WAR SEQUENCE (War End Determination: the first-two-turns exception "At the request of
any warring power"); CHINESE REBELLION (the Formosa clarification: "the enemies of the Chinese
may declare an end to the Rebellion").
"""
from __future__ import annotations

from pbem.kit.gameapi import Order

from ..core import board, mapgraph
from . import declare, model
from .moves import mark_immediate
from ..core.state import by_rules_order

Fail = tuple[str, str] | None


def apply(state: dict, data, orders: dict, phase: str) -> list[dict]:
    events: list[dict] = []
    for power in by_rules_order(orders):
        for o in orders[power]:
            o = o if isinstance(o, Order) else Order.from_json(o)
            who = o.power or power
            if o.kind == "declare_war":
                events += declaration(state, who, o, phase)
            elif o.kind in HANDLERS:
                fail = CHECKS[o.kind](state, data, who, o.args)
                if fail:
                    events.append({"kind": "order_failed", "power": who, "order": o.canonical,
                                   "code": fail[0], "reason": fail[1]})
                else:
                    events += HANDLERS[o.kind](state, data, who, o.args)
            if state.get("great_war"):
                return events
    return events


def declaration(state: dict, who: str, o: Order, phase: str) -> list[dict]:
    bad = [(t, f) for t, f in declare.check_targets(state, who, o.args["against"]).items() if f]
    events = [{"kind": "order_failed", "power": who, "order": o.canonical, "code": f[0], "reason": f[1]}
              for _, f in bad]
    ok = [t for t in o.args["against"] if t not in dict(bad)]
    return events + (declare.declare(state, who, ok, phase) if ok else [])


# -- canals and straits ----------------------------------------------------------------------
def check_deny(state: dict, data, who: str, a: dict) -> Fail:
    area = a["area"]
    if area not in (getattr(data, "straits", {}) or {}):
        return "not-a-passage", f"{area} holds no canal or straits"
    if area in board.CANAL_AREAS and area not in state.get("canals", []):
        return "no-canal", f"no canal has been built in {area}"
    if not board.has_control(state, who, area):
        return "no-control", f"only a power Controlling {area} may deny its passage"
    for t in a["to"]:
        if model.war_of(state, t) is None:
            return "not-at-war", f"{t} is not at War: passages are denied only during a War"
    return None


def deny(state: dict, data, who: str, a: dict) -> list[dict]:
    events = []
    wars = []
    for t in a["to"]:
        war = model.war_of(state, t)
        rec = {"area": a["area"], "by": who, "to": t}
        if rec not in war["denials"]:
            war["denials"].append(rec)
        ctrl = board.controllers(state, a["area"])
        waiting = [c for c in ctrl if {"area": a["area"], "by": c, "to": t} not in war["denials"]]
        events.append({"kind": "passage_denied", "war": war["id"], "area": a["area"], "by": who, "to": t,
                       "effective": not waiting, "waiting_for": waiting})
        if not waiting and war not in wars:
            wars.append(war)
    for war in wars:
        events += neutral_cb(state, war, a["area"])
    return events


def neutral_cb(state: dict, war: dict, area: str) -> list[dict]:
    """The alliance denied by a neutral while no other alliance is has a Casus Belli against
    every neutral controller that agreed."""
    ctrl = board.controllers(state, area)
    neutrals = [c for c in ctrl if model.side_index(war, c) is None]
    if not neutrals:
        return []
    denied_sides = {model.side_index(war, d["to"]) for d in war["denials"] if d["area"] == area
                    and all({"area": area, "by": c, "to": d["to"]} in war["denials"] for c in ctrl)}
    denied_sides.discard(None)
    if len(denied_sides) != 1:
        return []
    side = war["sides"][denied_sides.pop()]
    events = []
    for holder in side:
        for neutral in neutrals:
            ev = board.add_cb(state, holder, neutral, area, f"{neutral} denied {area} to {holder}'s alliance",
                              cause="passage", rule="CB-09")
            if ev:
                mark_immediate(state, ev)
                events.append(ev)
    return events


# -- coaling, peace, delay ----------------------------------------------------------------------
def check_grant(state: dict, data, who: str, a: dict) -> Fail:
    area = a["area"]
    if not board.has_control(state, who, area):
        return "no-control", f"{who} may volunteer only an Area it Controls ({area} is not one)"
    if not mapgraph.seas_of(data, area):
        return "not-coastal", f"{area} is not a Coastal Area"
    for t in a["to"]:
        war = model.war_of(state, t)
        if war is None:
            return "not-at-war", f"{t} is not at War"
        if model.side_index(war, who) is not None:
            return "not-neutral", f"{who} is in that War: only a neutral volunteers its Areas"
    return None


def grant(state: dict, data, who: str, a: dict) -> list[dict]:
    events = []
    for t in a["to"]:
        war = model.war_of(state, t)
        rec = {"area": a["area"], "by": who, "to": t}
        if rec not in war["grants"]:
            war["grants"].append(rec)
            events.append({"kind": "coaling_granted", "war": war["id"], **rec})
    return events


def check_end_war(state: dict, data, who: str, a: dict) -> Fail:
    war = model.war_of(state, who)
    if war is None:
        return "not-at-war", f"{who} is not at War in the war being fought"
    for t in a["with"]:
        if not model.enemies_in(war, who, t) and not (t == "Germany" and model.enemies_in(war, who, "Austria-Hungary")):
            return "not-enemy", f"{who} is not at War with {t}"
    return None


def end_war(state: dict, data, who: str, a: dict) -> list[dict]:
    war = model.war_of(state, who)
    asked = war.setdefault("peace", {}).setdefault(who, [])
    asked += [t for t in a["with"] if t not in asked]
    return [{"kind": "peace_asked", "war": war["id"], "power": who, "with": list(a["with"])}]


def check_delay(state: dict, data, who: str, a: dict) -> Fail:
    war = model.war_of(state, who)
    if war is None or war.get("kind") != "war":
        return "not-at-war", f"{who} is not in a War between powers being fought"
    if war.get("round", 0) > 2:
        return "too-late", "the end may be delayed only in a War's first two sequences"
    return None


def delay(state: dict, data, who: str, a: dict) -> list[dict]:
    war = model.war_of(state, who)
    if who not in war["delay"]:
        war["delay"].append(who)
    return [{"kind": "end_delayed", "war": war["id"], "power": who}]


def check_end_rebellion(state: dict, data, who: str, a: dict) -> Fail:
    war = model.war_of(state, who)
    if war is None or war.get("kind") != "rebellion" or model.enemies_in(war, who, model.CHINA) is False:
        return "not-in-rebellion", f"{who} is not fighting the Chinese Rebellion"
    return None


def end_rebellion(state: dict, data, who: str, a: dict) -> list[dict]:
    war = model.war_of(state, who)
    war["end_rebellion"] = who
    return [{"kind": "peace_asked", "war": war["id"], "power": who, "with": [model.CHINA]}]


HANDLERS = {"deny": deny, "grant": grant, "end_war": end_war, "delay_end": delay,
            "end_rebellion": end_rebellion}
CHECKS = {"deny": check_deny, "grant": check_grant, "end_war": check_end_war, "delay_end": check_delay,
          "end_rebellion": check_end_rebellion}
