"""SmtpSender against the real SMTP relay in front of Dovecot."""
import asyncio
import email
import email.message
import email.policy
import email.utils

import pytest

from fixtures_mail import free_port
from pbem.mail.sender import SmtpSender
from pbem.mail.source import PermanentFailure, TemporaryFailure

pytestmark = pytest.mark.mail


def report(servers, subject: str, to: list[str]) -> email.message.EmailMessage:
    msg = email.message.EmailMessage()
    msg["From"] = servers.address("moderator")
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Message-ID"] = email.utils.make_msgid(domain="example.test")
    msg.set_content(f"{subject}\n")
    return msg


def test_send_reaches_every_recipient_mailbox(clean_mailboxes):
    servers = clean_mailboxes
    to = [servers.address("alice"), servers.address("bob")]
    sender = SmtpSender(servers.smtp_host, servers.smtp_port,
                        sender_address=servers.address("moderator"))
    msg = report(servers, "Spring 1880 resolved", to)
    asyncio.run(sender.send(bytes(msg), to))
    for user in ("alice", "bob"):
        [raw] = servers.wait_for_messages(user, 1)
        got = email.message_from_bytes(raw)
        assert got["Message-ID"] == msg["Message-ID"]
        assert got["Return-Path"] == "<moderator@example.test>"
    assert servers.messages("carol") == []


def test_authenticated_send_and_refused_login(clean_mailboxes):
    servers = clean_mailboxes
    to = [servers.address("gm")]
    good = SmtpSender(servers.smtp_host, servers.smtp_port, user="moderator",
                      password=servers.password("moderator"))
    asyncio.run(good.send(bytes(report(servers, "with auth", to)), to))
    bad = SmtpSender(servers.smtp_host, servers.smtp_port, user="moderator", password="wrong")
    with pytest.raises(PermanentFailure, match="535"):
        asyncio.run(bad.send(bytes(report(servers, "bad auth", to)), to))
    assert "wrong" not in repr(bad)
    assert len(servers.wait_for_messages("gm", 1)) == 1


def test_starttls_with_login(clean_mailboxes):
    servers = clean_mailboxes
    to = [servers.address("carol")]
    sender = SmtpSender(servers.smtp_host, servers.smtp_port, user="moderator",
                        password=servers.password("moderator"), starttls=True,
                        tls_context=servers.client_tls_context())
    asyncio.run(sender.send(bytes(report(servers, "over TLS", to)), to))
    [raw] = servers.wait_for_messages("carol", 1)
    assert email.message_from_bytes(raw)["Subject"] == "over TLS"
    untrusted = SmtpSender(servers.smtp_host, servers.smtp_port, starttls=True)
    with pytest.raises(TemporaryFailure):
        asyncio.run(untrusted.send(bytes(report(servers, "unverified", to)), to))
    assert len(servers.messages("carol")) == 1


def test_unknown_user_is_a_permanent_failure(clean_mailboxes):
    servers = clean_mailboxes
    sender = SmtpSender(servers.smtp_host, servers.smtp_port)
    nobody = "nobody-here@example.test"
    with pytest.raises(PermanentFailure) as failure:
        asyncio.run(sender.send(bytes(report(servers, "lost", [nobody])), [nobody]))
    assert failure.value.refused[nobody][0] == 550


def test_partly_refused_recipients_are_reported_and_the_rest_delivered(clean_mailboxes):
    servers = clean_mailboxes
    sender = SmtpSender(servers.smtp_host, servers.smtp_port)
    to = [servers.address("dave"), "ghost@example.test"]
    with pytest.raises(PermanentFailure) as failure:
        asyncio.run(sender.send(bytes(report(servers, "partial", to)), to))
    assert set(failure.value.refused) == {"ghost@example.test"}
    assert len(servers.wait_for_messages("dave", 1)) == 1


def test_refused_connection_is_a_temporary_failure():
    sender = SmtpSender("127.0.0.1", free_port(), timeout=5)
    msg = email.message.EmailMessage()
    msg["From"] = "moderator@example.test"
    msg.set_content("x")
    with pytest.raises(TemporaryFailure, match="unavailable"):
        asyncio.run(sender.send(bytes(msg), ["alice@example.test"]))


def test_4xx_answers_are_temporary_and_5xx_permanent():
    import aiosmtplib
    from pbem.mail.sender import classify_smtp_error

    assert isinstance(classify_smtp_error(aiosmtplib.SMTPDataError(451, "later")),
                      TemporaryFailure)
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPDataError(554, "never")),
                      PermanentFailure)
    refused = aiosmtplib.SMTPRecipientsRefused(
        [aiosmtplib.SMTPRecipientRefused(452, "mailbox full", "a@x"),
         aiosmtplib.SMTPRecipientRefused(550, "unknown", "b@x")])
    assert isinstance(classify_smtp_error(refused), TemporaryFailure)
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPServerDisconnected("gone")),
                      TemporaryFailure)


def test_mail_shares_one_connection_and_a_dropped_one_is_replaced(clean_mailboxes):
    servers = clean_mailboxes
    sender = SmtpSender(servers.smtp_host, servers.smtp_port, timeout=10)

    async def send_all():
        for i in range(3):
            await sender.send(bytes(report(servers, f"kept {i}", [servers.address("alice")])),
                              [servers.address("alice")])
        assert sender.connections == 1
        servers.stop_relay()   # the server goes away and comes back: the kept connection is dead
        servers.start_relay()
        await sender.send(bytes(report(servers, "after the restart", [servers.address("alice")])),
                          [servers.address("alice")])
        assert sender.connections == 2
        await sender.close()

    asyncio.run(send_all())
    subjects = [email.message_from_bytes(m)["Subject"] for m in servers.wait_for_messages("alice", 4)]
    assert sorted(subjects) == ["after the restart", "kept 0", "kept 1", "kept 2"]


def test_what_a_refusal_is_about_the_recipient_the_mail_or_the_session():
    import aiosmtplib
    from pbem.mail.sender import about_recipient, classify_smtp_error
    from pbem.mail.source import MessageRefused, ServerUnavailable, SessionRefused

    # The session: nothing is given up for these, every mail waits.
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPAuthenticationError(535, "5.7.8 bad")), SessionRefused)
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPSenderRefused(550, "5.4.5 quota", "m@x")),
                      SessionRefused)
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPSenderRefused(452, "4.5.3 later", "m@x")),
                      ServerUnavailable)
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPHeloError(554, "go away")), SessionRefused)
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPException("SMTP AUTH extension not supported")),
                      SessionRefused)
    # The recipient: a bad address or mailbox.
    for code, text in ((550, "5.1.1 unknown"), (552, "5.2.2 mailbox full"), (550, "no such user"),
                       (553, "mailbox name not allowed")):
        assert about_recipient(code, text), (code, text)
        refused = aiosmtplib.SMTPRecipientsRefused([aiosmtplib.SMTPRecipientRefused(code, text, "a@x")])
        failure = classify_smtp_error(refused)
        assert type(failure) is PermanentFailure and failure.refused == {"a@x": (code, text)}
    # Undecided: a policy or quota answer at RCPT, any 5xx at DATA.
    for code, text in ((554, "5.7.1 Relay access denied"), (550, "5.4.5 Daily sending quota exceeded"),
                       (554, "no SMTP service here")):
        assert not about_recipient(code, text), (code, text)
        refused = aiosmtplib.SMTPRecipientsRefused([aiosmtplib.SMTPRecipientRefused(code, text, "a@x")])
        assert isinstance(classify_smtp_error(refused), MessageRefused)
    assert isinstance(classify_smtp_error(aiosmtplib.SMTPDataError(554, "5.6.0 content")), MessageRefused)


class _Keep:
    """An aiosmtpd handler that keeps what it is given: envelope options and the mail's bytes."""

    def __init__(self):
        self.got = []

    async def handle_DATA(self, server, session, envelope):
        data = envelope.content if isinstance(envelope.content, bytes) else envelope.content.encode()
        self.got.append((envelope.mail_options, data))
        return "250 OK"


@pytest.mark.parametrize("eight_bit", [True, False], ids=["server takes 8-bit", "server takes 7-bit only"])
def test_a_stored_mail_is_sent_readable_whatever_the_server_takes(eight_bit):
    """The outbox's bytes go out as they are when the server can take them (8-bit text with
    BODY=8BITMIME); a server without 8BITMIME gets the text re-encoded in 7 bits."""
    from aiosmtpd.controller import Controller

    from pbem.mail.compose import build_message

    keep = _Keep()
    # aiosmtpd advertises 8BITMIME unless it decodes the data itself.
    controller = Controller(keep, hostname="127.0.0.1", port=free_port(), decode_data=not eight_bit)
    controller.start()
    try:
        text = "Órdenes de Österreich: ARMY Wien -> Böhmen\n.a line that starts with a dot\n"
        raw = bytes(build_message(from_addr="pbem@example.test", from_name="Fédération", to=["a@example.test"],
                                  subject="Rapport — été 1880", text=text, message_id="<r1@example.test>"))
        sender = SmtpSender("127.0.0.1", controller.port, timeout=10)
        asyncio.run(sender.send(raw, ["a@example.test"]))
        asyncio.run(sender.close())
    finally:
        controller.stop()
    [(options, data)] = keep.got
    got = email.message_from_bytes(data, policy=email.policy.default)
    assert got.get_content().replace("\r\n", "\n") == text
    assert str(got["Subject"]) == "Rapport — été 1880" and got["From"].addresses[0].display_name == "Fédération"
    if eight_bit:
        assert "BODY=8BITMIME" in options and data.replace(b"\r\n", b"\n") == raw.replace(b"\r\n", b"\n")
    else:
        assert data.isascii() and got["Content-Transfer-Encoding"] in ("quoted-printable", "base64")
