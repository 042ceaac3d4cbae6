"""A Minor Power at War: where its fleets stood when the War began, and how it garrisons what it
won.

Rules: NEGOTIATION AND ENDING A WAR - "If victorious, it will obtain Possession of whatever
conquered Areas it is granted by its allies, will move one Army (1) Unit into each Protectorate
or Possession, and move all other Military Units to its Home Country. If it does not have enough
Army (1) Units to garrison all Protectorates and Possessions, the players should take as many
Army (1) Units are needed from the game box ... the Minor Power's strongest remaining naval unit
is returned to its home country. Then, naval units should be returned to the areas outside the
home country where naval units began, one per area. Any remaining naval units are returned to
the home country ... it places units in the highest economic-value areas first."
"""
from __future__ import annotations

from ..core import board
from . import model


def note_fleets(state: dict, data, war: dict) -> None:
    """Remember where each Minor Power at War has Naval Units outside its Home Country."""
    seen = war.setdefault("minor_navies", {})
    for minor in model.minor_members(state, war):
        if minor in seen:
            continue
        home = board.home_name(data, minor)
        seen[minor] = sorted({u["where"] for u in board.units_of(state, minor, type="navy")
                              if u["where"] != home and u["where"] in data.areas})


def minor_victory(state: dict, data, war: dict) -> list[dict]:
    result = war.get("result") or {}
    winners = [p for i in result.get("victors", []) for p in war["sides"][i]]
    events = []
    for minor in winners:
        if board.is_great(state, minor) or model.is_native(minor):
            continue
        events += garrison(state, data, war, minor)
    return events


def garrison(state: dict, data, war: dict, minor: str) -> list[dict]:
    home = board.home_name(data, minor)
    colonies = [a for a in board.areas_of(state, minor, ("protectorate", "possession"))]
    armies = sorted(board.units_of(state, minor, type="army"), key=lambda u: u["id"])
    ones = [u for u in armies if u["strength"] == 1]
    placed, added = [], 0
    for area in colonies:
        unit = next((u for u in ones if u["where"] == area), None) or (ones[0] if ones else None)
        if unit is None:
            unit = board.add_unit(state, minor, "army", 1, area)
            added += 1
        else:
            ones.remove(unit)
            unit["where"], unit["sea"] = area, None
        placed.append(unit["id"])
    for u in armies:
        if u["id"] not in placed:
            u["where"], u["sea"] = home, None
    navies = sorted(board.units_of(state, minor, type="navy"), key=lambda u: (-u["strength"], u["id"]))
    starts = sorted(war.get("minor_navies", {}).get(minor, []),
                    key=lambda a: (-data.areas[a].ev if a in data.areas else 0, a))
    seas = sorted(data.homes[minor].seas) if minor in data.homes else []
    for i, u in enumerate(navies):
        spot = starts[i - 1] if 1 <= i <= len(starts) else None
        if spot and board.has_control(state, minor, spot):
            u["where"], u["sea"] = spot, None
        else:
            u["where"], u["sea"] = home, seas[0] if seas else None
    return [{"kind": "minor_garrison", "war": war["id"], "power": minor, "areas": colonies,
             "new_armies": added}]
