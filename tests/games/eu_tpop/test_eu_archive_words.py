"""Europa Universalis' public archive speaks the game's words: phases grouped by round (the
game is played in rounds, 4), charts of the realms' public figures, the phase and step named as
the rules name them (never the engine's codes), and nothing addressed to "you"."""
from __future__ import annotations

import re

import pytest

from helpers_eu_game import started_eu_game
from pbem.storage import store
from pbem.web import archive


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A one-round game played to its end on every realm's defaults."""
    tmp = tmp_path_factory.mktemp("eu-archive")
    ctx = started_eu_game(tmp, phases=40)
    rec = store.get_game(ctx, "eu1")
    page = archive.game_page(ctx, rec)
    html = archive.render("game.html.j2", root="../", g=page, site="s", built="")
    phases = [archive.render("phase.html.j2", root="../", g=page, p=p, site="s", built="") for p in page["phases"]]
    yield page, html, phases
    ctx.db.conn.close()


def test_phases_are_grouped_by_round(played):
    page, html, phases = played
    assert any("Peace &amp; Rebels" in p["label"] or "Peace & Rebels" in p["label"] for p in page["phases"])
    assert "Round by round" in html and "<h3>Round 1</h3>" in html and "Each round's phases" in html
    assert "Turn by turn" not in html and "<h3>Turn" not in html and ">Turn</th>" not in html
    assert all("all rounds" in p for p in phases)


def test_the_realms_figures_are_charted(played):
    page, html, _ = played
    assert [c["title"] for c in page["charts"]] == ["Prestige", "Stability", "Provinces owned"]
    assert set(page["charts"][0]["series"]) == {"Valmont", "Corvia", "Ostmark"}
    assert "No charts yet" not in html and "charts no figures" not in html and ">Round</th>" in html


def test_the_phase_and_step_are_named_as_the_rules_name_them(played):
    page, _, _ = played
    glances = [dict(p["glance"]) for p in page["phases"]]
    assert all(g["phase"] in ("the Action Phase", "a decision within the Action Phase",
                              "Phase 3: Peace & Rebels (4.3)", "the game is over") for g in glances)
    steps = {g["step"] for g in glances if g["phase"].startswith("Phase 3")}
    assert steps and all(s[0] in "ABCDEFGHI" and s[1:3] == ": " and len(s) > 5 for s in steps)


def test_a_public_page_addresses_no_one(played):
    """The public reads no "you": not a player's "what you may send", not "concerns you"."""
    _, html, phases = played
    for page in (html, *phases):
        text = re.sub(r"<[^>]+>", " ", page)
        assert not re.search(r"\b(you|your)\b", text, re.I), re.search(r"[^.]*\b(you|your)\b[^.]*", text, re.I)[0]


def test_the_monarch_power_an_action_costs_is_the_realms_own_mat():
    from games.eu_tpop.sentences import sentence
    e = {"kind": "monarch_power", "realm": "Valmont", "delta": -2, "type": "military", "reason": "SIEGE"}
    assert sentence(e) == "Valmont: -2 military power on its mat (SIEGE)."
