"""Outbound mail: SMTP (aiosmtplib) in production, Maildir delivery in the embedded default.

Both raise TemporaryFailure (try again later: 4xx answers, unreachable server, timeouts) or
PermanentFailure (5xx answers: unknown user, refused login, message refused).
"""
from __future__ import annotations

import email.message
import logging
import ssl

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
    """MailSender over SMTP, one connection per message.

    ``starttls`` upgrades a plain connection (port 587), ``use_tls`` is implicit TLS (465);
    with neither the connection stays plain (loopback only).  ``sender_address`` is the
    envelope sender (bounces go there); None takes it from the message's Sender/From.
    """

    def __init__(self, host: str, port: int, *, user: str | None = None,
                 password: str | None = None, starttls: bool = False, use_tls: bool = False,
                 timeout: float = 30.0, sender_address: str | None = None,
                 tls_context: ssl.SSLContext | None = None):
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

    def __repr__(self) -> str:  # never shows the password
        return f"SmtpSender({self.host!r}, {self.port}, user={self.user!r})"

    async def send(self, msg: email.message.EmailMessage, recipients: list[str]) -> None:
        if not recipients:
            raise PermanentFailure("no recipients")
        client = aiosmtplib.SMTP(
            hostname=self.host, port=self.port, username=self.user, password=self._password,
            use_tls=self.use_tls, start_tls=self.starttls, timeout=self.timeout,
            tls_context=self.tls_context)
        try:
            async with client:
                refused, answer = await client.send_message(
                    msg, sender=self.sender_address, recipients=list(recipients))
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            failure = classify_smtp_error(exc)
            # The caller reports the failure; a second line here would say the same.
            log.debug("sending %s failed: %s", msg.get("Message-ID", "(no id)"), failure)
            raise failure from exc
        if refused:
            self._raise_partial(msg, refused)
        log.info("sent %s to %d recipient(s): %s", msg.get("Message-ID", "(no id)"),
                 len(recipients), answer)

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
