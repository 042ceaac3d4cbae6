"""Where each Area and Sea Zone of a scenario stands on the drawn map.

The published map is not public, so a scenario is a graph (Areas, their borders, their
coasts, the Sea Zones between them).  A scenario may place its places itself (``xy = [x,
y]`` under ``[areas.<Area>]`` or ``[seas.<Sea>]``, pixels of the drawing); every place it
does not place is laid out here from the adjacency: a stress layout (the drawn distance
between two places follows the number of borders and coasts between them), started from a
fixed seed, so the same scenario always gives the same map.  ``pbem scenario layout FILE``
writes the result back into a copy of the scenario for a GM to adjust.

Choice: places a GM placed stay where they are unless two cards would overlap, when they
are moved apart just enough (a card never hides another).
"""
from __future__ import annotations

import json
import math
import random
from functools import lru_cache
from typing import Iterable

#: the drawn length of one border or coast, pixels
EDGE = 185.0
SEED = 23
PAD = 16.0
GAP = 14.0   # the least space between two cards


def graph(state: dict) -> tuple[list[str], dict[str, set[str]]]:
    """The places (Areas, then Sea Zones, by name) and their neighbours: land borders, coasts
    and sea lanes."""
    nodes = sorted(state["areas"]) + sorted(s for s in state["seas"] if s not in state["areas"])
    nbrs: dict[str, set[str]] = {n: set() for n in nodes}

    def link(a: str, b: str) -> None:
        if a in nbrs and b in nbrs and a != b:
            nbrs[a].add(b)
            nbrs[b].add(a)
    for a, adj in state["adj"].items():
        for b in adj:
            link(a, b)
    for a, d in state["areas"].items():
        for s in d.get("seas", []):
            link(a, s)
    for s, d in state["seas"].items():
        for t in d.get("adj", []):
            link(s, t)
    return nodes, nbrs


def positions(state: dict, sizes: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The centre of every place's card (``sizes``: each card's width and height), laid out
    from the adjacency where the scenario gives no ``xy``; cards do not overlap; the top-left
    card corner is at (PAD, PAD) or more."""
    nodes, nbrs = graph(state)
    given = {n: tuple(xy) for n, xy in (state.get("xy") or {}).items() if n in nbrs}
    key = json.dumps([nodes, {n: sorted(v) for n, v in nbrs.items()}, given,
                      {n: sizes.get(n) for n in nodes}], sort_keys=True)
    return dict(_positions(key))


@lru_cache(maxsize=16)
def _positions(key: str) -> tuple[tuple[str, tuple[float, float]], ...]:
    nodes, nbrs, given, sizes = json.loads(key)
    given = {n: (float(x), float(y)) for n, (x, y) in given.items()}
    sizes = {n: tuple(s) if s else (120.0, 40.0) for n, s in sizes.items()}
    pos = stress(nodes, {n: set(v) for n, v in nbrs.items()}, given)
    if not given:
        pos = spread(pos, sizes, nbrs)
    pos = separate(nodes, pos, sizes, fixed=given)
    pos = to_corner(nodes, pos, sizes, turn=not given)
    return tuple((n, pos[n]) for n in nodes)


def distances(nodes: list[str], nbrs: dict[str, set[str]]) -> dict[str, dict[str, int]]:
    """Borders and coasts between every two places (breadth first); places not linked at
    all count one step farther than the farthest linked pair."""
    out: dict[str, dict[str, int]] = {}
    for n in nodes:
        seen, frontier, d = {n: 0}, [n], 0
        while frontier:
            d += 1
            nxt = []
            for a in frontier:
                for b in sorted(nbrs[a]):
                    if b not in seen:
                        seen[b] = d
                        nxt.append(b)
            frontier = nxt
        out[n] = seen
    far = max((d for row in out.values() for d in row.values()), default=1) + 1
    return {n: {m: out[n].get(m, far) for m in nodes} for n in nodes}


def stress(nodes: list[str], nbrs: dict[str, set[str]], given: dict[str, tuple[float, float]],
           rounds: int = 0) -> dict[str, tuple[float, float]]:
    """Stress majorization, one place at a time (each moved to where its distances to all
    the others are best kept, weighted 1/d²); places the scenario placed do not move."""
    if not nodes:
        return {}
    dist = distances(nodes, nbrs)
    rng = random.Random(SEED)
    side = EDGE * math.sqrt(len(nodes))
    start = [given.get(n, (rng.uniform(0, side), rng.uniform(0, side))) for n in nodes]
    xs, ys = [p[0] for p in start], [p[1] for p in start]
    free = [i for i, n in enumerate(nodes) if n not in given]
    # each free place's terms: (other place, its drawn distance, its weight 1/d²), and the weights' sum
    terms = {i: [(j, dist[nodes[i]][nodes[j]] * EDGE, 1.0 / dist[nodes[i]][nodes[j]] ** 2)
                 for j in range(len(nodes)) if j != i] for i in free}
    total = {i: sum(w for _, _, w in terms[i]) or 1.0 for i in free}
    hypot = math.hypot
    rounds = rounds or (200 if len(nodes) <= 40 else 80)
    for _ in range(rounds):
        moved = 0.0
        for i in free:
            xi, yi = xs[i], ys[i]
            sx = sy = 0.0
            for j, dij, w in terms[i]:
                dx, dy = xi - xs[j], yi - ys[j]
                k = w * dij / (hypot(dx, dy) or 1e-6)
                sx += w * xs[j] + k * dx
                sy += w * ys[j] + k * dy
            nx, ny = sx / total[i], sy / total[i]
            moved = max(moved, abs(nx - xi) + abs(ny - yi))
            xs[i], ys[i] = nx, ny
        if moved < 0.5:
            break
    pos = {n: (xs[i], ys[i]) for i, n in enumerate(nodes)}
    return pos


def spread(pos: dict[str, tuple[float, float]], sizes: dict[str, tuple[float, float]],
           nbrs: dict[str, list[str]]) -> dict[str, tuple[float, float]]:
    """The layout scaled up until most neighbours' cards do not overlap (the median pair of
    neighbours; at most threefold): the shape of the graph kept, and far less left for
    :func:`separate` to push apart."""
    factors = []
    for a, others in sorted(nbrs.items()):
        for b in sorted(others):
            dx, dy = abs(pos[a][0] - pos[b][0]), abs(pos[a][1] - pos[b][1])
            fx = ((sizes[a][0] + sizes[b][0]) / 2 + GAP) / dx if dx else math.inf
            fy = ((sizes[a][1] + sizes[b][1]) / 2 + GAP) / dy if dy else math.inf
            factors.append(min(fx, fy))
    factors.sort()
    need = min(max(1.0, factors[len(factors) // 2] if factors else 1.0), 3.0)
    return {n: (x * need, y * need) for n, (x, y) in pos.items()}


def separate(nodes: list[str], pos: dict[str, tuple[float, float]], sizes: dict[str, tuple[float, float]],
             passes: int = 400, fixed: Iterable[str] = ()) -> dict[str, tuple[float, float]]:
    """Cards moved apart until no two overlap (with ``GAP`` between them): each overlapping
    pair is pushed apart along the axis where they overlap least, half each, or all of it by
    the one not ``fixed`` (placed by the GM) when the other is.  Each pass looks only at cards
    near each other from left to right (a sweep), so a big map costs little more than a small."""
    fixed = set(fixed)
    pos = {n: [float(pos[n][0]), float(pos[n][1])] for n in nodes}
    widest = max((sizes[n][0] for n in nodes), default=0.0)
    for _ in range(passes):
        clash = False
        order = sorted(nodes, key=lambda n: (pos[n][0], n))
        for k, a in enumerate(order):
            wa, ha = sizes[a]
            reach = (wa + widest) / 2 + GAP
            for b in order[k + 1:]:
                if pos[b][0] - pos[a][0] >= reach:
                    break
                wb, hb = sizes[b]
                dx = pos[b][0] - pos[a][0]
                dy = pos[b][1] - pos[a][1]
                ox = (wa + wb) / 2 + GAP - abs(dx)
                oy = (ha + hb) / 2 + GAP - abs(dy)
                if ox <= 0 or oy <= 0:
                    continue
                clash = True
                share_a = 0.0 if a in fixed and b not in fixed else 1.0 if b in fixed and a not in fixed else 0.5
                axis, over, d = (0, ox, dx) if ox < oy else (1, oy, dy)
                sign = 1.0 if d > 0 or (d == 0 and a < b) else -1.0
                pos[a][axis] -= sign * (over + 1) * share_a
                pos[b][axis] += sign * (over + 1) * (1 - share_a)
        if not clash:
            break
    return {n: (p[0], p[1]) for n, p in pos.items()}


def to_corner(nodes: Iterable[str], pos: dict, sizes: dict, turn: bool) -> dict[str, tuple[float, float]]:
    """A layout of its own turned wider than tall (mail is read on wide screens) and moved so
    its top-left card corner is at (PAD, PAD); one with places the GM gave is only moved right
    or down, as far as a card would stick out of the drawing."""
    nodes = list(nodes)
    xs = [pos[n][0] for n in nodes]
    ys = [pos[n][1] for n in nodes]
    if turn and max(ys) - min(ys) > max(xs) - min(xs):
        pos = separate(nodes, {n: (pos[n][1], pos[n][0]) for n in nodes}, sizes)
    left = min(pos[n][0] - sizes[n][0] / 2 for n in nodes) - PAD
    top = min(pos[n][1] - sizes[n][1] / 2 for n in nodes) - PAD
    if not turn:
        left, top = min(left, 0.0), min(top, 0.0)
    return {n: (round(pos[n][0] - left), round(pos[n][1] - top)) for n in nodes}


def bounds(pos: dict[str, tuple[float, float]], sizes: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """The width and height the cards take, with ``PAD`` around them."""
    if not pos:
        return 2 * PAD, 2 * PAD
    return (max(x + sizes[n][0] / 2 for n, (x, y) in pos.items()) + PAD,
            max(y + sizes[n][1] / 2 for n, (x, y) in pos.items()) + PAD)
