"""Outgoing mail is never lost: through the real SMTP relay (with AUTH), a
server that refuses the session — a wrong password (535), a sender or a
quota refused at MAIL FROM, a policy answer at RCPT for every mail — holds
the queue without giving up any mail, and everything goes once the cause is
fixed; only a recipient refused as a bad address, or a mail refused while the
server takes the next, is given up, and the game's GM is told."""
from __future__ import annotations

import asyncio
import email
import logging
from email import policy

import pytest

from helpers_site import site_config
from pbem.outbound import outbox, sendhold
from pbem.host.cli import main
from pbem.base.config import load_config
from pbem.host.wiring import build

pytestmark = pytest.mark.mail


def smtp_site(servers, tmp_path, password_file):
    """Mail in from the local Maildir (no listener), out through the relay as user
    moderator with the password in ``password_file``; carol is the site's admin."""
    path = site_config(tmp_path, {
        'address = "pbem@localhost"': f'address = "{servers.address("moderator")}"',
        'admin_address = ""': f'admin_address = "{servers.address("carol")}"',
        'games_extra = []': 'games_extra = ["tests.beacon:GAME"]',
        'enabled = true ': 'enabled = false',
        'kind = "maildir"                    # production: "smtp"': 'kind = "smtp"',
        'retry_base_seconds = 30.0': 'retry_base_seconds = 60.0',
        'handling_timeout = 60.0': 'handling_timeout = 0.0',
    })
    head, smtp = path.read_text().split("\n[smtp]", 1)
    for old, new in (('host = ""', 'host = "127.0.0.1"'), ("port = 587", f"port = {servers.smtp_port}"),
                     ('user = ""', 'user = "moderator"'),
                     ('password_file = ""', f'password_file = "{password_file}"'),
                     ("starttls = true", "starttls = false")):
        smtp = smtp.replace(old, new, 1)
    path.write_text(head + "\n[smtp]" + smtp)
    return path


def run_pass(daemon):
    return asyncio.run(daemon.run_pass())


def rows(ctx) -> list[dict]:
    return list(ctx.db["outbox"].rows_where(order_by="id"))


def subjects(servers, user) -> list[str]:
    return [str(email.message_from_bytes(raw, policy=policy.default)["Subject"])
            for raw in servers.messages(user)]


def queue_reports(ctx, servers, users, game=None, marker=""):
    for user in users:
        outbox.queue(ctx, key=f"report:{user}:{marker}", to=[servers.address(user)], kind="report", game=game,
                     subject=f"report for {user}{marker}", text=f"the turn report {marker}\n")


def test_a_refused_login_holds_every_mail_until_the_password_is_fixed(clean_mailboxes, tmp_path, caplog):
    servers = clean_mailboxes
    secret = tmp_path / "smtp-password"
    secret.write_text("an-old-password\n")
    secret.chmod(0o600)
    path = smtp_site(servers, tmp_path, secret)
    daemon = build(load_config(path))
    ctx = daemon.ctx
    queue_reports(ctx, servers, ("alice", "bob", "dave"))
    try:
        with caplog.at_level(logging.INFO):
            assert "outbox" in run_pass(daemon).failed
        assert [(r["status"], r["attempts"]) for r in rows(ctx)] == [("queued", 0)] * 3
        assert "535" in rows(ctx)[0]["last_error"]  # the first was tried; the others waited
        hold = sendhold.current(ctx)
        assert hold and "535" in hold.cause and hold.tries == 1
        held = [r for r in caplog.records if "sending held" in r.getMessage()]
        assert held and held[0].levelno == logging.ERROR and "3 mail(s) wait" in held[0].getMessage()
        assert "an-old-password" not in caplog.text

        assert "outbox" in run_pass(daemon).failed  # within the pause the server is not asked again
        assert sendhold.current(ctx).tries == 1

        secret.write_text(servers.password("moderator") + "\n")  # rotated; the daemon goes on
        assert main(["-c", str(path), "outbox", "retry"]) == 0
        with caplog.at_level(logging.INFO):
            result = run_pass(daemon)
        assert "outbox" not in result.failed and result.sent == 3
        for user in ("alice", "bob", "dave"):
            assert subjects(servers, user) == [f"report for {user}"]
        assert sendhold.current(ctx) is None
        assert "sending works again" in caplog.text
        run_pass(daemon)  # the admin's mail, queued when sending came back
        [told] = servers.wait_for_messages("carol", 1)
        told = email.message_from_bytes(told, policy=policy.default)
        assert "sending works again" in str(told["Subject"])
        assert "535" in told.get_body(("plain",)).get_content()
        assert {r["status"] for r in rows(ctx)} == {"sent"}
    finally:
        asyncio.run(daemon.sender.close())


@pytest.mark.parametrize("refusal", [
    {"sender": "550 5.4.5 Daily user sending quota exceeded"},
    {"sender": "553 5.7.1 Sender address rejected: not owned by user moderator"},
    {"rcpt": "554 5.7.1 Relay access denied"},
])
def test_a_quota_or_sender_refusal_holds_the_queue_and_nothing_is_given_up(clean_mailboxes, tmp_path, refusal):
    servers = clean_mailboxes
    secret = tmp_path / "smtp-password"
    secret.write_text(servers.password("moderator") + "\n")
    path = smtp_site(servers, tmp_path, secret)
    daemon = build(load_config(path))
    ctx = daemon.ctx
    queue_reports(ctx, servers, ("alice", "bob"))
    servers.refuse(**refusal)
    try:
        assert "outbox" in run_pass(daemon).failed
        assert [(r["status"], r["attempts"]) for r in rows(ctx)] == [("queued", 0)] * 2
        assert sendhold.current(ctx) is not None
        status = _cli(capsys=None, args=["-c", str(path), "status"])
        assert status[0] == 1 and "sending: HELD" in status[1]

        servers.refuse()  # the quota is over, the sender allowed, relaying granted
        assert main(["-c", str(path), "outbox", "retry"]) == 0
        assert run_pass(daemon).sent == 2
        assert subjects(servers, "alice") == ["report for alice"]
        assert subjects(servers, "bob") == ["report for bob"]
        assert sendhold.current(ctx) is None
    finally:
        asyncio.run(daemon.sender.close())


def test_a_recipient_refused_fails_only_its_mail_and_the_gm_is_told(clean_mailboxes, tmp_path, capsys):
    servers = clean_mailboxes
    secret = tmp_path / "smtp-password"
    secret.write_text(servers.password("moderator") + "\n")
    path = smtp_site(servers, tmp_path, secret)
    assert main(["-c", str(path), "game", "new", "g1", "--rules", "beacon",
                 "--gm", servers.address("dave")]) == 0
    assert main(["-c", str(path), "game", "add-player", "g1", "North", "ghost@example.test"]) == 0
    assert main(["-c", str(path), "game", "add-player", "g1", "South", servers.address("alice")]) == 0
    daemon = build(load_config(path))
    ctx = daemon.ctx
    outbox.queue(ctx, key="report:north", to=["ghost@example.test"], kind="report", game="g1",
                 subject="North's report", text="North's secret position\n")
    queue_reports(ctx, servers, ("alice",), game="g1")
    try:
        result = run_pass(daemon)
        assert "outbox" not in result.failed and sendhold.current(ctx) is None
        lost, alices = rows(ctx)[:2]
        assert (lost["status"], alices["status"]) == ("failed", "sent")
        assert "550" in lost["last_error"] and "5.1.1" in lost["last_error"]
        run_pass(daemon)  # the GM's notice, queued when the mail was given up
        [notice] = servers.wait_for_messages("dave", 1)
        notice = email.message_from_bytes(notice, policy=policy.default)
        text = notice.get_body(("plain",)).get_content()
        assert "North" in str(notice["Subject"]) and "could not be delivered" in str(notice["Subject"])
        assert "North: ghost@example.test" in text and "550" in text
        assert "secret position" not in text and "North's report" not in text  # the mail's own words stay its
        assert subjects(servers, "alice") == ["report for alice"]

        capsys.readouterr()
        assert main(["-c", str(path), "outbox", "list"]) == 0
        listing = capsys.readouterr().out
        assert f"{lost['id']:6}  failed" in listing and "to North" in listing and "ghost@" not in listing
        assert main(["-c", str(path), "outbox", "show", str(lost["id"])]) == 0
        shown = capsys.readouterr().out
        assert "recipients: ghost@example.test" in shown and "5.1.1" in shown
        assert "secret position" not in shown
        assert main(["-c", str(path), "outbox", "show", str(lost["id"]), "--body"]) == 0
        assert "secret position" in capsys.readouterr().out
    finally:
        asyncio.run(daemon.sender.close())


def test_a_mail_refused_for_its_content_is_given_up_once_the_next_goes_out(clean_mailboxes, tmp_path):
    servers = clean_mailboxes
    secret = tmp_path / "smtp-password"
    secret.write_text(servers.password("moderator") + "\n")
    path = smtp_site(servers, tmp_path, secret)
    daemon = build(load_config(path))
    ctx = daemon.ctx
    servers.refuse(data=(b"POISON", "554 5.6.0 Message content rejected"))
    queue_reports(ctx, servers, ("alice",), marker=" POISON")
    try:
        # Alone, the refusal might be the server's for every mail: the mail is kept, uncharged.
        assert "outbox" in run_pass(daemon).failed
        [row] = rows(ctx)
        assert (row["status"], row["attempts"]) == ("queued", 0)
        queue_reports(ctx, servers, ("bob",))
        assert main(["-c", str(path), "outbox", "retry"]) == 0
        assert run_pass(daemon).sent == 1  # bob's went out: the refusal was about alice's mail
        poisoned, fine = rows(ctx)[:2]  # then the admin's "sending works again"
        assert (poisoned["status"], fine["status"]) == ("failed", "sent")
        assert "took later mail" in poisoned["last_error"] and "5.6.0" in poisoned["last_error"]
        assert sendhold.current(ctx) is None
        assert servers.messages("alice") == [] and subjects(servers, "bob") == ["report for bob"]
        assert main(["-c", str(path), "outbox", "retry", str(poisoned["id"])]) == 0
        assert ctx.db["outbox"].get(poisoned["id"])["status"] == "queued"
    finally:
        asyncio.run(daemon.sender.close())


def _cli(capsys, args) -> tuple[int, str]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(args)
    return code, out.getvalue()
