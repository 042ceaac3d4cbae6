"""The three steps of a daemon pass (intake, deadlines, outbox) are independent:
one failing step logs, backs off and leaves the others running.  Against the
real Dovecot and SMTP relay; the unreachable server is a free port nobody
listens on."""
from __future__ import annotations

import asyncio
import email
import logging

import pytest

from fixtures_mail import free_port
from helpers_loop import Loop
from pbem.storage import store
from pbem.storage.db import parse_iso
from pbem.host.backoff import Backoff
from pbem.host.daemon import Daemon
from pbem.mail.imap_source import ImapSource
from pbem.mail.sender import SmtpSender


def _subjects(raw_messages) -> list[str]:
    return [email.message_from_bytes(raw)["Subject"] for raw in raw_messages]


def _game(servers, tmp_path) -> Loop:
    """A running Beacon game whose players are alice (North) and bob (South)."""
    loop = Loop(tmp_path)
    loop.ctx.address = servers.address("moderator")
    loop.start_beacon(addresses={"North": servers.address("alice"), "South": servers.address("bob")})
    return loop


def _serve_once(daemon: Daemon) -> None:
    asyncio.run(daemon.serve(once=True))


@pytest.mark.mail
def test_with_imap_unreachable_a_due_phase_still_resolves_and_the_outbox_delivers(
        clean_mailboxes, tmp_path, caplog):
    servers = clean_mailboxes
    loop = _game(servers, tmp_path)
    # North's orders came in earlier; their acknowledgement is still queued.
    loop.mail(servers.address("alice"), f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 2\n")
    loop.clock.advance(hours=73)  # past the deadline: South's defaults apply
    dead_imap = ImapSource("127.0.0.1", free_port(), "moderator", "x", ssl_context=None, timeout=5)
    # A pause longer than the test: the intake step is tried once, however slow the machine.
    daemon = Daemon(loop.ctx, dead_imap, SmtpSender(servers.smtp_host, servers.smtp_port, timeout=10),
                    backoff=(300.0, 600.0))

    with caplog.at_level(logging.WARNING, logger="pbem"):
        _serve_once(daemon)

    assert store.get_game(loop.ctx, "g1").state["round"] == 2
    alice = _subjects(servers.wait_for_messages("alice", 2))
    assert any("received" in s for s in alice) and any("turn report" in s for s in alice)
    assert any("turn report" in s for s in _subjects(servers.wait_for_messages("bob", 1)))
    intake_lines = [r for r in caplog.records if r.name == "pbem.host.daemon" and "intake" in r.getMessage()]
    assert len(intake_lines) == 1 and "next try in" in intake_lines[0].getMessage()


@pytest.mark.mail
def test_with_smtp_unreachable_intake_still_handles_and_acknowledges_mail(clean_mailboxes, tmp_path):
    servers = clean_mailboxes
    loop = _game(servers, tmp_path)
    moderator = servers.address("moderator")
    for user, power in (("alice", "North"), ("bob", "South")):
        servers.send(f"From: {servers.address(user)}\r\nTo: {moderator}\r\nSubject: orders\r\n"
                     f"Message-ID: <{user}-1@players.test>\r\n\r\n"
                     f"SIGNON {power}@g1 {loop.secrets[power]}\r\nORDERS\r\nBID 1\r\n".encode(),
                     servers.address(user), [moderator])
    def source():
        return ImapSource(servers.imap_host, servers.imap_port, "moderator", servers.password("moderator"),
                          idle=False, timeout=10)
    dead_smtp = SmtpSender("127.0.0.1", free_port(), timeout=5)
    daemon = Daemon(loop.ctx, source(), dead_smtp)

    _serve_once(daemon)

    handled = list(loop.db["messages"].rows_where("source_key like 'imap:%'"))
    assert [m["status"] for m in handled] == ["done", "done"]
    assert len(servers.messages("moderator", "Processed")) == 2 and servers.messages("moderator") == []
    assert store.get_game(loop.ctx, "g1").state["round"] == 2  # both ordered: the phase ran
    # The outbox tried one mail, found the server gone and backed off as a whole: no queued
    # mail is charged an attempt for the outage, and none was given up.
    queued = list(loop.db["outbox"].rows_where("status != 'sent'"))
    assert queued and all(r["status"] == "queued" and r["attempts"] == 0 for r in queued)
    assert sum(1 for r in queued if r["last_error"]) == 1

    # The server comes back: the outbox step starts again and delivers everything.
    daemon.source = source()  # serve closed the first one
    daemon.sender = SmtpSender(servers.smtp_host, servers.smtp_port, timeout=10)
    daemon.backoff["outbox"].retry_at = None  # do not sleep out the back-off in a test
    _serve_once(daemon)
    assert loop.db["outbox"].count_where("status != 'sent'") == 0
    assert daemon.backoff["outbox"].failures == 0 and daemon.backoff["intake"].failures == 0
    assert any("turn report" in s for s in _subjects(servers.wait_for_messages("bob", 2)))


def test_backoff_grows_to_its_cap_and_a_success_resets_it():
    now = [100.0]
    backoff = Backoff(first=2.0, cap=10.0, now=lambda: now[0])
    assert backoff.ready()
    assert [backoff.failed() for _ in range(4)] == [2.0, 4.0, 8.0, 10.0]
    assert not backoff.ready()
    now[0] += 9.9
    assert not backoff.ready()
    now[0] += 0.1
    assert backoff.ready()
    backoff.succeeded()
    assert backoff.failures == 0 and backoff.ready()
    assert backoff.failed() == 2.0


def test_a_step_that_raises_does_not_stop_the_others(tmp_path, caplog):
    loop = _game_without_servers(tmp_path)

    class BrokenSource:
        async def fetch(self, limit=100):
            raise RuntimeError("disk on fire")

        async def ack(self, key, outcome, replacement=None):
            raise AssertionError("nothing was fetched")

        async def wait(self, timeout):
            raise RuntimeError("still on fire")

        async def close(self):
            pass

    loop.clock.advance(hours=73)
    daemon = Daemon(loop.ctx, BrokenSource(), loop.sender)
    with caplog.at_level(logging.WARNING, logger="pbem"):
        result = asyncio.run(daemon.run_pass())
    assert result.failed == ["intake"] and result.resolved and result.sent
    assert daemon.backoff["intake"].failures == 1
    [line] = [r for r in caplog.records if r.name == "pbem.host.daemon"]
    assert "intake failed: RuntimeError: disk on fire" in line.getMessage()


def _game_without_servers(tmp_path) -> Loop:
    loop = Loop(tmp_path)
    loop.start_beacon()
    return loop


def test_the_daemon_wakes_when_held_grey_press_falls_due_not_at_the_next_mail(tmp_path):
    """Grey press waits for its quarter hour; a daemon waiting for mail (IMAP IDLE, a long
    poll) must wake then and send it, or it would go out with whatever mail comes next,
    perhaps its sender's own."""
    loop = _game_without_servers(tmp_path)
    daemon = Daemon(loop.ctx, None, loop.sender, poll_interval=3600)
    far = daemon._next_timeout()
    loop.mail("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nPRESS TO South GREY\n"
                                    "The beacon burns tonight.\nENDPRESS\n")
    loop.flush()
    held = [r for r in loop.db["outbox"].rows_where("status = 'queued'")]
    assert len(held) == 1 and "press from" in held[0]["subject"]
    wait = daemon._next_timeout()
    until = (parse_iso(held[0]["next_try"]) - loop.ctx.now()).total_seconds()
    assert abs(wait - until) < 1 and wait < far
    loop.clock.advance(seconds=wait + 1)
    result = asyncio.run(daemon.run_pass())
    assert result.sent and not list(loop.db["outbox"].rows_where("status = 'queued'"))
