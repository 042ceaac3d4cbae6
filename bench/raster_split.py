"""Would rasterising a map's unchanging part once, and only the rest per phase, pay?

    PYTHONHASHSEED=0 .venv/bin/python bench/raster_split.py [--turns 3] [--every 3]

Plays a short bot game of each game (bench/phases.py), keeps the PNG maps the moderator asks
:mod:`pbem.reporting.raster` for, and times, for every ``--every``-th distinct drawing, in CPU
time (best of three): resvg on the whole drawing; on its unchanging base alone (white ground);
on the rest alone (transparent ground); and Pillow's decoding and compositing of the two.  The
split is cut from the drawing's markup as each game draws it today:

- Pax Britannica: base = the sea, the land shapes and Overland Routes, the Sea Zones' names and
  the legend (all fixed by the map data); the rest = the title, the tracks, the Sea Zones'
  boxes, every place's dot, name and tags (names move with the tags around them), canals.
- Europa Universalis: base = the ground, the lines between places, every card's frame and
  heading; the rest = the cards' lines, the legend, the title.  An upper bound: the cards move
  when one grows (:func:`games.eu_tpop.mapdraw.layout`), so their frames are not truly fixed.

Also times the drawing without any text, to show what text costs.  Prints figures, asserts
nothing.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import resvg_py  # noqa: E402
from PIL import Image  # noqa: E402

import phases  # noqa: E402
from games.pax_britannica.report.mapdraw import MAP_HEIGHT  # noqa: E402
from pbem.reporting import raster  # noqa: E402

TEXT = re.compile(r"<text[^>]*>[^<]*</text>")


def resvg(svg: str, ground: str) -> tuple[float, bytes]:
    best, out = float("inf"), b""
    for _ in range(3):
        t0 = time.process_time()
        out = bytes(resvg_py.svg_to_bytes(svg_string=svg, width=raster.WIDTH, background=ground,
                                          font_family="DejaVu Sans", sans_serif_family="DejaVu Sans",
                                          shape_rendering="crisp_edges"))
        best = min(best, time.process_time() - t0)
    return best, out


def composite(base: bytes, overlay: bytes) -> float:
    """Decoding the overlay's PNG and laying it on the kept base (what splitting adds)."""
    ground = Image.open(io.BytesIO(base)).convert("RGBA")
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        Image.alpha_composite(ground, Image.open(io.BytesIO(overlay)).convert("RGBA")).convert("RGB")
        best = min(best, time.process_time() - t0)
    return best


def _parts(svg: str) -> tuple[str, str]:
    cut = svg.index("</style>") + len("</style>")
    return svg[:cut], svg[cut:svg.rindex("</svg>")]


def split_pax(svg: str) -> tuple[str, str]:
    head, body = _parts(svg)
    title = body.index('<text x="10" y="26"')
    land, rest = body[:title], body[title:]
    key = rest.index(f'<rect x="0" y="{MAP_HEIGHT}"')
    legend, rest = rest[key:], rest[:key]
    sea = re.compile(r'<text[^>]*class="sea"[^>]*>[^<]*</text>')
    return (head + land + "".join(sea.findall(rest)) + legend + "</svg>",
            head + sea.sub("", rest) + "</svg>")


def split_eu(svg: str) -> tuple[str, str]:
    head, body = _parts(svg)
    ground = re.match(r"<rect[^>]*/>", body).group(0)
    title = re.search(r'<text x="[^"]*" y="28" class="head">[^<]*</text>', body).group(0)
    lines = "".join(re.findall(r"<line[^>]*/>", body))
    frames, inside = [], []
    for card in re.findall(r"<g>.*?</g>", body):
        m = re.match(r"<g>(<rect[^>]*/><text[^>]*>[^<]*</text>)(.*)</g>", card)
        frames.append(m.group(1))
        inside.append(m.group(2))
    legend = body[body.rindex("</g>") + 4:]
    return head + ground + lines + "".join(frames) + "</svg>", head + title + "".join(inside) + legend + "</svg>"


def drawings(rules: str, turns_: int) -> list[str]:
    seen: list[str] = []
    real = raster.png

    def keep(svg: str, *args, **kwargs) -> bytes:
        if svg not in seen:
            seen.append(svg)
        return b""
    raster.png = keep
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            phases.play(rules, 0, turns_, 3 if rules == "pax_britannica" else None)
    finally:
        raster.png = real
    return seen


def measure(rules: str, turns_: int, every: int) -> None:
    split = split_pax if rules == "pax_britannica" else split_eu
    rows = []
    for svg in drawings(rules, turns_)[every - 1::every]:
        base, overlay = split(svg)
        whole, _ = resvg(svg, "#ffffff")
        bare, _ = resvg(TEXT.sub("", svg), "#ffffff")
        alone, base_png = resvg(base, "#ffffff")
        rest, rest_png = resvg(overlay, "#00000000")
        rows.append((whole, bare, alone, rest, composite(base_png, rest_png),
                     svg.count("<text"), overlay.count("<text")))
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"{rules}: {len(rows)} drawings timed, medians (CPU, s):")
    print(f"  resvg, whole drawing          {med[0]:.3f}   ({med[5]:.0f} texts)")
    print(f"  resvg, whole without text     {med[1]:.3f}")
    print(f"  resvg, base alone             {med[2]:.3f}   (once per base)")
    print(f"  resvg, the rest alone         {med[3]:.3f}   ({med[6]:.0f} texts)")
    print(f"  decode and composite          {med[4]:.3f}")
    print(f"  split per map / whole         {(med[3] + med[4]) / med[0]:.0%}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--rules", nargs="*", default=["pax_britannica", "eu_tpop"])
    args = ap.parse_args()
    for rules in args.rules:
        measure(rules, args.turns, args.every)


if __name__ == "__main__":
    main()
