"""No label of the Pax Britannica map covers another place's label, tags or node, on a
busy board: a bot game's late position and a hand-built one with an army in every place
and every Sea Zone full.  Read from the SVG with the widths the drawing estimates."""
from __future__ import annotations

import copy
import random

import pytest

from helpers_bots import lawful_bot_orders
from helpers_labels import collisions

from games.pax_britannica import GAME, load_data
from games.pax_britannica.report import mapdraw, mapfont, maplabels
from games.pax_britannica.report.mapview import board_view as view
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases

SIZES = {"name": (maplabels.NAME_SIZE, False), "tag": (maplabels.TAG_SIZE, True), "sea": (maplabels.SEA_SIZE, False),
         "head": (15.0, True), "small": (10.0, False)}
MAP = (0.0, 0.0, float(mapdraw.WIDTH), float(mapdraw.MAP_HEIGHT))


def measure(words, classes, el):
    size, bold = SIZES.get(classes[0] if classes else "", (10.0, False))
    return mapfont.width(words, size, bold or el.get("font-weight") == "bold"), size


def overlaps(state, reader=None) -> list[str]:
    return collisions(GAME.map_svg(state, reader), measure, MAP)


@pytest.fixture(scope="module")
def start():
    players, _ = GAME.demo_setup()
    return GAME.setup(players, {}, SeededDice("labels", "setup"))


@pytest.fixture(scope="module")
def late():
    """Seven bots six turns into a game: the position before the final record."""
    players, options = GAME.demo_setup(6)
    state = GAME.setup(players, options, SeededDice("labels", "setup"))
    rng = random.Random(5)
    last = state
    while not GAME.is_over(state):
        orders = lawful_bot_orders(GAME, state, rng)
        for step in run_phases(GAME, state, orders, lambda ph: SeededDice(seed="labels", context=ph.key)):
            state = step.after
            if not GAME.is_over(state):
                last = state
    return last


def crowded(start) -> dict:
    """Every Area with a marker and an army, every Home Country with two armies, every Sea
    Zone with seven merchant fleets and three navies, Unrest in every third Area, a Casus
    Belli in every fourth, the Panama canal built."""
    state = copy.deepcopy(start)
    data = load_data(state)
    powers = list(data.homes)
    areas = sorted(data.areas)
    units = []

    def unit(power, kind, strength, where, sea=None):
        units.append({"id": 1000 + len(units), "power": power, "type": kind, "strength": strength,
                      "where": where, "sea": sea})
    for i, area in enumerate(areas):
        power = powers[i % len(powers)]
        state["markers"][area] = {power: {"status": "possession", "established": True}}
        unit(power, "army", 10 + i % 30, area)
    for i, (power, home) in enumerate(sorted(data.homes.items())):
        unit(power, "army", 40, home.name)
        unit(powers[(i + 1) % len(powers)], "army", 12, home.name)
    for i, sea in enumerate(sorted(data.seas)):
        for k in range(3):
            unit(powers[(i + k) % len(powers)], "navy", 12, powers[(i + k) % len(powers)], sea)
        state["merchants"][sea] = powers[:7]
    state["units"] = units
    state["unrest"] = areas[::3]
    state["cb"] = [{"holder": powers[i % 7], "against": powers[(i + 1) % 7], "area": a, "reason": "test",
                    "once": False} for i, a in enumerate(areas[::4])]
    state["canals"] = ["Panama"]
    return state


def test_the_check_finds_the_collisions_players_saw():
    """The map as it was drawn: Tunis' dot on "Mediterranean Sea", Austria-Hungary's
    army over Rumania."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg">'
           '<g class="area"><title>Tunis: no markers</title><circle cx="676" cy="287" r="6"/>'
           '<text x="684" y="290" class="name">Tunis</text></g>'
           '<g class="seazone"><title>Mediterranean Sea: no merchant fleets</title>'
           '<text x="738" y="293" class="sea" text-anchor="middle">Mediterranean Sea</text></g>'
           '<g class="home"><title>Austria-Hungary (Home Country of Austria-Hungary)</title>'
           '<text x="996" y="186" class="name" font-weight="bold">Austria-Hungary</text>'
           '<rect x="996" y="190.5" width="31" height="10.5"/><text x="998.5" y="198" class="tag">AH A40</text></g>'
           '<g class="area"><title>Rumania: no markers</title><circle cx="1016" cy="203" r="6"/>'
           '<text x="1024" y="206" class="name">Rumania</text></g></svg>')
    found = collisions(svg, measure)
    assert "Austria-Hungary (Home Country of Austria-Hungary): 'AH A40' over Rumania: 'a node'" in found
    assert "Austria-Hungary (Home Country of Austria-Hungary): 'AH A40' over Rumania: 'Rumania'" in found
    assert any(f.startswith("Mediterranean Sea") and f.endswith("Tunis: 'Tunis'") for f in found)
    assert collisions(svg.replace('x="738"', 'x="800"').replace('cy="203"', 'cy="230"')
                      .replace('y="206"', 'y="233"'), measure) == []


def test_no_label_covers_another_at_the_start(start):
    assert overlaps(start) == []
    assert overlaps(start, "Germany") == []


def test_no_label_covers_another_late_in_a_bots_game(late):
    assert sum(len(a) for a in late["markers"].values()) > 60 and len(late["units"]) > 40
    assert overlaps(late) == []
    assert overlaps(late, "Britain") == []


def test_no_label_covers_another_with_an_army_everywhere(start):
    state = crowded(start)
    assert overlaps(state) == []
    assert overlaps(state, "France") == []


def test_the_check_sees_every_tag_and_the_map_keeps_inside_its_frame(start):
    state = crowded(start)
    drawing = GAME.map_svg(state, None)
    assert drawing.count('class="tag"') > 3 * len(load_data(state).areas)
    assert collisions(drawing, measure, (0.0, 0.0, 1200.0, mapdraw.MAP_HEIGHT))  # the frame is looked at


def test_names_keep_their_side_of_the_dot_on_a_quiet_board(start):
    """A name is where it was on the empty board unless the tags around it need the room."""
    data = load_data(start)
    sides = mapdraw.home_sides(data)
    empty = copy.deepcopy(start)
    empty["markers"], empty["units"], empty["merchants"] = {}, [], {}
    placed, _ = mapdraw.labels(view(empty, data), data)
    assert {n: lab.side for n, lab in placed.items()} == sides
    at_start, _ = mapdraw.labels(view(start, data), data)
    kept = sum(at_start[n].side == sides[n] and at_start[n].leader is None for n in sides)
    assert kept >= 0.75 * len(sides), kept
