"""Shared types of the mail boundary: where inbound mail comes from, how outbound mail leaves.

The daemon's loop is the same for every transport:

    mails = await source.fetch()          # oldest first, not yet acknowledged
    for mail in mails:
        ...store its effects in one transaction (keyed by mail.key and Message-ID)...
        await source.ack(mail.key, "processed")   # only after the commit
    await source.wait(timeout)            # until new mail may be there

A crash between the commit and ``ack`` means the same mail is fetched again with the same key;
the caller's dedupe makes that harmless.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

OUTCOMES = ("processed", "rejected")


@dataclass(frozen=True)
class RawMail:
    """One inbound message exactly as stored by the transport.

    ``key`` is unique and stable for this copy of the message:
    ``imap:<mailbox>:<uidvalidity>:<uid>`` or ``maildir:<filename-without-flags>``.
    """

    key: str
    data: bytes


@runtime_checkable
class MailSource(Protocol):
    async def fetch(self, limit: int = 100) -> list[RawMail]:
        """Not yet acknowledged mail, oldest first, at most ``limit``."""

    async def ack(self, key: str, outcome: str, replacement: bytes | None = None) -> None:
        """Move the mail to the folder for ``outcome`` ("processed" or "rejected");
        with ``replacement``, file those bytes (the mail with its secrets masked) there
        instead and delete the original."""

    async def ack_many(self, acks: list[tuple[str, str, bytes | None]]) -> None:
        """``ack(key, outcome, replacement)`` for each item, as few server commands as may be."""

    async def wait(self, timeout: float) -> None:
        """Return when new mail may be there, or after ``timeout`` seconds."""

    async def close(self) -> None:
        """Release connections; the source may not be used afterwards."""


class TemporaryFailure(Exception):
    """The operation may succeed later (4xx answer, server unreachable, timeout).

    ``refused`` maps recipients that were refused to their (code, text) when the failure
    concerns some recipients only; the others have the message already.
    """

    def __init__(self, message: str, refused: dict[str, tuple[int, str]] | None = None):
        super().__init__(message)
        self.refused = dict(refused or {})


class ServerUnavailable(TemporaryFailure):
    """The server itself cannot be reached or will not talk now (refused or dropped
    connection, timeout, TLS failure, 421): every other mail would fail the same way, so the
    caller stops and retries later instead of charging each mail an attempt."""


class PermanentFailure(Exception):
    """The operation will never succeed as it is (5xx answer, bad address, refused login)."""

    def __init__(self, message: str, refused: dict[str, tuple[int, str]] | None = None):
        super().__init__(message)
        self.refused = dict(refused or {})


class SessionRefused(PermanentFailure):
    """The server refuses the session itself, not this mail: the login (535), the
    sender address, a sending quota, a missing extension.  Every mail would be
    refused the same way until the cause is fixed, so none is given up: sending
    is held and tried again, and the site's admin is told."""


class MessageRefused(PermanentFailure):
    """A permanent refusal of one mail that may be about the mail (its content or
    size, at DATA) or about the session (a policy or quota answer at RCPT).  The
    caller tells the two apart by whether the server takes the next mail."""


@runtime_checkable
class MailSender(Protocol):
    async def send(self, raw: bytes, recipients: list[str]) -> None:
        """Deliver the mail ``raw`` (complete, as the outbox keeps it) to recipients;
        raise TemporaryFailure or PermanentFailure."""


def check_outcome(outcome: str) -> str:
    """The outcome if it is one ``ack`` understands, else ValueError."""
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}; expected one of {OUTCOMES}")
    return outcome
