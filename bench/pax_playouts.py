"""Random bot games of Pax Britannica, every invariant of the suite's playout test checked
after every phase (tests/games/pax_britannica/test_playouts_pax_britannica.py says which);
prints the wars each game saw and every broken invariant, exits non-zero when one was broken.
The suite plays 41 of them; this is the long run.

    .venv/bin/python bench/pax_playouts.py [--games 200] [--start 0]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "games" / "pax_britannica"))

from pbem.base import registry  # noqa: E402
from test_playouts_pax_britannica import play  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--start", type=int, default=0, help="the first seed")
    args = ap.parse_args()
    game = registry.get("pax_britannica")
    began, failed, phases = time.perf_counter(), 0, 0
    kinds: dict[str, int] = {}
    great = 0
    for seed in range(args.start, args.start + args.games):
        seen: dict = {}
        n, problems = play(game, seed, seen)
        phases += n
        for _, kind in seen.get("ids", ()):
            kinds[kind] = kinds.get(kind, 0) + 1
        great += bool(seen.get("great_war"))
        if problems:
            failed += 1
            print(f"game {seed}: {problems[0]}", flush=True)
    took = time.perf_counter() - began
    print(f"{args.games} games from seed {args.start}: {phases} phases, {failed} with a broken invariant; wars "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + f"; the Great War in {great}; "
          f"{took:.0f} s ({took / max(1, args.games):.2f} s a game)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
