"""Every phase of a Pax Britannica turn has its own label (a GM names it in GM ROLLBACK as
HISTORY prints it) and a short label for a mail's subject (28 characters at most)."""
from __future__ import annotations

import random

import pytest

from games.pax_britannica import GAME
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases

SIDES = (["Britain", "France", "United States"], ["Germany", "Netherlands", "Spain"])
EDITS = ["SET WAR " + " ".join(f'"{p}"' for p in SIDES[0]) + " VS " + " ".join(f'"{p}"' for p in SIDES[1]),
         "SET MARKER Germany protectorate Kamerun", "SET ARMY Germany 10 Kamerun",
         "SET MARKER France protectorate Gabon", "SET ARMY France 10 Gabon",
         "SET MARKER Britain protectorate Nigeria", "SET ARMY Britain 10 Nigeria"]


def _war_phases(seed: int) -> list:
    """Every phase a war turn opens, from the War Phase to the next Movement Phase, bots playing."""
    rng = random.Random(seed)
    players = ["Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy"]
    state = GAME.setup(players, {"setup": "1880"}, SeededDice(seed=f"l{seed}", context="setup"))
    state = dict(state, phase="war")
    for text in EDITS:
        state, _ = GAME.gm_command(state, text, SeededDice(seed=f"l{seed}", context="gm"))
    seen, turn = [], state["turn"]
    while not GAME.is_over(state) and (state["phase"] != "movement" or state["turn"] == turn):
        phase = GAME.phase(state)
        orders = {p: GAME.parse_orders(state, p, list(enumerate(GAME.bot_orders(state, p, rng), 1))).orders
                  for p in phase.owes}
        steps = run_phases(GAME, state, orders, lambda ph: SeededDice(seed=f"l{seed}", context=ph.key))
        seen += [s.phase for s in steps]
        state = steps[-1].after
    return seen


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_war_phase_has_its_own_label_and_a_short_one(seed):
    phases = _war_phases(seed)
    labels = {}
    for phase in phases:
        labels.setdefault(phase.label, set()).add(phase.key)
    assert {label: keys for label, keys in labels.items() if len(keys) > 1} == {}
    war = [p for p in phases if p.name.startswith("war")]
    assert len({p.name for p in war}) >= 5
    assert all(p.short and len(p.short) <= 28 for p in war), [p.short for p in war]
    assert any(p.short.endswith("Attack 1") for p in war), [p.short for p in war]


def test_a_congress_step_has_a_short_label():
    state = GAME.setup(["Britain", "France", "Germany", "Russia"], {"setup": "empty"}, None)
    at = GAME.set_phase(state, "congress", 1900, "Vote")
    info = GAME.phase(at)
    assert info.label.startswith("1900 Congress of Europe in ") and info.label.endswith("(votes, round 1)")
    assert info.short == "1900 Congress: votes 1"


@pytest.mark.parametrize("step", ["Attend", "Propose", "Vote", "Sign", "Decide"])
def test_every_congress_step_has_a_short_label_of_28_characters_at_most(step):
    state = GAME.setup(["Britain", "France", "Germany", "Russia"], {"setup": "empty"}, None)
    at = GAME.set_phase(state, "congress", 1900, step)
    at["congress"]["round"] = 12
    assert len(GAME.phase(at).short) <= 28 and GAME.phase(at).short.startswith("1900 Congress")
