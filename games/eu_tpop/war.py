"""Declarations of War (9.1, with the Declare War steps of NOTES 3.2), Casus
Belli (NOTES 3.1) and Calls to Arms (11.3 Receiving/Refusing a CtA)."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import hre, influence_changes
from . import state as st

NO_CB_STABILITY = 2        # 9.1 Casus Belli: -2 stability per target without a CB
MARRIAGE_STABILITY = 1     # 9.1 Royal Marriage with DoW target


# -- Casus Belli ----------------------------------------------------------------------

def claim_cb(state: dict, realm: str, target: str) -> bool:
    """Conquest CB (NOTES 3.1).  Pre-1.2: a Claim in an Area where the target
    (or its vassal: 11.4) lawfully owns a province.  1.2: a Claim or Core
    there, where the target owns or controls a province or has a vassal."""
    fam = st.family(state, target)
    for area in state["areas"]:
        provs = [state["provinces"][p] for p in st.area_provinces(state, area)]
        if state["version"] == "1.2":
            mine = st.has_claim(state, realm, area) or any(realm in d["cores"] for d in provs)
            theirs = any(d["owner"] in fam or d["controller"] in fam for d in provs)
        else:
            mine = st.has_claim(state, realm, area)
            theirs = any(d["owner"] in fam for d in provs)
        if mine and theirs:
            return True
    return False


def disputed_cb(state: dict, realm: str, target: str) -> bool:
    """A Disputed Succession gives every PR a CB on that realm, and on PRs at
    war with it (NOTES 3.1)."""
    if not st.is_player(state, realm):
        return False
    if "disputed" in st.marriages_on(state, target).values():
        return True
    return any("disputed" in st.marriages_on(state, e).values() for e in st.enemies(state, target))


def token_cb(state: dict, realm: str, target: str, kind: str = "token") -> bool:
    return any(c["holder"] == realm and c["target"] in (target, *st.family(state, target)) and c["type"] == kind
               for c in state["cbs"])


def held_cbs(state: dict, realm: str, target: str) -> list[str]:
    out = []
    if token_cb(state, realm, target):
        out.append("token")
    if token_cb(state, realm, target, "event"):
        out.append("event")
    if disputed_cb(state, realm, target):
        out.append("disputed")
    if claim_cb(state, realm, target):
        out.append("claim")
    for kind in ("excommunication", "holy_war", "imperial_liberation"):
        if token_cb(state, realm, target, kind) or (kind == "imperial_liberation"
                                                    and hre.liberation_cb(state, realm, target)):
            out.append(kind)
    return out


def choose_cb(state: dict, realm: str, target: str, asked: str | None) -> str | None:
    held = held_cbs(state, realm, target)
    if asked:
        if asked == "cta":
            raise Refused("a Call to Arms is a CB only when you accept one; you cannot declare with it",
                          "no-such-cb")
        if asked not in held:
            raise Refused(f"you hold no {asked} CB against {target} (you hold: {', '.join(held) or 'none'})",
                          "no-such-cb")
        return asked
    return held[0] if held else None


# -- restrictions ----------------------------------------------------------------------

def check_target(state: dict, realm: str, target: str, cb: str | None, *, defensive_cta: bool = False) -> None:
    """9.1 Restrictions on DoW (a-g) with their exceptions; raises Refused."""
    if target == realm or st.top(state, target) == realm:
        raise Refused(f"{target} is your own realm or vassal", "own-realm")
    lord = st.overlord(state, target)
    if lord:
        raise Refused(f"{target} is a vassal of {lord}: declare war on {lord} to fight it (11.4 Vassals in Wars)",
                      "target-is-vassal")
    if st.at_war(state, realm, target):
        raise Refused(f"you are already at war with {target}", "already-at-war")
    if defensive_cta:
        return   # 9.1: a Defensive CtA ignores every restriction
    disputed = cb == "disputed" and st.marriage(state, realm, target) == "disputed"
    if st.alliance(state, realm, target) and not disputed:
        raise Refused(f"{target} is your ally (9.1 a); only a Disputed Succession on your marriage lets you",
                      "dow-ally")
    if st.has_truce(state, realm, target):
        raise Refused(f"you have a truce with {target} until Phase 3 (9.1 b)", "dow-truce")
    if st.is_player(state, target) and target in state["passed"]:
        raise Refused(f"{target} has passed this round (9.1 c)", "dow-passed")
    for pr in st.allies(state, target):
        if st.kind(state, target) == "NPR" and st.is_player(state, pr) and (
                st.has_truce(state, realm, pr) or pr in state["passed"]):
            raise Refused(f"{target} is the ally of {pr}, who has a truce with you or has passed (9.1 d)",
                          "dow-protected-ally")
    emperor = state.get("emperor")
    if emperor and emperor != target and st.hre_member(state, target) and not st.at_war(state, emperor, target):
        if st.alliance(state, realm, emperor) or st.has_truce(state, realm, emperor) or emperor in state["passed"]:
            raise Refused(f"{target} is an HRE member at peace with the Emperor {emperor}, who is your ally, "
                          "has a truce with you or has passed (9.1 e)", "dow-hre")
    if st.is_distant_realm(state, target):
        if state["version"] == "1.2" and cb is None:
            raise Refused(f"{target} is a Distant Realm: 1.2 needs a CB to declare war on it (9.1 f)",
                          "dow-distant")
        if state["version"] != "1.2" and target not in state["realms"][realm]["discovered"]:
            raise Refused(f"{target} is a Distant Realm you have not discovered (9.1 f)", "dow-distant")
    if not state["realms"][realm]["ruler"] and not disputed:
        raise Refused("you are in an Interregnum (9.1 g); only a Disputed Succession on your marriage lets you "
                      "declare war", "dow-interregnum")


def check_declare(state: dict, realm: str, targets: list[str], asked_cb: str | None) -> dict[str, str | None]:
    cbs = {}
    for target in targets:
        cb = choose_cb(state, realm, target, asked_cb)
        check_target(state, realm, target, cb)
        cbs[target] = cb
    return cbs


# -- steps 1, 2 and 5 ---------------------------------------------------------------------

def add_war(state: dict, a: str, b: str, how: str) -> None:
    if not st.at_war(state, a, b):
        state["wars"].append({"pair": st.pair(a, b), "attacker": a, "since": state["round"], "how": how,
                              "prewar": {r: st.base_tax(state, r) for r in (a, b)}})
    if st.pair(a, b) in state["truces"]:
        state["truces"].remove(st.pair(a, b))


def join_active_allies(state: dict, pr: str, events: list) -> None:
    """11.3 Active Allies: "Your Active Allies are considered part of every War that you are
    currently involved in (or enter into while they are active). These NPRs can be attacked by
    your Enemies": each of ``pr``'s Active Allies is at war with each of ``pr``'s enemies."""
    if not st.is_player(state, pr):
        return
    for npr in st.active_allies(state, pr):
        for enemy in st.enemies(state, pr):
            if enemy != npr and not st.at_war(state, npr, enemy):
                add_war(state, enemy, npr, "active ally")
                events.append({"kind": "ally_joins_war", "npr": npr, "pr": pr, "enemy": enemy})


def declare(state: dict, realm: str, targets: list[str], asked_cb: str | None, events: list) -> None:
    cbs = check_declare(state, realm, targets, asked_cb)
    rd = state["realms"][realm]
    for target in targets:
        cb = cbs[target]
        if cb == "disputed" and st.alliance(state, realm, target):
            state["alliances"].pop(st.pair(realm, target))   # 11.3 Ending an Alliance
            events.append({"kind": "alliance_ended", "a": realm, "b": target, "reason": "disputed succession"})
        add_war(state, realm, target, "declared")
        events.append({"kind": "war", "aggressor": realm, "target": target, "cb": cb or "none"})
        hre.declared(state, realm, target, cb, events)
        losses = []
        if cb is None:
            losses.append((NO_CB_STABILITY, f"war on {target} without a CB (9.1)"))
        if st.marriage(state, realm, target) != "none" and cb not in ("disputed", "event"):
            losses.append((MARRIAGE_STABILITY, f"attacked {target}, a marriage partner (11.2)"))
        for loss, why in losses:   # each cause its own line
            before = rd["stability"]
            rd["stability"] = st.cap_stability(rd["stability"] - loss)
            events.append({"kind": "stability", "realm": realm, "delta": rd["stability"] - before, "reason": why})
    join_active_allies(state, realm, events)
    for target in targets:
        join_active_allies(state, target, events)


def remove_influence(state: dict, realm: str, targets: list[str], events: list) -> None:
    """Declare War step 5: the aggressor removes all its Influence from the targets' Areas."""
    for target in targets:
        for area in st.areas_of(state, target):
            n = st.influence(state, area, realm)
            if n:
                st.set_influence(state, area, realm, 0)
                events.append({"kind": "influence", "realm": realm, "area": area, "delta": -n,
                               "reason": f"declared war on {target}"})


# -- Calls to Arms -----------------------------------------------------------------------

def adjacent_realms(state: dict, a: str, b: str) -> bool:
    areas_a, areas_b = set(st.areas_of(state, a)), set(st.areas_of(state, b))
    if areas_a & areas_b:
        return True
    return any(n in areas_b for x in areas_a for n in st.land_neighbours(state, x))


def cta_influence_cost(state: dict, caller: str, npr: str, defensive: bool) -> int:
    """Calling an NPR ally: 2 Influence from its Areas (offensive) or 1
    (defensive), one fewer with a Marriage there (11.2)."""
    cost = 1 if defensive else 2
    if st.marriage(state, caller, npr) != "none":
        cost -= 1
    return max(0, cost)


def npr_influence(state: dict, realm: str, npr: str) -> int:
    """Influence in the NPR's Areas; for a Distant NPR, the Colonists in the realm's pool,
    which count as Influence in any Distant Area (11.1, 11.3 Alliances with Distant NPRs)."""
    if st.is_distant_realm(state, npr):
        return state["realms"][realm].get("colonists", 0)
    return sum(st.influence(state, a, realm) for a in st.areas_of(state, npr))


def check_call_npr(state: dict, caller: str, npr: str, enemies: list[str], defensive: bool) -> None:
    if st.alliance(state, caller, npr) is None:
        raise Refused(f"{npr} is not your ally", "cta-not-ally")
    if st.enemies(state, npr):
        raise Refused(f"{npr} is already at war; an NPR ally is called only at peace", "cta-npr-at-war")
    if not (adjacent_realms(state, npr, caller) or any(adjacent_realms(state, npr, e) for e in enemies)):
        raise Refused(f"{npr} is adjacent neither to you nor to the new enemy", "cta-not-adjacent")
    cost = cta_influence_cost(state, caller, npr, defensive)
    if npr_influence(state, caller, npr) < cost:
        what = "Colonists from your pool (it is Distant)" if st.is_distant_realm(state, npr) else \
            "Influence in its Areas"
        raise Refused(f"calling {npr} costs {cost} {what}; you have "
                      f"{npr_influence(state, caller, npr)}", "cta-influence")


def pay_influence(state: dict, realm: str, npr: str, cost: int) -> None:
    if st.is_distant_realm(state, npr):
        # 11.3: a CtA to a Distant NPR ally discards Colonists instead of Influence.
        rd = state["realms"][realm]
        rd["colonists"] = max(0, rd.get("colonists", 0) - cost)
        return
    for area in st.areas_of(state, npr):
        while cost and st.influence(state, area, realm):
            st.set_influence(state, area, realm, st.influence(state, area, realm) - 1)
            cost -= 1


def activate_npr(state: dict, pr: str, npr: str, events: list) -> None:
    """11.3 Active Allies: flip to K and add half the NPR's tax value (max 5)
    allied units to the PR's available manpower."""
    rec = state["alliances"][st.pair(pr, npr)]
    strength = st.npr_strength(state, npr) if state["version"] == "1.2" else st.base_tax(state, npr)
    rec["active"], rec["strength"] = True, strength
    units = min(5, strength // 2)
    state["realms"][pr]["allied"] += units
    events.append({"kind": "active_ally", "pr": pr, "npr": npr, "allied_units": units})
    join_active_allies(state, pr, events)


def call_npr(state: dict, caller: str, npr: str, enemies: list[str], defensive: bool, events: list) -> None:
    check_call_npr(state, caller, npr, enemies, defensive)
    before = influence_changes.snapshot(state)
    pay_influence(state, caller, npr, cta_influence_cost(state, caller, npr, defensive))
    influence_changes.tell(state, before, f"the {'Defensive' if defensive else 'Offensive'} Call to Arms to {npr} "
                           "(11.3)", events)
    for e in enemies:
        add_war(state, npr, e, "cta")
    events.append({"kind": "cta", "from": caller, "to": npr, "defensive": defensive, "answer": "accepted"})
    activate_npr(state, caller, npr, events)
    if any(adjacent_realms(state, npr, e) for e in enemies):
        events.append({"kind": "monarch_power", "realm": caller, "delta": 1, "type": "military",
                       "reason": f"{npr} is adjacent to the new enemy"})


def can_accept(state: dict, ally: str, enemies: list[str], defensive: bool) -> str | None:
    """None when the ally may accept, else why it must refuse (11.3)."""
    if defensive:
        return None
    for e in enemies:
        if st.alliance(state, ally, e):
            return f"allied to {e} as well: only the defender may call (Conflicting Alliances)"
        try:
            check_target(state, ally, e, "cta")
        except Refused as exc:
            if exc.code == "already-at-war":
                continue
            return str(exc)
    return None


def accept(state: dict, item: dict, active: bool, events: list) -> None:
    caller, ally, enemies, defensive = item["caller"], item["ally"], item["enemies"], item["defensive"]
    for e in enemies:
        add_war(state, ally, e, "cta")
        if defensive and st.alliance(state, ally, e) and st.is_player(state, e):
            state["alliances"].pop(st.pair(ally, e))   # 11.3 Accepting a CtA step 3
            events.append({"kind": "alliance_ended", "a": ally, "b": e, "reason": "accepted a Defensive CtA"})
    events.append({"kind": "cta", "from": caller, "to": ally, "defensive": defensive, "answer": "accepted"})
    if st.kind(state, caller) == "NPR" and active and st.alliance(state, ally, caller):
        activate_npr(state, ally, caller, events)
    join_active_allies(state, ally, events)
    if defensive and st.kind(state, caller) == "NPR" and not any(
            st.at_war(state, ally, e) and e not in enemies for e in enemies):
        events.append({"kind": "monarch_power", "realm": ally, "delta": 1, "type": "military",
                       "reason": f"accepted {caller}'s Defensive Call to Arms"})


def refuse(state: dict, item: dict, why: str, events: list) -> None:
    """11.3 Refusing a CtA, steps 1-5."""
    caller, ally, defensive = item["caller"], item["ally"], item["defensive"]
    was_active = bool((st.alliance(state, ally, caller) or {}).get("active"))
    rec = state["alliances"].pop(st.pair(ally, caller), None)
    events.append({"kind": "cta", "from": caller, "to": ally, "defensive": defensive, "answer": "refused",
                   "why": why})
    if rec:
        events.append({"kind": "alliance_ended", "a": ally, "b": caller, "reason": "refused a Call to Arms"})
    if was_active:
        lose_allied_units(state, ally, rec.get("strength", 0) // 2, events)
        for e in item["enemies"]:
            add_war(state, e, caller, "former active ally")
    serious = defensive and ally not in state["passed"] and not st.enemies(state, ally)
    if serious:
        rd = state["realms"][ally]
        rd["prestige"] -= 2
        events.append({"kind": "prestige", "realm": ally, "delta": -2, "reason": "refused a Defensive CtA"})
        before = influence_changes.snapshot(state)
        remove_n_influence(state, ally, st.areas_of(state, caller), 5)
        influence_changes.tell(state, before, f"refused {caller}'s Defensive Call to Arms (11.3)", events)
    if serious and st.is_player(state, caller):
        # Choice: a PR refused a Defensive CtA always places its CB token (step 4 'may'): it costs it nothing.
        state["cbs"].append({"holder": caller, "target": ally, "type": "token"})
        events.append({"kind": "cb", "holder": caller, "against": ally, "reason": "refused Defensive CtA"})
    elif st.pair(ally, caller) not in state["truces"]:
        state["truces"].append(st.pair(ally, caller))
        events.append({"kind": "truce", "a": ally, "b": caller})


def remove_n_influence(state: dict, realm: str, areas: list[str], n: int) -> None:
    for area in areas:
        have = st.influence(state, area, realm)
        take = min(have, n)
        st.set_influence(state, area, realm, have - take)
        n -= take


def lose_allied_units(state: dict, pr: str, n: int, events: list) -> None:
    """Allied units lost from the Manpower Reserve first, then from the board."""
    rd = state["realms"][pr]
    from_pool = min(rd["allied"], n)
    rd["allied"] -= from_pool
    n -= from_pool
    for loc in sorted(state["units"]):
        for key in ("allied_inf", "allied_cav"):
            if n <= 0:
                break
            n -= st.remove_units(state, loc, pr, key, n)
    events.append({"kind": "allied_units_lost", "realm": pr, "count": from_pool})


def decide_cta(state: dict, item: dict) -> str:
    """accept, refuse or ask, from the ally's kind and standing orders."""
    ally = item["ally"]
    if st.kind(state, ally) == "BOT":
        # NOTES 3.12: a Bot accepts Defensive CtAs unless at war with an opponent; refuses Offensive ones.
        at_war_with_player = any(st.is_player(state, e) for e in st.enemies(state, ally))
        return "accept" if item["defensive"] and not at_war_with_player else "refuse"
    standing = state["realms"][ally]["standing"].get("cta", "ASK")
    return {"ACCEPT": "accept", "REFUSE": "refuse"}.get(standing.split()[0], "ask")


def standing_active(state: dict, ally: str) -> bool:
    return "INACTIVE" not in state["realms"][ally]["standing"].get("cta", "")
