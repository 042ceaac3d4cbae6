"""Europa Universalis' map and public board: laid out from the scenario's adjacency (or its
xy), the same every time, no label over another, every reader shown the same board, and
``pbem scenario layout`` writing the coordinates into a copy of a scenario."""
from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from helpers_bots import lawful_bot_orders
from pathlib import Path

import pytest

from games.eu_tpop import GAME, mapdraw, maplayout, scenario
from pbem.kit.dice import ScriptedDice, SeededDice
from pbem.kit.engine import run_phases
from pbem.kit.gameapi import Edit, GMError
from pbem.kit.svg import NS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "games" / "eu_tpop" / "data" / "sample.toml"
SIZES = {"head": mapdraw.HEAD, "small": 12.0}


def sample_state():
    return GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())


def label_boxes(drawing: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every text of a map with the box it takes (the drawing's own width estimate, its font
    size by class, from just above the cap height to below the baseline)."""
    root = ET.fromstring(drawing)
    out = []
    for t in root.iter(f"{{{NS}}}text"):
        cls = (t.get("class") or "").split()
        size = max([SIZES.get(c, mapdraw.FONT) for c in cls] or [mapdraw.FONT])
        w = mapdraw.text_width(t.text or "", size, bold="head" in cls)
        x, y = float(t.get("x")), float(t.get("y"))
        if t.get("text-anchor") == "end":
            x -= w
        out.append((t.text or "", (x, y - size, x + w, y + 0.3 * size)))
    return out


def overlaps(drawing: str) -> list[str]:
    boxes = label_boxes(drawing)
    found = []
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
        for b, (bx0, by0, bx1, by1) in boxes[i + 1:]:
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                found.append(f"{a!r} over {b!r}")
    return found


def grid_scenario(n: int, seed: int) -> dict:
    """An invented scenario of ``n`` Areas with random borders, a realm per Area and a sea
    every few Areas."""
    rng = random.Random(seed)
    names = [f"Area {i:02d}" for i in range(n)]
    data = {"scenario": {"name": "grid"}, "areas": {}, "seas": {}, "borders": [], "provinces": {}, "realms": {}}
    for i, a in enumerate(names):
        data["areas"][a] = {"seas": [f"Sea {i // 5}"] if i % 5 == 0 else []}
        data["seas"].setdefault(f"Sea {i // 5}", {"adjacent": [f"Sea {i // 5 - 1}"] if i >= 5 else []})
        if i:
            data["borders"].append({"between": [a, names[rng.randrange(i)]]})
        for k in range(rng.randint(1, 3)):
            data["provinces"][f"Province {i}-{k}"] = {"area": a, "tax": 1 + k % 2, "owner": f"Realm {i % 7}"}
    for r in range(7):
        data["realms"][f"Realm {r}"] = {"kind": "PR" if r < 3 else "NPR", "capital": f"Province {r}-0",
                                        "units": [{"at": names[r], "inf": 2, "cav": 1}]}
    return data


def state_of(data: dict) -> dict:
    opts = {"data": {"name": "x.toml", "sha256": "-", "text": _toml(data)}}
    players = [r for r, d in data["realms"].items() if d.get("kind") == "PR"]
    return GAME.setup(players, opts, ScriptedDice())


def _toml(data: dict) -> str:
    """Just enough TOML for these tests' scenarios."""
    def val(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return '"' + v + '"'
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return "{ " + ", ".join(f'"{k}" = {val(x)}' for k, x in v.items()) + " }"
    lines = []
    for table, rows in data.items():
        if isinstance(rows, list) and not all(isinstance(r, dict) for r in rows):
            lines.insert(0, f"{table} = {val(rows)}")
        elif isinstance(rows, list):
            for row in rows:
                lines.append(f"[[{table}]]")
                lines += [f'{k} = {val(v)}' for k, v in row.items()]
        elif not all(isinstance(r, dict) for r in rows.values()):
            lines.append(f"[{table}]")
            lines += [f'"{k}" = {val(v)}' for k, v in rows.items()]
        else:
            for name, row in rows.items():
                lines.append(f'[{table}."{name}"]')
                lines += [f'"{k}" = {val(v)}' for k, v in row.items()]
    return "\n".join(lines) + "\n"


# -- no label over another ---------------------------------------------------------------

def test_the_overlap_check_finds_labels_drawn_over_each_other():
    drawing = (f'<svg xmlns="{NS}"><text x="10" y="20">Valmont army 4</text>'
               '<text x="40" y="24">Corvia</text><text x="10" y="60">apart</text></svg>')
    assert overlaps(drawing) == ["'Valmont army 4' over 'Corvia'"]


def test_no_label_of_the_sample_map_overlaps_another_through_a_game_of_bots():
    rng = random.Random(101)
    state = GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, SeededDice(seed="map", context="setup"))
    drawn, at_war = 0, 0
    while not GAME.is_over(state) and drawn < 400:
        orders = lawful_bot_orders(GAME, state, rng)
        for step in run_phases(GAME, state, orders, lambda ph: SeededDice(seed="map", context=ph.key)):
            state = step.after
            drawing = GAME.map_svg(state, "Valmont")
            assert overlaps(drawing) == [], GAME.phase(state).label
            drawn += 1
            at_war += bool(state["wars"])
    assert drawn > 20 and at_war > 0


@pytest.mark.parametrize("n,seed", [(12, 1), (30, 2), (45, 3)])
def test_no_label_of_a_laid_out_map_overlaps_another(n, seed):
    state = state_of(grid_scenario(n, seed))
    drawing = GAME.map_svg(state, None)
    assert overlaps(drawing) == []
    assert len(label_boxes(drawing)) > n


def test_places_a_gm_put_on_top_of_each_other_are_moved_apart():
    data = grid_scenario(10, 4)
    for table in ("areas", "seas"):
        for d in data[table].values():
            d["xy"] = [300, 300]
    assert overlaps(GAME.map_svg(state_of(data), None)) == []


# -- the layout --------------------------------------------------------------------------

def test_the_layout_is_the_same_every_time_and_follows_the_borders():
    data = tomllib.loads(SAMPLE.read_text())
    first = GAME.map_layout(data)
    maplayout._positions.cache_clear()
    assert GAME.map_layout(data) == first
    assert set(first["areas"]) == set(data["areas"]) and set(first["seas"]) == set(data["seas"])
    pos = first["areas"] | first["seas"]

    def far(a, b):
        return ((pos[a][0] - pos[b][0]) ** 2 + (pos[a][1] - pos[b][1]) ** 2) ** 0.5
    # bordering Areas are drawn nearer than Areas four borders apart
    assert far("Valmont", "Marches") < far("Valmont", "Miren")
    assert far("Corvia", "Lusca") < far("Lusca", "Ostmark")


def test_a_scenarios_xy_places_its_card_and_the_rest_are_laid_out_around_it():
    data = tomllib.loads(SAMPLE.read_text())
    data["areas"]["Valmont"]["xy"] = [900, 500]
    out = GAME.map_layout(data)
    assert out["areas"]["Valmont"] == [900, 500]
    state = state_of(data)
    assert state["xy"] == {"Valmont": [900.0, 500.0]}
    assert overlaps(GAME.map_svg(state, None)) == []


@pytest.mark.parametrize("bad", [[1], "here", [1, "2"], [True, 3]])
def test_a_bad_xy_is_refused_with_a_line_the_gm_can_act_on(bad):
    data = tomllib.loads(SAMPLE.read_text())
    data["areas"]["Marches"]["xy"] = bad
    with pytest.raises(GMError, match="area Marches: xy is two numbers"):
        scenario.load({"areas": {}, "adj": {}, "seas": {}, "provinces": {}, "realms": {}}, data)


# -- what the map shows ------------------------------------------------------------------

def test_the_map_shows_the_public_board_and_only_the_readers_rings_differ():
    state = sample_state()
    state, _ = GAME.apply(state, Edit("SET STANDING Corvia CTA ACCEPT"), ScriptedDice())
    mine, theirs, public = (GAME.map_svg(state, p) for p in ("Valmont", "Corvia", None))
    for drawing in (mine, theirs, public):
        root = ET.fromstring(drawing)
        assert root.find(f"{{{NS}}}title").text and root.find(f"{{{NS}}}desc").text
        texts = [t.text for t in root.iter(f"{{{NS}}}text")]
        for words in ("Valmont army 4: 3 inf, 1 cav", "Corvia fleet 2: 1 light, 1 heavy", "Rebels 1",
                      "Influence: Corvia 3", "Claims: Valmont", "Imperial Authority 1", "Rosny 1 unrest",
                      "Alliances: Corvia-Lusca"):
            assert any(words in (t or "") for t in texts), words
        assert "ACCEPT" not in drawing and "CTA" not in drawing   # a standing order is Corvia's own
    rings = re.compile(r'<rect[^>]*stroke="#d4a017"[^>]*/>')
    assert len(rings.findall(mine)) == 3 and len(rings.findall(theirs)) == 4 and not rings.findall(public)

    def board_only(d):
        return rings.sub("", re.sub(r'<title[^<]*</title>|<text x="16" y="28" class="head">[^<]*</text>', "", d))
    assert board_only(mine) == board_only(theirs) == board_only(public)


def test_a_war_and_an_occupation_are_on_the_map_and_in_words():
    state = sample_state()
    for edit in ("SET WAR Valmont VS Corvia", "SET PROVINCE Dauvin CONTROLLER Valmont"):
        state, _ = GAME.apply(state, Edit(edit), ScriptedDice())
    drawing = GAME.map_svg(state, None)
    assert "Wars: Corvia vs Valmont" in drawing and "Dauvin 1 held by Valmont" in drawing
    lines = GAME.map_text(state, "Ostmark")
    assert "Wars: Corvia vs Valmont" in lines
    assert "Occupied: Dauvin (Corvia's, held by Valmont)" in lines
    assert overlaps(drawing) == []


def test_help_on_a_place_answers_with_its_facts():
    state = sample_state()
    rosny = GAME.help_on(state, "Corvia", "rosny")
    assert rosny.startswith("Rosny, a province of the Area Marches: tax 1, owner Valmont, unrest.")
    assert "Units: Rebels 1" in rosny and "Borders: Brenn, Corvia, Valmont" in rosny
    sea = GAME.help_on(state, "Corvia", "Western-Sea")
    assert "Fleets: Corvia fleet 2: 1 light, 1 heavy; Valmont fleet 1: 1 light" in sea
    assert GAME.help_on(state, "Corvia", "Atlantis") is None
    assert "MAP" in GAME.help_topics(state)
    index = GAME.help_on(state, "Corvia", "map")
    assert "Provinces: Belcourt, Brenn" in index and "Sea Zones: Eastern Sea, Middle Sea, Ocean, Western Sea" in index


def test_the_gm_status_adds_what_only_the_gm_sees_to_the_public_board():
    state = sample_state()
    state, _ = GAME.apply(state, Edit("SET STANDING Corvia CTA ACCEPT"), ScriptedDice())
    gm = GAME.gm_status(state)
    assert "The board (what every realm sees)" in gm and "Only the GM sees this part:" in gm
    assert any("standing orders: cta accept" in line.lower() for line in gm)
    report = GAME.report(state, [], "Valmont").text
    assert "The board (what every realm sees)" in report and "accept" not in report.lower().split("the board")[1]


# -- pbem scenario layout ----------------------------------------------------------------

def _cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "pbem", "scenario", "layout", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_pbem_scenario_layout_writes_the_coordinates_into_a_copy(tmp_path):
    source = tmp_path / "marches.toml"
    source.write_text(SAMPLE.read_text())
    done = _cli(str(source), "--rules", "eu_tpop", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    copy = tmp_path / "marches.layout.toml"
    assert source.read_text() == SAMPLE.read_text()
    text = copy.read_text()
    assert text.startswith("# The sample scenario: an INVENTED map")     # the GM's comments are kept
    data = tomllib.loads(text)
    laid = GAME.map_layout(tomllib.loads(SAMPLE.read_text()))
    assert {a: d["xy"] for a, d in data["areas"].items()} == laid["areas"]
    assert {s: d["xy"] for s, d in data["seas"].items()} == laid["seas"]
    # the copy laid out again is where it was: a GM's file keeps its places
    again = _cli(str(copy), "--out", str(tmp_path / "again.toml"), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert tomllib.loads((tmp_path / "again.toml").read_text()) == data


def test_pbem_scenario_layout_refuses_what_it_cannot_lay_out(tmp_path):
    (tmp_path / "bad.toml").write_text("[areas.A]\nseas = [\n")
    done = _cli(str(tmp_path / "bad.toml"), "--rules", "eu_tpop", cwd=tmp_path)
    assert done.returncode == 1 and "is not TOML" in done.stderr
    (tmp_path / "dice.toml").write_text("[battle_die]\ninfantry = ['f','f','f','f','f','f']\n")
    done = _cli(str(tmp_path / "dice.toml"), "--rules", "eu_tpop", cwd=tmp_path)
    assert done.returncode == 1 and "holds no scenario" in done.stderr
