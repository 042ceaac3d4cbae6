"""The names of Pax Britannica's powers: the one order the rules list them in, the names and
aliases players write for them, and the suggestion a misspelling gets (of the kind asked for).

Rules: PLAYING PIECES (the twelve sets, then the Chinese and Ottoman armies).
"""
from __future__ import annotations

import pytest

from games.pax_britannica.core import state as st


def test_the_rules_order_ranks_the_twelve_sets_then_china_then_the_ottomans_then_the_rest():
    ranks = [st.power_order(p) for p in (*st.POWERS, st.CHINA, st.OTTOMANS, "Abyssinia", "Zanzibar")]
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks) - 1  # only the two Minor Power Areas tie
    assert st.power_order("Abyssinia") == st.power_order("Zanzibar")


def test_a_list_of_powers_is_put_in_the_rules_order_once_each_ties_by_name():
    found = st.by_rules_order(["Zanzibar", "Ottoman Empire", "Japan", "China", "Britain", "Japan", "Abyssinia"])
    assert found == ["Britain", "Japan", "China", "Ottoman Empire", "Abyssinia", "Zanzibar"]


@pytest.mark.parametrize("module", ["core.disputes", "war.model"])
def test_the_rules_order_is_written_once(module):
    import importlib

    loaded = importlib.import_module(f"games.pax_britannica.{module}")
    assert getattr(loaded, "power_order", st.power_order) is st.power_order
    assert getattr(loaded, "by_rules_order", st.by_rules_order) is st.by_rules_order


# -- names and suggestions ---------------------------------------------------------------------
from games.pax_britannica import GAME, load_data  # noqa: E402
from pbem.kit.gameapi import GMError  # noqa: E402

FOUR = ["Britain", "France", "Germany", "United States"]


def gm_board(*edits, phase="war"):
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), phase, 1884)
    for e in edits:
        s, _ = GAME.gm_command(s, e, None)
    return s


@pytest.mark.parametrize("written,native", [("Turkey", st.OTTOMANS), ("Ottomans", st.OTTOMANS),
                                            ("turks", st.OTTOMANS), ("Ottoman-Empire", st.OTTOMANS),
                                            ("Chinese", st.CHINA), ("CHINA", st.CHINA)])
def test_the_native_powers_names_come_from_the_data_and_are_read_only_where_asked(written, native):
    data = load_data()
    assert data.resolve_power(written, natives=True) == native
    assert data.resolve_power(written) is None


def test_a_gm_command_names_the_ottomans_as_a_war_order_does():
    s = gm_board("SET WAR Russia VS Turkey")
    assert [w["sides"] for w in s["wars"]] == [[["Russia"], [st.OTTOMANS]]]


def test_a_misspelt_power_suggests_a_power_never_an_area():
    data = load_data()
    assert data.suggest("Beru") == "Peru"  # asked for anything, an Area is the nearest
    assert data.suggest("Beru", "power", "native") is None
    assert data.suggest("Itlay", "power") == "Italy"
    assert data.suggest("Otomans", "power", "native") == st.OTTOMANS
    assert data.suggest("Otomans", "power") is None


def test_a_name_of_another_kind_is_not_taken_for_a_misspelling():
    data = load_data()
    assert data.suggest("Turkey", "power") is None  # Anatolia's and the Ottomans', no typo of a power
    assert data.suggest("Peru", "power") is None


def test_the_war_for_line_suggests_powers_only():
    s = gm_board()
    result = GAME.parse_orders(s, "Britain", [(1, "FOR Beru")])
    assert [(p.code, p.suggestion) for p in result.problems] == [("unknown-power", None)]
    result = GAME.parse_orders(s, "Britain", [(1, "FOR Frence")])
    assert [(p.code, p.suggestion) for p in result.problems] == [("unknown-power", "France")]


def test_a_misspelt_gm_edit_gets_the_nearest_word_of_its_verb():
    s = gm_board()
    with pytest.raises(GMError, match=r"did you mean SET MARKER\?"):
        GAME.gm_command(s, "SET MARKR France influence Egypt", None)
    with pytest.raises(GMError) as refused:
        GAME.gm_command(s, "SET BLAME France", None)  # a word ADD takes, no typo of SET's
    assert "did you mean" not in str(refused.value)


def test_no_module_of_the_game_suggests_by_difflib():
    from pathlib import Path

    import games.pax_britannica as pax

    root = Path(pax.__file__).parent
    assert [p.name for p in root.rglob("*.py") if "difflib" in p.read_text(encoding="utf-8")] == []


def test_a_word_that_begins_one_name_only_suggests_it():
    data = load_data()
    assert data.suggest("Togo", "area") == "Togoland"
    assert data.suggest("Togo", "power") is None  # no power begins so
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "movement", 1884)
    result = GAME.parse_orders(s, "Britain", [(1, "BUY INTEREST Togo")])
    assert [p.render() for p in result.problems] == [
        "line 1: [unknown-area] 'Togo' is not a known Area (did you mean Togoland?)"]


def test_a_misspelt_keyword_of_an_order_gets_the_nearest_word_of_its_verb():
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "movement", 1884)
    result = GAME.parse_orders(s, "Britain", [(1, "BUY INTREST Siam"), (2, "BUY INTEREST Sian"),
                                              (3, "BUY WHATEVER Siam")])
    assert [(p.code, p.suggestion) for p in result.problems] == [
        ("invalid-order", "INTEREST"), ("unknown-area", "Siam"), ("invalid-order", None)]
    assert result.problems[0].message.startswith("'INTREST' is no word of a BUY order; write it as BUY <INTEREST|")


def test_a_misspelt_marker_in_a_wars_resolution_gets_the_marker():
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "war_resolution", 1884)
    result = GAME.parse_orders(s, "France", [(1, "PLACE POSSESION Guiana"), (2, "PLACE WHATEVER Guiana")])
    assert [(p.code, p.suggestion) for p in result.problems] == [
        ("invalid-order", "POSSESSION"), ("invalid-order", None)]
    assert result.problems[0].message.startswith("'POSSESION' is no word of a PLACE order; expected PLACE")


def test_a_proposal_id_written_in_two_words_or_misspelt_gets_the_id():
    from pbem.kit.dice import ScriptedDice

    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "congress", 1884)
    for edit in ("SET MARKER Britain protectorate Egypt", "SET MARKER France influence Egypt",
                 "SET CB France Britain AREA Egypt", "SET CONGRESS Germany CALLER France", "SET STEP propose"):
        s, _ = GAME.gm_command(s, edit, None)
    proposal = GAME.parse_orders(s, "Britain", [(1, "PROPOSE burma2"), (2, "DOWNGRADE France Egypt TO INTEREST"),
                                                (3, "ENDPROPOSE")])
    s, _ = GAME.resolve(s, {"Britain": proposal.orders}, ScriptedDice())
    result = GAME.parse_orders(s, "France", [(1, "VOTE burma 2 YES"), (2, "VOTE burma YES"), (3, "VOTE Burma_2 NO")])
    assert [(p.code, p.suggestion) for p in result.problems] == [("invalid-order", "VOTE burma2 YES")]
    problems = GAME.validate(s, "France", result.orders)
    assert [(p.line, p.code, p.suggestion) for p in problems] == [(2, "unknown-proposal", "burma2")]
    assert problems[0].message == "no open proposal burma (open: burma2)"
