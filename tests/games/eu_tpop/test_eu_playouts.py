"""Random bot games of Europa Universalis: The Price of Power on the sample
scenario: every game ends, and after every step no invariant is broken (no
negative manpower or ducats, units only where they may be, no declaration
through a truce, every war between realms that exist).  The long run (200
games) is bench/eu_playouts.py."""
from __future__ import annotations

import pytest

from games.eu_tpop.selfplay import broken, play


@pytest.mark.parametrize("seed", range(12))
def test_a_random_game_keeps_every_invariant(seed):
    summary = play(seed, "1.2" if seed % 2 else "pre-1.2")
    assert summary["broken"] == []
    assert summary["results"] and summary["steps"] > 10


def test_random_games_fight_besiege_and_make_peace():
    totals = {"battles": 0, "sieges": 0, "peaces": 0}
    for seed in range(100, 106):
        summary = play(seed)
        for key in totals:
            totals[key] += summary[key]
    assert all(n > 0 for n in totals.values()), totals


def test_the_invariants_catch_what_they_are_for():
    state = {"realms": {"A": {"manpower": -1, "ducats": 0, "exhausted": 0, "allied": 0}},
             "units": {"Sea": {"A": {"inf": 1}}}, "areas": {}, "seas": {"Sea": {}}, "provinces": {},
             "wars": [], "truces": []}
    found = broken(state, {"truces": ["A|B"]}, [{"kind": "war", "aggressor": "A", "target": "B"}])
    assert any("negative manpower" in f for f in found)
    assert any("land units at sea" in f for f in found)
    assert any("during a truce" in f for f in found)
