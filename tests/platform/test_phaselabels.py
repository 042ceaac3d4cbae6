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
                                  "movement", "Movement/Status Change", "1892  MOVEMENT / status change"])
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
    assert listing(ROWS) == "1888 Movement/Status Change, 1888 Colonial Combat, 1892 Movement/Status Change"
    assert listing(ROWS, limit=1).startswith("... (2 earlier), 1892")
