"""A built-in SMTP server that feeds the Maildir intake of the embedded default.

It runs on the caller's event loop (aiosmtpd's SMTP protocol behind ``loop.create_server``, not
the threaded Controller), answers 250 only after the message is safely in the Maildir, adds
Return-Path and Received headers like a real MTA, refuses recipients the moderator does not
serve with 550 and oversize mail with 552.

It cannot be held open by a crowd: beyond ``max_sessions`` open sessions a new connection is
told ``421`` and closed at once, a session idle for ``timeout`` seconds is dropped, and its log
lines (its own and aiosmtpd's, one or more per connection) are rate-limited, with a count of
the lines left out.
When its port cannot be had (another program holds it), :func:`cannot_listen` says so in one
line naming the settings to change; the daemon then goes on without it, as mail dropped into
the Maildir intake still arrives, unless ``listener.required`` says the listener is the only way.
"""
from __future__ import annotations

import asyncio
import email.utils
import errno
import logging
import os
import socket
import weakref
from pathlib import Path
from typing import Callable

from aiosmtpd.smtp import SMTP

from pbem.mail.maildir_source import deliver_to_maildir, ensure_maildir, unix_lines

log = logging.getLogger(__name__)


class _IntakeHandler:
    """aiosmtpd handler: recipient check at RCPT, Maildir delivery at DATA."""

    def __init__(self, maildir: Path, accept: Callable[[str], bool] | None, hostname: str):
        self.maildir = maildir
        self.accept = accept
        self.hostname = hostname

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        try:
            wanted = self.accept is None or self.accept(address)
        except Exception:
            log.exception("recipient check failed for %r", address)
            return "451 4.3.0 recipient check failed, try again later"
        if not wanted:
            return f"550 5.1.1 <{address}>: no such recipient here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        data = self.trace_headers(session, envelope) + unix_lines(envelope.original_content)
        try:
            name = await asyncio.to_thread(deliver_to_maildir, self.maildir, data)
        except OSError:
            log.exception("could not store inbound mail in %s", self.maildir)
            return "451 4.3.0 cannot store the message now, try again later"
        log.info("accepted mail from <%s> for %d recipient(s) as %s",
                 envelope.mail_from, len(envelope.rcpt_tos), name)
        return f"250 2.0.0 OK queued as {name}"

    def trace_headers(self, session, envelope) -> bytes:
        peer = session.peer[0] if session.peer else "unknown"
        rcpt = f"\n\tfor <{envelope.rcpt_tos[0]}>" if len(envelope.rcpt_tos) == 1 else ""
        return (f"Return-Path: <{envelope.mail_from}>\n"
                f"Received: from {session.host_name or 'unknown'} ([{peer}])\n"
                f"\tby {self.hostname} (pbem) with ESMTP{rcpt};\n"
                f"\t{email.utils.formatdate(localtime=False)}\n").encode("utf-8", "replace")


class RateLimit(logging.Filter):
    """At most ``burst`` log lines per ``period`` seconds; then one line saying
    how many were left out when the next period begins."""

    def __init__(self, burst: int = 20, period: float = 10.0, clock=None):
        super().__init__()
        self.burst, self.period = burst, period
        self.clock = clock or __import__("time").monotonic
        self.start, self.count, self.dropped = self.clock(), 0, 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        if now - self.start >= self.period:
            if self.dropped:
                record.msg = f"({self.dropped} SMTP listener log lines left out) {record.msg}"
            self.start, self.count, self.dropped = now, 0, 0
        self.count += 1
        if self.count > self.burst:
            self.dropped += 1
            return False
        return True


class _TooBusy(asyncio.Protocol):
    """A connection beyond the cap: told so, and closed."""

    def connection_made(self, transport) -> None:
        transport.write(b"421 4.7.0 too many connections, try again later\r\n")
        transport.close()


class SmtpListener:
    """SMTP on host:port delivering every accepted message into a Maildir.

    Use ``await start()`` / ``await stop()`` or ``async with``.  Port 0 picks a free port;
    the bound one is ``self.port`` after start.
    """

    def __init__(self, host: str, port: int, *, deliver_to_maildir: Path,
                 accept: Callable[[str], bool] | None = None, max_bytes: int,
                 hostname: str | None = None, timeout: float = 30.0, max_sessions: int = 20):
        self.host = host
        self.port = port
        self.maildir = ensure_maildir(Path(deliver_to_maildir))
        self.max_bytes = max_bytes
        self.hostname = hostname or socket.getfqdn()
        self.timeout = timeout
        self.max_sessions = max_sessions
        self._limit = RateLimit()
        self._handler = _IntakeHandler(self.maildir, accept, self.hostname)
        self._server: asyncio.base_events.Server | None = None
        self._sessions: weakref.WeakSet[SMTP] = weakref.WeakSet()

    def open_sessions(self) -> int:
        return sum(1 for smtp in list(self._sessions)
                   if smtp.transport is not None and not smtp.transport.is_closing())

    def _protocol(self) -> SMTP | _TooBusy:
        if self.open_sessions() >= self.max_sessions:
            log.warning("SMTP listener: %d sessions open; a new connection was told 421", self.max_sessions)
            return _TooBusy()
        smtp = SMTP(self._handler, data_size_limit=self.max_bytes, enable_SMTPUTF8=True,
                    hostname=self.hostname, timeout=self.timeout,
                    loop=asyncio.get_running_loop())
        self._sessions.add(smtp)
        return smtp

    async def start(self) -> "SmtpListener":
        if self._server is not None:
            raise RuntimeError("listener already started")
        loop = asyncio.get_running_loop()
        for name in ("mail.log", __name__):  # aiosmtpd logs each connection on "mail.log"
            if self._limit not in logging.getLogger(name).filters:
                logging.getLogger(name).addFilter(self._limit)
        self._server = await loop.create_server(self._protocol, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("SMTP listener on %s:%d delivering to %s", self.host, self.port, self.maildir)
        return self

    async def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for smtp in list(self._sessions):
            if smtp.transport is not None and not smtp.transport.is_closing():
                smtp.transport.close()
        self._sessions.clear()
        await server.wait_closed()
        log.info("SMTP listener on %s:%d stopped", self.host, self.port)
        for name in ("mail.log", __name__):
            logging.getLogger(name).removeFilter(self._limit)

    async def __aenter__(self) -> "SmtpListener":
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()


class ListenerUnavailable(Exception):
    """The listener cannot listen, and the configuration requires it (``listener.required``)."""


_WHY = {errno.EADDRINUSE: "another program holds that port",
        errno.EACCES: "ports below 1024 need root",
        errno.EADDRNOTAVAIL: "this host has no such address (listener.host)"}


async def start_or_say(listener: SmtpListener, *, config: str, required: bool) -> bool:
    """Start the listener; whether it listens.  When it cannot (its port taken), one line
    says so and names the setting to change, and the daemon goes on without it, since mail
    dropped into the Maildir intake still arrives, unless the configuration says the
    listener is the only way mail reaches pbem (``listener.required``: then
    :class:`ListenerUnavailable` is raised with that line)."""
    try:
        await listener.start()
    except OSError as exc:
        line = cannot_listen(listener, exc, config=config, required=required)
        if required:
            raise ListenerUnavailable(line) from None
        log.error(line)
        return False
    return True


def cannot_listen(listener: SmtpListener, exc: OSError, *, config: str, required: bool) -> str:
    """One line: why ``listener`` could not listen, what pbem does without it, and the setting
    to change in the file ``config``."""
    reason = os.strerror(exc.errno).lower() if exc.errno else str(exc)
    hint = _WHY.get(exc.errno)
    where = f"SMTP listener: cannot listen on {listener.host}:{listener.port}: {reason}" + \
        (f" ({hint})" if hint else "")
    if required:
        return (f"{where}; listener.required = true in {config} says it is the only way mail "
                f"reaches pbem, so pbem does not start: set listener.port there to a free port, "
                f"or stop the program that holds it")
    return (f"{where}; pbem goes on without it: mail dropped into the Maildir intake "
            f"{listener.maildir} (pbem send FILE) is read and answered, phases run and replies go "
            f"out; to receive mail by SMTP set listener.port in {config} to a free port "
            f"(or listener.enabled = false to run without the listener)")


def port_is_free(host: str, port: int) -> bool:
    """Whether the listener could listen on host:port now (another program may take it later)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as asyncio's server does
        try:
            probe.bind((host, port))
            probe.listen(1)
        except OSError:
            return False
    return True


def free_port(host: str, wanted: int, tries: int = 100) -> int:
    """``wanted`` when it is free, else the first free port after it (within ``tries``), else
    one the system picks."""
    for port in range(wanted, min(wanted + tries, 65536)):
        if port_is_free(host, port):
            return port
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]
