"""A breach claim by mail: a power of several words is named as players write it, the GM is
mailed the claim, and GM STATUS and TREATY LIST show the open claims with the treaty's id the
GM rules on."""
from __future__ import annotations

import pytest

from pax_table import GM, PaxTable


@pytest.fixture
def pax(tmp_path, monkeypatch):
    table = PaxTable(tmp_path, monkeypatch)
    table.say("France", "TREATY PROPOSE entente WITH United-States", "Cordial words.", "ENDTREATY")
    table.say("United-States", "TREATY SIGN entente")
    return table


def test_a_claim_names_a_power_of_several_words(pax):
    reply = pax.say("France", "TREATY BREACH entente United States sold arms to Britain")
    assert "Treaty entente: breach by United States claimed." in reply, reply
    record = pax.ctx.db["snapshots"].count_where("game = 'pax' and kind = 'input' and label like '%breach%'")
    assert record == 1
    reply = pax.say("France", "TREATY BREACH entente Nowhere Land did it")
    assert "[unknown-power] 'Nowhere' is not a power" in reply


def test_the_gm_is_mailed_the_claim_and_sees_it_in_status_and_treaty_list(pax):
    before = len(pax.mails(GM, "breach"))
    pax.say("France", "TREATY BREACH entente United States sold arms to Britain")
    told = pax.mails(GM, "breach")[before:]
    assert len(told) == 1, [m["Subject"] for m in pax.mails(GM)]
    text = pax.text(told[0])
    assert "France claims United States broke treaty entente: sold arms to Britain" in text
    assert "GM RULE entente" in text
    status = pax.gm("STATUS")
    assert "Open breach claims:" in status and "entente: France claims United States broke it" in status
    listed = pax.gm("TREATY LIST")
    assert "entente" in listed and "open claim: France against United States" in listed
    listed = pax.say("United-States", "TREATY LIST")
    assert "open claim: France against United States" in listed
    assert "open claim" not in pax.say("Britain", "TREATY LIST")
    pax.gm("GM RULE entente DISMISSED")
    assert "Open breach claims:" not in pax.gm("STATUS")
    assert "open claim" not in pax.gm("TREATY LIST")


def test_a_ruling_on_a_misspelt_treaty_is_refused_with_the_id_meant_and_told_to_nobody(pax):
    pax.say("France", "TREATY BREACH entente United States sold arms to Britain")
    before = len(pax.mails("Britain"))
    reply = pax.gm("GM RULE entnte UPHELD")
    assert "[unknown-question]" in reply and "(did you mean entente?)" in reply, reply
    reply = pax.gm("GM RULE entente_ the claim stands")
    assert "(did you mean entente?)" in reply, reply
    reply = pax.gm("GM RULE nothing UPHELD")
    assert "[unknown-question] there is no treaty 'nothing' to rule on" in reply
    assert len(pax.mails("Britain")) == before
    assert "Open breach claims:" in pax.gm("STATUS")


def test_a_reveal_tells_each_player_what_it_changed_and_the_breaker_that_its_orders_are_due(
        tmp_path, monkeypatch):
    """A secret treaty broken in the Movement Phase is revealed in the Negotiation: the revealer
    reads the Casus Belli it gained in its reply, the breaker is told the Casus Belli against it
    and that it now owes Negotiation orders (in one mail), and nobody else hears of it."""
    t = PaxTable(tmp_path, monkeypatch)
    t.gm("GM SET TREATY maroc France Britain SECRET CLAUSES France: NO MARKERS IN Marocco")
    t.all_order({"France": ["BUY INTEREST Marocco"]})
    assert t.say("Britain", "STATUS").count("Negotiation") >= 1
    france, germany, gm = len(t.mails("France")), len(t.mails("Germany")), len(t.mails(GM))
    reply = t.say("Britain", "TREATY REVEAL maroc")
    assert len(t.mails(GM)) == gm  # a player's treaty command: no copy for the GM
    assert "A treaty command changed Britain's position:" in reply, reply
    assert "Britain: Casus Belli held: against France (was none)" in reply
    told = t.mails("France")[france:]
    assert len(told) == 1, [m["Subject"] for m in told]
    text = t.text(told[0])
    assert "France: Casus Belli against it: Britain (was none)" in text
    assert "France now owes orders for 1880 Negotiation" in text
    assert len(t.mails("Germany")) == germany + 1  # the treaty's record, now public: nothing else
    assert "position" not in t.text(t.mails("Germany")[-1])
    reply = t.say("France", "ORDERS", "DOWNGRADE Marocco", "ENDORDERS")
    assert "Still waiting for orders from: Britain, France\n(In this phase you may write several mails: you are done " \
           "when you send DONE, or at the deadline.)" in reply, reply
    assert "(In this phase" not in t.say("France", "DONE")
