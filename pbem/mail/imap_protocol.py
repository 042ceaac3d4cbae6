"""The IMAP protocol as text: quoting mailbox names, reading the server's untagged answers,
and the keys under which :mod:`pbem.mail.imap_source` hands out mail.

Pure functions, apart from the connection, so they are tested on the answers servers actually
give (item order in FETCH differs between servers; SEARCH answers share lines with EXISTS).
"""
from __future__ import annotations

import re

_ATOM = re.compile(r"[A-Za-z0-9_.\-/]+")
_UIDVALIDITY = re.compile(rb"\[UIDVALIDITY (\d+)\]")
_EXISTS = re.compile(rb"^(\d+) EXISTS$")
_FETCH_START = re.compile(rb"^\d+ FETCH \(")
_UID = re.compile(rb"UID (\d+)")
_SEARCH_RESULT = re.compile(rb"^[\d ]*$")


def quote_mailbox(name: str) -> str:
    """Mailbox name as an IMAP astring (ASCII names only: no modified UTF-7 here)."""
    if not name.isascii():
        raise ValueError(f"mailbox names must be ASCII: {name!r}")
    if _ATOM.fullmatch(name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def uid_set(uids: list[int]) -> str:
    return ",".join(str(u) for u in uids)


def parse_search(lines: list) -> list[int]:
    """UIDs of an untagged SEARCH answer; other untagged lines (EXISTS...) carry words."""
    uids = []
    for line in lines:
        if isinstance(line, bytes) and _SEARCH_RESULT.match(line):
            uids.extend(int(tok) for tok in line.split())
    return uids


def parse_fetch(lines: list) -> dict[int, bytes]:
    """{uid: message} from a UID FETCH (UID BODY.PEEK[]) answer, whatever the item order."""
    bodies: dict[int, bytes] = {}
    uid = body = None

    def flush():
        if uid is not None and body is not None:
            bodies[uid] = body

    for line in lines:
        if isinstance(line, (bytearray, memoryview)):
            body = bytes(line)
            continue
        if _FETCH_START.match(line):
            flush()
            uid = body = None
        found = _UID.search(line)
        if found and uid is None:
            uid = int(found.group(1))
    flush()
    return bodies


def parse_key(key: str) -> tuple[str, int, int]:
    """(mailbox, uidvalidity, uid) of an ``imap:`` key."""
    prefix, _, rest = key.partition(":")
    mailbox, validity, uid = rest.rsplit(":", 2)
    if prefix != "imap" or not validity.isdecimal() or not uid.isdecimal():
        raise ValueError(f"not an IMAP key: {key!r}")
    return mailbox, int(validity), int(uid)


def parse_uidvalidity(lines: list) -> int | None:
    """UIDVALIDITY of a SELECT answer; None when the server did not say it."""
    joined = b"\n".join(x for x in lines if isinstance(x, bytes))
    found = _UIDVALIDITY.search(joined)
    return int(found.group(1)) if found else None


def parse_exists(lines: list) -> int:
    """The message count of a SELECT answer (its EXISTS line); 0 when absent."""
    return next((int(m.group(1)) for line in lines if isinstance(line, bytes)
                 for m in [_EXISTS.match(line)] if m), 0)


def multiappend(messages: list[bytes], flags: str | None) -> tuple[str, bytes]:
    """One APPEND of several messages (MULTIAPPEND, RFC 3502): the first message's literal
    size, which ends the command line, and what follows once the server asks for that
    literal: the first message, then each other one as a non-synchronizing literal
    (LITERAL+, RFC 7888), which the server reads without asking again.  The caller writes
    the closing CRLF, as after any literal."""
    first, *rest = messages
    before = b" %s " % flags.encode() if flags else b" "  # each further message's flags
    return "{%d}" % len(first), first + b"".join(b"%s{%d+}\r\n%s" % (before, len(data), data)
                                                  for data in rest)
