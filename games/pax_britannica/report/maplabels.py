"""Where each place's name and its row of tags go, so that no label covers another.

A place's label is a block: its name, and under it its tags (markers, armies, Unrest,
Casus Belli) in rows of at most :data:`PER_ROW`.  Each block is put beside its dot, on the
first side where it covers nothing already drawn: another label, another place's dot (with
the gold ring a reader's own places get), a Sea Zone's name or box, a canal; failing that a
little farther out, joined to its dot by a dotted line.  The blocks with most tags are placed
first; a block that still covers something is then placed again together with what it covers,
when that does better.  Every box is estimated from the font's own widths (:mod:`.mapfont`),
a little wide.

The first side tried is the place's own (:func:`.mapdraw.home_sides`): where its bare name
sits on an empty board, worked out from the data alone.  So a name stays where players know it, turn
after turn, and moves only while the tags of its neighbourhood need the room.  Deterministic:
the same board gives the same labels.  Pure: no clock, no files.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from . import mapfont

NAME_SIZE, TAG_SIZE, SEA_SIZE = 9.5, 8.0, 12.0
DOT = 6.0
RING = DOT + 3              # the gold ring around a reader's own place
ROW = 12.0                  # from one row of tags' baseline to the next
PER_ROW = 4
NEAR = 3                    # the gaps tried with every wrapping of the tags before going farther
GAPS = (0.0, 8.0, 18.0, 30.0, 45.0, 65.0, 90.0, 120.0)   # how far out a block may go, pixels
#: the directions from a dot a block may take (clockwise from east); tried after the place's own
SIDES = 16
ORDER = (0, 8, 4, 12, 2, 14, 6, 10, 1, 15, 7, 9, 3, 13, 5, 11)   # east, west, south, north, ...

Box = tuple[float, float, float, float]


class Label(NamedTuple):
    """A placed label: the name's baseline point and anchor, the tags in rows, and the
    point a leader line runs to from the dot (None when the block touches its dot)."""
    x: float
    y: float
    anchor: str
    rows: tuple[tuple[tuple[str, str | None, str], ...], ...]
    leader: tuple[float, float] | None
    side: int


def text_box(x: float, y: float, words: str, size: float, anchor: str = "start", bold: bool = False) -> Box:
    """The box a line of text takes: from its cap height to below its descenders."""
    w = mapfont.width(words, size, bold)
    left = {"start": x, "end": x - w, "middle": x - w / 2}[anchor]
    s = mapfont.SLACK
    return (left - s, y - 0.8 * size - s, left + w + s, y + 0.25 * size + s)


def tag_width(words: str) -> float:
    """A tag's box: its words in bold with 2.5 px each side."""
    return mapfont.width(words, TAG_SIZE, bold=True) + 5


def row_width(row) -> float:
    return sum(tag_width(words) + 2 for words, _, _ in row) - 2


def tag_top(baseline: float) -> float:
    return baseline - TAG_SIZE + 0.5


def tag_bottom(baseline: float) -> float:
    return baseline + 3.0


def row_left(x: float, anchor: str, width: float) -> float:
    return {"start": x, "end": x - width, "middle": x - width / 2}[anchor]


def block_boxes(x: float, y: float, anchor: str, name: str, bold: bool, rows) -> list[Box]:
    """The name's box and each row of tags' box, for a name at (x, y)."""
    return _moved(_shape(name, bold, rows), x, y, anchor)


@lru_cache(maxsize=1024)
def _shape(name: str, bold: bool, rows) -> tuple[tuple[float, float, float, float], ...]:
    """A block's boxes for its name at (0, 0) anchored at its start, and each box's width."""
    s = mapfont.SLACK
    w = mapfont.width(name, NAME_SIZE, bold)
    out = [(-s, -0.8 * NAME_SIZE - s, w + s, 0.25 * NAME_SIZE + s)]
    for i, row in enumerate(rows):
        base = ROW * (i + 1)
        out.append((0.0, tag_top(base), row_width(row), tag_bottom(base)))
    return tuple(out)


def _moved(shape, x: float, y: float, anchor: str) -> list[Box]:
    out = []
    for i, (x0, y0, x1, y1) in enumerate(shape):
        w = x1 - x0 - (2 * mapfont.SLACK if i == 0 else 0)
        dx = {"start": 0.0, "end": -w, "middle": -w / 2}[anchor]
        out.append((x + x0 + dx, y + y0, x + x1 + dx, y + y1))
    return out


def dot_box(x: float, y: float) -> Box:
    return (x - RING, y - RING, x + RING, y + RING)


def _wraps(tags: list) -> list[tuple]:
    """The tags in rows: at most PER_ROW to a row, then narrower."""
    if not tags:
        return [()]
    out = []
    for per in sorted({min(len(tags), PER_ROW), min(len(tags), 3), min(len(tags), 2)}, reverse=True):
        out.append(tuple(tuple(tags[i:i + per]) for i in range(0, len(tags), per)))
    return out


def _spot(side: int, x: float, y: float, gap: float, above: float, width: float,
          height: float) -> tuple[float, float, str]:
    """The name's baseline point and anchor for a block ``width`` by ``height`` put on
    ``side`` of the dot at (x, y) (of :data:`SIDES` directions, clockwise from east), ``gap``
    beyond the ring; ``above``: from the block's top to the name's baseline.  The block's
    corner or edge nearest the dot touches the circle that far out."""
    r = RING + 1 + gap
    angle = 2 * math.pi * side / SIDES
    px, py = x + r * math.cos(angle), y + r * math.sin(angle)
    c, s = math.cos(angle), math.sin(angle)
    if c > 0.3:
        lx, anchor = px, "start"
    elif c < -0.3:
        lx, anchor = px, "end"
    else:
        lx, anchor = px, "middle"
    if s > 0.3:
        top = py
    elif s < -0.3:
        top = py - height
    else:
        top = py - height / 2 if abs(c) < 0.99 else y + 3 - above  # due east or west: the name level with the dot
    return lx, top + above, anchor


class _Grid:
    """Boxes already taken, with whose they are, bucketed by 48-pixel cells so a look-up sees
    only its neighbours."""
    CELL = 48.0

    def __init__(self):
        self.cells: dict[tuple[int, int], list[tuple[Box, object]]] = {}
        self.owned: dict[object, list[Box]] = {}

    def _keys(self, b: Box):
        c = self.CELL
        for i in range(int(b[0] // c), int(b[2] // c) + 1):
            for j in range(int(b[1] // c), int(b[3] // c) + 1):
                yield i, j

    def add(self, b: Box, owner: object = None) -> None:
        self.owned.setdefault(owner, []).append(b)
        for k in self._keys(b):
            self.cells.setdefault(k, []).append((b, owner))

    def remove(self, owner: object) -> None:
        for b in self.owned.pop(owner, []):
            for k in self._keys(b):
                self.cells[k] = [e for e in self.cells[k] if e[1] != owner]

    def hits(self, b: Box, skip: tuple = ()) -> list[tuple[object, float]]:
        """Whose boxes ``b`` covers, and how badly (a fixed price for touching at all, so
        a small overlap is never as cheap as none)."""
        seen, out = set(), []
        x0, y0, x1, y1 = b
        for k in self._keys(b):
            for o, owner in self.cells.get(k, ()):
                if o[0] >= x1 or o[2] <= x0 or o[1] >= y1 or o[3] <= y0 or owner in skip or id(o) in seen:
                    continue
                seen.add(id(o))
                out.append((owner, 1000 + 10 * (min(x1, o[2]) - max(x0, o[0])) * (min(y1, o[3]) - max(y0, o[1]))))
        return out


def place(labels: dict[str, tuple[tuple[float, float], bool, list]], obstacles: list[Box],
          bounds: Box, prefer: dict[str, int] | None = None) -> dict[str, Label]:
    """Every label placed: ``labels`` maps a place's name to its dot, whether its name is
    bold, and its tags; ``obstacles`` are what no label may cover; ``bounds`` the map.  The
    blocks with the most tags are placed first, the rest around them; then, a few rounds,
    a label still covering another is placed again with the ones it covers, the better of
    the two kept."""
    prefer = prefer or {}
    grid = _Grid()
    for b in obstacles:
        grid.add(b)
    for name, (at, _, _) in labels.items():
        grid.add(dot_box(*at), ("dot", name))
    spots: dict[str, tuple] = {}

    def cost(name: str, boxes: list[Box]) -> float:
        skip = (name, ("dot", name))
        return sum(c for b in boxes for _, c in grid.hits(b, skip)) + sum(1e6 for b in boxes if not _inside(b, bounds))

    def settle(name: str) -> None:
        (x, y), bold, tags = labels[name]
        first = prefer.get(name, ORDER[0])
        sides = (first,) + tuple(s for s in ORDER if s != first)
        best = None
        near = [(r, g, s) for g in GAPS[:NEAR] for r in _wraps(tags) for s in sides]
        far = [(r, g, s) for r in _wraps(tags) for g in GAPS[NEAR:] for s in sides]
        for rows, gap, side in near + far:
            shape = _shape(name, bold, rows)
            top = shape[0][1]
            height = shape[-1][3] - top
            width = max(b[2] - b[0] for b in shape)
            lx, ly, anchor = _spot(side, x, y, gap, -top, width, height)
            boxes = _moved(shape, lx, ly, anchor)
            price = cost(name, boxes)
            if best is None or price + gap < best[0]:
                best = (price + gap, gap, lx, ly, anchor, rows, boxes, side)
            if price == 0:
                best = (gap, gap, lx, ly, anchor, rows, boxes, side)
                break
        spots[name] = best
        for b in best[6]:
            grid.add(b, name)

    order = sorted(labels, key=lambda n: (-len(labels[n][2]), labels[n][0][1], labels[n][0][0], n))
    for name in order:
        settle(name)
    for _ in range(3):
        bad = [n for n in order if cost(n, spots[n][6])]
        for name in bad:
            hit = {o for b in spots[name][6] for o, _ in grid.hits(b, (name, ("dot", name)))}
            group = [name] + sorted({o if isinstance(o, str) else o[1] for o in hit if o is not None} - {name})
            before = sum(cost(g, spots[g][6]) for g in group)
            kept = {g: spots[g] for g in group}
            for g in group:
                grid.remove(g)
            for g in group:
                settle(g)
            if sum(cost(g, spots[g][6]) for g in group) >= before:
                for g in group:
                    grid.remove(g)
                    spots[g] = kept[g]
                    for b in kept[g][6]:
                        grid.add(b, g)
        if not bad:
            break
    out: dict[str, Label] = {}
    for name, (_, gap, lx, ly, anchor, rows, boxes, side) in spots.items():
        x, y = labels[name][0]
        out[name] = Label(lx, ly, anchor, rows, _nearest(x, y, _union(boxes)) if gap > 0 else None, side)
    return out


def shift(box: Box, taken: list[Box], bounds: Box) -> tuple[float, float]:
    """How far to move ``box`` (a Sea Zone's box of fleets) so that it covers nothing
    ``taken`` and stays inside ``bounds``: not at all if it can, else the least tried."""
    tries = [(0.0, 0.0)] + [(dx * d, dy * d) for d in GAPS[1:] + (150.0, 180.0)
                            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))]
    for dx, dy in tries:
        moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
        if _inside(moved, bounds) and not any(_overlap_cost(moved, t) for t in taken):
            return dx, dy
    return 0.0, 0.0


def _overlap_cost(b: Box, o: Box) -> float:
    w = min(b[2], o[2]) - max(b[0], o[0])
    h = min(b[3], o[3]) - max(b[1], o[1])
    return 1000 + 10 * w * h if w > 0 and h > 0 else 0.0


def _inside(b: Box, bounds: Box) -> bool:
    return b[0] >= bounds[0] and b[1] >= bounds[1] and b[2] <= bounds[2] and b[3] <= bounds[3]


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _nearest(x: float, y: float, b: Box) -> tuple[float, float]:
    return min(max(x, b[0]), b[2]), min(max(y, b[1]), b[3])


def leader_start(x: float, y: float, to: tuple[float, float]) -> tuple[float, float]:
    """Where a leader line leaves the dot's edge towards ``to``."""
    dx, dy = to[0] - x, to[1] - y
    d = math.hypot(dx, dy) or 1.0
    return x + dx / d * DOT, y + dy / d * DOT
