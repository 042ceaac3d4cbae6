"""Line charts of a game's figures over its turns, as small SVG documents.

The archive needs a handful of line charts (Victory Points per power, two
indices), static and readable offline: a charting library would bring a
page script or a plotting stack for what is a few polylines, axes and a
legend.  These are drawn with :mod:`pbem.kit.svg`; each chart names itself
(``<title>``, ``<desc>`` with every value), and the archive prints the same
numbers as a table beside it.
"""
from __future__ import annotations

from typing import Sequence

from pbem.kit import svg

# Distinct hues that stay apart for the common colour-vision deficiencies
# (Okabe and Ito's palette, then darker tones); every line also has a marker
# shape and its name at its end, so colour is never the only cue.
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
           "#8c564b", "#7f7f7f", "#bcbd22", "#17becf", "#9467bd")
SHAPES = ("circle", "square", "diamond", "triangle")
WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 46, 150, 34, 40


def _nice_top(value: float) -> float:
    """The smallest of 1, 2, 5 x 10^n at or above ``value`` (at least 1)."""
    top = 1.0
    while top < value:
        for step in (2, 2.5, 2):
            top *= step
            if top >= value:
                break
    return top


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    if shape == "square":
        return svg.el("rect", x=x - 3, y=y - 3, width=6, height=6, fill=colour)
    if shape == "diamond":
        return svg.el("path", d=svg.path([(x, y - 4), (x + 4, y), (x, y + 4), (x - 4, y)]), fill=colour)
    if shape == "triangle":
        return svg.el("path", d=svg.path([(x, y - 4), (x + 4, y + 3), (x - 4, y + 3)]), fill=colour)
    return svg.el("circle", cx=x, cy=y, r=3.2, fill=colour)


def line_chart(title: str, labels: Sequence[str], series: dict[str, Sequence[float | None]],
               chart_id: str) -> str:
    """One chart: ``labels`` along the x axis (turns), one line per series
    (``None`` where a series has no value)."""
    values = [v for vs in series.values() for v in vs if v is not None]
    low = min([0.0, *values])
    top = _nice_top(max([1.0, *values]) - low) + low
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    n = max(1, len(labels) - 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        return LEFT + plot_w * i / n, TOP + plot_h * (1 - (v - low) / (top - low))

    body = [svg.text(LEFT, 20, title, font_size=14, font_weight="bold", fill="#1d1d1d")]
    for k in range(5):
        v = low + (top - low) * k / 4
        _, y = xy(0, v)
        body.append(svg.el("line", x1=LEFT, y1=y, x2=LEFT + plot_w, y2=y, stroke="#d6d6d6", stroke_width=1))
        body.append(svg.text(LEFT - 6, y + 4, svg.num(v), font_size=11, text_anchor="end", fill="#333333"))
    step = max(1, len(labels) // 8)
    for i, label in enumerate(labels):
        if i % step == 0 or i == len(labels) - 1:
            x, _ = xy(i, low)
            body.append(svg.text(x, HEIGHT - BOTTOM + 16, label, font_size=11, text_anchor="middle",
                                 fill="#333333"))
    ends: list[tuple[float, str, str]] = []
    for k, (name, vs) in enumerate(series.items()):
        colour, shape = PALETTE[k % len(PALETTE)], SHAPES[k % len(SHAPES)]
        pts = [xy(i, v) for i, v in enumerate(vs) if v is not None]
        if not pts:
            continue
        line = [svg.title(f"{name}: " + ", ".join(f"{labels[i]} {svg.num(v)}" for i, v in enumerate(vs)
                                                  if v is not None))]
        line.append(svg.el("path", d=svg.path(pts, closed=False), fill="none", stroke=colour, stroke_width=2))
        line += [_marker(shape, x, y, colour) for x, y in pts]
        body.append(svg.el("g", line))
        ends.append((pts[-1][1], name, colour))
    # Names at the right, in the order the lines end, pushed apart so none overlaps.
    last = -1e9
    for y, name, colour in sorted(ends):
        y = max(y + 4, last + 13)
        last = y
        body.append(svg.el("line", x1=LEFT + plot_w + 6, y1=y - 4, x2=LEFT + plot_w + 18, y2=y - 4,
                           stroke=colour, stroke_width=3))
        body.append(svg.text(LEFT + plot_w + 22, y, name, font_size=11, fill="#1d1d1d"))
    body.append(svg.el("line", x1=LEFT, y1=TOP + plot_h, x2=LEFT + plot_w, y2=TOP + plot_h,
                       stroke="#1d1d1d", stroke_width=1))
    desc = "; ".join(f"{name}: " + ", ".join(f"{labels[i]} {svg.num(v)}" for i, v in enumerate(vs)
                                             if v is not None) for name, vs in series.items())
    return svg.document(WIDTH, HEIGHT, body, label=title, description=desc, id_=chart_id)
