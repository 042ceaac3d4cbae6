"""The Pax Britannica world map as SVG, drawn from :func:`.mapview.board_view`.

Every Area, Home Country and Sea Zone sits at its place in the coordinate
table (``data/places.toml``, see DATA.md "Map coordinates"), so a place is
always in the same spot and the map reads the same turn after turn: only the
colours and tags change.  Each Area is a dot filled with its controllers'
colours (a codominion is split), its name beside it and a row of tags under
the name: one per marker (solid for Control, outlined for Interest, tinted
for Influence, dashed while not yet established), one per army, then Unrest
and Casus Belli.  Sea Zones carry their merchant fleets and navies.  Colour is
never the only cue: every tag names its power.  Pure: no clock, no files.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable

from pbem.kit import svg

from ..core.board import CONTROL
from .mapview import ABBREVIATIONS, area_line, sea_line

# Projection (data/places.toml "projection"): equirectangular, the map's edge at 170 W.
WEST, NORTH, SOUTH = -170.0, 72.0, -58.0
SCALE, STRETCH = 5.2, 1.25
MARGIN_TOP = 44
WIDTH = round(360 * SCALE)
MAP_HEIGHT = MARGIN_TOP + round((NORTH - SOUTH) * SCALE * STRETCH)
LEGEND_HEIGHT = 150
HEIGHT = MAP_HEIGHT + LEGEND_HEIGHT

NAME_SIZE, TAG_SIZE, SEA_SIZE = 9.5, 8.0, 12.0
CHAR, CHAR_BOLD = 0.58, 0.68  # average advance of a character, in font sizes (DejaVu Sans)
DOT = 6.0

#: Power colours (fill, text on the fill).  Chosen apart in hue and lightness.
COLOURS = {
    "Britain": ("#c62828", "#ffffff"), "France": ("#1f57b5", "#ffffff"),
    "Germany": ("#3b3b3b", "#ffffff"), "Austria-Hungary": ("#d8b214", "#1d1d1d"),
    "United States": ("#0f8a8a", "#ffffff"), "Japan": ("#d45a9e", "#ffffff"),
    "Russia": ("#2e7d32", "#ffffff"), "Italy": ("#ef7d19", "#1d1d1d"),
    "Netherlands": ("#f4a582", "#1d1d1d"), "Belgium": ("#8c6d4f", "#ffffff"),
    "Spain": ("#9e77c9", "#ffffff"), "Portugal": ("#8fc4e8", "#1d1d1d"),
}
OTHER = ("#777777", "#ffffff")
STATUS_SHORT = {"state": "Sta", "dominion": "Dom", "possession": "Pos", "protectorate": "Pro",
                "influence": "Inf", "interest": "Int"}
SEA_INK, LAND, WATER, YOU = "#24507a", "#efe6d2", "#dbe9f4", "#f2b705"

STYLE = ("text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif}"
         ".name{font-size:9.5px;fill:#1d1d1d;paint-order:stroke;stroke:#efe6d2;stroke-width:2.5px}"
         ".tag{font-size:8px;font-weight:bold}"
         ".sea{font-size:12px;font-style:italic;fill:#24507a;paint-order:stroke;stroke:#dbe9f4;"
         "stroke-width:3px}"
         ".head{font-size:15px;font-weight:bold;fill:#1d1d1d}"
         ".small{font-size:10px;fill:#1d1d1d}")


def colour(power: str) -> tuple[str, str]:
    return COLOURS.get(power, OTHER)


def short(power: str) -> str:
    return ABBREVIATIONS.get(power, power[:2])


def project(lat: float, lon: float) -> tuple[float, float]:
    if lon < WEST:
        lon += 360
    return (lon - WEST) * SCALE, MARGIN_TOP + (NORTH - lat) * SCALE * STRETCH


def _text_width(words: str, size: float, bold: bool = False) -> float:
    return len(words) * size * (CHAR_BOLD if bold else CHAR)


# -- where things go (fixed by the data alone, so labels never move between turns) ----

def points(data) -> dict[str, tuple[float, float]]:
    """Map position of every Area and Home Country, by place name."""
    places = data.raw["places"]
    out = {name: project(*latlon) for name, latlon in places["areas"].items()}
    for power, latlon in places["homes"].items():
        out[data.homes[power].name] = project(*latlon)
    return out


def sea_points(data) -> dict[str, list[tuple[float, float]]]:
    """Where each Sea Zone's name is written: its place, then a second one
    where the map's edge cuts it (the Pacific)."""
    places = data.raw["places"]
    return {name: [project(*p["at"])] + ([project(*p["also"])] if p.get("also") else [])
            for name, p in places["seas"].items()}


def sea_boxes(data) -> dict[str, tuple[float, float]]:
    places = data.raw["places"]
    return {name: project(*p.get("box", p["at"])) for name, p in places["seas"].items()}


@lru_cache(maxsize=4)
def layout(data) -> dict[str, tuple[float, float, str]]:
    """Name label position (x, y, anchor) of every place: the side of its dot
    (right, left, above, below) that overlaps least with dots and labels
    placed before it.  Depends on the data only."""
    pts = points(data)
    dots = [(x - DOT, y - DOT, x + DOT, y + DOT) for x, y in pts.values()]
    boxes: list[tuple[float, float, float, float]] = []
    out = {}
    for name, (x, y) in sorted(pts.items(), key=lambda kv: (kv[1][1], kv[1][0])):
        w, h = _text_width(name, NAME_SIZE), NAME_SIZE + TAG_SIZE + 6
        options = [(x + DOT + 2, y + 3, "start", (x + DOT + 2, y - 6, x + DOT + 2 + w, y - 6 + h)),
                   (x - DOT - 2, y + 3, "end", (x - DOT - 2 - w, y - 6, x - DOT - 2, y - 6 + h)),
                   (x, y - DOT - 12, "middle", (x - w / 2, y - DOT - 21, x + w / 2, y - DOT - 21 + h)),
                   (x, y + DOT + 10, "middle", (x - w / 2, y + DOT + 1, x + w / 2, y + DOT + 1 + h))]

        def cost(box):
            inside = 0 if box[0] >= 0 and box[2] <= WIDTH else 1000
            return inside + sum(_overlap(box, b) for b in boxes) + sum(_overlap(box, d) for d in dots)

        best = min(options, key=lambda o: cost(o[3]))
        boxes.append(best[3])
        out[name] = best[:3]
    return out


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


# -- pieces -------------------------------------------------------------------------

def _wedges(x: float, y: float, r: float, powers: list[str]) -> list[str]:
    """A dot split into equal wedges, one per controller (a codominion)."""
    if len(powers) == 1:
        return [svg.el("circle", cx=x, cy=y, r=r, fill=colour(powers[0])[0])]
    out = []
    step = 2 * math.pi / len(powers)
    for i, p in enumerate(powers):
        a0, a1 = -math.pi / 2 + i * step, -math.pi / 2 + (i + 1) * step
        d = (f"M{svg.num(x)},{svg.num(y)} L{svg.num(x + r * math.cos(a0))},{svg.num(y + r * math.sin(a0))} "
             f"A{svg.num(r)},{svg.num(r)} 0 0 1 {svg.num(x + r * math.cos(a1))},{svg.num(y + r * math.sin(a1))} Z")
        out.append(svg.el("path", d=d, fill=colour(p)[0]))
    return out


def _tag(x: float, y: float, words: str, power: str | None, style: str) -> tuple[str, float]:
    """One tag, left edge at x, text baseline at y; returns (markup, width).
    Styles: solid, outline, tint, dashed (a marker not yet established),
    alarm (Unrest), cb (Casus Belli)."""
    w = _text_width(words, TAG_SIZE, bold=True) + 5
    fill, ink = colour(power) if power else OTHER
    box = dict(x=x, y=y - TAG_SIZE + 0.5, width=w, height=TAG_SIZE + 2.5, rx=2.0)
    if style == "solid":
        rect, text_fill = svg.el("rect", fill=fill, stroke="#1d1d1d", stroke_width=0.6, **box), ink
    elif style == "tint":
        rect, text_fill = svg.el("rect", fill=fill, fill_opacity=0.3, stroke=fill, stroke_width=1.2, **box), "#1d1d1d"
    elif style == "dashed":
        rect, text_fill = svg.el("rect", fill="#ffffff", stroke=fill, stroke_width=1.2,
                                 stroke_dasharray="2,1.5", **box), "#1d1d1d"
    elif style == "alarm":
        rect, text_fill = svg.el("rect", fill="#b00020", **box), "#ffffff"
    elif style == "cb":
        rect, text_fill = svg.el("rect", fill="#1d1d1d", **box), "#ffffff"
    else:  # outline
        rect, text_fill = svg.el("rect", fill="#ffffff", stroke=fill, stroke_width=1.2, **box), "#1d1d1d"
    return rect + svg.text(x + 2.5, y, words, class_="tag", fill=text_fill), w + 2


def _tags(x: float, y: float, anchor: str, items: list[tuple[str, str | None, str]]) -> list[str]:
    widths = [_text_width(words, TAG_SIZE, bold=True) + 7 for words, _, _ in items]
    total = sum(widths)
    left = {"start": x, "end": x - total, "middle": x - total / 2}[anchor]
    out = []
    for words, power, style in items:
        markup, w = _tag(left, y, words, power, style)
        out.append(markup)
        left += w
    return out


def marker_tags(info: dict) -> list[tuple[str, str | None, str]]:
    items = []
    for m in info["markers"]:
        if not m["established"]:
            style = "dashed"
        elif m["status"] in CONTROL:
            style = "solid"
        else:
            style = "tint" if m["status"] == "influence" else "outline"
        items.append((f"{short(m['power'])} {STATUS_SHORT.get(m['status'], m['status'][:3])}",
                      m["power"], style))
    for power, n in info.get("armies", {}).items():
        items.append((f"{short(power)} A{n}", power, "solid"))
    if info.get("unrest"):
        items.append(("Unrest", None, "alarm"))
    for cb in info.get("cb", []):
        items.append((f"CB {short(cb['holder'])}>{short(cb['against'])}", None, "cb"))
    return items


def area(name: str, info: dict, at: tuple[float, float], label: tuple[float, float, str]) -> str:
    x, y = at
    body = [svg.title(area_line(name, info))]
    present = {m["power"] for m in info["markers"]} | set(info["armies"])
    if present:
        body.append(slot(svg.el("circle", cx=x, cy=y, r=DOT + 3, fill=YOU), present))
    if info["controllers"]:
        body += _wedges(x, y, DOT, info["controllers"])
        body.append(svg.el("circle", cx=x, cy=y, r=DOT, fill="none", stroke="#1d1d1d", stroke_width=1))
    else:
        body.append(svg.el("circle", cx=x, cy=y, r=DOT, fill="#ffffff", stroke="#1d1d1d", stroke_width=1))
    lx, ly, anchor = label
    body.append(svg.text(lx, ly, name, class_="name", text_anchor=anchor))
    tags = marker_tags(info)
    if tags:
        body += _tags(lx, ly + TAG_SIZE + 4, anchor, tags)
    return svg.el("g", body, class_="area")


def home(power: str, info: dict, at: tuple[float, float], label: tuple[float, float, str]) -> str:
    x, y = at
    fill, _ = colour(power)
    body = [svg.title(f"{info['name']} (Home Country of {power})")]
    body.append(slot(svg.el("rect", x=x - DOT - 3, y=y - DOT - 3, width=2 * DOT + 6, height=2 * DOT + 6,
                             fill=YOU), {power}))
    body.append(svg.el("rect", x=x - DOT, y=y - DOT, width=2 * DOT, height=2 * DOT, fill=fill,
                       stroke="#1d1d1d", stroke_width=1))
    lx, ly, anchor = label
    body.append(svg.text(lx, ly, info["name"], class_="name", text_anchor=anchor, font_weight="bold"))
    if info["armies"]:
        body += _tags(lx, ly + TAG_SIZE + 4, anchor,
                      [(f"{short(p)} A{n}", p, "solid") for p, n in info["armies"].items()])
    return svg.el("g", body, class_="home")


def sea(name: str, info: dict, spots: list[tuple[float, float]], box: tuple[float, float]) -> str:
    """The zone's name where it lies, and its box (merchant fleets, navies) in
    open water nearby, joined by a thin line when the two are apart."""
    body = [svg.title(sea_line(name, info))]
    for i, (x, y) in enumerate(spots):
        words = name if i == 0 else f"{name} (continued)"
        body.append(svg.text(x, y, words, class_="sea", text_anchor="middle"))
    rows = _wrap([(short(p), p, "outline") for p in info["merchants"]], "Merchant")
    rows += _wrap([(f"{short(p)} N{n}", p, "solid") for p, n in info["navies"].items()], "Navy")
    if not rows:
        return svg.el("g", body, class_="seazone")
    x0, y0 = spots[0]
    bx, by = box
    height = len(rows) * 13 + 4
    width = max(sum(_text_width(w, TAG_SIZE, bold=True) + 7 for w, _, _ in row) for row in rows) + 6
    if abs(by - y0) > 20 or abs(bx - x0) > 60:
        body.append(svg.el("line", x1=x0, y1=y0 + 3, x2=bx, y2=by, stroke=SEA_INK, stroke_width=0.8,
                           stroke_dasharray="3,2"))
    body.append(svg.el("rect", x=bx - width / 2, y=by, width=width, height=height, rx=3.0,
                       fill="#ffffff", fill_opacity=0.85, stroke=SEA_INK, stroke_width=0.8))
    for i, row in enumerate(rows):
        body += _tags(bx - width / 2 + 3, by + 12 + i * 13, "start", row)
    return svg.el("g", body, class_="seazone")


def _wrap(items: list[tuple[str, str | None, str]], head: str, per_row: int = 6) -> list[list]:
    """Tags in rows of ``per_row``, the first row led by a black ``head`` tag."""
    if not items:
        return []
    rows = [items[i:i + per_row] for i in range(0, len(items), per_row)]
    rows[0] = [(head, None, "cb")] + rows[0]
    return rows


def land(data, pts: dict[str, tuple[float, float]]) -> list[str]:
    """A pale land shape: a blob under every land place and thick strokes along
    the Overland Routes, so continents read as land without coastline data."""
    out = []
    seen = set()
    for name, area in sorted(data.areas.items()):
        for other in sorted(area.neighbours):
            pair = tuple(sorted((name, other)))
            if pair in seen or other not in pts:
                continue
            seen.add(pair)
            (x1, y1), (x2, y2) = pts[name], pts[other]
            if abs(x1 - x2) > WIDTH / 2:
                continue
            out.append(svg.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=LAND, stroke_width=22,
                              stroke_linecap="round"))
    out += [svg.el("circle", cx=x, cy=y, r=17.0, fill=LAND) for x, y in pts.values()]
    # Overland Routes drawn thin on top, so a player sees what borders what.
    for a, b in sorted(seen):
        (x1, y1), (x2, y2) = pts[a], pts[b]
        out.append(svg.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#b9a98a", stroke_width=0.8))
    return out


def canals(view: dict, pts: dict[str, tuple[float, float]]) -> list[str]:
    out = []
    for canal in view["canals"]:
        if canal["kind"] == "straits" or not canal["open"] or canal["area"] not in pts:
            continue
        x, y = pts[canal["area"]]
        label = f"Canal in {canal['area']}: {' - '.join(canal['seas'])}"
        out.append(svg.el("g", [svg.title(label),
                                svg.el("rect", x=x - 14, y=y - 15, width=9, height=9, fill="#ffffff",
                                       stroke=SEA_INK, stroke_width=1),
                                svg.el("path", d=f"M{svg.num(x - 12)},{svg.num(y - 12.5)} h5 M{svg.num(x - 12)},{svg.num(y - 9.5)} h5",
                                       stroke=SEA_INK, stroke_width=1.2)], class_="canal"))
    return out


# -- the whole map ------------------------------------------------------------------

def legend(view: dict, powers: Iterable[str]) -> list[str]:
    """The key to the map; the line about gold rings is the reader's own (:func:`mine_line`)."""
    top = MAP_HEIGHT + 8
    out = [svg.el("rect", x=0, y=MAP_HEIGHT, width=WIDTH, height=LEGEND_HEIGHT, fill="#ffffff"),
           svg.el("line", x1=0, y1=MAP_HEIGHT, x2=WIDTH, y2=MAP_HEIGHT, stroke="#1d1d1d")]
    out.append(svg.text(10, top + 12, "Powers:", class_="small", font_weight="bold"))
    x = 70.0
    for p in powers:
        fill, ink = colour(p)
        out.append(svg.el("rect", x=x, y=top + 3, width=12, height=12, fill=fill, stroke="#1d1d1d", stroke_width=0.6))
        words = f"{short(p)} {p}"
        out.append(svg.text(x + 16, top + 13, words, class_="small"))
        x += 24 + _text_width(words, 10)
    rows = [
        [("Br Pos", "Britain", "solid"), ("Control (State, Dominion, Possession, Protectorate)", None, None),
         ("Br Inf", "Britain", "tint"), ("Influence", None, None), ("Br Int", "Britain", "outline"),
         ("Interest", None, None), ("Br Int", "Britain", "dashed"), ("placed this turn, not yet established", None, None)],
        [("Br A3", "Britain", "solid"), ("Army strength", None, None), ("Br N10", "Britain", "solid"),
         ("Navy strength at sea", None, None), ("Merchant", None, "cb"), ("Br", "Britain", "outline"),
         ("merchant fleets in a Sea Zone", None, None), ("Unrest", None, "alarm"), ("Unrest", None, None),
         ("CB Br>Fr", None, "cb"), ("Casus Belli: Britain against France", None, None)],
    ]
    y = top + 36
    for row in rows:
        x = 10.0
        for words, power, style in row:
            if style is None:
                out.append(svg.text(x, y, words, class_="small"))
                x += _text_width(words, 10) + 14
            else:
                markup, w = _tag(x, y, words, power, style)
                out.append(markup)
                x += w + 3
        y += 22
    x = 10.0
    out += _wedges(x + 6, y - 4, DOT, ["Britain", "France"])
    out.append(svg.text(x + 16, y, "a dot split between powers: a codominion", class_="small"))
    x += 250
    out.append(svg.el("rect", x=x, y=y - 10, width=9, height=9, fill="#ffffff", stroke=SEA_INK))
    out.append(svg.text(x + 14, y, "canal open", class_="small"))
    x += 90
    out.append(svg.el("rect", x=x, y=y - 10, width=12, height=12, fill="#3b3b3b"))
    out.append(svg.text(x + 16, y, "a Home Country", class_="small"))
    out.append(svg.slot(MINE_SLOT.format(x=x + 120, y=y)))
    out.append(svg.text(10, y + 22, "Lines join Areas linked by Overland Routes. Hover over a place for "
                        "its details; the text beside the map says the same in words.", class_="small"))
    return out


def slot(markup: str, powers: set[str]) -> str:
    """A ring that only the readers of ``powers`` see (filled per reader by :mod:`.mapsheet`)."""
    return svg.slot("|".join(sorted(powers)), markup)


MINE_SLOT = "mine:{x}:{y}"
TITLE_SLOT = "title"


def mine_line(x: float, y: float, mine: set[str]) -> str:
    if not mine:
        return ""
    verb = "have" if len(mine) > 1 else "has"
    return "".join([svg.el("circle", cx=x + 6, cy=y - 4, r=DOT + 3, fill=YOU),
                    svg.el("circle", cx=x + 6, cy=y - 4, r=DOT, fill="#ffffff", stroke="#1d1d1d"),
                    svg.text(x + 20, y, f"ringed in gold: where {' and '.join(sorted(mine))} "
                             f"{verb} a marker or an army", class_="small")])
