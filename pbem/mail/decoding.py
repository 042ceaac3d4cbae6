"""Mail bytes and headers to text, for a reader who never sees the encoding.

Declared charsets are often wrong (latin-1 that is really Windows-1252, none at all for UTF-8),
headers carry raw 8-bit bytes or RFC 2047 words in charsets nobody knows.  Everything here
guesses sensibly and never raises, because one badly encoded mail must not stop the intake.
"""
from __future__ import annotations

import codecs
import logging
import re
from email.header import decode_header, make_header
from email.message import Message

log = logging.getLogger(__name__)


def decode_header_value(value: str) -> str:
    """RFC 2047 words decoded; raw 8-bit bytes (not allowed, yet common) read as UTF-8 or cp1252."""
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        value = decode_bytes(value.encode("utf-8", "surrogateescape"), None)
    # Unfold first: a folded header is one logical line.
    value = re.sub(r"\r?\n([ \t])", r"\1", value)
    return header_text(value).replace("\r", " ").replace("\n", " ").strip()


def header_text(value: str) -> str:
    """A header's RFC 2047 words decoded one by one: a word in a charset
    nobody knows is read as UTF-8 (else Windows-1252) instead of leaving
    every other word of the header encoded."""
    try:
        return str(make_header(decode_header(value)))
    except Exception:
        pass
    try:
        chunks = decode_header(value)
    except Exception:
        return value
    return "".join(decode_bytes(chunk, charset) if isinstance(chunk, bytes) else chunk
                   for chunk, charset in chunks)


def raw_header(msg: Message, name: str) -> str | None:
    """The header as received, bypassing compat32's lossy handling of 8-bit bytes."""
    wanted = name.lower()
    try:
        for key, value in msg.raw_items():
            if key.lower() == wanted:
                return value if isinstance(value, str) else str(value)
    except Exception:
        log.debug("unreadable header %s", name, exc_info=True)
    return None


def read_header(msg: Message, name: str) -> str | None:
    value = raw_header(msg, name)
    return None if value is None else decode_header_value(value)


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode ``data`` in its declared charset, falling back sensibly when that is wrong or unknown."""
    # Mail without a declared charset, or mislabelled, is most often UTF-8, else Windows-1252.
    for name in (_codec(charset) or "utf-8", "utf-8", "cp1252"):
        try:
            return data.decode(name)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    charset = charset.strip().strip('"').lower()
    if charset in ("us-ascii", "ascii", "iso-8859-1", "latin-1", "latin1", "iso_8859-1"):
        # Clients that say latin-1 or ascii routinely send Windows-1252 quotes and euro signs.
        charset = "cp1252"
    try:
        return codecs.lookup(charset).name
    except (LookupError, ValueError):  # unknown, or not a name at all (a NUL in it)
        return None
