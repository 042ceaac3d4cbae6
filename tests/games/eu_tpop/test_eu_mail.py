"""Europa Universalis: The Price of Power played by mail through the real test
mail servers (Dovecot and SMTP on loopback): a declaration with a Call to Arms
accepted by mail, a battle with a retreat decision asked and answered by mail,
a siege, then Phase 3 with a Partial Victory enforced as Keep Current Board
State, the truce that follows, and the treaty record mailed to both sides."""
from __future__ import annotations

import re

import pytest

from pbem.storage import store
from pbem.play.verify import verify

from helpers_mailtable import GM_SECRET, Table, find

pytestmark = pytest.mark.mail

PLAYERS = {"alice": "Valmont", "bob": "Corvia", "carol": "Ostmark"}


@pytest.fixture
def table(mail_servers, clean_mailboxes, tmp_path):
    t = Table(mail_servers, tmp_path)
    yield t
    t.close()


def _state(table):
    return store.get_game(table.ctx, "eu1").state


def test_war_peace_and_treaty_by_mail(table):
    gm_lines = [f"SIGNON GM@eu1 {GM_SECRET}", "GM CREATE eu1 RULES eu_tpop OPTION setup=sample"]
    gm_lines += [f"GM ADD PLAYER {realm} {table.servers.address(user)}" for user, realm in PLAYERS.items()]
    gm_lines += ["GM START",
                 # The table's own set-up for this story: card effects and a board the GM arranges.
                 "GM SET REBELS Marches 0", 'GM REMOVE UNITS Valmont "Western Sea"',
                 'GM REMOVE UNITS Corvia "Western Sea"', "GM REMOVE ALLIANCE Corvia Lusca",
                 "GM REMOVE UNITS Corvia Corvia", "GM SET UNITS Corvia Marches INF 8",
                 "GM SET UNITS Valmont Valmont INF 20 CAV 1", "GM SET ALLIANCE Valmont Ostmark"]
    table.send("gm", "\n".join(gm_lines) + "\n")
    table.run()
    gm_reply = table.text(find(table.new_mail("gm"), "received"))
    assert "Game created" in gm_reply and "invented" in gm_reply   # the assumptions, shown at creation
    secrets = {}
    for user, realm in PLAYERS.items():
        welcome = table.text(find(table.new_mail(user), "you play"))
        secrets[realm] = re.search(r"Your secret is:\s+(\S+)", welcome).group(1)

    def send(user, body):
        realm = PLAYERS[user]
        table.send(user, f"SIGNON {realm}@eu1 {secrets[realm]}\n{body}")
        table.run()

    # STATUS tells a new player where its realm stands and what it may do now.
    send("carol", "STATUS\n")
    status = table.text(find(table.new_mail("carol"), "received"))
    assert "Ostmark: prestige 10, stability +0, 15 Ducats" in status and "Vassals: Miren" in status
    assert "Valmont is acting. You may send STANDING orders at any time." in status

    # Corvia, not acting, leaves a standing order; a wrong-phase action is refused with its reason.
    send("bob", "ORDERS\nSTANDING RETREAT ASK\nRECRUIT 1 INF IN Corvia\nEND\n")
    ack = table.text(find(table.new_mail("bob"), "received"))
    assert "[not-your-turn]" in ack and "STANDING RETREAT ASK" in ack

    # Valmont declares war on Corvia and calls its ally Ostmark, who is asked by mail.
    send("alice", "ORDERS\nSTANDING RETREAT NEVER\nDECLARE WAR ON Corvia\nCALL TO ARMS Ostmark\nEND\n")
    call = table.text(find(table.new_mail("carol"), "turn report"))
    assert "Valmont calls you to arms against Corvia" in call
    assert _state(table)["phase"] == "reaction"
    send("carol", "ORDERS\nACCEPT\nEND\n")
    report = table.text(find(table.new_mail("alice"), "turn report"))
    assert "Offensive Call to Arms from Valmont to Ostmark: accepted" in report
    state = _state(table)
    assert "Corvia|Ostmark" in [w["pair"] for w in state["wars"]] and state["active"] == "Corvia"

    send("bob", "ORDERS\nPASS\nEND\n")
    send("carol", "ORDERS\nPASS\nEND\n")

    # Valmont attacks Corvia's army in the Marches: after the first round Corvia is asked.
    send("alice", "ORDERS\nACTIVATE Valmont TO Marches\nEND\n")
    asked = table.text(find(table.new_mail("bob"), "turn report"))
    assert "Battle in Marches after round 1: send RETREAT [TO <area>] or FIGHT" in asked
    assert re.search(r"Round 1: Valmont rolled .* hits?\)", asked)
    send("bob", "ORDERS\nRETREAT TO Corvia\nEND\n")
    report = table.text(find(table.new_mail("alice"), "turn report"))
    assert "Corvia retreats from Marches to Corvia" in report and "winner Valmont" in report

    # Valmont besieges the Marches and passes: Phase 3 begins.
    send("alice", "ORDERS\nSIEGE Marches\nEND\n")
    state = _state(table)
    assert state["provinces"]["Dauvin"]["controller"] == "Valmont"
    send("alice", "ORDERS\nPASS\nEND\n")
    state = _state(table)
    assert state["phase"] == "p3" and state["step"] == "D"
    window = table.text(find(table.new_mail("alice"), "turn report"))
    assert "Corvia: your Partial Victory" in window

    # Peace Resolution: Valmont enforces Keep Current Board State; Corvia has nothing to add.
    send("alice", "ORDERS\nENFORCE keep_current_board_state ON Corvia\nEND\n")
    send("bob", "DONE\n")
    state = _state(table)
    assert "Corvia|Valmont" in state["truces"]
    assert state["provinces"]["Dauvin"]["owner"] == "Valmont"
    assert state["phase"] == "action" and state["round"] == 2
    record_id = next(t for t, r in state["treaties"].items() if r["term"] == "keep_current_board_state")
    for user in ("alice", "bob"):
        mails = table.new_mail(user)
        record = table.text(find(mails, f"treaty {record_id}"))
        assert "Keep Current Board State" in record and "Truce between Valmont and Corvia" in record
        assert "until Phase 3 (Peace & Rebels) of round 2" in record and "Concluded:" in record
        assert "TREATY SIGN" not in record and "TREATY WITHDRAW" not in record and "not signed" not in record
        assert "Peace between Valmont and Corvia: Keep Current Board State" in table.text(find(mails, "turn report"))

    # A peace the rules concluded takes no TREATY command.
    send("bob", f"TREATY WITHDRAW {record_id}\n")
    assert "[treaty-concluded]" in table.text(find(table.new_mail("bob"), "received"))

    result = verify(table.ctx, "eu1")
    assert result.ok, result.problems
