"""Treaty records a game concludes itself (a peace its rules enforced): nobody
signs them, no TREATY command applies, and the mail, the handover dossier and
the archive say how they were concluded instead of asking for signatures."""
from types import SimpleNamespace

import pytest

from pbem.kit import treatybook
from pbem.reporting import dossier
from pbem.web import archive
from pbem.kit.capabilities import Treaties
from pbem.kit.gameapi import Refused, TreatyAction
from pbem.reporting.render import render


def _state():
    record = treatybook.concluded_record("peace-1", ["North", "South"], "North keeps the beacon.\nTruce.",
                                         "enforced in round 2")
    return {"treaties": {"peace-1": record}}


def test_a_concluded_record_is_in_force_with_no_signatures():
    record = _state()["treaties"]["peace-1"]
    assert (record["status"], record["signatures"], record["concluded"]) == ("in_force", {}, "enforced in round 2")


@pytest.mark.parametrize("verb", ["sign", "refuse", "withdraw", "reveal", "breach"])
def test_every_treaty_command_on_a_concluded_record_is_refused(verb):
    state = _state()
    with pytest.raises(Refused) as exc:
        treatybook.act(state, TreatyAction(verb, "South", "peace-1", "2026-01-05T18:00:00+00:00",
                                           against="North"), ["North", "South"])
    assert exc.value.code == "treaty-concluded"
    assert state["treaties"]["peace-1"]["history"] == []


def test_the_mailed_record_says_how_it_was_concluded_and_asks_for_nothing():
    text = render("treaty.txt.j2", t=_state()["treaties"]["peace-1"], game="g1", site="pbem", reader="South",
                  zone="UTC")
    assert "Concluded:  enforced in round 2" in text and "North keeps the beacon." in text
    assert "TREATY" not in text.split("Text:")[1] and "not signed" not in text and "Proposer" not in text


def test_a_proposed_record_still_ends_with_the_treaty_commands():
    state = {}
    treatybook.act(state, TreatyAction("propose", "North", "t1", "2026-01-05T18:00:00+00:00", ("South",), "x"),
                   ["North", "South"])
    text = render("treaty.txt.j2", t=state["treaties"]["t1"], game="g1", site="pbem", reader="South", zone="UTC")
    assert "TREATY SIGN t1 / TREATY REFUSE t1" in text and "Concluded" not in text


def test_the_dossier_and_the_archive_show_the_conclusion_instead_of_signatures():
    state = _state()
    class Book(Treaties):  # a game with treaties (the moderator asks for the capability)
        def treaty_records(self, s, power, gm=False):
            return treatybook.visible(s, power, gm)

    game = Book()
    rec = SimpleNamespace(state=state, rules=game, policy=SimpleNamespace(timezone="UTC"))
    lines = dossier.treaty_lines(rec, "South")
    assert "  concluded by the game: enforced in round 2" in lines and not any("not signed" in x for x in lines)
    assert archive.treaties(rec, game)[0]["concluded"] == "enforced in round 2"
