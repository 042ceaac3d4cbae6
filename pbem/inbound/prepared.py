"""What handling a mail reads from its bytes alone, worked out before its transaction.

Reading a mail (its MIME parts, its headers, its commands) and finding the secrets its
stored copy must not keep depend on nothing but the mail's bytes and the site's
configuration.  So a worker process works them out for its next batch while another
worker holds the database's write lock for the batch before
(:mod:`pbem.inbound.sandbox`); the transaction then only does what needs the database.
One question about the database is left for the transaction: whether the mail's
Message-ID is one pbem sent (then the mail is its own mail coming back, a loop).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.base.context import Context
from pbem.commands import model as m
from pbem.handlers import masking
from pbem.handlers.reading import split_lines
from pbem.mail.normalize import Inbound, parse_message
from pbem.outbound.secrets_at_rest import find_secrets, mask_raw, scrub

#: the first line of the stored copy of a mail over the size limit
OVERSIZED = b"X-PBEM-Oversized: "

# Within one line: the TOKEN line is blanked, so every other line keeps its number.
_TOKEN = re.compile(r"^[ \t]*TOKEN[ \t]+(\S+)[ \t]*$", re.I | re.M)


@dataclass
class Prepared:
    """One stored mail, read: what :func:`pbem.inbound.intake.handle` needs of its bytes."""

    raw: bytes                      # the stored copy it was read from
    mail: Inbound                   # the Subject already has its secrets masked
    at_rest: set[str]               # words typed where a secret goes: masked in the stored copy
    masked: bytes                   # the stored copy with them masked
    asked: str | None = None        # the Message-ID to look up among pbem's own (the loop check)
    text: str = ""                  # the commands' text: TOKEN lines blanked, stray secrets masked
    tokens: list[str] = field(default_factory=list)
    parsed: m.ParsedMail | None = None
    lines: list[str] = field(default_factory=list)


def stored_size(raw: bytes) -> int | None:
    """The size a mail came with, when only its beginning was stored (an oversized mail)."""
    if not raw.startswith(OVERSIZED):
        return None
    first = raw[len(OVERSIZED):raw.find(b"\n")]
    return int(first) if first.isdigit() else None


def prepare(ctx: Context, raw: bytes) -> Prepared:
    """Read a stored mail.  Raises what reading it raises: the mail's try then fails."""
    asked: list[str] = []
    # Whether the Message-ID is pbem's own is asked of the database in the transaction; here
    # it is noted and taken for "no", which changes nothing else: the loop check comes first.
    mail = parse_message(raw, max_bytes=ctx.max_message_bytes, own_addresses=[ctx.address],
                         own_message_id=lambda mid: asked.append(mid) or False,
                         size=stored_size(raw))
    # Every word typed where a secret goes is masked in the stored copy, whatever becomes of
    # the mail (an oversized mail was not decoded: its bytes are searched); a secret typed
    # in the Subject is masked before the Subject is shown anywhere.
    at_rest = find_secrets(mail.full_text, mail.subject, raw.decode("latin-1") if mail.too_large else None)
    mail.subject = scrub(mail.subject, find_secrets(mail.subject))
    read = Prepared(raw=raw, mail=mail, at_rest=at_rest, masked=mask_raw(raw, at_rest),
                    asked=asked[0] if asked else None)
    if not mail.too_large:
        text, read.tokens = _split_tokens(mail.text)
        # The secrets the mail types are masked in every other line before a command reads it.
        read.text, read.parsed = masking.read(text)
        read.lines = split_lines(read.text)
    return read


def _split_tokens(text: str) -> tuple[str, list[str]]:
    tokens = _TOKEN.findall(text)
    return _TOKEN.sub("", text), tokens
