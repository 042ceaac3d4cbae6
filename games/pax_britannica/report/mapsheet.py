"""One reader's map: the board every reader shares, drawn once, with the reader's own layer.

Every reader of a phase sees the same board (Rules: THE MAP: the board is open); only the
title, the gold rings around the reader's own places and the legend's line about them differ.
:mod:`.mapdraw` draws the shared board with slots (:func:`pbem.kit.svg.slot`) where those go;
this module keeps the last few shared drawings and fills the slots for each reader, so a phase
whose report goes to seven powers, the GM and the archive draws its board once, not nine times.
"""
from __future__ import annotations

import json
from typing import Iterable

from pbem.kit import svg

from .mapdraw import (
    COLOURS, HEIGHT, MAP_HEIGHT, STYLE, TITLE_SLOT, WATER, WIDTH, area, canals, home, labels, land,
    points, sea, sea_points
)
from .maplegend import legend, mine_line
from .mapview import text_lines

#: the last shared drawings: (board as JSON, map data, drawing with slots, description)
_SHARED: list[tuple[str, object, str, str]] = []
_KEPT = 4
#: what the board view holds that the drawing does not show (the title says when it is): a
#: war's sub-phases and the steps of a turn that move nothing share one drawing
_NOT_DRAWN = ("turn", "phase")


def draw(view: dict, data, *, title: str, mine: Iterable[str] = ()) -> str:
    """The map of one board view.  ``mine``: the powers whose places are ringed."""
    body, description = _shared(view, data)
    mine = set(mine)

    def fill(name: str, markup: str) -> str:
        if name == TITLE_SLOT:
            return svg.text(10, 26, title, class_="head")
        if name.startswith("mine:"):
            _, x, y = name.split(":")
            return mine_line(float(x), float(y), mine)
        return markup if mine.intersection(name.split("|")) else ""

    return svg.document(WIDTH, HEIGHT, [svg.fill_slots(body, fill)], label=title, description=description,
                        id_="pb-map", style=STYLE)


def _shared(view: dict, data) -> tuple[str, str]:
    # The board view is plain data, so its JSON names the board exactly; the map data is
    # compared by identity (it is loaded once per override and kept).
    key = json.dumps({k: v for k, v in view.items() if k not in _NOT_DRAWN}, sort_keys=True, default=str)
    for k, d, body, description in _SHARED:
        if k == key and d is data:
            return body, description
    body, description = _draw_shared(view, data)
    _SHARED[:] = [(key, data, body, description)] + _SHARED[:_KEPT - 1]
    return body, description


def _draw_shared(view: dict, data) -> tuple[str, str]:
    pts = points(data)
    places, boxes = labels(view, data)
    body = [svg.el("rect", x=0, y=0, width=WIDTH, height=MAP_HEIGHT, fill=WATER)]
    body += land(data, pts)
    body.append(svg.slot(TITLE_SLOT))
    body.append(svg.text(WIDTH - 10, 26, f"European Tensions {view['eti']} · Chinese Resentment "
                         f"{view['cri']}", class_="head", text_anchor="end"))
    seas = sea_points(data)
    body += [sea(name, info, seas[name], boxes[name]) for name, info in view["seas"].items()]
    for power, info in view["homes"].items():
        body.append(home(power, info, pts[info["name"]], places[info["name"]]))
    for name, info in view["areas"].items():
        body.append(area(name, info, pts[name], places[name]))
    body += canals(view, pts)
    powers = [p for p in COLOURS if p in view["homes"]]
    body += legend(view, powers)
    held = sum(1 for a in view["areas"].values() if a["controllers"])
    description = (f"A world map of the {len(view['areas'])} Areas, {len(view['homes'])} Home Countries "
                   f"and {len(view['seas'])} Sea Zones; {held} Areas are controlled by a power. "
                   + " ".join(text_lines(view)))
    return "".join(body), description
