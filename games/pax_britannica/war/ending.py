"""War End Determination, worked out by the engine from the board and the players' requests.

Rules: THE WAR SEQUENCE (War End Determination Phase: a negotiated end; "no Army Units of one
Alliance occupy any Area outside the Alliance's Home Countries"; "every Controlled Area of one
Alliance is occupied solely by enemy Army Units"; "At the request of any warring power, the
above two conditions may be ignored in the first two turns of a War"; "three consecutive War
Sequences have passed without any attacks on either side"); NEGOTIATION AND ENDING A WAR
(separate peace, Minor Powers, a war whose sides cannot reach each other, the Spain/Tunis
example); EUROPEAN TENSION INCREASES (+2 each War Phase a War goes on, not in the one it ends;
+5 for a separate peace); CHINESE REBELLION (Ending a Chinese Rebellion, the Formosa
clarification); WAR WITH THE OTTOMANS (its endings, Egypt).
"""
from __future__ import annotations

from pbem.kit import treatybook

from ..core import board
from . import geo, model, natives, supply
from ..core.state import by_rules_order

STALEMATE = 3
DELAY_ROUNDS = 2
CHINESE = natives.CHINESE


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    """War End Determination in every war being fought (no orders, no dice)."""
    events: list[dict] = []
    for war in list(model.fighting(state)):
        war["quiet"] = 0 if war.get("fought") else war.get("quiet", 0) + 1
        war["fought"] = False
        if war.get("kind") == "rebellion":
            how = rebellion_end(state, data, war)
            result = {"how": how} if how else None
        elif war.get("kind") == "ottoman" and model.engine_moved(state, war, model.OTTOMANS):
            how = ottoman_end(state, data, war)
            result = {"how": how} if how else None
        else:
            events += separate_peace(state, war)
            result = war_end(state, data, war)
        war["peace"] = {}
        if result:
            events += finish(state, data, war, result)
        else:
            firsts = war.get("firsts") or ([war["placer"]] if war.get("placer") else [])
            events.append(board.add_eti(state, 2, f"War {war['id']} goes on (sequence {war['round']})",
                                        firsts or None))
    return events


def finish(state: dict, data, war: dict, result: dict) -> list[dict]:
    war["status"] = "ended"
    war["result"] = result
    if war.get("kind") == "rebellion":
        # Rules: Ending a Chinese Rebellion - "the Chinese Resentment Index reduced to zero" /
        # "The Chinese Resentment Index becomes zero" (reparations readjust it afterwards).
        state["cri"] = 0
    victors = [p for i in result.get("victors", []) for p in war["sides"][i]]
    losers = [p for i in result.get("losers", []) for p in war["sides"][i]]
    events: list[dict] = []
    if result.get("victors") and war.get("kind") == "war":
        events = spoils(state, data, war, result["victors"], result.get("losers", []))
    elif result["how"] == "unreachable":
        live = [i for i, s in enumerate(war["sides"]) if s]
        for i in live:
            events += spoils(state, data, war, [i], [j for j in live if j != i])
    return events + [{"kind": "war_end", "war": war["id"], "how": result["how"],
                      "sides": [list(side) for side in war["sides"]],
                      "victors": by_rules_order(victors), "defeated": by_rules_order(losers),
                      "sequences": war.get("round", 0), "conquered": sorted(war["conquered"])}]


# -- peace -------------------------------------------------------------------------------------
def negotiators(state: dict, war: dict) -> list[str]:
    """Rules: "A Minor Power cannot negotiate an end to a War": Great Powers only."""
    return [p for p in model.members(war) if board.is_great(state, p)]


def treaty_peace(state: dict, a: str, b: str) -> bool:
    """Choice: a treaty both sign while at War with each other (one in force from this turn)
    counts as their agreement to end it (Rules: "players are free to negotiate at any time
    during a War and to draw up a Treaty")."""
    return any(t.get("turn") == state.get("turn") and {a, b} <= set(t["parties"])
               for t in treatybook.visible(state, None, gm=True) if t.get("status") == treatybook.IN_FORCE)


def said(war: dict, x: str, y: str) -> bool:
    """Whether ``x`` asked to end the War with ``y``.  Choice: the German player's request
    speaks for Austria-Hungary too, and one made to Germany reaches Austria-Hungary."""
    asked = war.get("peace", {})
    return y in asked.get(x, []) or (y == "Austria-Hungary" and "Germany" in asked.get(x, [])) or (
        x == "Austria-Hungary" and y in asked.get("Germany", []))


def agreed(state: dict, war: dict, a: str, b: str) -> bool:
    return (said(war, a, b) and said(war, b, a)) or treaty_peace(state, a, b)


def separate_peace(state: dict, war: dict) -> list[dict]:
    """Rules: "If one player refuses to sign, but his allies do sign, the allies are no longer
    in the War ... This is termed a separate peace.  Whenever a separate peace is made, the
    European Tensions Index increases by 5."  Choice: a Great Power that agreed to end the War
    with every enemy Great Power (and they with it) leaves while an ally fights on; a Minor Power
    leaves with its last Great Power ally."""
    talkers = negotiators(state, war)
    pairs = [(a, b) for a in talkers for b in talkers if a < b and model.enemies_in(war, a, b)]
    if not pairs or all(agreed(state, war, a, b) for a, b in pairs):
        return []
    events = []
    for p in by_rules_order(talkers):
        foes = [q for q in talkers if model.enemies_in(war, p, q)]
        if foes and all(agreed(state, war, p, q) for q in foes):
            index = model.side_index(war, p)
            model.leave(war, p)
            events.append({"kind": "separate_peace", "war": war["id"], "power": p,
                           "with": by_rules_order(foes)})
            events.append(board.add_eti(state, 5, f"{p} made a separate peace", p))
            side = war["sides"][index]
            if not any(board.is_great(state, q) for q in side):
                for minor in list(side):
                    if not model.is_native(minor) or model.controllers(state, war, minor) == []:
                        model.leave(war, minor)
    return events


# -- the ordinary war ---------------------------------------------------------------------------
def armies_abroad(state: dict, data, war: dict, index: int) -> bool:
    homes = {board.home_name(data, p) for p in war["sides"][index]}
    return any(u["where"] in data.areas and u["where"] not in homes
               for p in war["sides"][index] for u in board.units_of(state, p, type="army"))


def all_occupied(state: dict, war: dict, index: int) -> bool:
    """Every Controlled Area of the alliance (its own, conquered or not, and those it
    conquered) holds enemy armies and none of its own."""
    side = set(war["sides"][index])
    mine = {a for a in state.get("markers", {}) if any(board.has_control(state, p, a) for p in side)}
    mine |= {a for a, who in war["conquered"].items() if set(who) & side}
    for area in mine:
        armies = board.units_of(state, where=area, type="army")
        if any(u["power"] in side for u in armies):
            return False
        if not any(model.enemies_in(war, next(iter(side)), u["power"]) for u in armies):
            return False
    return True


def unreachable(state: dict, data, war: dict) -> bool:
    """Rules: "It is possible for a war to develop in such a way that the remaining forces of one
    side cannot reach those of the other": the armies of one alliance can reach no place where a
    unit of an enemy alliance stands outside its Home Country."""
    live = [i for i, s in enumerate(war["sides"]) if s]
    for i in live:
        reach = geo.army_reach(state, data, war, i)
        for j in live:
            if i == j:
                continue
            homes = {board.home_name(data, p) for p in war["sides"][j]}
            forces = {u["where"] for p in war["sides"][j] for u in board.units_of(state, p)
                      if u["where"] not in homes}
            if not reach & forces:
                return True
    return False


def war_end(state: dict, data, war: dict) -> dict | None:
    live = [i for i, s in enumerate(war["sides"]) if s]
    if len(live) < 2:
        return {"how": "negotiated", "victors": [], "losers": []}
    talkers = negotiators(state, war)
    pairs = [(a, b) for a in talkers for b in talkers if a < b and model.enemies_in(war, a, b)]
    if pairs and all(agreed(state, war, a, b) for a, b in pairs):
        return {"how": "negotiated", "victors": [], "losers": []}
    delayed = war.get("delay") and war.get("round", 0) <= DELAY_ROUNDS
    if not delayed:
        beaten = [i for i in live if not armies_abroad(state, data, war, i)
                  or all_occupied(state, war, i)]
        if beaten:
            winners = [i for i in live if i not in beaten]
            how = "defeat" if winners else "exhaustion"
            return {"how": how, "victors": winners, "losers": beaten}
    asked = any(said(war, p, q) for p in model.members(war) for q in model.members(war)
                if model.enemies_in(war, p, q))
    if asked and unreachable(state, data, war):
        return {"how": "unreachable", "victors": [], "losers": []}
    if war.get("quiet", 0) >= STALEMATE:
        return {"how": "stalemate", "victors": [], "losers": []}
    return None


def spoils(state: dict, data, war: dict, victors: list[int], losers: list[int]) -> list[dict]:
    """Rules: "When a War ends the victorious Alliance can divide up the Areas of the defeated
    Alliance that its forces are capable of reaching" (and, for a war whose sides cannot reach
    each other, "The first side conquers all areas its forces are capable of reaching").
    Choice: the defeated alliance's Controlled Areas with none of its armies in them that the
    victors' armies could reach are conquered too."""
    events = []
    for i in victors:
        reach = geo.army_reach(state, data, war, i)
        for j in losers or [k for k in range(len(war["sides"])) if k not in victors]:
            for area, owners in sorted(supply.alliance_areas(state, war, j).items()):
                defended = any(u["power"] in war["sides"][j] for u in board.units_of(state, where=area, type="army"))
                if area in reach and not defended and war["conquered"].get(area) != sorted(war["sides"][i]):
                    war["conquered"][area] = sorted(war["sides"][i])
                    events.append({"kind": "conquered", "war": war["id"], "area": area,
                                   "by": by_rules_order(war["sides"][i]),
                                   "from": by_rules_order(owners), "at_end": True})
    return events


# -- the Chinese Rebellion and the Ottomans alone --------------------------------------------------
def colonial_in_china(state: dict, data, war: dict) -> list[dict]:
    return [u for u in board.units_of(state, type="army") if u["where"] in data.areas
            and data.areas[u["where"]].kind in CHINESE and model.enemies_in(war, model.CHINA, u["power"])]


def rebellion_end(state: dict, data, war: dict) -> str | None:
    """Rules: Ending a Chinese Rebellion, in the rules' order."""
    colonial = colonial_in_china(state, data, war)
    if not colonial:
        return "rebellion_won"
    if war.get("end_rebellion"):
        reach = natives.native_reach(state, data, war, model.CHINA)
        if board.units_of(state, model.CHINA) and not {u["where"] for u in colonial} & reach:
            return "rebellion_ended"
    if not board.units_of(state, model.CHINA):
        return "colonial_victory"
    if war.get("quiet", 0) >= STALEMATE:
        return "stalemate"
    return None


def ottoman_areas(data) -> list[str]:
    return [a for a, info in data.areas.items() if info.kind == "ottoman"]


def ottoman_end(state: dict, data, war: dict) -> str | None:
    """Rules: WAR WITH THE OTTOMANS - "the War is over when, at the end of any War Determination
    Phase, there are no Units belonging to the Empire's enemies in any of the three Ottoman Areas,
    or if there are no remaining Ottoman Armies or allied Units in the Ottoman Empire"; Egypt held
    by a neutral: the enemies may demand the end."""
    lands = set(ottoman_areas(data))
    foes = [u for u in board.units_of(state) if u["where"] in lands
            and model.enemies_in(war, model.OTTOMANS, u["power"])]
    if not foes:
        return "ottoman_victory"
    if not [u for u in board.units_of(state, model.OTTOMANS) if u["where"] in lands]:
        return "enemy_victory"
    asked = any(model.OTTOMANS in war.get("peace", {}).get(p, []) for p in model.members(war) + ["Germany"])
    if asked:
        reach = natives.native_reach(state, data, war, model.OTTOMANS)
        enemy_places = {u["where"] for u in board.units_of(state)
                        if model.enemies_in(war, model.OTTOMANS, u["power"])}
        if not reach & enemy_places:
            return "ottoman_unreachable"
    if war.get("quiet", 0) >= STALEMATE:
        return "stalemate"
    return None
