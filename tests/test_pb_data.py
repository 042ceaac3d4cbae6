"""Checks of the Pax Britannica map and tables (games/pax_britannica/data) against the rules.

Rules: THE MAP (104 Areas, 12 Sea Zones, Home Countries, Cape Zones) and the tables named there.
"""
from __future__ import annotations

from collections import deque

import pytest

from games.pax_britannica import mapdata


@pytest.fixture(scope="module")
def data() -> mapdata.Data:
    return mapdata.load()


def test_counts(data):
    # Rules: THE MAP - 104 Areas, 12 Sea Zones; PLAYING PIECES - 12 sets of pieces (12 powers).
    assert len(data.areas) == 104
    assert len(data.seas) == 12
    assert len(data.homes) == 12
    assert len(data.powers) == 12
    assert set(data.capes) == {"Cape of Good Hope", "Cape Horn"}


def test_overland_routes_are_symmetric(data):
    for place in [*data.areas, *(h.name for h in data.homes.values())]:
        for other in data.overland(place):
            assert place in data.overland(other), (place, other)


def test_sea_links_are_symmetric(data):
    for sea in data.seas.values():
        for other in sea.adjacent:
            assert sea.name in data.seas[other].adjacent, (sea.name, other)


def test_every_coast_is_listed_back_by_its_sea(data):
    for place in [*data.areas, *(h.name for h in data.homes.values())]:
        for sea in data.coasts(place):
            assert place in data.coastal_places(sea)


def test_every_area_is_reachable_by_land_or_sea(data):
    start = data.homes["Britain"].name
    seen, todo = {start}, deque([start])
    while todo:
        here = todo.popleft()
        if here in data.seas:
            nxt = set(data.seas[here].adjacent) | data.coastal_places(here)
        else:
            nxt = set(data.overland(here)) | set(data.coasts(here))
        for n in nxt - seen:
            seen.add(n)
            todo.append(n)
    assert set(data.areas) <= seen
    assert set(data.seas) <= seen


@pytest.mark.parametrize("text, name", [
    ("north atlantic", "North Atlantic Ocean"), ("NORTH ATLANTIC OCEAN", "North Atlantic Ocean"),
    ("Porto Rico", "Porto Rico"), ("Puerto Rico", "Porto Rico"), ("Morocco", "Marocco"),
    ("Congo", "Kongo"), ("Kongo", "Kongo"), ("Sudan", "Soudan"), ("Hindustan", "Hindoostan"),
    ("Brazil", "Brasil"), ("South West Africa", "Sudwest Afrika"),
    ("Kaiser Wilhelms Land", "Kaiser Wilhelm's Land"), ("shan tung", "Shan-Tung"),
    ("Sin Kiang", "Sin-Kiang"), ("caribbean", "Caribbean Sea"), ("Horn", "Cape Horn"),
])
def test_place_names_resolve(data, text, name):
    assert data.resolve_place(text) == name


def test_home_resolves_for_the_power(data):
    assert data.resolve_place("HOME", "United States") == "United States"
    assert data.resolve_place("England") == "Britain"
    assert data.home_of("Britain") == "Britain"
    assert data.home_of("Egypt") is None


@pytest.mark.parametrize("text, power", [
    ("GB", "Britain"), ("UK", "Britain"), ("England", "Britain"), ("British", "Britain"),
    ("US", "United States"), ("USA", "United States"), ("America", "United States"),
    ("American", "United States"), ("A-H", "Austria-Hungary"), ("Austria", "Austria-Hungary"),
    ("Austrian", "Austria-Hungary"), ("Austro-Hungarian", "Austria-Hungary"),
    ("French", "France"), ("German", "Germany"), ("Japanese", "Japan"), ("Russian", "Russia"),
    ("Italian", "Italy"), ("Dutch", "Netherlands"), ("Holland", "Netherlands"),
    ("Belgian", "Belgium"), ("Spanish", "Spain"), ("Portuguese", "Portugal"),
])
def test_power_names_resolve(data, text, power):
    assert data.resolve_power(text) == power


def test_suggest_finds_near_misses(data):
    assert data.suggest("Manchurai") == "Manchuria"
    assert data.suggest("Abysinia") == "Abyssinia"
    assert data.resolve_place("Manchurai") is None
