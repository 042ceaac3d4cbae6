"""The daemon as the configuration builds it for production (IMAP in, SMTP
out) against the real servers, and for the embedded default (listener ->
Maildir -> local delivery)."""
from __future__ import annotations

import asyncio

import aiosmtplib
import pytest

from helpers_site import help_mail as _help_mail
from helpers_site import one_pass as _one_pass
from helpers_site import production_config as _production
from helpers_site import site_config as _config
from pbem.base.config import load_config
from pbem.host.wiring import build


@pytest.mark.mail
def test_production_wiring_reads_imap_and_answers_by_smtp(mail_servers, clean_mailboxes, tmp_path):
    moderator = mail_servers.address("moderator")
    daemon = build(load_config(_production(mail_servers, tmp_path)))
    alice = mail_servers.address("alice")
    mail_servers.send(_help_mail(alice, moderator), alice, [moderator])
    result = _one_pass(daemon)
    assert result.fetched == 1 and result.sent == 1
    replies = mail_servers.wait_for_messages("alice", 1)
    assert b"Help:" in replies[0]
    assert len(mail_servers.messages("moderator", "Processed")) == 1


@pytest.mark.mail
def test_an_auto_reply_is_moved_to_the_rejected_folder_unanswered(mail_servers, clean_mailboxes, tmp_path):
    moderator = mail_servers.address("moderator")
    daemon = build(load_config(_production(mail_servers, tmp_path)))
    alice = mail_servers.address("alice")
    msg = _help_mail(alice, moderator)
    msg["Auto-Submitted"] = "auto-replied"
    mail_servers.send(msg, alice, [moderator])
    result = _one_pass(daemon)
    assert result.fetched == 1 and result.sent == 0
    assert len(mail_servers.messages("moderator", "Rejected")) == 1
    assert not mail_servers.messages("moderator", "Processed")


@pytest.mark.mail
def test_empty_imap_folders_keep_handled_mail_in_the_mailbox_and_never_handle_it_again(
        mail_servers, clean_mailboxes, tmp_path):
    moderator = mail_servers.address("moderator")
    path = _production(mail_servers, tmp_path, **{
        'processed_folder = "Processed"': 'processed_folder = ""',
        'rejected_folder = "Rejected"': 'rejected_folder = ""',
        "max_message_bytes = 1_000_000": "max_message_bytes = 5_000"})
    alice = mail_servers.address("alice")
    mail_servers.send(_help_mail(alice, moderator), alice, [moderator])
    too_large = _help_mail(alice, moderator)
    too_large.set_content("HELP\n" + "x" * 8_000 + "\n")
    mail_servers.send(too_large, alice, [moderator])

    def serve_once():  # a daemon as started by `pbem serve --once`, then stopped
        daemon = build(load_config(path))
        asyncio.run(daemon.serve(once=True))
        assert daemon.backoff["intake"].failures == 0
        return daemon.ctx.db

    db = serve_once()
    assert [m["status"] for m in db["messages"].rows] == ["done", "rejected"]
    assert len(mail_servers.wait_for_messages("alice", 2)) == 2
    assert mail_servers.flags("moderator") == [{"\\Seen"}, {"\\Seen"}]
    db = serve_once()  # a restart: the flagged mail is not fetched, stored or answered again
    assert db["messages"].count == 2 and db["outbox"].count == 2
    assert len(mail_servers.messages("alice")) == 2
    assert len(mail_servers.messages("moderator")) == 2  # nothing moved or deleted
    assert mail_servers.mailboxes("moderator") == ["INBOX"]


def test_embedded_wiring_listener_to_maildir_to_local_delivery(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = load_config(_config(tmp_path, {"port = 2525": f"port = {port}"}))
    daemon = build(cfg)

    async def scenario():
        await daemon.listener.start()
        try:
            await aiosmtplib.send(_help_mail("carol@players.test", "pbem@localhost"),
                                  hostname="127.0.0.1", port=port, start_tls=False)
            return await daemon.run_pass()
        finally:
            await daemon.listener.stop()
    result = asyncio.run(scenario())
    assert result.fetched == 1 and result.sent == 1
    delivered = list((tmp_path / "var" / "mail" / "out" / "carol@players.test" / "new").iterdir())
    assert len(delivered) == 1 and b"Help:" in delivered[0].read_bytes()


@pytest.mark.mail
def test_a_private_ca_is_trusted_for_imap_and_smtp_through_its_settings(mail_servers, clean_mailboxes, tmp_path):
    """IMAPS and SMTP with STARTTLS to servers whose certificate a private CA signed: the
    CA's file in imap.ca_file and smtp.ca_file, no environment variable."""
    moderator = mail_servers.address("moderator")
    tls = {"ssl = false": "ssl = true", f"port = {mail_servers.imap_port}": f"port = {mail_servers.imaps_port}",
           "starttls = false": "starttls = true"}

    def configured(folder, ca: str):
        folder.mkdir()
        path = _production(mail_servers, folder)
        text = path.read_text()
        for old, new in tls.items():
            text = text.replace(old, new, 1)
        path.write_text(text.replace('ca_file = ""', f'ca_file = "{ca}"'))  # both sections
        return load_config(path)

    cfg = configured(tmp_path / "trusted", str(mail_servers.ca_file))
    assert cfg.imap.ca_file == cfg.smtp.ca_file == str(mail_servers.ca_file)
    alice = mail_servers.address("alice")
    mail_servers.send(_help_mail(alice, moderator), alice, [moderator])
    result = _one_pass(build(cfg))
    assert result.failed == [] and result.sent == 1
    assert len(mail_servers.wait_for_messages("alice", 1)) == 1

    daemon = build(configured(tmp_path / "untrusted", ""))  # the system's CAs only
    from pbem.outbound import outbox

    outbox.queue(daemon.ctx, key="k", to=[alice], subject="a notice", text="x")
    assert set(_one_pass(daemon).failed) == {"intake", "outbox"}
    assert "CERTIFICATE_VERIFY_FAILED" in next(daemon.ctx.db["outbox"].rows_where())["last_error"]
