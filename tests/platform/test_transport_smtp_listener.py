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


def test_idle_connections_beyond_the_cap_are_told_421_and_mail_still_comes_in(tmp_path):
    """A crowd of idle sockets neither holds the listener (a session beyond the cap is
    told 421 and closed; an idle one is dropped) nor floods the log."""

    async def greeting(port: int) -> tuple[bytes, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return await asyncio.wait_for(reader.readline(), 5), writer

    async def run():
        async with listener(tmp_path, max_sessions=5, timeout=1.0) as smtp:
            idle = [await greeting(smtp.port) for _ in range(5)]
            assert all(line.startswith(b"220") for line, _ in idle)
            line, extra = await greeting(smtp.port)
            assert line.startswith(b"421")
            await asyncio.sleep(1.6)  # the idle sessions time out
            refused, _ = await aiosmtplib.send(order_mail(), hostname="127.0.0.1", port=smtp.port,
                                               start_tls=False)
            for _, writer in idle + [(None, extra)]:
                writer.close()
            return refused

    assert asyncio.run(run()) == {}
    assert len(read_maildir(tmp_path / "intake")) == 1


def test_the_listener_log_is_rate_limited():
    import logging

    from pbem.mail.smtp_listener import RateLimit

    now = [0.0]
    limit = RateLimit(burst=3, period=10.0, clock=lambda: now[0])
    record = lambda: logging.LogRecord("mail.log", logging.INFO, __file__, 1, "peer connected", None, None)
    kept = [limit.filter(record()) for _ in range(300)]
    assert kept.count(True) == 3
    now[0] = 11.0
    first = record()
    assert limit.filter(first) and "297 SMTP listener log lines left out" in first.getMessage()
