"""The game's options, each with its default and what it does (OPTION <name>=<value> when a game
is created, SET OPTION during play)."""
from __future__ import annotations

from typing import Any

from .state import LAST_TURN


def options() -> dict[str, tuple[Any, str]]:
    return {
        "setup": ("1880", "1880 (the historical start) or empty (a bare board)"),
        "data": (None, "a GM data file (TOML) overriding any table, read once when the game is "
                 "created; see data/DATA.md"),
        "marker_conflicts": ("marker_adjustment", "where marker conflicts are settled: "
                             "marker_adjustment or negotiation"),
        "garrison_eti": (True, "garrison reductions raise European Tensions"),
        "cri_per_turn_vassals": (False, "per-turn Chinese Resentment counts Chinese Vassals too"),
        "treaty_vp": (None, "VP per revealed treaty in force each turn (the rules give no number)"),
        "canal_needs_established": (True, "canal builders need an established marker"),
        "last_turn": (LAST_TURN, "the last Game Turn (1880, 1884, ... 1916); an earlier one makes a "
                      "shorter game, scored at its Final Record as at the end"),
        "congress_rounds": (3, "rounds of proposals and votes before a Congress of Europe fails"),
    }
