"""The short version of bench/phases.py: one bot game of one round through the
moderator, every phase also replayed by the engine alone (figures, no timing)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


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
