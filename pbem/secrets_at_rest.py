"""Secrets never rest in stored mail and never go out in a reply.

A player's secret is typed in a mail (``SIGNON``, ``PASSWORD``, ``SET
PASSWORD``, ``JOIN``, an address token in ``CONFIRM``; the site GM secret in
``SIGNON GM@...``), sometimes in
its Subject, sometimes quoted from an earlier mail.  Once the mail is
handled its stored copy keeps the original bytes with every secret replaced
by ``****`` (:func:`mask_raw`), and whatever the moderator sends because of
it is :func:`scrub`-bed of the real ones; only a welcome mail (and a SET
ADDRESS token mail) carries a secret, the one it hands out, and its stored
copy is masked once it is sent.

The secrets are found by a loose scan of every line (:func:`find_secrets`),
quoted or not, with or without the rest of the command right: a line that
failed to parse may still hold a real secret.
"""
from __future__ import annotations

import base64
import quopri
import re
from collections.abc import Iterable
from email import message_from_bytes
from email.header import decode_header, make_header
from email.policy import compat32

MASK = "****"

# SIGNON is a word of its own wherever it stands (a Subject, after "Re:"); the
# other forms count at the start of a line (after quote marks), because
# "password" and "join" are common words in press.
_ANYWHERE = r"(?:^|(?<=[\s>:]))"
_LINE_START = r"^[\s>]*"
_SECRET_LINES = (
    re.compile(_ANYWHERE + r"SIGNON\s+\S+@\S+\s+(\S+)", re.I),
    re.compile(_ANYWHERE + r"SIGNON\s+(?!\S*@)\S+\s+\S+\s+(\S+)", re.I),
    re.compile(_LINE_START + r"(?:SET\s+)?PASSWORD\s+(\S+)", re.I),
    re.compile(_LINE_START + r"JOIN\s+\S+\s+\S+\s+(\S+)", re.I),
    re.compile(_LINE_START + r"CONFIRM\s+(\S+)", re.I),
)
_MIN_LENGTH = 3  # shorter words are not worth hiding, and hiding them would garble replies


def find_secrets(*texts: str | None) -> set[str]:
    """Every word in the texts typed where a secret goes."""
    found: set[str] = set()
    for text in texts:
        for line in (text or "").splitlines():
            if len(line) > 4000:
                line = line[:4000]
            for pattern in _SECRET_LINES:
                for match in pattern.finditer(line):
                    word = match.group(1).strip("\"'<>()[],;")
                    if len(word) >= _MIN_LENGTH and word != MASK:
                        found.add(word)
    return found


def _pattern(secrets: Iterable[str]) -> re.Pattern | None:
    words = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not words:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])", re.I)


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret, as a whole word in any case, replaced by ``****``."""
    pattern = _pattern(secrets)
    return pattern.sub(MASK, text) if pattern and text else text


def scrub_bytes(data: bytes, secrets: Iterable[str]) -> bytes:
    pattern = _pattern(secrets)
    if pattern is None:
        return data
    # Bytes as latin-1 keep their length and position; UTF-8 secrets are matched by their bytes.
    as_text = data.decode("latin-1")
    variants = {s.encode("utf-8").decode("latin-1") for s in secrets}
    pattern = _pattern(variants)
    return pattern.sub(MASK, as_text).encode("latin-1")


def _mask_parts(raw: bytes, secrets: set[str]) -> bytes:
    """The mail rebuilt with every encoded text part and header masked (used
    only when replacing bytes in place did not reach an encoded secret)."""
    msg = message_from_bytes(raw, policy=compat32)
    for part in msg.walk():
        if part.is_multipart():
            continue
        cte = (part.get("Content-Transfer-Encoding") or "").strip().lower()
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        charset = part.get_content_charset() or "utf-8"
        try:
            text = payload.decode(charset, "replace")
        except LookupError:
            text = payload.decode("utf-8", "replace")
        masked = scrub(text, secrets).encode(charset if charset else "utf-8", "replace") \
            if _pattern(secrets).search(text) else None
        if masked is None:
            continue
        if cte == "base64":
            part.set_payload(base64.encodebytes(masked).decode("ascii"))
        elif cte == "quoted-printable":
            part.set_payload(quopri.encodestring(masked).decode("ascii"))
        else:
            part.set_payload(masked.decode(charset, "replace"))
    for name in ("Subject",):
        if msg[name] is not None:
            try:
                value = str(make_header(decode_header(str(msg[name]))))
            except Exception:
                value = str(msg[name])
            msg.replace_header(name, scrub(value, secrets))
    return msg.as_bytes()


def still_holds(raw: bytes, secrets: set[str]) -> bool:
    """Whether a secret can still be read in the mail, decoded as pbem reads it."""
    from .mail.normalize import parse_message

    if not secrets:
        return False
    pattern = _pattern(secrets)
    mail = parse_message(raw, max_bytes=len(raw) + 1)
    texts = [mail.full_text, mail.subject, *mail.headers.values()]
    return any(pattern.search(t or "") for t in texts) or bool(
        pattern.search(raw.decode("latin-1")))


def mask_raw(raw: bytes, secrets: Iterable[str]) -> bytes:
    """The stored form of a handled mail: the original bytes with each secret
    replaced; an encoded part that still shows one is re-encoded masked; when
    even that fails, only the headers and a note are kept."""
    secrets = {s for s in secrets if s}
    if not secrets:
        return raw
    masked = scrub_bytes(raw, secrets)
    if not still_holds(masked, secrets):
        return masked
    try:
        rebuilt = scrub_bytes(_mask_parts(masked, secrets), secrets)
    except Exception:  # a mail too broken to rebuild: keep its headers only
        rebuilt = None
    if rebuilt is not None and not still_holds(rebuilt, secrets):
        return rebuilt
    head = raw.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
    return scrub_bytes(head, secrets) + (
        b"\n\n[pbem: the body held a secret that could not be masked in place; it was not kept]\n")
