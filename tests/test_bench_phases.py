"""The short version of bench/phases.py: one bot game of one round through the
moderator, every phase also replayed by the engine alone (figures, no timing)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import phases  # noqa: E402


def test_a_short_bot_game_is_measured_phase_by_phase():
    played = phases.play("eu_tpop", seed=0, rounds=1, war_turn=None)
    assert played.engine and played.moderator
    assert sum(len(v) for v in played.engine.values()) >= sum(len(v) for v in played.moderator.values())
    assert played.db_bytes > 0 and played.whole >= played.engine_whole > 0
