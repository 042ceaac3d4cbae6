"""One IMAP connection (aioimaplib) as :mod:`pbem.mail.imap_source` uses it: every call under
a timeout and raced against the loss of the connection, because aioimaplib leaves a pending
command hanging when the connection dies.  Any failure drops the connection; the next call
reconnects, after an exponential back-off when the failures repeat, and calls fail with
TemporaryFailure meanwhile.  A password given as a callable is asked again at every login.
"""
from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Callable

import aioimaplib

from pbem.mail.imap_protocol import quote_mailbox
from pbem.mail.source import PermanentFailure, TemporaryFailure

log = logging.getLogger("pbem.mail.imap_source")


class ImapConnection:
    """The connection's state and the calls made on it; :meth:`_connected` is what a
    subclass does on each new connection once logged in."""

    def __init__(self, host: str, port: int, user: str, password: str | Callable[[], str], *,
                 ssl_context: ssl.SSLContext | None, timeout: float, backoff: tuple[float, float]):
        self.host, self.port, self.user = host, port, user
        self._password = password
        self.ssl_context = ssl_context
        self.timeout = timeout
        self.backoff_min, self.backoff_max = backoff
        self._client: aioimaplib.IMAP4 | None = None
        self._lost: asyncio.Event | None = None
        self._capabilities: set[str] = set()
        self._selected = False  # a mailbox is selected on this connection
        self._failures = 0
        self._retry_at = 0.0
        self._closed = False

    async def _connected(self) -> None:
        """Called on each new connection, logged in, before any other call."""

    async def _call(self, what: str, coro, *, must_succeed: bool = True):
        """Await one aioimaplib call under the timeout, raced against losing the connection."""
        lost = self._lost
        task = asyncio.ensure_future(coro)
        watcher = asyncio.ensure_future(lost.wait())
        try:
            done, _ = await asyncio.wait({task, watcher}, timeout=self.timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            watcher.cancel()
        if task not in done:
            task.cancel()
            reason = "connection lost" if lost.is_set() else f"no answer in {self.timeout}s"
            self._fail(f"{what}: {reason}")
        try:
            answer = task.result()
        except Exception as exc:  # aioimaplib errors, OSError, TLS errors, its RecursionError
            self._fail(f"{what}: {type(exc).__name__}: {exc}")
        if must_succeed and answer.result != "OK":
            raise TemporaryFailure(f"IMAP {what} answered {answer.result}: {answer.lines[-1:]}")
        return answer

    def _fail(self, reason: str):
        """Drop the connection, schedule the back-off, raise TemporaryFailure."""
        self._back_off(reason)
        raise TemporaryFailure(f"IMAP {self.host}:{self.port} {reason}")

    def _back_off(self, reason: str) -> None:
        self._failures += 1
        delay = min(self.backoff_max, self.backoff_min * 2 ** (self._failures - 1))
        self._retry_at = asyncio.get_running_loop().time() + delay
        # The caller reports the TemporaryFailure raised with this reason; one line is enough.
        log.debug("IMAP %s:%s %s; next attempt in %.1fs", self.host, self.port, reason, delay)
        self._drop(reason)

    def _drop(self, reason: str | None) -> None:
        client, self._client = self._client, None
        self._capabilities = set()
        self._selected = False
        if client is None:
            return
        if reason:
            log.debug("dropping IMAP connection: %s", reason)
        waiter = getattr(client, "_idle_waiter", None)
        if waiter is not None:
            waiter.cancel()
        for task in list(getattr(client, "tasks", ())) + list(client.protocol.tasks):
            task.cancel()
        transport = client.protocol.transport
        if transport is not None:
            transport.close()

    async def _ensure_connected(self) -> None:
        if self._closed:
            raise RuntimeError("source is closed")
        if self._client is not None and self._lost.is_set():
            self._drop("connection lost while idle")  # e.g. the server restarted
        if self._client is not None:
            return
        remaining = self._retry_at - asyncio.get_running_loop().time()
        if remaining > 0:
            raise TemporaryFailure(
                f"IMAP {self.host}:{self.port} unavailable, next attempt in {remaining:.1f}s")
        lost = asyncio.Event()
        self._lost = lost
        self._client = aioimaplib.IMAP4(
            self.host, self.port, timeout=self.timeout, ssl_context=self.ssl_context,
            conn_lost_cb=lambda exc: lost.set())
        await self._call("connect", self._client.wait_hello_from_server(), must_succeed=False)
        # A callable password is asked again for every login: a password changed in its
        # file (or the configuration) is used without a restart.
        secret = self._password() if callable(self._password) else self._password
        answer = await self._call("LOGIN", self._client.login(self.user, secret),
                                  must_succeed=False)
        if answer.result != "OK":
            text = b" ".join(x for x in answer.lines if isinstance(x, bytes)).decode(errors="replace")
            kind = PermanentFailure if "AUTHENTICATIONFAILED" in text else TemporaryFailure
            self._back_off(f"login as {self.user!r} refused: {text}")
            raise kind(f"IMAP login as {self.user!r} refused: {text}")
        await self._call("CAPABILITY", self._client.protocol.capability(), must_succeed=False)
        self._capabilities = set(self._client.protocol.capabilities)
        await self._connected()
        self._failures = 0
        log.info("IMAP connected to %s:%s as %s", self.host, self.port, self.user)

    async def _create(self, name: str) -> None:
        answer = await self._call("CREATE", self._client.create(quote_mailbox(name)),
                                  must_succeed=False)
        if answer.result == "OK":
            log.info("created IMAP folder %s", name)

