"""The leak oracle's long run: random games of every game by mail among bots that keep
secrets, every mail, archive page and log line checked against what its reader may know
(tests/leak_oracle.py says how).  Prints each game's leaks and the totals; exits non-zero
when any reader was shown what it may not know.  The short run is tests/test_leak_oracle.py.

    nice .venv/bin/python bench/leak_oracle.py [--games 2000] [--rules pax_britannica eu_tpop]
                                              [--start 0] [--hours H]

``--hours`` stops starting new games after that long (the figures then say how many were
played); ``--start`` is the first seed, so a long run can be split and resumed.
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games of each rule set")
    ap.add_argument("--rules", nargs="+", default=["pax_britannica", "eu_tpop"])
    ap.add_argument("--start", type=int, default=0, help="the first seed")
    ap.add_argument("--hours", type=float, default=0, help="stop starting games after this long (0: no limit)")
    args = ap.parse_args()
    print(f"leak oracle: {args.games} games of {', '.join(args.rules)} from seed {args.start}; "
          f"Python {platform.python_version()}", flush=True)
    began = time.perf_counter()
    leaky = 0
    for rules in args.rules:
        start = time.perf_counter()
        played, findings, mails, pages, phases = 0, 0, 0, 0, 0
        counts: dict[str, int] = {}
        for seed in range(args.start, args.start + args.games):
            if args.hours and time.perf_counter() - began > args.hours * 3600:
                break
            with tempfile.TemporaryDirectory() as folder:
                outcome = play(rules, seed, Path(folder))
            played += 1
            mails, pages, phases = mails + outcome.mails, pages + outcome.pages, phases + outcome.phases
            for k, v in outcome.counts.items():
                counts[k] = counts.get(k, 0) + v
            if outcome.findings:
                findings += len(outcome.findings)
                leaky += 1
                print(f"{rules} game {seed}: " + "; ".join(outcome.findings[:5]), flush=True)
            if played % 50 == 0:
                took = time.perf_counter() - start
                print(f"  {rules}: {played} games, {findings} leaks, {took:.0f} s", flush=True)
        took = time.perf_counter() - start
        print(f"{rules}: {played} games, {phases} phases, {mails} mails, {pages} archive pages read; "
              f"{findings} leaks; {took:.0f} s ({took / max(1, played):.1f} s a game)", flush=True)
        print("  " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), flush=True)
    return 1 if leaky else 0


if __name__ == "__main__":
    sys.exit(main())
