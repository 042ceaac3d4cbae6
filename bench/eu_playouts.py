"""200 random bot games of Europa Universalis: The Price of Power on the sample
scenario (half under the pre-1.2 rules, half under 1.2); prints what happened and
every broken invariant, exits non-zero when one was broken.

    .venv/bin/python bench/eu_playouts.py [--games N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.eu_tpop.selfplay import play  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    start = time.perf_counter()
    totals = {"steps": 0, "battles": 0, "sieges": 0, "peaces": 0, "reactions": 0}
    failed = 0
    for seed in range(args.games):
        summary = play(seed, "1.2" if seed % 2 else "pre-1.2")
        for key in totals:
            totals[key] += summary[key]
        if summary["broken"]:
            failed += 1
            print(f"game {seed}: " + "; ".join(summary["broken"][:5]))
    took = time.perf_counter() - start
    print(f"{args.games} games, {failed} with a broken invariant, in {took:.1f} s "
          f"({took / max(1, args.games) * 1000:.0f} ms a game)")
    print("  " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
