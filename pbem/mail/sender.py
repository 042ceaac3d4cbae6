"""Outbound mail: SMTP (aiosmtplib) in production, Maildir delivery in the embedded default.

Both raise TemporaryFailure (try again later: 4xx answers, unreachable server, timeouts) or
PermanentFailure (5xx answers).  Which of the two, and whether a failure concerns the
recipient, the mail or the whole session (a refused login, sender or quota), is decided by
:func:`classify_smtp_error`; the outbox acts on it (:mod:`pbem.outbound.outbox`).
"""
from __future__ import annotations

import asyncio
import email
import email.parser
import email.policy
import email.utils
import logging
import re
import ssl
import time
from collections.abc import Callable

import aiosmtplib

from pbem.mail.maildir_source import MaildirDelivery, read_maildir
from pbem.mail.source import MessageRefused, PermanentFailure, ServerUnavailable, SessionRefused, TemporaryFailure

__all__ = ["SmtpSender", "MaildirDelivery", "read_maildir", "classify_smtp_error"]

log = logging.getLogger(__name__)


_ENHANCED = re.compile(r"^\s*([245])\.(\d{1,3})\.(\d{1,3})\b")


def about_recipient(code: int, text: str) -> bool:
    """Whether a 5xx answer to RCPT is about that recipient alone: its enhanced
    status says the address (5.1.x) or the mailbox (5.2.x) is wrong, or, without
    one, the basic code says "no such mailbox" (550, 551, 553).  Anything else
    there (a policy, a quota, relaying refused: 5.7.x, 5.4.x, 5.3.x) may concern
    every mail, and is not taken as the recipient's fault (RFC 5321 4.2.5, RFC 3463)."""
    enhanced = _ENHANCED.match(text or "")
    if enhanced:
        return enhanced.group(1) == "5" and enhanced.group(2) in ("1", "2")
    return code in (550, 551, 553)


def _recipients_failure(refused: dict[str, tuple[int, str]], what: str) -> Exception:
    """The failure for recipients refused with these answers: for now when one was
    refused for now; for good when every one was refused as a bad address; else
    (a policy or quota answer) undecided between the mail and the session."""
    if any(not 500 <= code < 600 for code, _ in refused.values()):
        return TemporaryFailure(f"{what} for now: {refused}", refused=refused)
    if all(about_recipient(code, text) for code, text in refused.values()):
        return PermanentFailure(f"{what}: {refused}", refused=refused)
    return MessageRefused(f"{what}: {refused}", refused=refused)


def _by_code(code: int, text: str, permanent: type, what: str) -> Exception:
    message = f"{what}: {code} {text}".strip()
    if 500 <= code < 600:
        return permanent(message)
    return ServerUnavailable(message)  # 4xx before any recipient: every mail would wait the same


async def _transfer(client: aiosmtplib.SMTP, raw: bytes, envelope: str, recipients: list[str]):
    """Hand the stored bytes to the server as they are (the SMTP library ends their lines
    with CRLF and doubles leading dots), which costs nothing to prepare.  Two cases need
    the mail rebuilt by the library: 8-bit text for a server that takes only 7-bit mail
    (it re-encodes the parts), and an address that is not ASCII (SMTPUTF8)."""
    if client.is_ehlo_or_helo_needed:  # what the server takes is known only after it
        try:
            await client.ehlo()
        except aiosmtplib.SMTPHeloError:  # an old server: HELO, and no extensions
            await client.helo()
    ascii_mail = raw.isascii()
    if (envelope + "".join(recipients)).isascii() and (ascii_mail or client.supports_extension("8bitmime")):
        return await client.sendmail(envelope, recipients, raw,
                                     mail_options=[] if ascii_mail else ["BODY=8BITMIME"])
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    return await client.send_message(msg, sender=envelope, recipients=recipients)


def envelope_sender(raw: bytes) -> str:
    """The address in the mail's From header: the envelope sender when none is configured."""
    headers = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    return email.utils.parseaddr(str(headers.get("From", "")))[1]


def _message_id(raw: bytes) -> str:
    """The mail's Message-ID, for a debug line."""
    found = re.search(rb"^Message-ID:[ \t]*(\S+)", raw, re.IGNORECASE | re.MULTILINE)
    return found.group(1).decode("ascii", "replace") if found else "(no id)"


def classify_smtp_error(exc: BaseException) -> Exception:
    """The failure an aiosmtplib (or socket) error means for the mail being sent:

    - ServerUnavailable: the server cannot be reached or answers 4xx before any
      recipient (every mail waits; no mail is charged a try);
    - SessionRefused: a 5xx to the login, the sender, the greeting or TLS, or a
      missing extension (every mail is held; the admin is told);
    - PermanentFailure with ``refused``: recipients refused as bad addresses;
    - MessageRefused: another 5xx to RCPT, or any 5xx to DATA;
    - TemporaryFailure: a 4xx to RCPT or DATA (this mail is tried again later).
    """
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        refused = {r.recipient: (r.code, r.message) for r in exc.recipients}
        return _recipients_failure(refused, "every recipient refused")
    if isinstance(exc, aiosmtplib.SMTPRecipientRefused):
        return _recipients_failure({exc.recipient: (exc.code, exc.message)}, "recipient refused")
    if isinstance(exc, aiosmtplib.SMTPAuthenticationError):
        return _by_code(exc.code, exc.message, SessionRefused, "SMTP login refused")
    if isinstance(exc, aiosmtplib.SMTPSenderRefused):
        return _by_code(exc.code, exc.message, SessionRefused, f"sender <{exc.sender}> refused")
    if isinstance(exc, aiosmtplib.SMTPDataError):
        if 500 <= exc.code < 600:
            return MessageRefused(f"mail refused: SMTP {exc.code} {exc.message}".strip())
        return TemporaryFailure(f"mail refused for now: SMTP {exc.code} {exc.message}".strip())
    if isinstance(exc, aiosmtplib.SMTPResponseException) and exc.code > 0:
        # The greeting, EHLO, STARTTLS: the session, whatever the mail.
        return _by_code(exc.code, exc.message, SessionRefused, "SMTP session refused: SMTP")
    if isinstance(exc, (aiosmtplib.SMTPConnectError, aiosmtplib.SMTPServerDisconnected,
                        aiosmtplib.SMTPTimeoutError, OSError, TimeoutError)):
        # Connection refused or dropped, timeouts, TLS failures: the server, not this mail.
        return ServerUnavailable(f"SMTP unavailable: {type(exc).__name__}: {exc}")
    if isinstance(exc, aiosmtplib.SMTPNotSupported):
        # An address that needs SMTPUTF8, which this server lacks: that mail's recipients.
        return PermanentFailure(f"SMTP cannot carry this mail: {exc}")
    if isinstance(exc, aiosmtplib.SMTPException):
        # E.g. no STARTTLS or AUTH where the configuration asks for them: nothing is sent
        # until the configuration (or the server) is fixed.
        return SessionRefused(f"SMTP session refused: {type(exc).__name__}: {exc}")
    raise TypeError(f"not a mail transport error: {exc!r}")


class SmtpSender:
    """MailSender over SMTP, on one connection kept open between messages.

    A connection unused for ``idle_seconds`` is closed and a new one opened
    (servers drop idle clients); a kept connection found closed by the server
    is opened again once for the same message; any failure closes it, so the
    next message starts clean.  :meth:`close` ends it.

    ``password`` may be a callable, asked for every new connection.
    ``starttls`` upgrades a plain connection (port 587), ``use_tls`` is implicit TLS (465);
    with neither the connection stays plain (loopback only).  ``sender_address`` is the
    envelope sender (bounces go there); None takes it from the message's Sender/From.
    """

    def __init__(self, host: str, port: int, *, user: str | None = None,
                 password: str | Callable[[], str] | None = None, starttls: bool = False,
                 use_tls: bool = False,
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
        # A callable password is asked again for every new connection: a password changed
        # in its file (or the configuration) is used without a restart.
        secret = self._password() if callable(self._password) else self._password
        client = aiosmtplib.SMTP(
            hostname=self.host, port=self.port, username=self.user, password=secret or None,
            use_tls=self.use_tls, start_tls=self.starttls, timeout=self.timeout,
            tls_context=self.tls_context)
        await client.connect()
        self._client, self._loop = client, asyncio.get_running_loop()
        self.connections += 1
        return client, False

    async def send(self, raw: bytes, recipients: list[str]) -> None:
        """Send the mail ``raw`` (its bytes as the outbox keeps them) to ``recipients``."""
        if not recipients:
            raise PermanentFailure("no recipients")
        envelope = self.sender_address or envelope_sender(raw)
        for last_try in (False, True):
            try:
                client, kept = await self._connection()
                refused, answer = await _transfer(client, raw, envelope, list(recipients))
                break
            except aiosmtplib.SMTPServerDisconnected as exc:
                await self.close()
                if kept and not last_try:
                    continue  # the server closed a kept connection: once more on a new one
                raise self._failure(raw, exc) from exc
            except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
                await self.close()
                raise self._failure(raw, exc) from exc
        self._used_at = time.monotonic()
        if refused:
            self._raise_partial(refused)
        log.debug("sent %s to %d recipient(s): %s", _message_id(raw), len(recipients), answer)

    @staticmethod
    def _failure(raw: bytes, exc: BaseException) -> Exception:
        failure = classify_smtp_error(exc)
        # The caller reports the failure; a second line here would say the same.
        log.debug("sending %s failed: %s", _message_id(raw), failure)
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
    def _raise_partial(refused) -> None:
        """Some recipients were accepted, others refused: report every refused one with
        its code (the caller retries those refused for now, alone)."""
        details = {rcpt: (resp.code, resp.message) for rcpt, resp in refused.items()}
        temporary = {r: d for r, d in details.items() if not 500 <= d[0] < 600}
        # The others were accepted in this very session: a 5xx here is about these recipients.
        if temporary:
            raise TemporaryFailure(f"recipients refused for now: {temporary}", refused=details)
        raise PermanentFailure(f"recipients refused: {details}", refused=details)
