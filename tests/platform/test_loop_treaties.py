"""Treaties by mail (test game, three powers): records to every party on each
change, secret treaties hidden from others until revealed, refusal, lapse by
mutual withdrawal."""
import re

import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.storage import store


@pytest.fixture
def lp(tmp_path):
    lp = Loop(tmp_path)
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon\n")
    for power in ("North", "South", "East"):
        lp.join(f"{power.lower()}@example.test", "g1", power, f"{power.lower()}-password")
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM START\n")
    lp.flush()
    return lp


def say(lp, power, text):
    return lp.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {power.lower()}-password\n{text}\n")


def treaty(lp, treaty_id):
    """The game's own record: treaties live in the game's state."""
    return store.get_game(lp.ctx, "g1").state["treaties"][treaty_id]


def subjects(lp, power):
    return [m["Subject"] for m in lp.inbox(f"{power.lower()}@example.test")]


def test_secret_treaty_stays_with_its_parties_until_revealed(lp):
    say(lp, "North", "TREATY PROPOSE pact WITH South SECRET\nNo bids above 3.\nENDTREATY")
    say(lp, "South", "TREATY SIGN pact")
    lp.flush()
    assert any("treaty pact: in force" in s for s in subjects(lp, "North"))
    assert not any("treaty pact" in s for s in subjects(lp, "East"))
    say(lp, "East", "TREATY LIST")
    lp.flush()
    assert "pact" not in lp.last_text("east@example.test")
    say(lp, "South", "TREATY REVEAL pact")
    lp.flush()
    record = [m for m in lp.inbox("east@example.test") if "treaty pact" in m["Subject"]][-1]
    assert "No bids above 3." in record.get_body(("plain",)).get_content()


def test_refusal_ends_a_proposal_and_signing_after_it_is_refused(lp):
    say(lp, "North", "TREATY PROPOSE t2 WITH South, East\nShare the beacon.\nENDTREATY")
    say(lp, "East", "TREATY REFUSE t2")
    say(lp, "South", "TREATY SIGN t2")
    lp.flush()
    assert "[treaty-closed]" in lp.last_text("south@example.test")
    assert treaty(lp, "t2")["status"] == "refused"


def test_a_treaty_in_force_lapses_only_when_every_party_withdraws(lp):
    say(lp, "North", "TREATY PROPOSE t3 WITH South\nPeace.\nENDTREATY")
    say(lp, "South", "TREATY SIGN t3")
    say(lp, "North", "TREATY WITHDRAW t3")
    assert treaty(lp, "t3")["status"] == "in_force"
    say(lp, "South", "TREATY WITHDRAW t3")
    assert treaty(lp, "t3")["status"] == "lapsed"


def test_only_parties_may_sign(lp):
    say(lp, "North", "TREATY PROPOSE t4 WITH South\nx\nENDTREATY")
    say(lp, "East", "TREATY SIGN t4")
    lp.flush()
    assert "[unknown-treaty]" in lp.last_text("east@example.test")


def test_a_signed_treaty_reaches_a_game_that_scores_treaties(tmp_path):
    lp = Loop(tmp_path)
    lp.mail("gm@example.test", f"SIGNON GM@pax {GM_SECRET}\nGM CREATE pax RULES pax_britannica\n")
    powers = ["Britain", "France", "Germany", "United-States"]
    for power in powers:
        lp.join(f"{power.lower()}@example.test", "pax", power, f"{power.lower()}-password")
    lp.mail("gm@example.test", f"SIGNON GM@pax {GM_SECRET}\nGM START\n")
    say = lambda p, text: lp.mail(f"{p.lower()}@example.test", f"SIGNON {p}@pax {p.lower()}-password\n{text}\n")
    say("United-States", "TREATY PROPOSE monroe WITH Britain\nThe Americas are closed.\nENDTREATY")
    assert store.get_game(lp.ctx, "pax").state["treaties"]["monroe"]["status"] == "proposed"
    say("Britain", "TREATY SIGN monroe")
    record = store.get_game(lp.ctx, "pax").state["treaties"]["monroe"]
    assert (record["parties"], record["secret"], record["status"]) == (["United States", "Britain"], True,
                                                                       "in_force")
    assert record["text"] == "The Americas are closed."


def test_a_power_no_player_holds_is_a_party_its_seat_signs_and_reads_for(tmp_path):
    """The game's treaty_seats: Pax Britannica's Austria-Hungary, written for by the German
    player, is named as a party; its secret treaty reaches that player and nobody else."""
    lp = Loop(tmp_path)
    lp.mail("gm@example.test", f"SIGNON GM@pax {GM_SECRET}\nGM CREATE pax RULES pax_britannica\n")
    for power in ("Britain", "France", "Germany", "Russia"):
        lp.join(f"{power.lower()}@example.test", "pax", power, f"{power.lower()}-password")
    lp.mail("gm@example.test", f"SIGNON GM@pax {GM_SECRET}\nGM START\n")
    lp.flush()
    say = lambda p, text: lp.mail(f"{p.lower()}@example.test", f"SIGNON {p}@pax {p.lower()}-password\n{text}\n")
    say("Britain", "TREATY PROPOSE danube WITH Austria-Hungary SECRET\nDEFENSIVE ALLIANCE\nENDTREATY")
    lp.flush()
    assert "TREATY SIGN danube / TREATY REFUSE danube" in lp.last_text("germany@example.test")
    # A German player who takes over finds the answer owed for Austria-Hungary in his dossier.
    lp.mail("gm@example.test", f"SIGNON GM@pax {GM_SECRET}\nGM REPLACE Germany kaiser@example.test\n")
    lp.flush()
    welcome = lp.last_text("kaiser@example.test")  # the secret, with the handover dossier
    assert "treaty danube waits for your answer" in welcome
    secret = re.search(r"Your secret is:\s+(\S+)", welcome).group(1)
    lp.mail("kaiser@example.test", f"SIGNON Germany@pax {secret}\nTREATY SIGN danube\n")
    lp.flush()
    assert "Germany signed (for Austria-Hungary)\n" in lp.last_text("kaiser@example.test")
    assert "TREATY WITHDRAW danube / TREATY REVEAL danube" in lp.last_text("kaiser@example.test")
    record = store.get_game(lp.ctx, "pax").state["treaties"]["danube"]
    assert (record["parties"], record["status"]) == (["Britain", "Austria-Hungary"], "in_force")
    assert "treaty danube: in force" in lp.last_text("kaiser@example.test")
    assert "Austria-Hungary: signed" in lp.last_text("kaiser@example.test")
    for outsider in ("france@example.test", "russia@example.test"):
        assert not any("danube" in m.get_body(("plain",)).get_content() for m in lp.inbox(outsider))
    say("France", "TREATY PROPOSE vienna WITH Austria-Hungary\nOFFENSIVE ALLIANCE\nENDTREATY")
    lp.flush()
    assert "defensive Alliances only" in lp.last_text("france@example.test")


def test_the_report_lists_the_treaties_in_force_its_reader_may_see(lp):
    say(lp, "North", "TREATY PROPOSE pact WITH South\nNo bids above 3.\nENDTREATY")
    say(lp, "South", "TREATY SIGN pact")
    for power in ("North", "South", "East"):
        say(lp, power, "ORDERS\nPASS\nENDORDERS")
    lp.tick()
    lp.flush()

    def report(power):
        mail = [m for m in lp.inbox(f"{power.lower()}@example.test") if "turn report" in m["Subject"]][-1]
        return mail.get_body(("plain",)).get_content()

    assert "Treaties in force you may see:\n  pact (North, South; secret): No bids above 3." in report("South")
    assert "pact" not in report("East")
