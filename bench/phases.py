"""Adjudication, per phase kind and per game, in the engine and through the moderator.

    PYTHONHASHSEED=0 .venv/bin/python bench/phases.py [--games 3] [--turns 10] [--memory]

Bot games of Pax Britannica (with a war declared by GM SET WAR in the third
turn, so the War Phase runs; Congresses come when the bots convene one) and
of Europa Universalis.  "Moderator" is :func:`pbem.play.turns.run_phase` on a
real SQLite database: the rules, the snapshots and every report queued as
mail; "engine" replays each resolved phase through :func:`pbem.kit.engine.resolve_one`
alone.  A "turn" is every phase of one game turn through the moderator.

Time and memory are separate runs: ``--memory`` traces allocations (which
slows everything several times) and prints only the peaks.
Prints figures, asserts nothing.
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.base import registry
from pbem.play import turns
from pbem.storage import outbox_rows, phase_orders, store  # noqa: E402
from pbem.base.clock import FakeClock  # noqa: E402
from pbem.base.config import load_config  # noqa: E402
from pbem.base.context import Context  # noqa: E402
from pbem.storage.db import open_db  # noqa: E402
from pbem.base.deadlines import DeadlinePolicy  # noqa: E402
from pbem.kit.engine import resolve_one  # noqa: E402
from pbem.kit.gameapi import Edit  # noqa: E402

WAR = "SET WAR Britain VS France"


class Played:
    """What one bot game took."""

    def __init__(self):
        self.engine: dict[str, list[float]] = defaultdict(list)     # phase name -> seconds
        self.moderator: dict[str, list[float]] = defaultdict(list)  # first phase of a run -> seconds
        self.turns: dict[int, float] = defaultdict(float)
        self.war_turns: set[int] = set()
        self.congress_turns: set[int] = set()
        self.whole = 0.0
        self.engine_whole = 0.0
        self.db_bytes = 0
        self.report_bytes: list[int] = []  # every report as queued (its map included), in bytes


def play(rules: str, seed: int, rounds: int, war_turn: int | None) -> Played:
    game = registry.get(rules)
    players, options = game.demo_setup(rounds)
    out = Played()
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        ctx = Context(db=open_db(Path(tmp) / "p.sqlite"), clock=clock,
                      deadline_defaults=dict(load_config(None).deadlines), reply_rate_per_hour=0)
        policy = DeadlinePolicy.from_settings(ctx.deadline_defaults)
        store.create_game(ctx, "bench", rules, options, policy, "gm@x")
        for i, power in enumerate(players):
            store.add_player(ctx, "bench", power, [f"p{i}@x"], "unused")
        rng = random.Random(seed)
        started = time.perf_counter()
        # The game's seed fixed too (with PYTHONHASHSEED=0 for the bots' set order), so two runs
        # play the same game and compare like with like.
        real_seed, turns.new_seed = turns.new_seed, lambda: f"{rules}:{seed}".encode().hex().ljust(64, "0")
        try:
            rec = turns.start_game(ctx, "bench")
        finally:
            turns.new_seed = real_seed
        seen_turns: list[int] = []
        while not rec.rules.is_over(rec.state):
            state = rec.state
            phase = game.phase(state)
            if war_turn is not None and phase.turn not in seen_turns:
                seen_turns.append(phase.turn)
                if len(seen_turns) == war_turn:
                    t0 = time.perf_counter()
                    turns.apply_input(ctx, "bench", Edit(text=WAR))
                    out.turns[phase.turn] += time.perf_counter() - t0
                    out.war_turns.add(phase.turn)
                    rec = store.get_game(ctx, "bench")
                    continue
            for power in phase.owes:
                lines = game.bot_orders(state, power, rng)
                parsed = game.parse_orders(state, power, list(enumerate(lines, 1)))
                if parsed.orders:
                    phase_orders.store_orders(ctx, "bench", phase.key, power, parsed.orders, "\n".join(lines), None)
            t0 = time.perf_counter()
            steps = turns.run_phase(ctx, "bench", reason="bench")
            took = time.perf_counter() - t0
            out.moderator[steps[0].phase.name].append(took)
            out.turns[phase.turn] += took
            for step in steps:
                if step.phase.name == "congress":
                    out.congress_turns.add(step.phase.turn)
                if step.phase.name.startswith("war_"):
                    out.war_turns.add(step.phase.turn)
                dice = turns.dice_for(rec.row["seed"], "bench")(step.phase)
                t1 = time.perf_counter()
                resolve_one(game, step.before, step.orders, dice)
                spent = time.perf_counter() - t1
                # A battle is fought inside a phase (EU: an action or a reaction): its own row.
                fought = any("battle" in str(e.get("kind", "")) for e in step.events)
                out.engine[step.phase.name + (" with a battle" if fought else "")].append(spent)
                out.engine_whole += spent
            clock.advance(days=3)
            rec = store.get_game(ctx, "bench")
        out.whole = time.perf_counter() - started
        out.report_bytes = [len(row["raw"]) for row in outbox_rows.waiting(ctx, with_failed=False)
                            if row["kind"] == "report"]
        ctx.db.conn.close()
        out.db_bytes = (Path(tmp) / "p.sqlite").stat().st_size
    return out


def _ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):6.1f} {1000 * max(values):6.1f}"


def report(rules: str, games: list[Played]) -> None:
    engine, moderator = defaultdict(list), defaultdict(list)
    turn_times, war, congress = [], [], []
    for g in games:
        for k, v in g.engine.items():
            engine[k] += v
        for k, v in g.moderator.items():
            moderator[k] += v
        for t, v in g.turns.items():
            (war if t in g.war_turns else congress if t in g.congress_turns else turn_times).append(v)
    print(f"{rules}: {len(games)} bot games; per phase kind, median and max in ms "
          "(engine: that phase alone; moderator: the run that starts with it, reports included)")
    print(f"  {'phase':32} {'n':>4} {'engine':>13} {'moderator':>13}")
    for name in sorted(set(engine) | set(moderator), key=lambda k: -max(engine.get(k, [0]))):
        e = _ms(engine[name]) if name in engine else " " * 13
        m = _ms(moderator[name]) if name in moderator else ""
        print(f"  {name:32} {len(engine.get(name, [])):>4} {e:>13} {m:>13}")
    if turn_times:
        print(f"  a turn through the moderator: median {1000 * statistics.median(turn_times):.0f} ms, "
              f"max {1000 * max(turn_times):.0f} ms")
    if war:
        print(f"  a turn with a war: median {1000 * statistics.median(war):.0f} ms, max {1000 * max(war):.0f} ms")
    if congress:
        print(f"  a turn with a Congress: median {1000 * statistics.median(congress):.0f} ms, "
              f"max {1000 * max(congress):.0f} ms")
    wholes = [g.whole for g in games]
    print(f"  whole game through the moderator: mean {statistics.mean(wholes):.2f} s, max {max(wholes):.2f} s; "
          f"engine alone {statistics.mean(g.engine_whole for g in games):.2f} s; database "
          f"{statistics.mean(g.db_bytes for g in games) / 2**20:.1f} MiB a game")
    sizes = [n for g in games for n in g.report_bytes]
    if sizes:
        print(f"  reports as queued (map included): {len(sizes)}, median {statistics.median(sizes) / 1000:.0f} KB, "
              f"max {max(sizes) / 1000:.0f} KB, {sum(n <= 80_000 for n in sizes)} of them at most 80 KB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--turns", type=int, default=10)
    ap.add_argument("--memory", action="store_true", help="trace allocations; print peaks only")
    ap.add_argument("--rules", nargs="*", default=["pax_britannica", "eu_tpop"])
    args = ap.parse_args()
    for rules in args.rules:
        if args.memory:
            tracemalloc.start()
        played = [play(rules, seed, args.turns, 3 if rules == "pax_britannica" else None)
                  for seed in range(args.games)]
        if args.memory:
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            print(f"{rules}: peak traced {peak / 2**20:.1f} MiB over {args.games} games")
        else:
            report(rules, played)
    print(f"max resident {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
