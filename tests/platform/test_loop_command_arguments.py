"""Every mail command, with empty, huge and odd arguments, through the whole
loop: as a signed-on player, as the GM and from a stranger.  None may raise
inside pbem (the reply would say internal-error), every mail gets exactly
one reply, and a command that does fail is undone alone while the rest of
the mail stands."""
from __future__ import annotations

import dataclasses
import email
import re
from email import policy

import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.inbound import intake
from pbem.storage import phase_orders
from pbem.handlers.catalogue import COMMANDS
from pbem.storage.db import loads
from pbem.commands import model as m
from pbem.handlers import catalogue
from pbem.mail.source import RawMail

ODD = ["", "x" * 5000, "\u202eNorth", "'; DROP TABLE players;--", "../../../etc/passwd", "<>", "@@",
       "a@b", "---", "-1", "99999999999999999999", "%s%n", "\u00a0", "ALL", "North,South",
       "2026-02-30 25:99 Mars/Olympus", "=v", "Δ∂ƒ\t#comment"]


def lines_for(syntax: str, value: str) -> str:
    """The command written with every placeholder given ``value``, and a block body."""
    text = syntax.replace("...", "").replace("[,<power>...]", "").replace("[,<email>...]", "")
    text = re.sub(r"\[([^\]]*)\]", r"\1", text)
    text = re.sub(r"<[^>]+>", value, text)
    text = " ".join(text.split())
    first = syntax.split()[0] if syntax.split()[0] != "GM" else " ".join(syntax.split()[:2])
    ends = {"ORDERS": "ENDORDERS", "PRESS": "ENDPRESS", "TREATY PROPOSE": "ENDTREATY",
            "GM ANNOUNCE": "ENDANNOUNCE"}
    for start, end in ends.items():
        if syntax.startswith(start):
            text = text.replace(end, "").strip()
            return f"{text}\n{value}\n{value} {value}\n{end}"
    return text + ("" if first else "")


CASES = [(c.keyword, value) for c in COMMANDS for value in ODD]


@pytest.fixture(scope="module")
def loop(tmp_path_factory):
    lp = Loop(tmp_path_factory.mktemp("arguments"))
    lp.start_beacon()
    lp.ctx.limits = type(lp.ctx.limits)(stranger_replies_per_hour_all=10**6,
                                        stranger_reply_bytes_per_hour_all=10**9,
                                        stranger_reply_bytes_per_hour=10**9)
    return lp


def _deliver(loop, sender: str, body: str) -> tuple[str, str]:
    loop.counter += 1
    raw = (f"From: {sender}\nTo: pbem@example.test\nSubject: args\nMessage-ID: <args{loop.counter}@players.test>\n"
           "Content-Type: text/plain; charset=utf-8\n\n").encode() + body.encode("utf-8")
    msg_id = intake.store_raw(loop.ctx, RawMail(f"args:{loop.counter}", raw))
    status = intake.process(loop.ctx, msg_id)
    replies = list(loop.db["outbox"].rows_where("source = ? and kind = 'reply'", [msg_id]))
    assert status in ("done", "rejected"), loop.db["messages"].get(msg_id)["error"]
    assert len(replies) == 1 and sender in loads(replies[0]["recipients"])
    reply = email.message_from_bytes(replies[0]["raw"], policy=policy.default)
    return status, reply.get_body(("plain",)).get_content()


@pytest.mark.parametrize("keyword, value", CASES, ids=[f"{k}-{i}" for k, i in
                                                      ((k, ODD.index(v)) for k, v in CASES)])
def test_every_command_with_odd_arguments_is_answered_without_an_internal_error(loop, keyword, value):
    syntax = next(c.syntax for c in COMMANDS if c.keyword == keyword)
    command = lines_for(syntax, value)
    # Game-changing GM commands go to a game of their own, so the player's game stays playable.
    for sender, head in (("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\n"),
                         ("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM BECOME North\n"),
                         ("stranger@elsewhere.test", "")):
        if keyword.startswith("GM") and sender == "north@example.test":
            continue
        status, reply = _deliver(loop, sender, head + command + "\nSTATUS\n")
        assert "[internal-error]" not in reply, reply


def break_handler(monkeypatch, cls, handler) -> None:
    """Give the command ``cls`` another handler, as its declaration would."""
    declared = catalogue.BY_CLASS[cls]
    monkeypatch.setitem(catalogue.BY_CLASS, cls, dataclasses.replace(declared, handler=handler))


def test_a_command_that_raises_is_undone_alone_and_the_rest_of_the_mail_stands(tmp_path, monkeypatch):
    loop = Loop(tmp_path)
    loop.start_beacon()

    def broken(session, cmd):
        session.section("half done", ["this must not reach the reply"])
        loop.db["gm_log"].insert({"game": "g1", "actor": "x", "action": "half", "detail": ""})
        raise ZeroDivisionError("a bug")

    break_handler(monkeypatch, m.Status, broken)
    status, reply = _deliver(loop, "north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\n"
                             "ORDERS\nBID 4\nENDORDERS\nSTATUS\nDONE\n")
    assert status == "done"
    assert "[internal-error]" in reply and "ZeroDivisionError" in reply and "half done" not in reply
    assert "BID 4" in reply and "Done for" in reply
    assert loop.db["gm_log"].count_where("action = 'half'") == 0
    assert [o.canonical for o in phase_orders.current_orders(loop.ctx, "g1", "1/orders")["North"]] == ["BID 4"]
    loop.flush()
    told = [m for m in loop.inbox("gm@example.test") if "could not be handled" in m["Subject"]]
    assert told and "line 5: STATUS" in told[0].get_body(("plain",)).get_content()


def test_a_gm_command_that_raises_on_the_command_line_is_undone_alone(tmp_path, monkeypatch):
    """``pbem gm`` runs each command as a GM mail does: under its own savepoint."""
    from pbem.host import gm_console

    loop = Loop(tmp_path)
    loop.start_beacon()

    def broken(session, cmd):
        loop.db["gm_log"].insert({"game": "g1", "actor": "x", "action": "half", "detail": ""})
        raise ZeroDivisionError("a bug")

    break_handler(monkeypatch, m.GmPause, broken)
    deadline = loop.db["games"].get("g1")["deadline"]
    reply, accepted = gm_console.run(loop.ctx, "g1", ["EXTEND 24h", "PAUSE", "EXTEND 2h"])
    assert not accepted and "[internal-error]" in reply and "ZeroDivisionError" in reply
    assert loop.db["gm_log"].count_where("action = 'half'") == 0
    assert loop.db["games"].get("g1")["status"] == "active"
    # both extensions stand: the one before the failing command and the one after it
    assert loop.db["gm_log"].count_where("action like 'extended the deadline%'") == 2
    assert loop.db["games"].get("g1")["deadline"] != deadline


def test_a_player_command_given_to_the_gm_console_is_not_a_gm_command(tmp_path):
    """A line the console does not prefix with GM (after a newline in one argument) is
    refused as ``not-gm-command``, as ``GM STATUS`` is: ``not-gm`` is a player sending a
    GM command by mail."""
    from pbem.host import gm_console

    loop = Loop(tmp_path)
    loop.start_beacon()
    reply, accepted = gm_console.run(loop.ctx, "g1", ["EXTEND 1h\nSTATUS", "STATUS"])
    assert not accepted
    assert "line 2: [not-gm-command] STATUS is not a GM command" in reply
    assert "line 3: [not-gm-command] STATUS is not a GM command: write it without GM" in reply
    assert "[not-gm]" not in reply
