"""The one gate (pbem.kit.audience): who may see a fact with each audience, a treaty's audience
read against the treaty book when the text is made, and the safe default for a fact
without one."""
from __future__ import annotations

import pytest

from pbem.kit import audience as a
from pbem.kit import treatybook
from pbem.kit.gameapi import Refused, TreatyAction

BOOK = {"dual": (True, ("France", "Russia")), "monroe": (False, ("Britain", "United States"))}
READERS = ("France", "Russia", "Britain", a.PUBLIC, a.GM, a.ADMIN)


@pytest.mark.parametrize("audience,may", [
    (a.public(), set(READERS)),
    (a.powers("France", "Britain"), {"France", "Britain", a.GM}),
    (a.treaty("dual", ("France", "Russia")), {"France", "Russia", a.GM}),
    (a.treaty("monroe"), {"France", "Russia", "Britain", a.PUBLIC, a.GM}),
    (a.gm(), {a.GM}),
    (a.admin(), {a.ADMIN}),
    (None, {a.GM}),
])
def test_who_may_see_a_fact_with_each_audience(audience, may):
    fact = {} if audience is None else a.tag({}, audience)
    assert {r for r in READERS if a.admits(a.of(fact), r, BOOK)} == may


def test_a_treaty_the_book_no_longer_knows_is_for_its_parties_as_they_were():
    audience = a.treaty("gone", ("France", "Russia")).to_json()
    assert a.admits(audience, "Russia", BOOK) and not a.admits(audience, "Britain", BOOK)
    assert not a.admits(audience, a.PUBLIC, BOOK)


def test_audiences_are_json_and_come_back_the_same():
    for audience in (a.public(), a.gm(), a.admin(), a.powers(["France"], "Italy"), a.treaty("t", ["A", "B"])):
        assert a.Audience.from_json(audience.to_json()) == audience
    assert a.Audience.from_json({"nonsense": 1}) is None and a.Audience.from_json(None) is None


def test_a_record_of_several_facts_is_public_only_when_each_is():
    assert a.narrowest([a.public().to_json(), "public"]) == a.public()
    assert a.narrowest(["public", {"powers": ["France"]}]) == a.gm()
    assert a.narrowest([]) == a.gm() and a.narrowest(["public", None]) == a.gm()


def test_a_secret_treaty_becomes_public_for_every_fact_once_revealed():
    state = {}
    seated = ["France", "Russia", "Britain"]
    treatybook.act(state, TreatyAction("propose", "France", "dual", "t0", ("Russia",), "x", True), seated)
    _, events = treatybook.act(state, TreatyAction("sign", "Russia", "dual", "t1"), seated)
    fact = events[0]
    book = a.book_of(treatybook.visible(state, None, gm=True))
    assert not a.admits(a.of(fact), "Britain", book) and a.admits(a.of(fact), "Russia", book)
    treatybook.act(state, TreatyAction("reveal", "Russia", "dual", "t2"), seated)
    book = a.book_of(treatybook.visible(state, None, gm=True))
    assert a.admits(a.of(fact), "Britain", book) and a.admits(a.of(fact), a.PUBLIC, book)


def test_a_proposal_is_judged_before_its_id_and_its_id_only_against_what_the_proposer_sees():
    seated = ["France", "Russia", "Britain", "Germany"]
    state = {}
    treatybook.act(state, TreatyAction("propose", "France", "sec1", "t0", ("Russia",), "x", True), seated)
    # an invalid proposal gets its own refusal, whatever exists
    with pytest.raises(Refused) as refused:
        treatybook.act(state, TreatyAction("propose", "Germany", "sec1", "t1", (), "y", True), seated)
    assert refused.value.code == "treaty-parties"
    # a valid one with the hidden id is proposed as with a free id, under a key of its own
    record, events = treatybook.act(state, TreatyAction("propose", "Germany", "sec1", "t1", ("Britain",), "y", True),
                                    seated)
    assert record["id"] == "sec1" and record["key"] == "sec1~Germany" and events[0]["key"] == "sec1~Germany"
    # an id the proposer sees is taken
    with pytest.raises(Refused) as refused:
        treatybook.act(state, TreatyAction("propose", "Britain", "SEC1", "t2", ("Germany",), "z", True), seated)
    assert refused.value.code == "treaty-exists"
    # a command on a treaty the sender cannot see reads as one on an id nobody has
    for ref in ("sec1~France", "nothing"):
        with pytest.raises(Refused) as refused:
            treatybook.act(state, TreatyAction("reveal", "Britain", ref, "t3"), seated)
        assert refused.value.code == "unknown-treaty"
        assert str(refused.value) == f"you are not a party to a treaty {ref!r}"


def test_a_misspelt_treaty_id_is_answered_with_the_nearest_the_sender_is_party_to_and_no_other():
    seated = ["France", "Russia", "Britain", "Germany"]
    state = {}
    treatybook.act(state, TreatyAction("propose", "Britain", "anglo-german", "t0", ("Germany",), "x", True), seated)
    treatybook.act(state, TreatyAction("propose", "France", "franco-russian", "t1", ("Russia",), "y", True), seated)
    with pytest.raises(Refused) as refused:
        treatybook.act(state, TreatyAction("sign", "Germany", "anglo_german", "t2"), seated)
    assert refused.value.problem(3).render() == ("line 3: [unknown-treaty] you are not a party to a treaty "
                                                 "'anglo_german' (did you mean anglo-german?)")
    # a secret treaty the sender may not see is never offered
    with pytest.raises(Refused) as refused:
        treatybook.act(state, TreatyAction("sign", "Germany", "franco_russian", "t3"), seated)
    assert refused.value.suggestion is None
