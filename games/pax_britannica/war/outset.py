"""The outset of the War Phase: declarations of War, and the wars the turn brings.

Rules: GAME TURN SEQUENCE (War Phase: "If a Chinese Rebellion occurs, the Ottoman Empire
declares war, or any player declares war, players proceed to the War Sequence"); THE WAR
SEQUENCE ("At the beginning of the War Phase ..., players with Casus Belli can declare War");
CHINESE REBELLION ("China is always the First Alliance, while each colonial Power (Great and
Minor) that has one or more Influence or Control markers in any Chinese Empire or Chinese
Vassal Area is a member of the Second Alliance"; "If a Minor Power has no Influence or Control
marker at least one Chinese Empire or Chinese Vassal Area, it does not participate"); WAR WITH
THE OTTOMANS ("If any Power establishes a Control marker in any Ottoman Empire Area, the Ottoman
Empire will declare War on that Power during the ensuing War Determination Segment. Upgrading
on existing Control marker will not trigger on Ottoman War").
"""
from __future__ import annotations

from pbem.kit.gameapi import Order

from ..core import board
from . import declare, greatwar, model, natives
from .resolution import remember_ottoman_control
from ..core.state import by_rules_order


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    state["war_cb_from"] = state.get("next_cb", len(state.get("cb", [])) + 1)
    state["war_window"] = 0
    state.pop("war_resume", None)
    events: list[dict] = []
    for power in by_rules_order(orders):
        for o in orders[power]:
            o = o if isinstance(o, Order) else Order.from_json(o)
            if o.kind != "declare_war":
                continue
            who = o.power or power
            fails = declare.check_targets(state, who, o.args["against"])
            bad = [t for t, f in fails.items() if f]
            if bad:
                events.append({"kind": "order_failed", "power": who, "order": o.canonical,
                               "code": fails[bad[0]][0], "reason": "; ".join(fails[t][1] for t in bad)})
            events += declare.declare(state, who, [t for t in o.args["against"] if t not in bad], "war")
    events += declare.fold(state)
    events += rebellion(state, data, dice)
    events += ottoman_war(state, data)
    events += greatwar.check(state)
    for war in model.open_wars(state):
        events.append({"kind": "war_begins", "war": war["id"], "war_kind": war.get("kind"),
                       "sides": [list(s) for s in war["sides"]]})
    return events


def rebellion(state: dict, data, dice) -> list[dict]:
    if not state.get("pending", {}).get("chinese_rebellion"):
        return []
    if any(w.get("kind") == "rebellion" for w in model.open_wars(state)):
        return []
    chinese = {a for a, info in data.areas.items() if info.kind in natives.CHINESE}
    colonial = by_rules_order(
        p for a in chinese for p, m in board.markers_in(state, a).items()
        if m["status"] != "interest" and p in state.get("powers", {}))
    war = model.new_war(state, [[model.CHINA], colonial], "rebellion")
    return natives.place_chinese(state, data, dice, war)


def ottoman_war(state: dict, data) -> list[dict]:
    """A Control marker new in an Ottoman Empire Area since the last War Phase (not an upgrade:
    the same power held Control there before) starts the Ottoman war.  Choice: one war against
    every such power; the first of them in the rules' order "placed the Control Marker that
    originally started the War"."""
    before = {tuple(x) for x in state.get("ottoman_control", [])}
    fresh = [(p, a) for a, info in sorted(data.areas.items()) if info.kind == "ottoman"
             for p in board.controllers(state, a) if (p, a) not in before]
    remember_ottoman_control(state, data)
    if not fresh or any(w.get("kind") == "ottoman" for w in model.open_wars(state)):
        return []
    placers = by_rules_order(p for p, _ in fresh)
    first = placers[0]
    area = next(a for p, a in fresh if p == first)
    war = model.new_war(state, [[model.OTTOMANS], placers], "ottoman", firsts=[first],
                        placer=first, area=area)
    state.setdefault("declarations", []).append(
        {"by": model.OTTOMANS, "against": placers, "turn": state["turn"], "phase": "war",
         "player": False, "war": war["id"], "how": "ottoman"})
    return [{"kind": "declaration", "by": model.OTTOMANS, "against": placers, "phase": "war",
             "reason": f"Control marker in {area}"}] + natives.place_ottomans(state, war)
