"""The Pax Britannica map: every place has coordinates, the drawing is valid,
stable from turn to turn and shows what the board holds."""
from __future__ import annotations

import copy
import json
import math
import re
import xml.etree.ElementTree as ET

import pytest

from games.pax_britannica import GAME, load_data
from games.pax_britannica.report import mapdraw, mapsheet, mapview
from pbem.kit.dice import SeededDice

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ["Britain", "France", "Germany", "United States", "Russia"]


@pytest.fixture(scope="module")
def start():
    return GAME.setup(PLAYERS, {}, SeededDice("seed", "setup"))


def test_every_place_has_coordinates_and_nothing_else_does():
    data = load_data()
    places = data.raw["places"]
    assert set(places["areas"]) == set(data.areas)
    assert set(places["homes"]) == set(data.homes)
    assert set(places["seas"]) == set(data.seas)
    assert set(places["capes"]) == set(data.capes)
    for name, (lat, lon) in places["areas"].items():
        assert -58 <= lat <= 72 and -180 <= lon <= 180, name


def test_places_sit_on_the_map_and_no_two_dots_overlap():
    data = load_data()
    pts = mapdraw.points(data)
    assert len(pts) == len(data.areas) + len(data.homes)
    for name, (x, y) in pts.items():
        assert 0 < x < mapdraw.WIDTH and mapdraw.MARGIN_TOP < y < mapdraw.MAP_HEIGHT, name
    names = sorted(pts)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert math.dist(pts[a], pts[b]) >= 2 * mapdraw.DOT, f"{a} and {b} overlap"


def test_places_keep_their_geography():
    """A few facts any atlas shows: the coordinates are real places, not a layout."""
    pts = mapdraw.points(load_data())
    assert pts["Alaska"][0] < pts["Canada"][0] < pts["Britain"][0] < pts["Russia"][0] < pts["Japan"][0]
    assert pts["Egypt"][1] < pts["Kenya"][1] < pts["Cape Colony"][1]
    assert pts["Manchuria"][1] < pts["Hong Kong"][1] < pts["Federated Malay States"][1] < pts["Australia"][1]


def test_the_map_is_valid_svg_with_a_title_a_description_and_a_legend(start):
    drawing = GAME.map_svg(start, None)
    root = ET.fromstring(drawing)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    title = root.find(f"{SVG}title").text
    assert title == "Pax Britannica, at the start of 1880 Random Events"
    desc = root.find(f"{SVG}desc").text
    assert "104 Areas, 12 Home Countries and 12 Sea Zones" in desc
    assert "Guiana: Britain Possession, France Possession, Netherlands Possession" in desc
    assert root.get("aria-labelledby") == "pb-map-title pb-map-desc"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for name in ("Abyssinia", "Kaiser Wilhelm's Land", "North Atlantic Ocean", "Britain"):
        assert name in texts
    assert "Powers:" in texts and "Interest" in texts and "Unrest" in texts


def test_a_codominion_is_split_between_its_controllers(start):
    root = ET.fromstring(GAME.map_svg(start, None))
    guiana = next(g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}title") is not None
                  and g.find(f"{SVG}title").text.startswith("Guiana:"))
    wedges = [p.get("fill") for p in guiana.findall(f"{SVG}path")]
    assert wedges == [mapdraw.colour(p)[0] for p in ("Britain", "France", "Netherlands")]


def test_markers_units_unrest_cb_merchants_navies_and_canals_are_drawn(start):
    state = copy.deepcopy(start)
    state["unrest"] = ["Abyssinia"]
    state["cb"] = [{"holder": "France", "against": "Britain", "area": "Egypt", "reason": "test", "once": False}]
    state["markers"]["Siam"] = {"Russia": {"status": "influence", "established": True},
                                "France": {"status": "interest", "established": False}}
    state["canals"] = ["Panama"]
    view = mapview.board_view(state, load_data())
    assert view["areas"]["Siam"]["markers"][0] == {"power": "Russia", "status": "influence", "established": True}
    drawing = GAME.map_svg(state, None)
    root = ET.fromstring(drawing)
    tags = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "tag"]
    assert "Ru Inf" in tags and "Fr Int" in tags and "CB Fr>Br" in tags and "Unrest" in tags
    assert "Br Dom" in tags  # Canada
    assert any(re.fullmatch(r"Br A\d+", t) for t in tags) and any(re.fullmatch(r"Br N\d+", t) for t in tags)
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "Canal in Panama: Caribbean Sea - South Pacific Ocean" in titles
    assert "Canal in Central America: Caribbean Sea - South Pacific Ocean" not in titles
    assert any(t.startswith("North Atlantic Ocean: merchant fleets of Belgium, Britain") for t in titles)
    lines = GAME.map_text(state, None)
    assert "Abyssinia: no markers; in Unrest" in lines
    assert "Egypt: no markers; Casus Belli: France against Britain" in lines
    assert "Siam: Russia Influence, France Interest (new)" in lines
    assert "Canal in Panama (Caribbean Sea - South Pacific Ocean): open" in lines


def test_labels_stay_put_from_turn_to_turn(start):
    def positions(state):
        root = ET.fromstring(GAME.map_svg(state, None))
        return {t.text: (t.get("x"), t.get("y")) for t in root.iter(f"{SVG}text") if t.get("class") == "name"}

    later = copy.deepcopy(start)
    later["turn"], later["phase"] = 1900, "movement"
    assert positions(start) == positions(later)
    # a name moves only while the tags around it need the room (test_pb_map_labels.py)
    moved = copy.deepcopy(start)
    moved["markers"]["Siam"] = {"France": {"status": "interest", "established": False}}
    changed = {n for n, at in positions(moved).items() if positions(start)[n] != at}
    pts = mapdraw.points(load_data())
    assert changed and all(math.dist(pts[n], pts["Siam"]) < 150 for n in changed), changed


def test_the_same_position_draws_the_same_bytes_and_the_state_is_untouched(start):
    before = json.dumps(start, sort_keys=True)
    assert GAME.map_svg(start, "France") == GAME.map_svg(copy.deepcopy(start), "France")
    assert json.dumps(start, sort_keys=True) == before


def test_a_power_map_rings_its_own_places(start):
    public = GAME.map_svg(start, None)
    germany = GAME.map_svg(start, "Germany")
    assert f'fill="{mapdraw.YOU}"' not in public
    assert germany.count(f'fill="{mapdraw.YOU}"') > 2
    assert "where Austria-Hungary and Germany have a marker or an army" in germany
    assert "Pax Britannica, at the start of 1880 Random Events: the map for Germany" in germany


def test_charts_keep_treasuries_for_the_end(start):
    playing = GAME.charts(start)
    assert set(playing) == {"Victory Points", "European Tensions and Chinese Resentment"}
    assert set(playing["Victory Points"]) == set(PLAYERS)
    assert "Treasury (£)" in GAME.charts(start, final=True)


def test_each_reader_map_is_the_one_drawn_fresh_and_a_changed_board_is_drawn_again(start):
    """The board every reader shares is drawn once (mapdraw keeps it); each reader's map
    must still be exactly the map drawn from nothing for that reader."""
    readers = [None, "Germany", "France", "Britain"]
    kept = [GAME.map_svg(start, p) for p in readers]
    fresh = []
    for p in readers:
        mapsheet._SHARED.clear()
        fresh.append(GAME.map_svg(start, p))
    assert kept == fresh
    assert len(set(kept)) == len(readers)
    moved = copy.deepcopy(start)
    moved["markers"] = {}
    redrawn = GAME.map_svg(moved, "Germany")
    assert redrawn != kept[1]
    mapsheet._SHARED.clear()
    assert redrawn == GAME.map_svg(moved, "Germany")


def test_a_phase_that_moves_nothing_shares_the_board_drawing_and_each_map_is_still_its_own(start, monkeypatch):
    """The board view's turn and phase are not drawn (only the title says when): a later phase
    on the same board reuses the drawing, and its map is still exactly the map drawn fresh."""
    mapsheet._SHARED.clear()
    GAME.map_svg(start, None)
    later = dict(start, turn=start["turn"] + 1, phase="war")
    drawn = []
    real = mapsheet._draw_shared
    monkeypatch.setattr(mapsheet, "_draw_shared", lambda *a: drawn.append(1) or real(*a))
    kept = GAME.map_svg(later, None)
    assert drawn == []
    assert f"at the start of {start['turn'] + 1} " in kept
    mapsheet._SHARED.clear()
    assert kept == GAME.map_svg(later, None)
