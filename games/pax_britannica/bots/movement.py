"""A simple bot power: buys Interest or Influence it can afford where legal, and now
and then builds an army and takes a Protectorate in an Unorganized Area next to
one of its Controlled Areas.  It never sends an order validation would refuse:
every line is checked and dropped if refused."""
from __future__ import annotations

from pbem.kit.state_copy import copy_state

from ..core import board, mapgraph
from ..core.data import load_data
from ..phases import movement_rules as rules
from .accepted import only_accepted

MAX_PURCHASES = 2
EXPAND_CHANCE = 0.35
CONTEST_CHANCE = 0.5


def bot_orders(game, state: dict, power: str, rng) -> list[str]:
    if state.get("phase") != "movement" or state.get("game_over"):
        return []
    data = load_data(state)
    lines: list[str] = []
    money = board.treasury(state, power)
    sim = copy_state(state)
    if rng.random() < EXPAND_CHANCE:
        money -= _expand(sim, data, power, money, lines, rng)
    areas = sorted(data.areas)
    rng.shuffle(areas)
    bought = 0
    for area in areas:
        if bought >= MAX_PURCHASES:
            break
        old = board.status_of(sim, area, power)
        status = "interest" if old is None else "influence" if old == "interest" else None
        if status is None:
            continue
        price = rules.marker_cost(sim, data, power, area, status)
        if price > money:
            continue
        if rules.check_buy(sim, data, power, {"area": area, "status": status}) is None:
            lines.append(f"BUY {status.upper()} {area}")
            money -= price
            bought += 1
    return only_accepted(game, state, power, lines)


def _expand(sim: dict, data, power: str, money: int, lines: list[str], rng) -> int:
    """Build an Army (3) and take a Protectorate next to an own Controlled Area."""
    need = data.unit_cost("army", 3) + data.markers["protectorate"].buy
    if money < need or rules.check_build(sim, data, power, {"strength": 3}, "army"):
        return 0
    home = board.home_name(data, power)
    for base in board.areas_of(sim, power, board.CONTROL):
        if not board.has_control(sim, power, base) or board.in_unrest(sim, base):
            continue
        for target in sorted(mapgraph.land_neighbours(data, base)):
            info = data.areas.get(target)
            if info is None or info.kind != "unorganized":
                continue
            # Now and then a bot pushes in beside another power's Interest or Influence: the
            # disputes the Negotiation Phase and the Congress of Europe settle.
            present = board.markers_in(sim, target)
            if any(m["status"] in board.CONTROL for m in present.values()) or \
                    (present and rng.random() > CONTEST_CHANCE):
                continue
            if rules.check_buy(sim, data, power, {"area": target, "status": "protectorate"}):
                continue
            # Try the purchase on the bot's own copy, and take it back if the army cannot go.
            old = present.get(power)
            board.set_marker(sim, power, target, "protectorate", False)
            unit = board.add_unit(sim, power, "army", 3, home)
            move = {"strength": 3, "from": home, "to": target, "via": []}
            if rules.check_move_army(sim, data, power, move) is None:
                lines += ["BUILD ARMY 3", f"BUY PROTECTORATE {target}",
                          f"MOVE ARMY 3 {home} TO {target}"]
                return need
            board.remove_unit(sim, unit["id"])
            sim["next_unit_id"] -= 1
            if old is None:
                board.remove_marker(sim, power, target)
            else:
                sim["markers"][target][power] = old
    return 0
