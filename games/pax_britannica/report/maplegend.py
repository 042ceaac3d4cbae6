"""The key under the Pax Britannica map (:mod:`.mapdraw`): the powers' colours, what each
kind of tag means, and the reader's own line about gold rings (filled per reader by
:mod:`.mapsheet`).  Pure: no clock, no files."""
from __future__ import annotations

from typing import Iterable

from pbem.kit import svg

from .mapdraw import (
    DOT, LEGEND_HEIGHT, MAP_HEIGHT, MINE_SLOT, SEA_INK, WIDTH, YOU, colour, short, tag, text_width, wedges
)


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
        x += 24 + text_width(words, 10)
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
                x += text_width(words, 10) + 14
            else:
                markup, w = tag(x, y, words, power, style)
                out.append(markup)
                x += w + 3
        y += 22
    x = 10.0
    out += wedges(x + 6, y - 4, DOT, ["Britain", "France"])
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



def mine_line(x: float, y: float, mine: set[str]) -> str:
    if not mine:
        return ""
    verb = "have" if len(mine) > 1 else "has"
    return "".join([svg.el("circle", cx=x + 6, cy=y - 4, r=DOT + 3, fill=YOU),
                    svg.el("circle", cx=x + 6, cy=y - 4, r=DOT, fill="#ffffff", stroke="#1d1d1d"),
                    svg.text(x + 20, y, f"ringed in gold: where {' and '.join(sorted(mine))} "
                             f"{verb} a marker or an army", class_="small")])
