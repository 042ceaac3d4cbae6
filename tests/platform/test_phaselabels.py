"""A phase named in any form the moderator prints (issue 7: `ORDERS 1892` and
`GM ROLLBACK 1884 Movement/Status Change` were refused)."""
import pytest

from pbem.kit.gameapi import PhaseInfo
from pbem.base.phaselabels import find, listing, names_phase

PHASE = PhaseInfo("1892/movement", "movement", 1892, ("France",), "1892 Movement/Status Change")
ROWS = [{"phase_key": "1888/movement", "label": "1888 Movement/Status Change", "seq": 1},
        {"phase_key": "1888/colonial_combat", "label": "1888 Colonial Combat", "seq": 2},
        {"phase_key": "1892/movement", "label": "1892 Movement/Status Change", "seq": 3},
        {"phase_key": "1892/movement", "label": "1892 Movement/Status Change: GM edit SET ETI 3", "seq": 4}]


@pytest.mark.parametrize("text", ["1892", "1892 Movement/Status Change", "1892/movement", "1892 movement",
                                  "movement", "Movement/Status Change", "1892  MOVEMENT / status change",
                                  "1892 Movement/Status Change [1892/movement]"])
def test_the_current_phase_in_any_printed_form(text):
    assert names_phase(text, PHASE)


@pytest.mark.parametrize("text", ["1888", "1896 Movement/Status Change", "colonial combat", "1892 war"])
def test_another_phase_is_not_the_current_one(text):
    assert not names_phase(text, PHASE)


def test_find_picks_resolved_phases_by_label_key_or_turn():
    assert [r["seq"] for r in find("1888 Colonial Combat", ROWS)] == [2]
    assert [r["seq"] for r in find("1888/movement", ROWS)] == [1]
    assert [r["seq"] for r in find("1892 Movement/Status Change", ROWS)] == [3, 4]
    assert [r["seq"] for r in find("1888", ROWS)] == [1, 2]
    assert find("1900 war", ROWS) == []


def test_listing_names_each_phase_once_latest_last():
    assert listing(ROWS) == ["1888 Movement/Status Change [1888/movement]",
                             "1888 Colonial Combat [1888/colonial_combat]",
                             "1892 Movement/Status Change [1892/movement]"]
    assert listing(ROWS, limit=1) == ["... (2 earlier: HISTORY lists them)",
                                      "1892 Movement/Status Change [1892/movement]"]


WAR = [{"phase_key": "1884/war_alliances/0", "label": "1884 War: Alliance Determination", "seq": 5},
       {"phase_key": "1884/war_attack_1/3", "label": "1884 War, sequence 1: First Alliance Attack (Britain, Germany)",
        "seq": 8},
       {"phase_key": "1884/war_attack_1/3", "kind": "input",
        "label": "1884 War, sequence 1: First Alliance Attack (Britain, Germany): GM edit SET ETI 3", "seq": 9}]


@pytest.mark.parametrize("text", ["1884 War, sequence 1: First Alliance Attack (Britain, Germany)",
                                  "1884/war_attack_1/3", "War, sequence 1: First Alliance Attack (Britain, Germany)",
                                  "1884 War, sequence 1: First Alliance Attack (Britain, Germany) [1884/war_attack_1/3]",
                                  "1884 War, sequence 1: First Alliance Attack (Britain, Germany) [1884/war_attack_1/3]"
                                  " (resolved Mon 5 Jan 2026 12:00 UTC)"])
def test_a_war_phase_is_found_by_its_whole_label_or_id_as_history_prints_them(text):
    assert [r["seq"] for r in find(text, WAR)] == [8, 9]


def test_a_label_with_a_colon_is_listed_whole():
    assert listing(WAR) == ["1884 War: Alliance Determination [1884/war_alliances/0]",
                            "1884 War, sequence 1: First Alliance Attack (Britain, Germany) [1884/war_attack_1/3]"]
