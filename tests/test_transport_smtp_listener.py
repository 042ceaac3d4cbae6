"""The built-in SMTP listener: a real SMTP client in, the Maildir intake out."""
import asyncio
import email
import email.message
import email.policy

import aiosmtplib
import pytest

from pbem.mail.maildir_source import MaildirSource, read_maildir
from pbem.mail.smtp_listener import SmtpListener


def order_mail(body: str = "F Lon - Nth\n") -> email.message.EmailMessage:
    msg = email.message.EmailMessage()
    msg["From"] = "alice@example.test"
    msg["To"] = "pbem@moderator.test"
    msg["Subject"] = "orders"
    msg.set_content(body)
    return msg


def listener(tmp_path, **kw) -> SmtpListener:
    kw.setdefault("max_bytes", 64 * 1024)
    return SmtpListener("127.0.0.1", 0, deliver_to_maildir=tmp_path / "intake", **kw)


def test_received_mail_lands_in_the_intake_with_trace_headers(tmp_path):
    async def run():
        async with listener(tmp_path, hostname="mx.moderator.test") as smtp:
            refused, answer = await aiosmtplib.send(
                order_mail(), hostname="127.0.0.1", port=smtp.port, start_tls=False)
            assert refused == {}
            assert answer.startswith("2.0.0 OK queued as ")
            source = MaildirSource(tmp_path / "intake")
            return await source.fetch()

    mails = asyncio.run(run())
    assert len(mails) == 1
    parsed = email.message_from_bytes(mails[0].data, policy=email.policy.default)
    assert parsed["Return-Path"] == "<alice@example.test>"
    assert "by mx.moderator.test" in parsed["Received"]
    assert "for <pbem@moderator.test>" in parsed["Received"]
    assert parsed.get_content().strip() == "F Lon - Nth"
    assert b"\r\n" not in mails[0].data


def test_refused_recipient_gets_550_and_the_others_still_get_the_mail(tmp_path):
    def accept(address: str) -> bool:
        return address.endswith("@moderator.test")

    async def run():
        async with listener(tmp_path, accept=accept) as smtp:
            with pytest.raises(aiosmtplib.SMTPRecipientsRefused) as every:
                await aiosmtplib.send(order_mail(), hostname="127.0.0.1", port=smtp.port,
                                      recipients=["eve@elsewhere.test"], start_tls=False)
            refused, _ = await aiosmtplib.send(
                order_mail(), hostname="127.0.0.1", port=smtp.port, start_tls=False,
                recipients=["pbem@moderator.test", "eve@elsewhere.test"])
            return every.value.recipients, refused

    every, partial = asyncio.run(run())
    assert [r.code for r in every] == [550]
    assert partial["eve@elsewhere.test"].code == 550
    assert len(read_maildir(tmp_path / "intake")) == 1


def test_oversize_mail_gets_552_and_is_not_stored(tmp_path):
    async def run():
        async with listener(tmp_path, max_bytes=2000) as smtp:
            with pytest.raises(aiosmtplib.SMTPResponseException) as big:
                await aiosmtplib.send(order_mail("x" * 5000 + "\n"), hostname="127.0.0.1",
                                      port=smtp.port, start_tls=False)
            # The connection-level limit does not stop the next, smaller message.
            await aiosmtplib.send(order_mail(), hostname="127.0.0.1", port=smtp.port,
                                  start_tls=False)
            return big.value.code

    assert asyncio.run(run()) == 552
    assert len(read_maildir(tmp_path / "intake")) == 1


def test_stop_closes_the_port_and_open_sessions(tmp_path):
    async def run():
        smtp = listener(tmp_path)
        await smtp.start()
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=smtp.port, start_tls=False)
        await client.connect()
        await smtp.stop()
        with pytest.raises(aiosmtplib.SMTPException):
            await client.noop()
        with pytest.raises(aiosmtplib.SMTPConnectError):
            await aiosmtplib.send(order_mail(), hostname="127.0.0.1", port=smtp.port,
                                  start_tls=False, timeout=5)
        await smtp.stop()  # a second stop is harmless

    asyncio.run(run())
