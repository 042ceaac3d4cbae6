"""The Pax Britannica world map as SVG, drawn from :func:`.mapview.board_view`.

Every Area, Home Country and Sea Zone sits at its place in the coordinate
table (``data/places.toml``, see DATA.md "Map coordinates"), so a place is
always in the same spot and the map reads the same turn after turn: only the
colours and tags change.  Each Area is a dot filled with its controllers'
colours (a codominion is split), its name beside it and rows of tags under the
name: one per marker (solid for Control, outlined for Interest, tinted for
Influence, dashed while not yet established), one per army, then Unrest and
Casus Belli; each name with its tags goes where it covers no other label or
dot (:mod:`.maplabels`).  Sea Zones carry their merchant fleets and navies.
Colour is never the only cue: every tag names its power.  Pure: no clock, no
files.
"""
from __future__ import annotations

import math
from functools import lru_cache

from pbem.kit import svg

from ..core.board import CONTROL
from . import mapfont, maplabels
from .maplabels import DOT, ROW, SEA_SIZE, TAG_SIZE, Label
from .mapview import ABBREVIATIONS, area_line, sea_line

# Projection (data/places.toml "projection"): equirectangular, the map's edge at 170 W.
WEST, NORTH, SOUTH = -170.0, 72.0, -58.0
SCALE, STRETCH = 5.2, 1.25
MARGIN_TOP = 44
WIDTH = round(360 * SCALE)
MAP_HEIGHT = MARGIN_TOP + round((NORTH - SOUTH) * SCALE * STRETCH)
LEGEND_HEIGHT = 150
HEIGHT = MAP_HEIGHT + LEGEND_HEIGHT


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


def text_width(words: str, size: float, bold: bool = False) -> float:
    return mapfont.width(words, size, bold)


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


def sea_box(info: dict, box: tuple[float, float]) -> tuple[tuple[float, float, float, float], list[list]]:
    """A Sea Zone's box of merchant fleets and navies: its (x, y, width, height) and its rows
    of tags (none, and no box, when the zone is empty)."""
    rows = _wrap([(short(p), p, "outline") for p in info["merchants"]], "Merchant")
    rows += _wrap([(f"{short(p)} N{n}", p, "solid") for p, n in info["navies"].items()], "Navy")
    if not rows:
        return (box[0], box[1], 0.0, 0.0), []
    width = max(maplabels.row_width(row) for row in rows) + 8
    return (box[0] - width / 2, box[1], width, len(rows) * 13 + 4), rows


def _sea_words(name: str, spots) -> list[tuple[float, float, str]]:
    return [(x, y, name if i == 0 else f"{name} (continued)") for i, (x, y) in enumerate(spots)]


def _canal_box(x: float, y: float) -> tuple[float, float, float, float]:
    return (x - 14, y - 15, x - 5, y - 6)


def _fixed(data, view: dict | None) -> tuple[list[tuple[float, float, float, float]], dict]:
    """What no label may cover besides the places' dots: the Sea Zones' names and boxes and
    the canals (all canal sites, and no boxes, for the empty board); and where each Sea
    Zone's box goes (its place in the data, moved off any node or name it would cover)."""
    out = []
    for name, spots in sea_points(data).items():
        out += [maplabels.text_box(x, y, words, SEA_SIZE, "middle") for x, y, words in _sea_words(name, spots)]
    pts = points(data)
    if view is None:
        sites = [area for area, _, kind in _canal_sites(data) if kind != "straits"]
    else:
        sites = [c["area"] for c in view["canals"] if c["kind"] != "straits" and c["open"]]
    out += [_canal_box(*pts[a]) for a in sites if a in pts]
    boxes = sea_boxes(data)
    for name, info in (view["seas"].items() if view else ()):
        (x, y, w, h), rows = sea_box(info, boxes[name])
        if rows:
            taken = out + [maplabels.dot_box(*at) for at in pts.values()]
            dx, dy = maplabels.shift((x, y, x + w, y + h), taken, BOUNDS)
            boxes[name] = (boxes[name][0] + dx, boxes[name][1] + dy)
            out.append((x + dx, y + dy, x + w + dx, y + h + dy))
    return out, boxes


def _canal_sites(data):
    kinds = data.raw.get("straits", {})
    for area, seas in sorted(data.straits.items()):
        yield area, seas, str(kinds.get(area, {}).get("kind", "straits"))


BOUNDS = (0.0, float(MARGIN_TOP), float(WIDTH), float(MAP_HEIGHT))


def _entries(data, view: dict | None) -> dict:
    pts = points(data)
    out = {}
    for name in data.areas:
        out[name] = (pts[name], False, marker_tags(view["areas"][name]) if view else [])
    for power, home in data.homes.items():
        armies = view["homes"][power]["armies"] if view else {}
        out[home.name] = (pts[home.name], True, home_tags(armies))
    return out


@lru_cache(maxsize=4)
def home_sides(data) -> dict[str, int]:
    """The side of its dot each place's name takes on an empty board: the side tried first
    on every board, so names stay put while the tags around them leave room."""
    placed = maplabels.place(_entries(data, None), _fixed(data, None)[0], BOUNDS)
    return {name: lab.side for name, lab in placed.items()}


def labels(view: dict, data) -> tuple[dict[str, Label], dict[str, tuple[float, float]]]:
    """Every place's label (name and tags) placed so that none covers another
    (:mod:`.maplabels`), and where each Sea Zone's box goes."""
    fixed, boxes = _fixed(data, view)
    return maplabels.place(_entries(data, view), fixed, BOUNDS, home_sides(data)), boxes


# -- pieces -------------------------------------------------------------------------

def wedges(x: float, y: float, r: float, powers: list[str]) -> list[str]:
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


def tag(x: float, y: float, words: str, power: str | None, style: str) -> tuple[str, float]:
    """One tag, left edge at x, text baseline at y; returns (markup, width).
    Styles: solid, outline, tint, dashed (a marker not yet established),
    alarm (Unrest), cb (Casus Belli)."""
    w = maplabels.tag_width(words)
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


def _tags(x: float, y: float, anchor: str, items) -> list[str]:
    left = maplabels.row_left(x, anchor, maplabels.row_width(items))
    out = []
    for words, power, style in items:
        markup, w = tag(left, y, words, power, style)
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


def home_tags(armies: dict[str, int]) -> list[tuple[str, str | None, str]]:
    return [(f"{short(p)} A{n}", p, "solid") for p, n in armies.items()]


def _label(name: str, label: Label, at: tuple[float, float], **bold) -> list[str]:
    """A place's name, its rows of tags and, when they stand off, the line to its dot."""
    out = []
    if label.leader:
        (x1, y1), (x2, y2) = maplabels.leader_start(*at, label.leader), label.leader
        out.append(svg.el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#1d1d1d", stroke_width=0.7,
                              stroke_dasharray="1.5,1.5"))
    out.append(svg.text(label.x, label.y, name, class_="name", text_anchor=label.anchor, **bold))
    for i, row in enumerate(label.rows):
        out += _tags(label.x, label.y + ROW * (i + 1), label.anchor, row)
    return out


def area(name: str, info: dict, at: tuple[float, float], label: Label) -> str:
    x, y = at
    body = [svg.title(area_line(name, info))]
    present = {m["power"] for m in info["markers"]} | set(info["armies"])
    if present:
        body.append(slot(svg.el("circle", cx=x, cy=y, r=DOT + 3, fill=YOU), present))
    if info["controllers"]:
        body += wedges(x, y, DOT, info["controllers"])
        body.append(svg.el("circle", cx=x, cy=y, r=DOT, fill="none", stroke="#1d1d1d", stroke_width=1))
    else:
        body.append(svg.el("circle", cx=x, cy=y, r=DOT, fill="#ffffff", stroke="#1d1d1d", stroke_width=1))
    body += _label(name, label, at)
    return svg.el("g", body, class_="area")


def home(power: str, info: dict, at: tuple[float, float], label: Label) -> str:
    x, y = at
    fill, _ = colour(power)
    body = [svg.title(f"{info['name']} (Home Country of {power})")]
    body.append(slot(svg.el("rect", x=x - DOT - 3, y=y - DOT - 3, width=2 * DOT + 6, height=2 * DOT + 6,
                             fill=YOU), {power}))
    body.append(svg.el("rect", x=x - DOT, y=y - DOT, width=2 * DOT, height=2 * DOT, fill=fill,
                       stroke="#1d1d1d", stroke_width=1))
    body += _label(info["name"], label, at, font_weight="bold")
    return svg.el("g", body, class_="home")


def sea(name: str, info: dict, spots: list[tuple[float, float]], box: tuple[float, float]) -> str:
    """The zone's name where it lies, and its box (merchant fleets, navies) in
    open water nearby, joined by a thin line when the two are apart."""
    body = [svg.title(sea_line(name, info))]
    for x, y, words in _sea_words(name, spots):
        body.append(svg.text(x, y, words, class_="sea", text_anchor="middle"))
    (left, by, width, height), rows = sea_box(info, box)
    if not rows:
        return svg.el("g", body, class_="seazone")
    x0, y0 = spots[0]
    bx = box[0]
    if abs(by - y0) > 20 or abs(bx - x0) > 60:
        body.append(svg.el("line", x1=x0, y1=y0 + 3, x2=bx, y2=by, stroke=SEA_INK, stroke_width=0.8,
                           stroke_dasharray="3,2"))
    body.append(svg.el("rect", x=left, y=by, width=width, height=height, rx=3.0,
                       fill="#ffffff", fill_opacity=0.85, stroke=SEA_INK, stroke_width=0.8))
    for i, row in enumerate(rows):
        body += _tags(left + 4, by + 12 + i * 13, "start", row)
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


def slot(markup: str, powers: set[str]) -> str:
    """A ring that only the readers of ``powers`` see (filled per reader by :mod:`.mapsheet`)."""
    return svg.slot("|".join(sorted(powers)), markup)


MINE_SLOT = "mine:{x}:{y}"
TITLE_SLOT = "title"
