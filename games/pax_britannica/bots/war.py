"""A simple bot at War: it declares War when it holds a Casus Belli and is the stronger, keeps
treaty duties when its side is not the weaker, marches on the enemy, attacks at good odds, asks
for peace when beaten, takes the spoils and demands reparations.  Every line is checked and
dropped if refused, like the other bots."""
from __future__ import annotations

from collections import deque

from ..core import board, combat_table, mapgraph
from ..core.data import load_data
from ..war import declare, model, moves, natives, resolution, sequence
from .accepted import only_accepted

DECLARE_CHANCE = 0.6
HOLD_CHANCE = 0.2
GOOD_ODDS = ("3:2", "2:1", "3:1", "10:1")


def bot_orders(game, state: dict, power: str, rng) -> list[str]:
    if state.get("game_over"):
        return []
    data = load_data(state)
    phase = state.get("phase", "")
    found = sequence.step_of(phase)
    if phase == "war":
        lines = declarations(state, power, rng)
    elif phase == "war_alliances":
        lines = alliances(state, power, rng)
    elif phase == "war_resolution":
        lines = settle(state, data, power, rng)
    elif found and found[0] == "maneuver":
        lines = maneuver(state, data, power, found[1], rng)
    elif found and found[0] == "attack":
        lines = attack(state, data, power, found[1], rng)
    else:
        lines = []
    if found:
        lines += peace(state, power, rng)
    return only_accepted(game, state, power, lines)


def written_for(p: str, power: str, body: list[str]) -> list[str]:
    """``power``'s lines ``body`` for ``p``: between ``FOR <p>`` and ``FOR <power>`` when ``p``
    is another power (Austria-Hungary, a Minor Power it moves)."""
    return body if p == power else [f"FOR {p}", *body, f"FOR {power}"]


def might(state: dict, powers) -> int:
    return sum(u["strength"] for p in powers for u in board.units_of(state, p))


def declarations(state: dict, power: str, rng) -> list[str]:
    lines = []
    targets = sorted({cb["against"] for cb in state.get("cb", []) if cb["holder"] == power
                      and declare.check_declare(state, power, cb["against"]) is None})
    for t in targets:
        if might(state, [power]) > might(state, [t]) and rng.random() < DECLARE_CHANCE:
            lines.append(f"DECLARE WAR ON {t}")
    return lines


def alliances(state: dict, power: str, rng) -> list[str]:
    lines = []
    for duty in declare.pending(state):
        if model.speaker(state, duty["power"]) != power or declare.void(state, duty):
            continue
        war = model.war_of(state, duty["ally"], model.open_wars(state))
        mine = war["sides"][model.side_index(war, duty["ally"])] + [duty["power"]]
        theirs = [p for p in model.members(war) if p not in mine]
        joins = might(state, mine) >= might(state, theirs) or rng.random() < 0.3
        lines += written_for(duty["power"], power, [f"{'JOIN' if joins else 'REFUSE'} WAR WITH {duty['ally']}"])
    for war in model.fighting(state):
        if model.side_index(war, power) is not None:
            continue
        if war.get("kind") == "ottoman" and rng.random() < 0.1:
            lines.append("SUPPORT OTTOMANS")
        for minor in model.unallied_minors(state, war):
            if rng.random() < 0.3:
                lines.append(f"JOIN WAR WITH {minor}")
                break
    return lines


def graph_steps(data, place: str) -> set[str]:
    if place in data.seas or place in data.capes:
        near = set(data.sea_neighbours(place, war=True, canal=True))
        return near | set(data.coastal_places(place)) if place in data.seas else near
    return set(mapgraph.land_neighbours(data, place)) | set(mapgraph.seas_of(data, place))


def distances(data, targets: set[str]) -> dict[str, int]:
    """Steps from every place to the nearest target (the map taken as undirected)."""
    dist = {t: 0 for t in targets}
    todo = deque(targets)
    while todo:
        here = todo.popleft()
        for n in graph_steps(data, here):
            if n not in dist:
                dist[n] = dist[here] + 1
                todo.append(n)
    return dist


def maneuver(state: dict, data, power: str, index: int, rng) -> list[str]:
    lines: list[str] = []
    for war in model.fighting(state):
        if index >= len(war["sides"]):
            continue
        for p in war["sides"][index]:
            if power not in model.controllers(state, war, p) or model.engine_moved(state, war, p):
                continue
            foes = [q for q in model.members(war) if model.enemies_in(war, p, q)]
            army_aims = {u["where"] for q in foes for u in board.units_of(state, q, type="army")}
            army_aims |= {a for a in state.get("markers", {}) if any(board.has_control(state, q, a) for q in foes)}
            navy_aims = {u["where"] for q in foes for u in board.units_of(state, q, type="navy")}
            if war.get("kind") in ("rebellion", "ottoman"):
                army_aims |= {a for a in data.areas if natives.area_strength(state, data, war, a)}
            dist = {"army": distances(data, army_aims), "navy": distances(data, navy_aims or army_aims)}
            body = []
            for u in sorted(board.units_of(state, p), key=lambda u: u["id"]):
                if rng.random() < HOLD_CHANCE:
                    continue
                here = dist[u["type"]].get(u["where"], 99)
                options = [d for d in sorted(moves.steps(state, data, p, u))
                           if moves.check(state, data, p, u, d) is None and dist[u["type"]].get(d, 99) < here]
                if options:
                    body.append(f"MOVE {u['type'].upper()} {u['strength']} {u['where']} TO {rng.choice(options)}")
            if body:
                lines += written_for(p, power, body)
    return lines


def attack(state: dict, data, power: str, index: int, rng) -> list[str]:
    lines: list[str] = []
    for war in model.fighting(state):
        if index >= len(war["sides"]):
            continue
        side = war["sides"][index]
        for p in side:
            if power not in model.controllers(state, war, p):
                continue
            body = []
            for place in sorted({u["where"] for u in board.units_of(state, p)}):
                for kind in ("army", "navy"):
                    if not board.units_of(state, p, place, kind):
                        continue
                    a = sum(u["strength"] for u in board.units_of(state, where=place, type=kind) if u["power"] in side)
                    foes = [u for u in board.units_of(state, where=place, type=kind)
                            if model.enemies_in(war, p, u["power"])]
                    d = sum(u["strength"] for u in foes)
                    d += natives.area_strength(state, data, war, place) if kind == "army" else 0
                    if d and (combat_table.ratio(a, d) in GOOD_ODDS or rng.random() < 0.15):
                        body.append(f"ATTACK {kind.upper()} {place}")
            if body:
                lines += written_for(p, power, body)
    return lines


def peace(state: dict, power: str, rng) -> list[str]:
    war = model.war_of(state, power)
    if war is None or war.get("kind") != "war":
        return []
    mine = war["sides"][model.side_index(war, power)]
    foes = [p for p in model.members(war) if p not in mine and board.is_great(state, p)]
    if not foes:
        return []
    beaten = might(state, mine) * 2 < might(state, foes)
    if beaten or war.get("round", 0) >= 3 and rng.random() < 0.4:
        return [f"END WAR WITH {', '.join(foes)}"]
    return []


def settle(state: dict, data, power: str, rng) -> list[str]:
    lines: list[str] = []
    taken: set[str] = set()
    for war in model.group_wars(state):
        if war.get("status") != "ended":
            continue
        for p, areas in resolution.open_spoils(state, data, war).items():
            if power not in model.controllers(state, war, p):
                continue
            status = "protectorate" if board.is_great(state, p) else "possession"
            # a marker at or below the one held would change nothing (resolution.check_place)
            body = [f"PLACE {status.upper()} {a}" for a in sorted(areas)
                    if board.rank(board.status_of(state, a, p)) < board.rank(status)]
            lines += written_for(p, power, body)
        defeated = sorted(war.get("defeated", []))
        for p in resolution.demanders(state, data, war):
            if power not in model.controllers(state, war, p):
                continue
            free = [a for a in defeated if a not in taken]
            if free:
                area = rng.choice(free)
                taken.add(area)
                lines += written_for(p, power, [f"DEMAND {area}"])
            else:
                lines += written_for(p, power, ["DECLINE"])
    return lines
