"""The map of Europa Universalis drawn from the scenario's data: one card per Area and Sea Zone.

The scenario gives no drawn shapes, only places and what borders what, so the map is a
diagram of cards laid out by :mod:`.maplayout`: an Area's card lists its provinces (a square
in the owner's colour, the holder's inside it when occupied, a star on a capital), the
armies and fleets in it and in its ports with their strength, rebels, leaders, Influence
and Claims; a Sea Zone's card its fleets.  Lines join bordering Areas (dashed: a mountain
border), Areas to their seas, and sea lanes.  Under the cards, every realm's colour and
tracks, the wars, truces, alliances, marriages, Casus Belli, occupations and the Imperial
Authority.  Everything comes from :func:`.board_words.board`, the public board, so every
reader sees the same map; only the title and the gold rings around the reader's own
provinces differ (slots, :func:`pbem.kit.svg.slot`), and the shared drawing is made once for
all the readers of a phase.

Labels never overlap: a card is as wide as its longest line (an estimate from the font
size that errs wide, :func:`text_width`), lines stack inside it, and the cards are moved
apart until none overlaps another (tested on every map drawn in the tests).
"""
from __future__ import annotations

import json
import textwrap

from pbem.kit import svg

from . import board_words, maplayout

FONT = 13.0
HEAD = 14.0
LINE = 18.0
PADDING = 8.0
SWATCH = 11.0
TOP = 44.0          # the title band
MIN_WIDTH = 960.0
CHAR = 0.64          # an average character's width per font size, erring wide (Verdana-like)
BOLD = 0.70
WATER, LAND, INK, EDGE = "#dcecf7", "#fbf7ee", "#222222", "#8a7f6a"
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd")
REBEL_COLOUR, NOBODY = "#000000", "#ffffff"
TITLE_SLOT = "title"
STYLE = (f"text{{font-family:Verdana,'DejaVu Sans',Arial,sans-serif;font-size:{FONT:g}px;fill:{INK}}}"
         f".head{{font-size:{HEAD:g}px;font-weight:bold}}.sea{{font-style:italic}}"
         ".small{font-size:12px}.war{fill:#b00000;font-weight:bold}")

_SHARED: list[tuple[str, str, str, float, float]] = []
_KEPT = 4


def text_width(words: str, size: float = FONT, bold: bool = False) -> float:
    """The width ``words`` take, estimated from the font size (a little wide, never narrow
    for the fonts named in :data:`STYLE`)."""
    return len(words) * size * (BOLD if bold else CHAR)


def colours(b: dict) -> dict[str, str]:
    """A colour for every realm, in the scenario's order (the first sixteen from a palette
    told apart easily; any more by hue)."""
    out = {}
    for i, r in enumerate(b["realms"]):
        out[r["name"]] = PALETTE[i] if i < len(PALETTE) else f"hsl({(i * 137) % 360},55%,45%)"
    return out


# -- cards ------------------------------------------------------------------------------

def _rows(place: dict, sea: bool) -> list[tuple[str, str, dict]]:
    """A card's lines after its name: (kind, words, extra) — kind says what is drawn before
    the words: a province square, a realm's chip, or nothing."""
    rows: list[tuple[str, str, dict]] = []
    if not sea:
        for p in place["provinces"]:
            words = f"{p['name']} {p['tax']}" + (" ★" if p["capital_of"] else "") \
                + (f" held by {p['controller']}" if p["occupied"] else "") + (" unrest" if p["unrest"] else "")
            rows.append(("province", words, p))
            rows += [("chip", f"⚓ {f['label']}", f) for f in p["ships"]]
    rows += [("chip", f["label"], f) for f in place["forces"]]
    if not sea:
        if place["rebels"]:
            rows += [("chip", f"Rebels {place['rebels']}", {"realm": None})]
        if place["leaders"]:
            rows += [("text", "Leaders: " + ", ".join(place["leaders"]), {})]
        if place["influence"]:
            rows += [("text", "Influence: " + ", ".join(f"{r} {n}" for r, n in place["influence"].items()), {})]
        if place["claims"]:
            rows += [("text", "Claims: " + ", ".join(place["claims"]), {})]
    return rows


def _heading(place: dict, sea: bool) -> str:
    if sea:
        return place["name"]
    tags = [t for t, on in (("HRE", place["hre"]), ("distant", place["distant"])) if on]
    return place["name"] + (f" ({', '.join(tags)})" if tags else "")


def card_size(place: dict, sea: bool, spare_rows: int = 0) -> tuple[float, float]:
    rows = _rows(place, sea)
    widths = [text_width(_heading(place, sea), HEAD, bold=True)]
    widths += [text_width(words) + (SWATCH + 6 if kind != "text" else 0) for kind, words, _ in rows]
    return (round(max(widths) + 2 * PADDING, 1),
            round(PADDING * 2 + LINE * (1 + len(rows) + spare_rows), 1))


def _static(place: dict, sea: bool) -> dict:
    """The card with only what a scenario fixes (name, provinces): its layout size."""
    out = dict(place, forces=[], rebels=0, leaders=[], influence={}, claims=[])
    if not sea:
        out["provinces"] = [dict(p, ships=[], occupied=False, unrest=False) for p in place["provinces"]]
    return out


def _card(place: dict, sea: bool, cx: float, cy: float, size: tuple[float, float], col: dict) -> list[str]:
    w, h = size
    x0, y0 = cx - w / 2, cy - h / 2
    out = [svg.el("rect", x=x0, y=y0, width=w, height=h, rx=14.0 if sea else 4.0,
                  fill=WATER if sea else LAND, stroke="#5a8fb8" if sea else EDGE,
                  stroke_width=1.5, stroke_dasharray="6 3" if (not sea and place["hre"]) else None),
           svg.text(x0 + PADDING, y0 + PADDING + HEAD, _heading(place, sea), class_="head sea" if sea else "head")]
    y = y0 + PADDING + LINE
    for kind, words, extra in _rows(place, sea):
        y += LINE
        tx = x0 + PADDING
        if kind == "province":
            sx, sy = tx, y - SWATCH
            out.append(svg.el("rect", x=sx, y=sy, width=SWATCH, height=SWATCH,
                              fill=col.get(extra["owner"], NOBODY), stroke=INK, stroke_width=0.8))
            if extra["occupied"]:
                out.append(svg.el("rect", x=sx + 3, y=sy + 3, width=SWATCH - 6, height=SWATCH - 6,
                                  fill=col.get(extra["controller"], REBEL_COLOUR)))
            if extra["owner"]:
                ring = svg.el("rect", x=sx - 2.5, y=sy - 2.5, width=SWATCH + 5, height=SWATCH + 5,
                              fill="none", stroke="#d4a017", stroke_width=2.5)
                out.append(svg.slot("mine:" + extra["owner"], ring))
            tx += SWATCH + 6
        elif kind == "chip":
            out.append(svg.el("circle", cx=tx + SWATCH / 2, cy=y - SWATCH / 2, r=SWATCH / 2,
                              fill=col.get(extra.get("realm"), REBEL_COLOUR), stroke=INK, stroke_width=0.6))
            tx += SWATCH + 6
        out.append(svg.text(tx, y, words, class_="small" if kind == "text" else None))
    return [svg.el("g", out)]


# -- the drawing ------------------------------------------------------------------------

def layout(state: dict, b: dict) -> tuple[dict, dict, dict]:
    """Each place's card centre and size, and which places are seas."""
    sea = {s["name"]: s for s in b["seas"]}
    places = {a["name"]: a for a in b["areas"]} | {n: s for n, s in sea.items() if n not in {a["name"] for a in b["areas"]}}
    static = {n: card_size(_static(p, n in sea), n in sea, spare_rows=0 if n in sea else 2) for n, p in places.items()}
    static = {n: (max(w, 190.0), h) for n, (w, h) in static.items()}
    pos = maplayout.positions(state, static)
    sizes = {n: (max(static[n][0], card_size(p, n in sea)[0]), max(static[n][1], card_size(p, n in sea)[1]))
             for n, p in places.items()}
    pos = maplayout.separate(sorted(places), pos, sizes, fixed=state.get("xy") or {})
    # a card grown and pushed out of the drawing is brought back in (everything moves with it)
    pos = maplayout.to_corner(sorted(places), pos, sizes, turn=False)
    return places, pos, sizes


def legend(b: dict, col: dict, width: float, top: float) -> tuple[list[str], float]:
    """The realms and the tokens between them under the cards; returns the markup and its height."""
    out, y = [], top + LINE
    for r in b["realms"]:
        out.append(svg.el("rect", x=maplayout.PAD, y=y - SWATCH, width=SWATCH, height=SWATCH,
                          fill=col[r["name"]], stroke=INK, stroke_width=0.8))
        out.append(svg.text(maplayout.PAD + SWATCH + 6, y, board_words.realm_line(r)))
        y += LINE
    per_line = max(40, int((width - 2 * maplayout.PAD) / (FONT * CHAR)))
    for line in board_words.relation_lines(b):
        for i, part in enumerate(textwrap.wrap(line, per_line, subsequent_indent="    ")):
            out.append(svg.text(maplayout.PAD, y, part, class_="war" if line.startswith("Wars:") and b["wars"] else None))
            y += LINE
    return out, y - top


def draw(state: dict, *, title: str, mine: tuple[str, ...] = ()) -> str:
    """The map for one reader: the shared board with the reader's title and rings."""
    body, description, width, height = _shared(state)
    mine_set = set(mine)

    def fill(name: str, markup: str) -> str:
        if name == TITLE_SLOT:
            return svg.text(maplayout.PAD, 28, title, class_="head")
        return markup if name.split(":", 1)[1] in mine_set else ""

    return svg.document(width, height, [svg.fill_slots(body, fill)], label=title, description=description,
                        id_="eu-map", style=STYLE)


def _shared(state: dict) -> tuple[str, str, float, float]:
    b = board_words.board(state)
    key = json.dumps([b, state.get("xy") or {}], sort_keys=True, default=str)
    for k, body, description, w, h in _SHARED:
        if k == key:
            return body, description, w, h
    body, description, w, h = _draw_shared(state, b)
    _SHARED[:] = [(key, body, description, w, h)] + _SHARED[:_KEPT - 1]
    return body, description, w, h


def _draw_shared(state: dict, b: dict) -> tuple[str, str, float, float]:
    col = colours(b)
    places, pos, sizes = layout(state, b)
    seas = {s["name"] for s in b["seas"]}
    mw, mh = maplayout.bounds(pos, sizes)
    width = max(MIN_WIDTH, mw)
    lines = []
    drawn = set()
    for name in sorted(places):
        if name in seas:
            links = [(o, "lane") for o in places[name]["adjacent"]]
        else:
            links = [(o, k) for o, k in places[name]["borders"].items()] + [(s, "coast") for s in places[name]["seas"]]
        for other, kind in links:
            edge = tuple(sorted((name, other)))
            if other not in pos or edge in drawn:
                continue
            drawn.add(edge)
            (x1, y1), (x2, y2) = pos[name], pos[other]
            style = {"land": ("#8a7f6a", 3.0, None), "mountain": ("#7a4b1e", 3.0, "8 5"),
                     "coast": ("#7fb2d9", 2.0, "3 4"), "lane": ("#5a8fb8", 3.0, None)}[kind]
            lines.append(svg.el("line", x1=x1, y1=y1 + TOP, x2=x2, y2=y2 + TOP, stroke=style[0],
                                stroke_width=style[1], stroke_dasharray=style[2]))
    cards = []
    for name in sorted(places):
        cx, cy = pos[name]
        cards += _card(places[name], name in seas, cx, cy + TOP, sizes[name], col)
    leg, leg_h = legend(b, col, width, TOP + mh)
    height = TOP + mh + leg_h + maplayout.PAD
    body = [svg.el("rect", x=0, y=0, width=width, height=height, fill="#f3f1ec"), svg.slot(TITLE_SLOT)]
    body.append(svg.text(width - maplayout.PAD, 28, f"Imperial Authority {b['imperial_authority']}",
                         class_="head", text_anchor="end"))
    body += lines + cards + leg
    description = (f"A diagram of the {len(b['areas'])} Areas and {len(b['seas'])} Sea Zones, one card each, "
                   "lines between bordering places. " + " ".join(board_words.lines(b)))
    return "".join(body), description, round(width, 1), round(height, 1)
