"""The time to resolve a Pax Britannica turn whose War Phase holds one war among
seven powers (every window of the War Sequence with bot orders, up to the next
Movement Phase): the engine's time, and the bots' and parsing time apart.
Prints figures, asserts nothing.  Time only: run it without tracing.

    .venv/bin/python bench/war_turn.py [--games 5]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.base import registry  # noqa: E402
from pbem.kit.dice import SeededDice  # noqa: E402
from pbem.kit.engine import run_phases  # noqa: E402


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
    ap.add_argument("--games", type=int, default=5)
    bench_war(ap.parse_args().games)


if __name__ == "__main__":
    main()
