"""The rules' summaries compiled as data (games/pax_britannica/data/summaries.toml)."""
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from games.pax_britannica.core import summaries

ROOT = Path(__file__).resolve().parents[3]
RULES = [ROOT.parent / "shared" / "rules" / "004_2f772e21e74578e2.txt",
         Path("/work/shared/rules/004_2f772e21e74578e2.txt")]
EFFECT_TYPES = {"cb", "eti", "cri", "vp", "ottoman_war", "conflict", "rule"}


def rules_headings() -> set[str] | None:
    """Short title lines of the rules text, page numbers like "(13) " dropped."""
    for path in RULES:
        if path.exists():
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            out = set()
            for line in lines:
                line = re.sub(r"^\(\d+\)\s*", "", line.strip())
                if line and len(line) < 70 and not line.endswith((".", ":", ",")):
                    out.add(line)
            return out
    return None


def test_every_summary_is_present():
    for kind in summaries.KINDS:
        assert summaries.entries(kind), kind


def test_entries_are_well_formed_and_ids_unique():
    ids = [e["id"] for e in summaries.entries()]
    assert len(ids) == len(set(ids))
    for e in summaries.entries():
        assert e["rule"].strip() and e["says"].strip(), e["id"]
        # one sentence of our own words, not a pasted paragraph
        assert len(e["says"]) < 260 and e["says"].count(". ") == 0, e["id"]
        if "effect" in e:
            assert e["effect"]["type"] in EFFECT_TYPES, e["id"]
            assert e["effect"].get("by"), e["id"]


def test_every_citation_is_a_heading_of_the_rules_text():
    headings = rules_headings()
    if headings is None:  # the project's own copy of the citations is still checked for shape
        assert all(e["rule"] == e["rule"].strip() for e in summaries.entries())
        return
    missing = [(e["id"], e["rule"]) for e in summaries.entries() if e["rule"] not in headings]
    assert missing == []


def test_references_point_to_existing_entries():
    for e in summaries.entries():
        ref = e.get("effect", {}).get("ref")
        if ref:
            assert summaries.entry(ref)


@pytest.mark.parametrize("before, after, steps", [
    ("possession", "influence", 2), ("protectorate", "interest", 2), ("interest", None, 1),
    ("dominion", "possession", 1), ("influence", "influence", 0), ("influence", "possession", 0),
])
def test_eti_steps(before, after, steps):
    assert summaries.eti_steps(before, after) == steps


def test_bonus_vp_rules_include_the_african_paths_and_canal():
    amounts = {e["id"]: e["effect"].get("amount") for e in summaries.bonus_vp_rules()}
    assert amounts["VP-01"] == 15 and amounts["VP-03"] == 10 and amounts["VP-04"] == 15


def fake(kind):
    marker = SimpleNamespace(cri_place_empire=10, cri_place_vassal=3)
    return SimpleNamespace(areas={"X": SimpleNamespace(kind=kind)},
                           markers={"protectorate": marker,
                                    "influence": SimpleNamespace(cri_place_empire=4,
                                                                 cri_place_vassal=0)})


def state_with(markers, players=("Britain", "France")):
    return {"players": list(players), "markers": {"X": markers}, "cb": [], "cri": 0, "eti": 0,
            "powers": {p: {"great": p in players} for p in
                       ("Britain", "France", "Spain", "Portugal")}}


def test_control_over_influence_gives_the_holder_a_cb():
    st = state_with({"France": {"status": "influence", "established": True}})
    effects = summaries.placement_effects(st, fake("unorganized"), "Britain", "X", "protectorate")
    assert [(e["type"], e["holder"], e["against"]) for e in effects] == [
        ("cb", "France", "Britain")]
    events = summaries.apply_effects(st, effects)
    assert events[0]["kind"] == "cb" and st["cb"][0]["area"] == "X"


def test_minor_influence_does_not_contest_a_great_power_but_does_a_minor():
    st = state_with({"Spain": {"status": "influence", "established": True}})
    assert summaries.placement_effects(st, fake("unorganized"), "Britain", "X", "possession") == []
    effects = summaries.placement_effects(st, fake("unorganized"), "Portugal", "X", "protectorate")
    assert [(e["holder"], e["rule"]) for e in effects] == [("Spain", "CB-03")]


def test_influence_beside_influence_has_no_effect():
    st = state_with({"France": {"status": "influence", "established": True}})
    assert summaries.placement_effects(st, fake("independent"), "Britain", "X", "influence") == []


def test_ottoman_war_only_for_a_new_control_marker():
    st = state_with({})
    effects = summaries.placement_effects(st, fake("ottoman"), "Britain", "X", "protectorate")
    assert [e["type"] for e in effects] == ["ottoman_war"]
    st = state_with({"Britain": {"status": "protectorate", "established": True}})
    assert summaries.placement_effects(st, fake("ottoman"), "Britain", "X", "possession") == []


@pytest.mark.parametrize("kind, status, delta", [
    ("chinese_empire", "protectorate", 10), ("chinese_vassal", "protectorate", 3),
    ("chinese_empire", "influence", 4), ("chinese_vassal", "influence", 0),
    ("unorganized", "protectorate", 0),
])
def test_chinese_resentment_on_placement(kind, status, delta):
    effects = summaries.placement_effects(state_with({}), fake(kind), "Britain", "X", status)
    assert sum(e["delta"] for e in effects if e["type"] == "cri") == delta
