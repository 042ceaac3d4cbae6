"""GM REPLACE mails the new player a handover dossier: everything the power may
see, and nothing of any other power's private matters (issue 7)."""
import pytest

from pax_table import GM, PaxTable, address
from pbem.storage import store


@pytest.fixture
def pax(tmp_path, monkeypatch):
    table = PaxTable(tmp_path, monkeypatch)
    # France's private dealings, both ways, and others' that France must not see
    table.say("France", "TREATY PROPOSE entente WITH Britain", "France keeps out of Egypt.", "ENDTREATY")
    table.say("Britain", "TREATY SIGN entente")
    table.say("Germany", "TREATY PROPOSE dreibund WITH United-States", "Secret German-American pact.",
              "ENDTREATY")
    table.say("United-States", "TREATY PROPOSE monroe WITH Britain PUBLIC", "The Americas are closed.",
              "ENDTREATY")
    table.say("France", "PRESS TO Britain", "Shall we talk about Siam?", "ENDPRESS")
    table.say("Britain", "PRESS TO France", "Gladly; Siam stays free.", "ENDPRESS")
    table.say("Germany", "PRESS TO France GREY", "Beware the British.", "ENDPRESS")
    table.say("Germany", "PRESS TO United-States", "Our pact holds.", "ENDPRESS")
    table.say("Britain", "PRESS TO Germany", "Private word for Berlin.", "ENDPRESS")
    table.say("France", "ORDERS", "BUY INFLUENCE Tunis", "ENDORDERS")
    table.say("Germany", "ORDERS", "BUILD ARMY 3", "ENDORDERS")
    return table


def dossier(pax) -> tuple[str, str]:
    mail = [m for m in pax.loop.inbox("newfrance@example.test") if "handover dossier" in m["Subject"]]
    assert len(mail) == 1
    return pax.text(mail[0]), pax.html(mail[0])


def test_replace_sends_the_dossier_with_the_powers_treaties_press_and_orders(pax):
    reply = pax.gm("GM REPLACE France newfrance@example.test")
    assert "handover dossier" in reply
    text, html = dossier(pax)
    assert "You now play France in game pax" in text
    # position and what is due
    assert "== France ==" in text and "What you may do now" in text and "Your orders are due" in text
    # treaties: its secret one in full, and the public one
    assert "entente: in force; parties France, Britain; secret (parties only)" in text
    assert "France keeps out of Egypt." in text
    assert "monroe" in text and "The Americas are closed." in text
    # press both ways; the grey sender stays anonymous
    assert "you wrote to Britain" in text and "Shall we talk about Siam?" in text
    assert "Britain wrote to France" in text and "Gladly; Siam stays free." in text
    assert "an anonymous power wrote" in text and "Beware the British." in text
    # its stored orders, and how to get past reports
    assert "BUY INFLUENCE Tunis" in text.split("Orders\n------")[1]
    assert "RESEND" in text
    for part in ("Treaties France may see", "Press France sent and received", "Past reports"):
        assert part in text and part in html


def test_the_dossier_holds_nothing_of_another_powers_private_matters(pax):
    pax.gm("GM REPLACE France newfrance@example.test")
    text, html = dossier(pax)
    for secret in ("Secret German-American pact.", "dreibund", "Our pact holds.", "Private word for Berlin.",
                   "BUILD ARMY 3"):
        assert secret not in text and secret not in html, secret
    # no sender of grey press, no address, no secret
    assert "Germany wrote to France" not in text
    for row in store.players(pax.ctx, "pax"):
        for a in store.addresses(row):
            if a != "newfrance@example.test":
                assert a not in text and a not in html
    for secret in pax.secrets.values():
        assert secret not in text
    assert GM not in text


def test_the_new_player_can_sign_on_with_the_secret_from_the_welcome(pax):
    from helpers_loop import secret_in

    pax.gm("GM REPLACE France newfrance@example.test")
    welcome = [m for m in pax.loop.inbox("newfrance@example.test") if "you now play France" in m["Subject"]][0]
    secret = secret_in(pax.text(welcome))
    assert pax.loop.mail("newfrance@example.test", f"SIGNON France@pax {secret}\nSTATUS\n") == "done"
    pax.loop.flush()
    assert not [m for m in pax.loop.inbox(address("France")) if "handover dossier" in m["Subject"]]


def test_the_gm_names_a_power_of_several_words_as_the_reports_print_it(pax):
    """"GM REPLACE United States x@y" was refused with "unexpected 'x@y'": the GM
    had to know to write United-States.  The name as reports print it works."""
    reply = pax.gm("GM REPLACE United States newus@example.test")
    assert "United States: now newus@example.test" in reply
    assert pax.loop.about("newus@example.test", "handover dossier")
    assert "needs a power and an email address" in pax.gm("GM REPLACE newus@example.test")


def test_press_and_treaties_name_a_power_of_several_words_as_printed(pax):
    """"PRESS TO United States" and "TREATY PROPOSE ... WITH United States, France" were
    refused ('United' is no power): the grammar splits names at spaces."""
    reply = pax.say("Germany", "PRESS TO United States, France", "Hello both.", "ENDPRESS")
    assert "Press sent:\n  to United States, France" in reply, reply
    reply = pax.say("Germany", "TREATY PROPOSE triple WITH United States France", "We three.", "ENDTREATY")
    assert "parties Germany, United States, France" in reply, reply
    # an alias of several words too; a name that is no power is still refused
    assert "to Britain" in pax.say("Germany", "PRESS TO United Kingdom", "Hi.", "ENDPRESS")
    assert "unknown-power" in pax.say("Germany", "PRESS TO United Provinces", "Hi.", "ENDPRESS")


def test_a_misspelt_power_to_replace_gets_a_suggestion(pax):
    reply = pax.gm("GM REPLACE Britian new@example.test")
    assert "'Britian' has no player to replace (did you mean Britain?)" in reply, reply
