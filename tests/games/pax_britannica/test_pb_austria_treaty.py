"""Austria-Hungary as a treaty party (Rules: AUSTRIA-HUNGARY): the German player signs and
reads for it, its Alliances are defensive only and it never pays."""
from __future__ import annotations

import pytest

from games.pax_britannica import GAME
from games.pax_britannica.core import treaties
from pbem.kit import audience, treatybook
from pbem.kit.gameapi import Refused, TreatyAction

FOUR = ["Britain", "France", "Germany", "United States"]


def board(players=FOUR, phase="movement"):
    return GAME.set_phase(GAME.setup(players, {"setup": "empty"}, None), phase, 1884)


def act(s, verb, power, tid, **extra):
    return GAME.treaty(s, TreatyAction(verb, power, tid, at=f"{verb}-{power}", **extra), None)


def readers(s, tid):
    book = audience.game_book(GAME, s)
    record = treatybook.find(s, tid)
    return [p for p in FOUR if audience.admits(treatybook.audience_of(record), p, book)]


def test_a_secret_treaty_with_austria_hungary_alone_is_read_and_signed_by_the_german_player():
    s, _ = act(board(), "propose", "Britain", "danube", parties=("Austria-Hungary",),
               text="DEFENSIVE ALLIANCE", secret=True)
    assert readers(s, "danube") == ["Britain", "Germany"]
    assert [t["id"] for t in GAME.treaty_records(s, "Germany")] == ["danube"]
    assert GAME.treaty_records(s, "France") == []
    s, events = act(s, "sign", "Germany", "danube")
    record = GAME.treaty_records(s, "Germany")[0]
    assert record["status"] == "in_force" and record["parties"] == ["Britain", "Austria-Hungary"]
    assert set(record["signatures"]) == {"Britain", "Austria-Hungary"}
    # The record's mail reaches the German player and Britain only.
    book = audience.game_book(GAME, s)
    assert [p for p in FOUR if audience.admits(audience.of(events[0]), p, book)] == ["Britain", "Germany"]


def test_germany_proposing_along_with_austria_hungary_signs_for_both():
    s, _ = act(board(), "propose", "Germany", "triple", parties=("Austria-Hungary", "Britain"),
               text="DEFENSIVE ALLIANCE")
    assert set(treatybook.find(s, "triple")["signatures"]) == {"Germany", "Austria-Hungary"}
    s, _ = act(s, "sign", "Britain", "triple")
    assert treatybook.find(s, "triple")["status"] == "in_force"


def test_the_german_player_refuses_for_austria_hungary_and_others_cannot():
    s, _ = act(board(), "propose", "Britain", "danube", parties=("Austria-Hungary",), text="DEFENSIVE ALLIANCE")
    with pytest.raises(Refused) as info:
        act(s, "sign", "France", "danube")
    assert info.value.code == "unknown-treaty"
    s, _ = act(s, "refuse", "Germany", "danube")
    assert treatybook.find(s, "danube")["refusals"] == {"Austria-Hungary": "refuse-Germany"}


@pytest.mark.parametrize("clause, word", [
    ("OFFENSIVE ALLIANCE", "defensive Alliances only"),
    ("PAY Britain 10", "never give money"),
    ("Austria-Hungary: PAY Britain 10", "never give money"),
])
def test_austria_hungary_makes_no_offensive_alliance_and_pays_nothing(clause, word):
    with pytest.raises(Refused) as info:
        act(board(), "propose", "Britain", "bad", parties=("Austria-Hungary",), text=clause)
    assert info.value.code == "treaty-clause" and word in str(info.value)


def test_germany_may_pay_in_a_treaty_austria_hungary_is_party_to():
    s, _ = act(board(), "propose", "Britain", "paid", parties=("Austria-Hungary", "Germany"),
               text="Germany: PAY Britain 10\nDEFENSIVE ALLIANCE")
    assert treatybook.find(s, "paid")["status"] == "proposed"


def test_without_a_german_player_austria_hungary_is_no_party():
    with pytest.raises(Refused) as info:
        act(board(["Britain", "France", "Russia", "Italy"]), "propose", "Britain", "danube",
            parties=("Austria-Hungary",), text="DEFENSIVE ALLIANCE")
    assert info.value.code == "unknown-power"


def test_a_defensive_alliance_with_austria_hungary_gives_it_a_casus_belli_when_its_ally_is_attacked():
    s, _ = act(board(), "propose", "Britain", "danube", parties=("Austria-Hungary",), text="DEFENSIVE ALLIANCE")
    s, _ = act(s, "sign", "Germany", "danube")
    events = treaties.on_declaration(s, "France", ["Britain"])
    cbs = [e for e in events if e["kind"] == "cb"]
    assert [(e["holder"], e["against"]) for e in cbs] == [("Austria-Hungary", "France")]
    duty = s["obligations"][-1]
    assert (duty["power"], duty["ally"], duty["against"]) == ("Austria-Hungary", "Britain", "France")


def test_a_treaty_of_germany_with_austria_hungary_alone_is_refused_as_one_players():
    with pytest.raises(Refused) as info:
        act(board(), "propose", "Germany", "self", parties=("Austria-Hungary",), text="DEFENSIVE ALLIANCE")
    assert info.value.code == "treaty-parties" and "needs another player" in str(info.value)
