"""Checks of the Pax Britannica map and tables (games/pax_britannica/data) against the rules.

Rules: THE MAP (104 Areas, 12 Sea Zones, Home Countries, Cape Zones) and the tables named there.
"""
from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from games.pax_britannica.core import mapdata
from pbem.kit.names import key


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


# -- names the rules text uses ---------------------------------------------------------------
RULES_TEXT = Path("/work/shared/rules/004_2f772e21e74578e2.txt")

# Compiled by hand from the rules text: every Area, Sea Zone, Cape Zone and power it names.
RULES_AREAS = [
    "Aden", "Alaska", "Algiers", "Anatolia", "Ashantee", "Australia", "Berbera", "Bulgaria",
    "Canada", "Cape Colony", "Central America", "Cuba", "Dutch East Indies", "Egypt", "Eritrea",
    "Fiji", "Formosa", "Greece", "Guiana", "Hawaii", "Hong Kong", "Kenya", "Kongo", "Korea",
    "Manchuria", "Marocco", "Mauretania", "Mexico", "Mozambique", "New Hebrides", "New Zealand",
    "Panama", "Philippines", "Port Arthur", "Porto Rico", "Quwait", "Rio de Oro", "Rumania",
    "Senegambia", "Serbia", "Shan-Tung", "Somalia", "Soudan", "Sudwest Afrika", "Taureg",
    "Tripoli", "Tunis"]
RULES_SEAS = {
    "North Atlantic": "North Atlantic Ocean", "South Atlantic": "South Atlantic Ocean",
    "Caribbean": "Caribbean Sea", "Mediterranean Sea": "Mediterranean Sea",
    "Baltic Sea": "Baltic Sea", "Black Sea": "Black Sea", "Indian Ocean": "Indian Ocean",
    "South Pacific": "South Pacific Ocean", "North Pacific": "North Pacific Ocean",
    "Oceania": "Oceania", "South China Sea": "South China Sea",
    "Cape of Good Hope": "Cape of Good Hope",
    "Cape Horn": "Cape Horn"}
RULES_POWERS = {
    "Great Britain": "Britain", "France": "France", "Germany": "Germany",
    "Austria-Hungary": "Austria-Hungary", "United States": "United States", "Japan": "Japan",
    "Russia": "Russia", "Italy": "Italy", "Netherlands": "Netherlands", "Belgium": "Belgium",
    "Spain": "Spain", "Portugal": "Portugal", "America": "United States",
    "Austrian": "Austria-Hungary", "Russian": "Russia", "Japanese": "Japan",
    "German": "Germany", "British": "Britain", "French": "France"}


def _rules_text() -> str:
    return RULES_TEXT.read_text(encoding="utf-8", errors="replace") if RULES_TEXT.exists() else ""


def test_rules_area_names_resolve_to_themselves(data):
    text = _rules_text()
    for name in RULES_AREAS:
        if text:
            assert name in text, f"{name} is not in the rules text"
        assert data.resolve_area(name) == name


def test_rules_sea_and_power_names_resolve(data):
    text = _rules_text()
    for written, sea in RULES_SEAS.items():
        if text:
            assert written in text, written
        assert data.resolve_place(written) == sea
    for written, power in RULES_POWERS.items():
        if text:
            assert written in text, written
        assert data.resolve_power(written) == power


# -- the decisions on the transcription's known problems ---------------------------------------

def test_decision_new_zealand_and_fiji_coasts(data):
    # Rules: THE MAP - note: New Zealand, not Fiji, touches the South Pacific as well as Oceania.
    assert data.areas["New Zealand"].seas == {"South Pacific Ocean", "Oceania"}
    assert data.areas["Fiji"].seas == {"Oceania"}


def test_decision_central_america_coasts(data):
    # Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS - a canal there joins these two seas.
    assert data.areas["Central America"].seas == {"Caribbean Sea", "South Pacific Ocean"}
    assert data.areas["Panama"].seas == {"Caribbean Sea", "South Pacific Ocean"}
    assert "Central America" not in data.coastal_places("South Atlantic Ocean")


def test_decision_guiana_ev_is_the_errata_value(data):
    # Rules: THE MAP - note: Guiana's base economic value is changed to 4.
    assert data.areas["Guiana"].ev == 4


def test_decision_canals_and_capes(data):
    # Rules: CANALS AND STRAITS - Caribbean and South Pacific join only through a canal.
    assert "South Pacific Ocean" not in data.sea_neighbours("Caribbean Sea")
    assert "South Pacific Ocean" in data.sea_neighbours("Caribbean Sea", canal=True)
    # Rules: Cape Zones - in War no direct move South Atlantic <-> South Pacific / Indian Ocean.
    peace = data.sea_neighbours("South Atlantic Ocean")
    war = data.sea_neighbours("South Atlantic Ocean", war=True)
    assert {"Indian Ocean", "South Pacific Ocean"} <= peace
    assert not {"Indian Ocean", "South Pacific Ocean"} & war
    assert {"Cape of Good Hope", "Cape Horn"} <= war
    assert data.sea_neighbours("Cape Horn", war=True) == {"South Atlantic Ocean",
                                                          "South Pacific Ocean"}
    assert data.sea_neighbours("Cape Horn") == frozenset()
    assert "Indian Ocean" in data.sea_neighbours("Mediterranean Sea", war=True)


def test_decision_no_routes_between_european_homes(data):
    # Rules: Home Countries and Home Areas - nobody may enter another player's Home Country.
    homes = {h.name for h in data.homes.values()}
    europe = homes - {"United States", "Japan", "Russia"}
    for name in europe:
        assert not data.overland(name) & homes


def test_areas_touching_two_unconnected_seas(data):
    # Rules: THE MAP - Canada and Mexico touch two unconnected Sea Zones.
    for area in ("Canada", "Mexico"):
        a, b = sorted(data.areas[area].seas)
        assert b not in data.seas[a].adjacent


# -- tables -----------------------------------------------------------------------------------

def test_crt_columns_complete_and_results_valid(data):
    # Rules: COLONIAL COMBAT RESOLUTION - two tables, one die, nine ratio columns.
    assert data.crt_columns == mapdata.CRT_COLUMNS
    assert set(data.crt) == {1, 2}
    for table in data.crt.values():
        assert set(table) == set(data.crt_columns)
        for results in table.values():
            assert len(results) == 6
            assert set(results) <= set(mapdata.CRT_RESULTS)
    assert data.crt[1]["1:10"][0] == "E" and data.crt[1]["10:1"][5] == "DE"
    assert "HALF_EX" not in {r for col in data.crt[1].values() for r in col}


def test_crt_table2_1to2_kept_as_found(data):
    # Known problem 7: kept as the source gives it (not monotonic), overridable.
    assert data.crt[2]["1:2"] == ("E", "E", "AR", "AR", "EX", "EX")


def test_unrest_table_sizes(data):
    # Rules: UNREST (tables A-D, one or two dice); sizes as the transcription gives them.
    sizes = {k: (len(t.entries), len(set(t.entries.values())), t.dice_needed())
             for k, t in data.unrest_tables.items()}
    assert sizes == {"A": (36, 36, 2), "B": (6, 6, 1), "C": (36, 36, 2), "D": (36, 18, 2)}
    d = data.unrest_tables["D"]
    assert all(d.entries[f"{a}-{b}"] == d.entries[f"{a}-{b + 1}"]
               for a in range(1, 7) for b in (1, 3, 5))
    assert data.unrest_tables["B"].pick([3, 6]) == "Egypt"
    assert data.unrest_tables["A"].pick([1, 1]) == "Aden"


def test_unrest_tables_coverage_as_transcribed(data):
    # Known problem 2: kept as transcribed, recorded in DATA.md.
    on = {}
    for t in data.unrest_tables.values():
        for area in set(t.entries.values()):
            on.setdefault(area, []).append(t.letter)
    assert sorted(a for a, ls in on.items() if len(ls) > 1) == ["Mozambique", "Transvaal"]
    assert set(data.areas) - set(on) == {
        "Alaska", "Algiers", "Bismarck Archipelago", "Fiji", "Hong Kong", "New Hebrides",
        "Orange River Free State", "Rio de Oro", "Senegambia", "Uganda"}


def test_random_events_table(data):
    # Rules: DETERMINING RANDOM EVENTS / HEADLINE EVENTS - 36 rolls, named events at their rolls.
    assert len(data.random_events) == 36
    assert data.random_events["2-5"].name == "German Colonial League Agitation"
    assert data.random_events["1-4"].name == "Serbia Defies Austria-Hungary"
    assert data.random_events["3-6"].name == "Boer Oppression of Uitlanders"
    unrest = [e for e in data.random_events.values() if e.kind == "unrest"]
    assert len(unrest) == 17
    assert {e.roll for e in unrest if e.table == "A"} == {"4-2", "4-3"}
    assert sum(e.table == "D" for e in unrest) == 6
    liberal, tory = data.random_events["1-3"], data.random_events["1-2"]
    assert (liberal.co_mult, liberal.spend_cap, liberal.excludes) == (0.5, 10, ("1-2",))
    assert (tory.forced_spend, tory.forced_excludes) == (30, "indian_army")
    navy = data.random_events["2-4"]
    assert (navy.power, navy.forced_spend, navy.forced_naval_only) == ("Germany", 20, True)
    assert data.random_events["2-2"].cb_against == "Spain"
    assert data.random_events["1-5"].co_mult == 0
    assert data.random_events["1-6"].cri == 5
    assert data.random_events["3-5"].pressure["area"] == "Alaska"
    assert data.random_events["2-1"].permission["region"] == "south_america"
    for e in data.random_events.values():
        if e.pressure:
            area = data.areas[e.pressure["area"]]
            assert area.may_become == e.pressure["status"]


def test_minor_activity_tables(data):
    # Rules: DETERMINING MINOR POWER ACTIVITY - one die for activity, two dice (2-12) for the Area.
    assert set(data.minor_activity) == {"Japan", "Russia", "Italy", "Belgium", "Netherlands",
                                        "Spain", "Portugal"}
    for table in data.minor_activity.values():
        assert sorted(table.targets) == list(range(2, 13))
        assert 1 <= table.threshold <= 6
    assert data.minor_activity["Japan"].threshold == 4


def test_markers_and_colonial_office(data):
    # Rules: the errata example (Hawaii EV 5: Interest x1, Protectorate x4 and upkeep 10) and the
    # upgrade example (Influence 10 -> Protectorate 20).
    assert set(data.markers) == set(mapdata.STATUSES)
    assert data.markers["interest"].income_mult == 1
    assert data.markers["protectorate"].income_mult == 4
    assert data.markers["protectorate"].maint == 10
    assert data.markers["protectorate"].buy - data.markers["influence"].buy == 10
    assert [s for s, m in data.markers.items() if m.garrison] == [
        "protectorate", "possession", "dominion", "state"]
    assert set(data.colonial_office) == {1, 2, 3, 4}
    assert all(len(row) == 6 for row in data.colonial_office.values())
    assert max(data.colonial_office[data.powers["Italy"].co_level]) == 30


def test_vp_divisors(data):
    # Rules: VICTORY POINT AWARDS - Britain 10 (167 / 10 = 16); note: Russia and Italy 2.5.
    assert data.powers["Britain"].vp_divisor == 10
    assert data.powers["Russia"].vp_divisor == 2.5
    assert data.powers["Italy"].vp_divisor == 2.5


def test_unit_costs_are_assumed_and_complete(data):
    for kind in ("army", "navy"):
        for strength in (1, 3, 10):
            assert data.unit_cost(kind, strength) > 0
    with pytest.raises(mapdata.DataError):
        data.unit_cost("army", 5)


def test_setup_1880_uses_valid_places_and_the_set_up_notes(data):
    setup = data.setup_1880
    for m in setup["markers"]:
        assert m["area"] in data.areas and m["power"] in data.powers
    for u in setup["units"]:
        assert data.is_place(u["where"]) and u["where"] not in data.seas
        if u["where"] in {h.name for h in data.homes.values()}:
            assert data.home_of(u["where"]) == u["power"]  # Home Countries: own units only
        if u["type"] == "navy":
            assert u.get("sea") in data.coasts(u["where"]) or len(data.coasts(u["where"])) == 1
    for f in setup["merchants"] + setup["merchants_if_minor"]:
        assert f["sea"] in data.seas
    fleets = [(f["power"], f["sea"]) for f in setup["merchants"]]
    assert len(fleets) == len(set(fleets))  # one fleet per power per Sea Zone (MOVEMENT)
    # Rules: SETTING UP THE GAME - the notes.
    assert {("Spain", "South Atlantic Ocean"), ("Spain", "North Pacific Ocean")} <= set(fleets)
    assert [(f["power"], f["sea"]) for f in setup["merchants_if_minor"]] == [
        ("Japan", "South China Sea")]
    russian = {(u["strength"], u["sea"]) for u in setup["units"]
               if u["power"] == "Russia" and u["type"] == "navy"}
    assert (10, "Baltic Sea") in russian and (1, "Black Sea") in russian
    canada = [u for u in setup["units"] if u["where"] == "Canada" and u["type"] == "navy"]
    assert [u["sea"] for u in canada] == ["North Atlantic Ocean"]
    # Rules: GARRISONS - the Indian Army (three Army (10) in India), the Western Garrison.
    indian = [u for u in setup["units"] if u.get("group") == "indian_army"]
    assert len(indian) == 3 and all(u["where"] in data.regions["india"] for u in indian)
    western = [u for u in setup["units"] if u.get("group") == "western_garrison"]
    assert len(western) == 3 and all(u["where"] in data.regions["western_garrison"]
                                     for u in western)
    assert not any(m["power"] in ("China", "Ottomans") for m in setup["markers"])


def test_setup_copy_is_private(data):
    copy = data.fresh_setup_1880()
    copy["units"].clear()
    assert data.setup_1880["units"]


def test_control_markers_garrisoned_in_1880(data):
    # Rules: GARRISONS - each Controlled Area holds at least one of the power's Army Units.
    setup = data.setup_1880
    armies = {(u["power"], u["where"]) for u in setup["units"] if u["type"] == "army"}
    for m in setup["markers"]:
        if data.markers[m["status"]].garrison:
            assert (m["power"], m["area"]) in armies, m


def test_turn_track_and_assumed_tables(data):
    assert sorted(data.turn_track) == list(range(1880, 1917, 4))
    great = {"Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy",
             "Austria-Hungary"}
    for track in data.turn_track.values():
        assert set(track.merchants) <= great  # Minor Powers never receive new Merchant Fleets
        assert track.great_war_penalty >= 0
    targets = data.chinese_army_placement["targets"]
    assert sorted(int(k) for k in targets) == list(range(2, 13))
    assert data.counter_limits["chinese_ottoman_armies"] == 6
    assert data.counter_limit("Britain", "hex") >= 16  # Britain starts with 16 Control markers
    assert data.counter_limit("Spain", "units_10") >= 0


def test_assumptions_listed_in_plain_words(data):
    listed = " ".join(data.assumptions)
    for table in ("turn_track", "chinese_army_placement", "counter_limits", "unit_costs",
                  "regions.india"):
        assert any(a.startswith(table + ":") for a in data.assumptions), table
    assert "Game Turn Track" in listed


def test_regions_from_the_rules_text(data):
    # Rules: PATHS ACROSS AFRICA; GARRISONS; HEADLINE EVENTS (War in South America).
    assert data.regions["africa_west"] == ("Marocco", "Rio de Oro", "Mauretania", "Senegambia",
                                           "Ashantee")
    assert set(data.regions["africa_south"]) == {"Cape Colony", "Sudwest Afrika", "Mozambique"}
    assert "Panama" in data.regions["south_america"]
    assert data.straits["Egypt"] == {"Mediterranean Sea", "Indian Ocean"}


# -- GM override files --------------------------------------------------------------------------

def _frozen(path):
    from pbem.base.gamedata import read
    return read(path.parent, path.name)


def test_override_file_merges_over_the_shipped_data(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        '[areas."Guiana"]\nev = 3\n'
        '[crt.table2]\n"1:2" = ["E", "AR", "AR", "HALF_EX", "HALF_EX", "EX"]\n'
        '[unrest_tables]\nletters = { A = "D", B = "C", C = "B", D = "A" }\n'
        '[turn_track.1884]\ngreat_war_penalty = 50\n'
        '[unit_costs]\nassumed = false\n', encoding="utf-8")
    house = mapdata.load(override=_frozen(path))
    assert house.areas["Guiana"].ev == 3
    assert house.areas["Guiana"].neighbours == {"Brasil", "Venezuela"}  # merged, not replaced
    assert house.crt[2]["1:2"][1] == "AR"
    assert house.unrest_tables["A"].entries == mapdata.load().unrest_tables["D"].entries
    assert house.unrest_tables["B"].dice == "two"
    assert house.turn_track[1884].great_war_penalty == 50
    assert house.turn_track[1884].merchants["Britain"] == 1
    assert not any(a.startswith("unit_costs") for a in house.assumptions)
    assert mapdata.load().areas["Guiana"].ev == 4  # the shipped data is untouched


def test_override_with_a_typo_fails_loudly(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[areas."Guiana"]\nneighbours = ["Brazil"]\n', encoding="utf-8")
    with pytest.raises(mapdata.DataError, match="Brazil"):
        mapdata.load(override=_frozen(path))


def test_deep_merge():
    assert mapdata.deep_merge({"a": {"b": 1, "c": 2}, "d": [1]}, {"a": {"b": 3}, "d": [2]}) == {
        "a": {"b": 3, "c": 2}, "d": [2]}


def test_every_shipped_table_names_its_source():
    doc = mapdata.read_shipped()
    assert [name for name, table in doc.items() if "source" not in table] == []


def test_canonical_names_stay_distinct_when_normalised(data):
    names = [*data.areas, *data.seas, *data.capes, *(h.name for h in data.homes.values())]
    assert len({key(n) for n in names}) == len(set(names))
    for name in names:
        assert data.resolve_place(name) == name
        assert data.resolve_place(name.upper().replace("-", " ")) == name


def test_facts_stated_in_the_rules_text(data):
    # Rules: THE MAP - Overland Routes (Aden unreachable overland; Panama touches Central America,
    # not Mexico), Sea Zones (Dutch East Indies; the Mediterranean's neighbours).
    assert data.areas["Aden"].neighbours == frozenset()
    assert "Central America" in data.areas["Panama"].neighbours
    assert "Mexico" not in data.areas["Panama"].neighbours
    assert data.areas["Dutch East Indies"].seas == {"Indian Ocean", "North Pacific Ocean",
                                                     "South China Sea"}
    assert data.seas["Mediterranean Sea"].adjacent == {"North Atlantic Ocean", "Black Sea",
                                                       "Indian Ocean"}
    # COLONIAL COMBAT RESOLUTION example (Manchuria 5); CODOMINIONS example (Hawaii EV 5).
    assert data.areas["Manchuria"].cs == 5 and data.areas["Hawaii"].ev == 5
    # WAR WITH THE OTTOMANS - three Ottoman Areas; CHINESE REBELLION - "(including Hong Kong)".
    assert {a.name for a in data.areas.values() if a.kind == "ottoman"} == {
        "Anatolia", "Quwait", "Tripoli"}
    assert data.areas["Hong Kong"].kind == "chinese_empire"
    # Historical note under WAR WITH THE OTTOMANS: Egypt is portrayed as an Unorganized Area.
    assert data.areas["Egypt"].kind == "unorganized"
    # STATUS CHANGE: the Areas where Britain may place Dominions and the US States.
    assert {a.name for a in data.areas.values() if a.may_become == "dominion"} == {
        "Australia", "Canada", "Cape Colony", "New Zealand"}
    assert {a.name for a in data.areas.values() if a.may_become == "state"} == {
        "Alaska", "Cuba", "Hawaii", "Porto Rico"}
