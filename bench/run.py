"""Benchmarks: prints figures, asserts nothing.

    .venv/bin/python bench/run.py [--mails N] [--games N]

- intake: mails stored and handled per second (SQLite file, real parsing,
  one transaction per mail, replies queued); an oversized mail's parse time;
- phases: time to resolve a Pax Britannica turn with bot orders, and a whole
  10-turn game;
- war: time to resolve a Pax Britannica turn whose War Phase holds one war among seven
  powers (every window of the War Sequence, bot orders, to the next Movement Phase); the
  engine's resolution time and the bots' and parsing time are printed apart;
- memory: peak traced allocation and the process's maximum resident size.
"""
from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import intake, registry, store, turns  # noqa: E402
from pbem.clock import FakeClock  # noqa: E402
from pbem.config import load_config  # noqa: E402
from pbem.context import Context  # noqa: E402
from pbem.db import open_db  # noqa: E402
from pbem.dice import SeededDice  # noqa: E402
from pbem.engine import run_phases  # noqa: E402
from pbem.identity import hash_secret  # noqa: E402
from pbem.mail.source import RawMail  # noqa: E402


def bench_intake(n: int) -> None:
    registry.load_extra("tests.testgame:GAME")
    with tempfile.TemporaryDirectory() as tmp:
        ctx = Context(db=open_db(Path(tmp) / "b.sqlite"), clock=FakeClock(), reply_rate_per_hour=0,
                      deadline_defaults=dict(load_config(None).deadlines))
        from pbem.deadlines import DeadlinePolicy

        store.create_game(ctx, "b", "testgame", {}, DeadlinePolicy.from_settings(ctx.deadline_defaults), "gm@x")
        store.add_player(ctx, "b", "North", ["n@x"], hash_secret("nn"))
        store.add_player(ctx, "b", "South", ["s@x"], hash_secret("ss"))
        turns.start_game(ctx, "b")
        raws = []
        for i in range(n):
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = "n@x", "pbem@localhost", "orders"
            msg["Message-ID"] = f"<b{i}@x>"
            msg.set_content(f"SIGNON North@b nn\nORDERS\nBID {i % 5}\n")
            raws.append(RawMail(f"bench:{i}", bytes(msg)))
        start = time.perf_counter()
        for raw in raws:
            intake.process(ctx, intake.store_raw(ctx, raw))
        took = time.perf_counter() - start
        print(f"intake: {n} mails in {took:.2f} s = {n / took:.0f} mails/s "
              f"({1000 * took / n:.1f} ms each, scrypt secret check included)")


def bench_oversized() -> None:
    """An oversized mail is flagged from its headers; its body is never decoded."""
    from pbem.mail.normalize import parse_message

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "n@x", "pbem@localhost", "huge"
    msg.set_content("PRESS TO ALL\n" + ("long " * 40 + "\n") * 40000)
    raw = bytes(msg)
    start = time.perf_counter()
    parse_message(raw, max_bytes=1_000_000)
    print(f"oversized: a {len(raw) / 2**20:.1f} MiB mail flagged in {1000 * (time.perf_counter() - start):.1f} ms")


def bench_phases(games: int) -> None:
    try:
        game = registry.get("pax_britannica")
    except KeyError as exc:
        print(f"phases: skipped ({exc})")
        return
    players = ["Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy"]
    turn_times, game_times = [], []
    for g in range(games):
        rng = random.Random(g)
        state = game.setup(players, {"setup": "1880"}, SeededDice(seed=f"s{g}", context="setup"))
        started = time.perf_counter()
        while not game.is_over(state):
            phase = game.phase(state)
            orders = {}
            for power in phase.owes:
                parsed = game.parse_orders(state, power, list(enumerate(game.bot_orders(state, power, rng), 1)))
                orders[power] = parsed.orders
            t0 = time.perf_counter()
            steps = run_phases(game, state, orders, lambda ph: SeededDice(seed=f"s{g}", context=ph.key))
            turn_times.append(time.perf_counter() - t0)
            state = steps[-1].after
        game_times.append(time.perf_counter() - started)
    turn_times.sort()
    print(f"phases: {len(turn_times)} order-to-order resolutions over {games} games: "
          f"median {1000 * turn_times[len(turn_times) // 2]:.1f} ms, max {1000 * turn_times[-1]:.1f} ms")
    print(f"games: whole game with bot orders: mean {sum(game_times) / len(game_times):.2f} s")


WAR_SIDES = (["Britain", "France", "United States", "Japan"], ["Germany", "Netherlands", "Spain"])


def war_turn(game, seed: int) -> tuple[float, float, int]:
    """One turn from the War Phase, with a war among seven powers under way: (engine seconds,
    bot and parsing seconds, windows).  The board is the 1880 set-up with armies facing each
    other in Africa, so there are moves, combats, supply checks and surrenders."""
    rng = random.Random(seed)
    players = ["Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy"]
    state = game.setup(players, {"setup": "1880"}, SeededDice(seed=f"w{seed}", context="setup"))
    state = dict(state, phase="war")
    edits = ["SET WAR " + " ".join(f'"{p}"' for p in WAR_SIDES[0]) + " VS "
             + " ".join(f'"{p}"' for p in WAR_SIDES[1]),
             "SET MARKER Germany protectorate Kamerun", "SET ARMY Germany 10 Kamerun",
             "SET ARMY Germany 3 Kamerun", "SET MARKER France protectorate Gabon",
             "SET ARMY France 10 Gabon", "SET MARKER Britain protectorate Nigeria",
             "SET ARMY Britain 10 Nigeria", "SET MARKER Netherlands protectorate Kongo",
             "SET ARMY Netherlands 3 Kongo", "SET ARMY \"United States\" 3 Tchad",
             "SET MARKER \"United States\" protectorate Tchad"]
    for text in edits:
        state, _ = game.gm_command(state, text, SeededDice(seed=f"w{seed}", context="gm"))
    engine = bots = 0.0
    windows = 0
    turn = state["turn"]
    while not game.is_over(state) and (state["phase"] != "movement" or state["turn"] == turn):
        phase = game.phase(state)
        t0 = time.perf_counter()
        orders = {}
        for power in phase.owes:
            parsed = game.parse_orders(state, power, list(enumerate(game.bot_orders(state, power, rng), 1)))
            orders[power] = parsed.orders
        t1 = time.perf_counter()
        steps = run_phases(game, state, orders, lambda ph: SeededDice(seed=f"w{seed}", context=ph.key))
        engine += time.perf_counter() - t1
        bots += t1 - t0
        windows += 1
        state = steps[-1].after
    return engine, bots, windows


def bench_war(games: int) -> None:
    try:
        game = registry.get("pax_britannica")
    except KeyError as exc:
        print(f"war: skipped ({exc})")
        return
    runs = sorted(war_turn(game, g) for g in range(games))
    engine = [r[0] for r in runs]
    print(f"war: a turn with a war among 7 powers over {games} games: engine median "
          f"{1000 * engine[len(engine) // 2]:.1f} ms, max {1000 * engine[-1]:.1f} ms "
          f"(target under 100 ms); bots and parsing median "
          f"{1000 * sorted(r[1] for r in runs)[len(runs) // 2]:.1f} ms; "
          f"{sum(r[2] for r in runs) / len(runs):.1f} windows a turn")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mails", type=int, default=300)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--only", choices=("intake", "phases", "war"), default=None,
                    help="run one benchmark (time without tracemalloc's overhead)")
    ap.add_argument("--memory", action="store_true", help="trace allocations (slows everything down)")
    args = ap.parse_args()
    if args.memory:
        tracemalloc.start()
    if args.only in (None, "intake"):
        bench_intake(args.mails)
        bench_oversized()
    if args.only in (None, "phases"):
        bench_phases(args.games)
    if args.only in (None, "war"):
        bench_war(max(args.games, 5))
    if not args.memory:
        maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(f"memory: max resident {maxrss / 1024:.1f} MiB (--memory for peak traced allocation)")
        return
    _, peak = tracemalloc.get_traced_memory()
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"memory: peak traced {peak / 2**20:.1f} MiB, max resident {maxrss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
