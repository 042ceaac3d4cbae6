"""The long fuzz run: at least a million inputs against the mail normaliser,
the envelope grammar, every game's order grammar, and (a share of them) the
whole loop.  Prints figures; exits non-zero when any input broke a promise.

    nice .venv/bin/python bench/fuzz.py [--inputs 1000000] [--seed 1] [--loop-every 50] [--replies 100000]

Inputs are mutations of the real-world and hostile mails under tests/
(tests/fuzz_targets.py: flipped, cut, repeated and inserted bytes, hostile
tokens, slices of other mails).  Each input goes to the normaliser as bytes,
to the envelope grammar as text, and its first lines to one game's order
grammar; every ``--loop-every``-th input is also handled as a mail by the
whole moderator (SQLite file, a running game), which must answer it with
exactly one reply.  Each order grammar must also account for every line it is
given (an order's, a problem's or part of one), and the envelope reader for every
line of the mail.  Then ``--replies`` generated replies, every quote and attribution
shape of the common mail programs (tests/reply_shapes.py), must each leave exactly
the player's own lines.  A failing input is written to bench/fuzz-failures/.
The short version of this run is tests/platform/test_fuzz.py.
"""
from __future__ import annotations

import argparse
import logging
import platform
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import fuzz_targets as ft  # noqa: E402
from helpers_loop import Loop  # noqa: E402

FAILURES = Path(__file__).parent / "fuzz-failures"


def _loop_target(folder: Path):
    loop = Loop(folder)
    loop.start_beacon()
    # A long run sends far more stranger mail than an hour's limits allow: lift them,
    # so that "every input gets a reply" is what is checked.
    loop.ctx.limits = type(loop.ctx.limits)(stranger_replies_per_hour_all=10**9,
                                            stranger_reply_bytes_per_hour_all=10**12,
                                            stranger_reply_bytes_per_hour=10**12)
    count = 0

    def check(body: bytes) -> None:
        nonlocal count
        count += 1
        ft.whole_loop(loop, count, body)
    return check


def _replies(count: int, seed: int) -> int:
    """``count`` replies of every shape the mail programs write (tests/reply_shapes.py):
    the player's own lines are left, exactly; returns the number that were not."""
    from hypothesis import HealthCheck, given, seed as hypothesis_seed, settings

    import reply_shapes
    failed = []

    @hypothesis_seed(seed)
    @settings(max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(reply_shapes.replies())
    def check(reply):
        try:
            ft.written_lines(*reply)
        except AssertionError:
            failed.append(reply[0])

    if count:
        check()
    for body in failed[:20]:
        print(f"FAIL replies:\n{body}", flush=True)
    return len(failed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--loop-every", type=int, default=50)
    parser.add_argument("--replies", type=int, default=100_000,
                        help="generated replies checked to keep exactly the player's own lines")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # a broken mail is logged by design; millions of lines say nothing
    rng = random.Random(args.seed)
    pool = ft.seeds()
    orders = ft.order_targets()
    failures = 0
    counts = {"normaliser": 0, "envelope": 0, "orders": 0, "loop": 0}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        loop = _loop_target(Path(tmp))
        for n in range(args.inputs):
            data = ft.mutate(rng, rng.choice(pool), pool)
            if rng.random() < 0.05:
                pool.append(data[:20_000])  # keep some mutants as seeds: deeper mutations
                if len(pool) > 2000:
                    pool.pop(rng.randrange(len(pool)))
            text = ft.as_text(data)
            checks = [("normaliser", lambda: ft.normaliser(data)), ("envelope", lambda: ft.envelope(text)),
                      ("orders", lambda: orders[n % len(orders)](text.splitlines()[:30]))]
            if args.loop_every and n % args.loop_every == 0:
                checks.append(("loop", lambda: loop(data)))
            for name, check in checks:
                counts[name] += 1
                try:
                    check()
                except Exception:
                    failures += 1
                    FAILURES.mkdir(exist_ok=True)
                    (FAILURES / f"{name}-{args.seed}-{n}.bin").write_bytes(data)
                    print(f"FAIL {name} input {n}:\n{traceback.format_exc()}", flush=True)
            if (n + 1) % 50_000 == 0:
                rate = (n + 1) / (time.monotonic() - started)
                print(f"{n + 1} inputs, {failures} failures, {rate:.0f} inputs/s", flush=True)
    failures += _replies(args.replies, args.seed)
    counts["replies"] = args.replies
    seconds = time.monotonic() - started
    print(f"fuzz: {args.inputs} inputs (seed {args.seed}) in {seconds:.0f}s, {args.inputs / seconds:.0f} inputs/s; "
          f"checks: {', '.join(f'{k} {v}' for k, v in counts.items())}; failures: {failures}")
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.system()} {platform.release()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
