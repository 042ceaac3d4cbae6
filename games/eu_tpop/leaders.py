"""Appointing a leader to an army or fleet (9.4 Military Leaders).  Leaders
come from Action cards on the table: the GM puts them in the game with
``SET LEADER``; a player then appoints them with ``APPOINT``."""
from __future__ import annotations

from pbem.gameapi import Refused

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
