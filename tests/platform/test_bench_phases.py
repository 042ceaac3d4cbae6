"""The short version of bench/phases.py: one bot game of one round through the
moderator, every phase also replayed by the engine alone (figures, no timing)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _bench(name: str):
    """A script of bench/ (a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


phases = _bench("phases")


def test_a_short_bot_game_is_measured_phase_by_phase():
    played = phases.play("eu_tpop", seed=0, rounds=1, war_turn=None)
    assert played.engine and played.moderator
    assert sum(len(v) for v in played.engine.values()) >= sum(len(v) for v in played.moderator.values())
    assert played.db_bytes > 0 and played.whole >= played.engine_whole > 0


def test_the_war_turn_benchmark_plays_a_war_through_its_windows():
    """The short version of bench/war_turn.py: one turn with a war among seven powers
    runs through the War Sequence's windows to the next Movement Phase."""
    from pbem.base import registry

    engine, bots, windows = _bench("war_turn").war_turn(registry.get("pax_britannica"), 0)
    assert windows >= 5 and engine > 0 and bots > 0
