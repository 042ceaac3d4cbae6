"""Does any label of a drawn map cover another place's label or node?  Read from the SVG
itself, with the text widths the drawing code estimates.

A map is a list of places, each one top-level ``<g>`` of the drawing (a place's node, its
name, its tags, a Sea Zone's box...), and free-standing texts (titles, legend), each its own
item.  Each text takes a box from its font size and the game's own width estimate (from
just under the cap height to below the descenders), each ``rect`` and ``circle`` its box;
lines and paths (routes, leader lines, wedges inside a node) take none.  Two boxes of
different items may not overlap; within one place they may (a tag's words inside its tag).
Other top-level shapes are the ground the map is drawn on and are not looked at.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Callable

from pbem.kit.svg import NS

Box = tuple[float, float, float, float]
#: (words, classes, element) -> (width, font size)
Measure = Callable[[str, list[str], ET.Element], tuple[float, float]]


def _text_box(t: ET.Element, measure: Measure) -> Box:
    words = t.text or ""
    w, size = measure(words, (t.get("class") or "").split(), t)
    x, y = float(t.get("x")), float(t.get("y"))
    x -= {"end": w, "middle": w / 2}.get(t.get("text-anchor") or "start", 0.0)
    return (x, y - 0.8 * size, x + w, y + 0.25 * size)


def _boxes(el: ET.Element, measure: Measure):
    tag = el.tag.split("}")[-1]
    if tag == "text":
        yield el.text or "", _text_box(el, measure)
    elif tag == "rect":
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        yield "a box", (x, y, x + float(el.get("width")), y + float(el.get("height")))
    elif tag == "circle":
        x, y, r = float(el.get("cx")), float(el.get("cy")), float(el.get("r"))
        yield "a node", (x - r, y - r, x + r, y + r)
    elif tag == "g":
        for child in el:
            yield from _boxes(child, measure)


def items(drawing: str, measure: Measure) -> list[tuple[str, bool, list[tuple[str, Box]]]]:
    """Every place (named by its ``title``, else by its first text) and free text, with
    whether it is a place, and its boxes."""
    root = ET.fromstring(drawing)
    out = []
    for el in root:
        tag = el.tag.split("}")[-1]
        if tag == "g":
            title = el.find(f"{{{NS}}}title")
            first = next((t.text for t in el.iter(f"{{{NS}}}text")), "?")
            name = (title.text.split(":")[0] if title is not None and title.text else first)
            out.append((name, True, list(_boxes(el, measure))))
        elif tag == "text":
            out.append((el.text or "", False, list(_boxes(el, measure))))
    return out


def _over(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.01 and min(a[3], b[3]) - max(a[1], b[1]) > 0.01


def collisions(drawing: str, measure: Measure, bounds: Box | None = None) -> list[str]:
    """Every box of one item over a box of another ("Tunis: 'Tunis' over Mediterranean Sea:
    'Mediterranean Sea'"), and every box of a place outside ``bounds`` (the map's area)."""
    boxes = []
    found = []
    for k, (name, place, parts) in enumerate(items(drawing, measure)):
        for what, box in parts:
            boxes.append((box, k, name, what))
            if place and bounds and not (box[0] >= bounds[0] and box[1] >= bounds[1]
                                         and box[2] <= bounds[2] and box[3] <= bounds[3]):
                found.append(f"{name}: {what!r} outside the map")
    boxes.sort(key=lambda b: b[0][0])
    for i, (a, ka, na, wa) in enumerate(boxes):
        for b, kb, nb, wb in boxes[i + 1:]:
            if b[0] >= a[2]:
                break
            if ka != kb and _over(a, b):
                found.append(f"{na}: {wa!r} over {nb}: {wb!r}")
    return sorted(found)
