"""Where the moderator's CPU time goes in one bot game of bench/phases.py, and how many maps it
rasterises.

    PYTHONHASHSEED=0 .venv/bin/python bench/moderator_cpu.py [--rules pax_britannica eu_tpop] [--turns 10]

CPU time (``time.process_time``: what a loaded machine does not disturb), summed per part;
a part's time includes the parts it calls (``queue_reports`` holds the rest).  Maps: the
PNG rasterisations asked for, the distinct drawings among them (each rasterised once: the
rest come from :mod:`pbem.reporting.raster`'s cache), and the distinct drawings once their
title is left out -- how many a cache could spare if the PNG carried no title.
``PYTHONHASHSEED=0`` makes the bots play the same game on every run (their choices follow
set order).  Prints figures, asserts nothing.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import phases  # noqa: E402
from pbem.base import registry  # noqa: E402
from pbem.play import turns  # noqa: E402
from pbem.reporting import raster, render, reports  # noqa: E402

TITLE = re.compile(r'<title id="[^"]*">([^<]*)</title>')


def timed(owner, name: str, label: str, spent: dict[str, float], undo: list) -> None:
    real = getattr(owner, name)
    undo.append((owner, name, real))

    def wrapper(*args, **kwargs):
        t0 = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - t0
    setattr(owner, name, wrapper)


def measure(rules: str, turns_: int) -> None:
    spent: dict[str, float] = {}
    drawings: list[str] = []
    undo: list = []
    game_class = type(registry.get(rules))
    for method in ("report", "options_now", "map_svg", "map_text"):
        timed(game_class, method, f"game.{method}", spent, undo)
    real_png = raster.png
    undo.append((raster, "png", real_png))
    raster.png = lambda svg, *a, **k: drawings.append(svg) or real_png(svg, *a, **k)
    timed(raster, "png", "raster.png (resvg, quantise, PNG)", spent, undo)
    timed(reports, "queue", "outbox.queue (MIME, packing, row)", spent, undo)
    timed(render, "render", "templates (report.txt, report.html)", spent, undo)
    timed(reports, "queue_reports", "queue_reports (all reports)", spent, undo)
    timed(turns, "run_phase", "run_phase (the moderator)", spent, undo)
    t0 = time.process_time()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            played = phases.play(rules, 0, turns_, 3 if rules == "pax_britannica" else None)
    finally:
        for owner, name, real in reversed(undo):
            setattr(owner, name, real)
    whole = time.process_time() - t0
    bodies = {d.replace(m.group(1), "") if (m := TITLE.search(d)) else d for d in drawings}
    print(f"{rules}: CPU {whole:.2f} s for the whole game (bots included); engine alone "
          f"{played.engine_whole:.2f} s (wall)")
    for label, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {label:40} {seconds:7.2f} s")
    print(f"  maps: {len(drawings)} PNGs asked for, {len(set(drawings))} distinct drawings, "
          f"{len(bodies)} distinct without their title")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="*", default=["pax_britannica", "eu_tpop"])
    ap.add_argument("--turns", type=int, default=10)
    args = ap.parse_args()
    for rules in args.rules:
        measure(rules, args.turns)


if __name__ == "__main__":
    main()
