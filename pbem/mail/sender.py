"""Outbound mail: SMTP (aiosmtplib) in production, Maildir delivery in the embedded default.

Both raise TemporaryFailure (try again later: 4xx answers, unreachable server, timeouts) or
PermanentFailure (5xx answers: unknown user, refused login, message refused).
"""
from __future__ import annotations

import asyncio
import email.message
import logging
import ssl
import time

import aiosmtplib

from pbem.mail.maildir_source import MaildirDelivery, read_maildir
from pbem.mail.source import PermanentFailure, ServerUnavailable, TemporaryFailure

__all__ = ["SmtpSender", "MaildirDelivery", "read_maildir", "classify_smtp_error"]

log = logging.getLogger(__name__)


def _failure_for_code(code: int, text: str, refused=None) -> Exception:
    # 421: "service not available, closing transmission channel" (RFC 5321, 3.8).
    kind = (PermanentFailure if 500 <= code < 600 else ServerUnavailable if code == 421
            else TemporaryFailure)
    return kind(f"SMTP {code} {text}".strip(), refused=refused)


def classify_smtp_error(exc: BaseException) -> Exception:
    """The TemporaryFailure or PermanentFailure that an aiosmtplib (or socket) error means."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        refused = {r.recipient: (r.code, r.message) for r in exc.recipients}
        if all(500 <= code < 600 for code, _ in refused.values()):
            return PermanentFailure(f"every recipient refused: {refused}", refused=refused)
        return TemporaryFailure(f"every recipient refused: {refused}", refused=refused)
    if isinstance(exc, aiosmtplib.SMTPResponseException) and exc.code > 0:
        return _failure_for_code(exc.code, exc.message)
    if isinstance(exc, (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPServerDisconnected,
                        aiosmtplib.SMTPTimeoutError, OSError, TimeoutError)):
        # Connection refused or dropped, timeouts, TLS failures: the server, not this mail.
        return ServerUnavailable(f"SMTP unavailable: {type(exc).__name__}: {exc}")
    if isinstance(exc, aiosmtplib.SMTPException):
        # E.g. a missing extension: nothing was accepted, and retrying later (perhaps after
        # the configuration is fixed) is safe.
        return TemporaryFailure(f"SMTP refused this mail for now: {type(exc).__name__}: {exc}")
    raise TypeError(f"not a mail transport error: {exc!r}")


class SmtpSender:
    """MailSender over SMTP, on one connection kept open between messages.

    A connection unused for ``idle_seconds`` is closed and a new one opened
    (servers drop idle clients); a kept connection found closed by the server
    is opened again once for the same message; any failure closes it, so the
    next message starts clean.  :meth:`close` ends it.

    ``starttls`` upgrades a plain connection (port 587), ``use_tls`` is implicit TLS (465);
    with neither the connection stays plain (loopback only).  ``sender_address`` is the
    envelope sender (bounces go there); None takes it from the message's Sender/From.
    """

    def __init__(self, host: str, port: int, *, user: str | None = None,
                 password: str | None = None, starttls: bool = False, use_tls: bool = False,
                 timeout: float = 30.0, sender_address: str | None = None,
                 tls_context: ssl.SSLContext | None = None, idle_seconds: float = 30.0):
        if starttls and use_tls:
            raise ValueError("choose starttls (port 587) or use_tls (port 465), not both")
        self.host = host
        self.port = port
        self.user = user
        self._password = password
        self.starttls = starttls
        self.use_tls = use_tls
        self.timeout = timeout
        self.sender_address = sender_address
        self.tls_context = tls_context
        self.idle_seconds = idle_seconds
        self._client: aiosmtplib.SMTP | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._used_at = 0.0
        self.connections = 0  # opened so far (the benchmarks count them)

    def __repr__(self) -> str:  # never shows the password
        return f"SmtpSender({self.host!r}, {self.port}, user={self.user!r})"

    async def _connection(self) -> tuple[aiosmtplib.SMTP, bool]:
        """The open connection (and True), or a new one (and False)."""
        client = self._client
        if client is not None and self._loop is not asyncio.get_running_loop():
            self._client = client = None  # made on another event loop, now gone: unusable here
        if client is not None and (not client.is_connected
                                   or time.monotonic() - self._used_at > self.idle_seconds):
            await self.close()
            client = None
        if client is not None:
            return client, True
        client = aiosmtplib.SMTP(
            hostname=self.host, port=self.port, username=self.user, password=self._password,
            use_tls=self.use_tls, start_tls=self.starttls, timeout=self.timeout,
            tls_context=self.tls_context)
        await client.connect()
        self._client, self._loop = client, asyncio.get_running_loop()
        self.connections += 1
        return client, False

    async def send(self, msg: email.message.EmailMessage, recipients: list[str]) -> None:
        if not recipients:
            raise PermanentFailure("no recipients")
        for last_try in (False, True):
            try:
                client, kept = await self._connection()
                refused, answer = await client.send_message(
                    msg, sender=self.sender_address, recipients=list(recipients))
                break
            except aiosmtplib.SMTPServerDisconnected as exc:
                await self.close()
                if kept and not last_try:
                    continue  # the server closed a kept connection: once more on a new one
                raise self._failure(msg, exc) from exc
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
                await self.close()
                raise self._failure(msg, exc) from exc
        self._used_at = time.monotonic()
        if refused:
            self._raise_partial(msg, refused)
        log.info("sent %s to %d recipient(s): %s", msg.get("Message-ID", "(no id)"),
                 len(recipients), answer)

    @staticmethod
    def _failure(msg, exc: BaseException) -> Exception:
        failure = classify_smtp_error(exc)
        # The caller reports the failure; a second line here would say the same.
        log.debug("sending %s failed: %s", msg.get("Message-ID", "(no id)"), failure)
        return failure

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is None or self._loop is not asyncio.get_running_loop():
            return
        try:
            if client.is_connected:
                await asyncio.wait_for(client.quit(), min(self.timeout, 5))
        except Exception:  # closing anyway: a QUIT the server does not answer changes nothing
            client.close()

    @staticmethod
    def _raise_partial(msg, refused) -> None:
        """Some recipients were accepted, others refused: report every refused one with
        its code (the caller retries those refused for now, alone)."""
        details = {rcpt: (resp.code, resp.message) for rcpt, resp in refused.items()}
        temporary = {r: d for r, d in details.items() if not 500 <= d[0] < 600}
        log.warning("%s refused for %s", msg.get("Message-ID", "(no id)"), details)
        if temporary:
            raise TemporaryFailure(f"recipients refused for now: {temporary}", refused=details)
        raise PermanentFailure(f"recipients refused: {details}", refused=details)
