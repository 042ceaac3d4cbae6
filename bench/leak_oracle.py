"""The leak oracle's long run: random games of every game by mail among bots that keep
secrets, every mail, archive page and log line checked against what its reader may know
(tests/leak_oracle.py says how).  Prints each game's leaks and the totals; exits non-zero
when any reader was shown what it may not know.  The short run is tests/conformance/test_leak_oracle.py.

    nice .venv/bin/python bench/leak_oracle.py [--games 2000] [--rules pax_britannica eu_tpop]
                                              [--start 0] [--hours H]

``--hours`` stops starting new games after that long (the figures then say how many were
played); ``--start`` is the first seed, so a long run can be split and resumed.

The PNG maps are not rasterised here unless ``--real-maps``: each phase's PNG is the public map
rasterised from a drawing the archive keeps as SVG, and the oracle reads that SVG (a PNG's pixels
hold no words it could read), while rasterising is most of the moderator's time.  A fixed small
image stands in for it.  The short run in the suite rasterises as the daemon does.
"""
from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from leak_oracle import play  # noqa: E402


def _stand_in_for_rasterising() -> None:
    """Every PNG map is one fixed small image (see the module's docstring)."""
    import io

    from PIL import Image

    from pbem.reporting import raster

    out = io.BytesIO()
    Image.new("P", (8, 8)).save(out, "PNG")
    image = out.getvalue()
    raster.png = lambda svg, width=raster.WIDTH: image


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games of each rule set")
    ap.add_argument("--rules", nargs="+", default=["pax_britannica", "eu_tpop"])
    ap.add_argument("--start", type=int, default=0, help="the first seed")
    ap.add_argument("--hours", type=float, default=0, help="stop starting games after this long (0: no limit)")
    ap.add_argument("--real-maps", action="store_true", help="rasterise every PNG map as the daemon does")
    args = ap.parse_args()
    if not args.real_maps:
        _stand_in_for_rasterising()
    print(f"leak oracle: {args.games} games of {', '.join(args.rules)} from seed {args.start}; "
          f"Python {platform.python_version()}; PNG maps {'rasterised' if args.real_maps else 'stood in for'}",
          flush=True)
    began = time.perf_counter()
    stats = {r: {"games": 0, "leaks": 0, "leaky": 0, "phases": 0, "mails": 0, "pages": 0, "seconds": 0.0,
                 "counts": {}} for r in args.rules}
    # The rule sets take turns, so a run stopped by --hours has played each about as often.
    for seed in range(args.start, args.start + args.games):
        if args.hours and time.perf_counter() - began > args.hours * 3600:
            print(f"stopped after {args.hours:g} h", flush=True)
            break
        for rules in args.rules:
            start = time.perf_counter()
            with tempfile.TemporaryDirectory() as folder:
                outcome = play(rules, seed, Path(folder))
            st = stats[rules]
            st["seconds"] += time.perf_counter() - start
            st["games"] += 1
            for key in ("phases", "mails", "pages"):
                st[key] += getattr(outcome, key)
            for k, v in outcome.counts.items():
                st["counts"][k] = st["counts"].get(k, 0) + v
            if outcome.findings:
                st["leaks"] += len(outcome.findings)
                st["leaky"] += 1
                print(f"{rules} game {seed}: " + "; ".join(outcome.findings[:5]), flush=True)
        if (seed - args.start + 1) % 25 == 0:
            print("  " + "; ".join(f"{r}: {st['games']} games, {st['leaks']} leaks" for r, st in stats.items())
                  + f" ({time.perf_counter() - began:.0f} s)", flush=True)
    for rules, st in stats.items():
        n = max(1, st["games"])
        print(f"{rules}: {st['games']} games, {st['phases']} phases, {st['mails']} mails, {st['pages']} archive "
              f"pages read; {st['leaks']} leaks in {st['leaky']} games; {st['seconds']:.0f} s "
              f"({st['seconds'] / n:.1f} s a game)", flush=True)
        print("  " + ", ".join(f"{k} {v}" for k, v in sorted(st["counts"].items())), flush=True)
    return 1 if any(st["leaky"] for st in stats.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
