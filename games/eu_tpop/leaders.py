"""Appointing a leader to an army or fleet (9.4 Military Leaders).  Leaders
come from Action cards on the table: the GM puts them in the game with
``SET LEADER``; a player then appoints them with ``APPOINT``."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import state as st


def find(state: dict, realm: str, name: str) -> dict | None:
    return next((ld for ld in state["leaders"].get(realm, []) if ld["name"].lower() == name.lower()), None)


def check_appoint(state: dict, realm: str, name: str, place: str) -> dict:
    leader = find(state, realm, name)
    if leader is None:
        known = ", ".join(ld["name"] for ld in state["leaders"].get(realm, [])) or "none (the GM adds them: SET LEADER)"
        raise Refused(f"{realm} has no leader {name!r} (yours: {known})", "unknown-leader")
    units = st.units_at(state, place).get(realm, {})
    if place in state["seas"]:
        if leader.get("ruler"):
            raise Refused("a Ruler may lead an army, never a fleet (9.4 Rulers in Command)", "ruler-admiral")
        if not st.ship_count(units):
            raise Refused(f"you have no fleet in {place}", "no-ships")
    elif not st.land_count(units):
        raise Refused(f"you have no army in {place}", "no-units")
    return leader


def appoint(state: dict, realm: str, name: str, place: str, events: list) -> None:
    leader = check_appoint(state, realm, name, place)
    leader["at"] = place
    events.append({"kind": "appointed", "realm": realm, "leader": leader["name"], "at": place})
    events.append({"kind": "monarch_power", "realm": realm, "delta": -1, "type": "military",
                   "reason": "Appoint Leader (1 or 2, as the card shows; a Ruler is free)"})


# -- the leader of each side in a battle (9.4, 9.7 step 1, 9.9 step 1) ------------------------------

def eligible(ld: dict, naval: bool) -> bool:
    return not (naval and ld.get("ruler"))   # 9.4: a Ruler is a General, never an Admiral


def present(state: dict, realm: str, loc: str, naval: bool) -> list[dict]:
    """The realm's leaders already with its army or fleet at ``loc``, best first."""
    return _best_first([ld for ld in state["leaders"].get(realm, []) if ld.get("at") == loc and eligible(ld, naval)])


def free(state: dict, realm: str, naval: bool) -> list[dict]:
    """Leaders not with any army or fleet (cards in hand the GM put in play), best first."""
    return _best_first([ld for ld in state["leaders"].get(realm, []) if not ld.get("at") and eligible(ld, naval)])


def _best_first(leaders: list[dict]) -> list[dict]:
    return sorted(leaders, key=lambda ld: (-len(ld["dice"]), ld["name"]))


def may_appoint(state: dict, realm: str, loc: str, naval: bool, attacker: bool) -> bool:
    """9.7 step 1: the attacker may appoint a General at the start of a battle, the defender
    only as a Reaction while defending one of the Areas of its Realm; 9.9 step 1: defenders
    may not appoint Admirals."""
    if attacker:
        return True
    return not naval and any(state["provinces"][p]["owner"] == realm for p in st.area_provinces(state, loc))


def candidates(state: dict, realm: str, loc: str, naval: bool, attacker: bool) -> list[dict]:
    out = present(state, realm, loc, naval)
    if may_appoint(state, realm, loc, naval, attacker):
        out += free(state, realm, naval)
    return out


def default_pick(state: dict, realm: str, loc: str, naval: bool) -> str | None:
    """Choice: an unanswered question keeps the best leader already with the army or fleet
    and appoints nobody new (an appointment costs military power the player did not agree
    to spend)."""
    here = present(state, realm, loc, naval)
    return here[0]["name"] if here else None


def standing_pick(state: dict, realm: str, loc: str, naval: bool, attacker: bool):
    """The leader a realm's standing order names for a battle starting now: a name,
    None for no leader, or "ask".  ``STANDING LEADER`` BEST (bots always): the best
    leader present, else the best one it may appoint; NONE; a name (when that leader
    cannot lead here, BEST); ASK (the default): asked by mail when there is a choice."""
    options = candidates(state, realm, loc, naval, attacker)
    if not options:
        return None
    standing = state["realms"][realm]["standing"].get("leader", "ASK") if st.is_human(state, realm) else "BEST"
    if standing == "NONE":
        return None
    named = next((ld for ld in options if ld["name"].lower() == standing.lower()), None)
    if named:
        return named["name"]
    if standing == "ASK":
        here = present(state, realm, loc, naval)
        if len(options) == 1 and here:
            return here[0]["name"]   # one leader with the army: nothing to decide
        return "ask"
    return options[0]["name"]


def take_command(state: dict, realm: str, name: str | None, loc: str, naval: bool, events: list) -> str | None:
    """Put the chosen leader at the head of the force at ``loc``: one not yet there is
    appointed now (the Appoint Leader Minor Action, 1 or 2 military power; a Ruler free)."""
    if name is None:
        return None
    leader = find(state, realm, name)
    if leader is None or not eligible(leader, naval):
        return None
    if leader.get("at") != loc:
        leader["at"] = loc
        events.append({"kind": "appointed", "realm": realm, "leader": leader["name"], "at": loc,
                       "battle": True})
        if not leader.get("ruler"):
            events.append({"kind": "monarch_power", "realm": realm, "delta": -1, "type": "military",
                           "reason": f"Appoint Leader {leader['name']} as the battle in {loc} begins; "
                                     "the card shows 1 or 2"})
    return leader["name"]
