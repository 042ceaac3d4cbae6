"""A simple bot player for demos and random games: it tries a few legal
actions (checked with the same functions validation uses) and passes often
enough that every round ends."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import moves, sieges, war
from .phases import peace_resolution
from . import state as st
from . import victory as vc


def reaction(state: dict, realm: str, rng) -> list[str]:
    """The answer to a decision asked of the bot's realm."""
    p = state["pending"]
    if p["realm"] != realm:
        return []
    if p["kind"] == "cta":
        return ["ACCEPT" if rng.random() < 0.7 else "REFUSE"]
    if p["kind"] == "leader":
        return [f"LEADER {rng.choice(p['choices'] + ['BEST', 'NONE'])}"]
    return ["RETREAT" if rng.random() < 0.5 else "FIGHT"]


def peace_and_rebels(state: dict, realm: str, rng) -> list[str]:
    """Phase 3: peace orders in step D, nothing in the others."""
    return _peace(state, realm, rng) if state["step"] == "D" else []


def action(state: dict, realm: str, rng) -> list[str]:
    """The bot realm's action when it is its turn (and a standing order or two)."""
    if realm != state["active"]:
        return []
    standing = []
    if not state["realms"][realm]["standing"]:
        standing = [rng.choice(["STANDING CTA ASK", "STANDING CTA ACCEPT", "STANDING RETREAT ASK",
                                "STANDING RETREAT IF OUTNUMBERED"])]
    if rng.random() < 0.25 or state["action_no"] > 60 * state["round"]:
        return standing + ["PASS"]
    for make in rng.sample([_war_move, _declare, _recruit, _influence], 4):
        order = make(state, realm, rng)
        if order:
            return standing + order
    return standing + ["PASS"]


def _ok(fn, *args) -> bool:
    try:
        fn(*args)
        return True
    except Refused:
        return False


def _war_move(state, realm, rng):
    if not st.enemies(state, realm):
        return None
    for area in sorted(state["areas"]):
        units = moves.land_units(state, realm, area)
        if not st.land_count(units):
            continue
        if sieges.siegeable(state, realm, area) and _ok(sieges.check_siege, state, realm, area, []):
            return [f'SIEGE "{area}"']
        for nb in sorted(st.land_neighbours(state, area)):
            if st.area_status(state, realm, nb) == "hostile" and _ok(moves.check_activate, state, realm,
                                                                      [area, nb], True):
                return [f'ACTIVATE "{area}" TO "{nb}" SIEGE']
    return None


def _declare(state, realm, rng):
    if st.enemies(state, realm) or rng.random() < 0.3:
        return None
    targets = [r for r, d in state["realms"].items() if d["kind"] == "NPR" and not d.get("overlord")
               and st.provinces_of(state, r) and _ok(war.check_declare, state, realm, [r], None)]
    if not targets:
        return None
    target = rng.choice(sorted(targets))
    lines = [f'DECLARE WAR ON "{target}"']
    for ally in st.allies(state, realm):
        if st.kind(state, ally) == "NPR" and _ok(war.check_call_npr, state, realm, ally, [target], False):
            lines.append(f'CALL TO ARMS "{ally}"')
        elif st.is_player(state, ally):
            lines.append(f'CALL TO ARMS "{ally}"')
    return lines


def _recruit(state, realm, rng):
    areas = sorted(moves.own_areas(state, realm))
    rng.shuffle(areas)
    for area in areas:
        for n in (2, 1):
            if _ok(moves.check_recruit, state, realm, n, "inf", area, "regular"):
                return [f'RECRUIT {n} INF IN "{area}"']
    return None


def _influence(state, realm, rng):
    from .diplomacy import check_influence
    areas = sorted(state["areas"])
    rng.shuffle(areas)
    for area in areas:
        if _ok(check_influence, state, realm, area, 1):
            return [f'INFLUENCE "{area}" 1']
    return None


def _peace(state, realm, rng):
    """A term where one may be enforced, else an offer or the war kept; never an order on a war
    ending by Automatic White Peace (10.1 step 1), and in step D's second window only on the
    wars it asks about."""
    out = []
    asked = peace_resolution.asked_of(state, realm) if peace_resolution.reopened(state) else None
    for enemy in st.enemies(state, realm):
        if vc.condition(state, realm, enemy) in ("white_peace", "none") or (asked is not None and enemy not in asked):
            continue
        terms = [t for t in vc.terms(state, realm, enemy) if t not in ("negotiated_peace",)]
        if "keep_current_board_state" in terms:
            out.append(f'ENFORCE keep_current_board_state ON "{enemy}"')
        elif [t for t in terms if t != "white_peace"]:
            out.append(f'ENFORCE {[t for t in terms if t != "white_peace"][0]} ON "{enemy}"')
        elif vc.peace_party(state, enemy, realm) != enemy:
            continue   # an Active Ally's peace is made with its PR (10.3)
        elif rng.random() < 0.6:
            out.append(f'OFFER WHITE PEACE TO "{enemy}"')
        else:
            out.append(f'KEEP WAR "{enemy}"')
    return out


