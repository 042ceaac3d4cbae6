"""The battle loop: rounds, retreat decisions (standing orders or asked by
mail), retreats with their extra casualty, and the winner (9.6, 9.7 steps
6-7, 9.9 steps 6-7)."""
from __future__ import annotations

from . import battle as bt
from . import leaders
from . import state as st
from .casualties import apply_casualties


def run(state: dict, item: dict, dice, events: list):
    """Advance a battle; returns "done", or a pending decision to ask."""
    if not item["begun"]:
        item["begun"] = True
        bt._claim_npr(state, item)
        item["rounds"] = []
        events.append({"kind": "battle_start", "area": item["loc"], "attacker": item["attacker"],
                       "naval": item["naval"], "why": item.get("why", ""),
                       "npr_defence": sum(item["npr"].values())})
    if item["round"] == 0:
        pending = _preparations(state, item, events)
        if pending:
            return pending
    while True:
        att = bt.factions(state, item, "attacker")
        dfn = bt.factions(state, item, "defender")
        if item["round"] == 0 or not item["rolled"]:
            if not bt.strength(att, item["naval"]) or not bt.strength(dfn, item["naval"]):
                return _finish(state, item, events)
            bt.roll_round(state, item, dice, events)
            item["rolled"], item["decided"] = True, {}
            continue
        att = bt.factions(state, item, "attacker")
        dfn = bt.factions(state, item, "defender")
        if not bt.strength(att, item["naval"]) or not bt.strength(dfn, item["naval"]):
            bt.captures(state, item, events)
            return _finish(state, item, events)
        # 9.7 step 6: the attacker chooses first, then each defender.
        order = [r for r, _ in att if r == item["attacker"]] + [r for r, _ in dfn]
        for realm in order:
            if realm in item["decided"]:
                continue
            choice = _decide(state, item, realm)
            if choice == "ask":
                return {"kind": "retreat", "realm": realm, "loc": item["loc"], "round": item["round"],
                        "default": _default_choice(state, item, realm)}
            item["decided"][realm] = choice
        retreated = [r for r in order if item["decided"].get(r, {}).get("retreat")]
        for realm in retreated:
            _retreat(state, item, realm, item["decided"][realm].get("to"), events)
        if retreated:
            att = bt.factions(state, item, "attacker")
            dfn = bt.factions(state, item, "defender")
            if not bt.strength(att, item["naval"]) or not bt.strength(dfn, item["naval"]):
                return _finish(state, item, events)
        item["rolled"] = False


def _preparations(state: dict, item: dict, events: list) -> dict | None:
    """9.7 step 1 (9.9 step 1 at sea): the Main Defender is named, then the attacker and
    then the Main Defender choose their leader: from standing orders, or asked by mail.
    Returns the question to ask, or None when both sides are settled."""
    loc, naval = item["loc"], item["naval"]
    item.setdefault("leaders", {})
    if "main_fixed" not in item:
        item["main_fixed"] = bt.main_defender(state, item)
    for realm, attacker in ((item["attacker"], True), (item["main_fixed"], False)):
        if realm is None or realm == st.REBELS or realm in item["leaders"] or st.kind(state, realm) == "NPR":
            continue
        pick = leaders.standing_pick(state, realm, loc, naval, attacker)
        if pick == "ask" and state["phase"] != "p3":
            choices = [ld["name"] for ld in leaders.candidates(state, realm, loc, naval, attacker)]
            default = leaders.default_pick(state, realm, loc, naval)
            return {"kind": "leader", "realm": realm, "loc": loc, "naval": naval, "attacker": attacker,
                    "choices": choices, "default": f"LEADER {default or 'NONE'}"}
        if pick == "ask":   # Choice: battles of Phase 3 are not paused; the unanswered default applies
            pick = leaders.default_pick(state, realm, loc, naval)
        item["leaders"][realm] = leaders.take_command(state, realm, pick, loc, naval, events)
    return None


def answer_leader(state: dict, item: dict, pending: dict, order, events: list) -> None:
    """The leader a realm named by mail (LEADER <name>|BEST|NONE), or the default."""
    realm, loc, naval = pending["realm"], pending["loc"], pending["naval"]
    if order is None:
        name = pending["default"].removeprefix("LEADER ")
        events.append({"kind": "default_decision", "realm": realm, "decision": pending["default"]})
    else:
        name = order.args["leader"]
        if name == "BEST":
            name = pending["choices"][0] if pending["choices"] else "NONE"
    pick = None if name == "NONE" else name
    item.setdefault("leaders", {})[realm] = leaders.take_command(state, realm, pick, loc, naval, events)


def answer(item: dict, realm: str, order) -> None:
    """A retreat decision that came by mail (RETREAT [TO <place>] or FIGHT)."""
    if order is None or order.kind == "fight":
        item["decided"][realm] = {"retreat": False}
    else:
        item["decided"][realm] = {"retreat": True, "to": order.args.get("to")}


def default_answer(state: dict, item: dict, realm: str) -> None:
    item["decided"][realm] = {"retreat": _default_choice(state, item, realm) == "RETREAT"}


def _sizes(state: dict, item: dict, realm: str) -> tuple[int, int]:
    att = bt.factions(state, item, "attacker")
    dfn = bt.factions(state, item, "defender")
    mine, theirs = (att, dfn) if any(r == realm for r, _ in att) else (dfn, att)
    return bt.strength(mine, item["naval"]), bt.strength(theirs, item["naval"])


def _default_choice(state: dict, item: dict, realm: str) -> str:
    mine, theirs = _sizes(state, item, realm)
    return "RETREAT" if mine < theirs else "FIGHT"


def _decide(state: dict, item: dict, realm: str):
    if realm == st.REBELS:
        return {"retreat": False}   # 3.8: rebels never retreat
    if realm.startswith("npr:"):
        return {"retreat": _npr_retreats(state, item, realm.removeprefix("npr:"))}
    kind = st.kind(state, realm)
    mine, theirs = _sizes(state, item, realm)
    if kind == "NPR":   # invading NPR units fight like rebels once placed
        return {"retreat": False}
    if kind == "BOT":
        return {"retreat": mine < theirs}
    standing = state["realms"][realm]["standing"].get("retreat", "IF OUTNUMBERED")
    if standing == "NEVER":
        return {"retreat": False}
    if standing == "ASK" and state["phase"] != "p3":
        return "ask"   # Choice: battles of Phase 3 are not paused; the standing default applies
    return {"retreat": mine < theirs}


def _npr_retreats(state: dict, item: dict, npr: str) -> bool:
    """13.4 (NOTES 3.7): an NPR retreats after a round in which it has fewer
    units, except in its capital area, its last area, a sea zone next to its
    capital, or fighting alongside rebels."""
    mine, theirs = _sizes(state, item, f"npr:{npr}")
    if mine >= theirs:
        return False
    loc = item["loc"]
    cap_area = st.capital_area(state, npr)
    if item["naval"]:
        return not (cap_area and loc in state["areas"][cap_area]["seas"])
    if loc == cap_area or st.areas_of(state, npr) == [loc]:
        return False
    return state["rebels"].get(loc, 0) == 0


def _retreat(state: dict, item: dict, realm: str, to: str | None, events: list) -> None:
    """One extra casualty, then away (9.7 step 6)."""
    loc = item["loc"]
    side_forces = bt.factions(state, item, "attacker" if realm == item["attacker"] or any(
        r == realm for r, _ in bt.factions(state, item, "attacker")) else "defender")
    mine = [(r, u) for r, u in side_forces if r == realm]
    lost: dict[str, list] = {}
    if mine:
        apply_casualties(state, item, mine, 1, lost)
    if realm.startswith("npr:"):
        item["npr"][realm.removeprefix("npr:")] = 0
        events.append({"kind": "retreat", "realm": realm.removeprefix("npr:"), "area": loc, "to": "removed",
                       "lost": lost})
        return
    dest = to or _destination(state, item, realm)
    if dest is not None:
        dest = st.place_key(state, dest) if item["naval"] else dest
    if dest is None:
        events.append({"kind": "retreat", "realm": realm, "area": loc, "to": "nowhere", "lost": lost,
                       "note": "no place to retreat to: the units stay and fight"})
        return
    units = state["units"].get(loc, {}).pop(realm, {})
    st.tidy(state, loc)
    if not any(n for k, n in units.items() if k != "damaged"):
        events.append({"kind": "retreat", "realm": realm, "area": loc, "to": "none left", "lost": lost})
        return
    for key, n in units.items():
        if key == "damaged":
            state["units"].setdefault(dest, {}).setdefault(realm, {})["damaged"] = \
                state["units"][dest][realm].get("damaged", 0) + n
        else:
            st.add_units(state, dest, realm, key, n)
    for ld in state["leaders"].get(realm, []):
        if ld.get("at") == loc:
            ld["at"] = dest
    events.append({"kind": "retreat", "realm": realm, "area": loc, "to": dest, "lost": lost})


def retreat_options(state: dict, item: dict, realm: str) -> list[str]:
    """Where ``realm`` may retreat from the battle (9.7 step 6, 9.9 step 6), best first.  Choice
    (choices/warfare.md, Retreats): attackers go back where they came from;
    defenders to an adjacent Area without enemy units, friendly first, then
    alphabetically; at sea, an adjacent Sea Zone without enemy ships or a
    friendly port on the zone."""
    loc = item["loc"]
    if realm in item["from"] and (realm == item["attacker"]):
        return [item["from"][realm]]   # attackers go back where they came from
    if item["naval"]:
        out = [s for s in state["seas"][loc]["adj"] if not st.sea_hostile(state, realm, s)]
        out += [p for p, d in state["provinces"].items() if d.get("port") == loc
                and st.friendly(state, realm, d["controller"] or "")]
        return sorted(out)
    out = []
    for area in sorted(st.land_neighbours(state, loc)):
        if any(st.hostile(state, realm, r) for r in st.realms_with_land(state, area)):
            continue
        if st.area_status(state, realm, area) == "neutral" and not st.enemies(state, realm):
            continue
        out.append(area)
    out.sort(key=lambda a: (st.area_status(state, realm, a) != "friendly", a))
    return out


def _destination(state: dict, item: dict, realm: str) -> str | None:
    options = retreat_options(state, item, realm)
    return options[0] if options else None


def _finish(state: dict, item: dict, events: list) -> str:
    naval = item["naval"]
    att = bt.factions(state, item, "attacker")
    dfn = bt.factions(state, item, "defender")
    a, d = bt.strength(att, naval), bt.strength(dfn, naval)
    winner = item["attacker"] if a and not d else (item.get("main_defender") or bt._npr_name(item)) if d and not a \
        else "none"
    rounds = [e for e in events if e.get("kind") == "battle_round" and e["area"] == item["loc"]]
    events.append({"kind": "battle", "area": item["loc"], "attacker": item["attacker"],
                   "defender": item.get("main_defender") or bt._npr_name(item), "naval": naval,
                   "round": item["round"], "dice": [r["dice"] for r in rounds], "hits": [r["hits"] for r in rounds],
                   "casualties": [r["casualties"] for r in rounds], "winner": winner})
    for realm in {item["attacker"], item.get("main_defender")}:
        state["bonus"].pop(realm or "", None)
    # NPR defenders leave the map whether they win or lose (13.4).
    item["npr"] = {}
    # Invading NPR units that survive act as rebels from now on (NOTES 3.7).
    for r in list(st.units_at(state, item["loc"])):
        if r in state["realms"] and st.kind(state, r) == "NPR" and not naval:
            n = st.land_count(state["units"][item["loc"]][r])
            state["units"][item["loc"]].pop(r)
            st.tidy(state, item["loc"])
            state["rebels"][item["loc"]] = state["rebels"].get(item["loc"], 0) + n
    if winner == item["attacker"] and state["phase"] in ("action", "reaction") \
            and item["attacker"] == state.get("active") and not state["c_gained"]:
        state["c_gained"] = True   # 9.6 step 7: once per turn
        events.append({"kind": "monarch_power", "realm": item["attacker"], "delta": 1, "type": "military",
                       "reason": "battle won in the action phase"})
    return "done"
