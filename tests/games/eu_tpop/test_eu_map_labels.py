"""No label of a Europa Universalis map covers another place's card, label or node: the
same check as Pax Britannica's map (tests/helpers_labels.py), on every shipped scenario, at
the start and late in a game of bots."""
from __future__ import annotations

import random
import sys
from helpers_bots import lawful_bot_orders
from pathlib import Path

import pytest

from helpers_labels import collisions

from games.eu_tpop import GAME, mapdraw
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = Path(__file__).resolve().parents[3] / "games" / "eu_tpop" / "data"
SCENARIOS = sorted(p for p in DATA.glob("*.toml") if "scenario" in tomllib.loads(p.read_text(encoding="utf-8")))


def measure(words, classes, el):
    size = mapdraw.HEAD if "head" in classes else 12.0 if "small" in classes else mapdraw.FONT
    return mapdraw.text_width(words, size, bold="head" in classes or "war" in classes), size


def setup(path: Path, dice):
    text = path.read_text(encoding="utf-8")
    realms = [r for r, d in tomllib.loads(text)["realms"].items() if d.get("kind") == "PR"]
    return GAME.setup(realms, {"data": {"name": path.name, "sha256": "-", "text": text}}, dice)


def late(state, steps: int = 60):
    """The position after ``steps`` phases of a game of bots (or its last before the end)."""
    rng = random.Random(7)
    drawn = 0
    while not GAME.is_over(state) and drawn < steps:
        orders = lawful_bot_orders(GAME, state, rng)
        for step in run_phases(GAME, state, orders, lambda ph: SeededDice(seed="labels", context=ph.key)):
            if GAME.is_over(step.after):
                return state
            state = step.after
            drawn += 1
    return state


def test_there_is_a_shipped_scenario():
    assert [p.name for p in SCENARIOS] == ["sample.toml"]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_no_label_covers_another_at_the_start_and_late_in_a_game(path):
    start = setup(path, SeededDice(seed="labels", context="setup"))
    assert collisions(GAME.map_svg(start, None), measure) == []
    busy = late(start)
    assert busy["wars"] or busy.get("truces"), "the bots' game has seen no war"
    for reader in (None, GAME.phase(busy).owes[0] if GAME.phase(busy).owes else None):
        drawing = GAME.map_svg(busy, reader)
        assert drawing.count("<g>") >= len(busy["areas"])
        assert collisions(drawing, measure) == []


def test_the_check_sees_a_card_over_another():
    drawing = ('<svg xmlns="http://www.w3.org/2000/svg"><g><rect x="0" y="0" width="200" height="80"/>'
               '<text x="8" y="22" class="head">Valmont</text></g><g><rect x="190" y="40" width="200" height="80"/>'
               '<text x="198" y="62" class="head">Corvia</text></g></svg>')
    assert collisions(drawing, measure) == ["Valmont: 'a box' over Corvia: 'Corvia'",
                                            "Valmont: 'a box' over Corvia: 'a box'"]
    assert collisions(drawing.replace('x="190"', 'x="215"').replace('x="198"', 'x="223"'), measure) == []
