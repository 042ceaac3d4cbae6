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
from email.policy import compat32

from pbem.mail.decoding import header_text

MASK = "****"

# SIGNON is a word of its own wherever it stands (a Subject, after "Re:"); the
# other forms count at the start of a line (after quote marks), because
# "password" and "join" are common words in press.
_ANYWHERE = r"(?:^|(?<=[\s>:]))"
_LINE_START = r"^[\s>]*"
# A secret is one word to the grammar, but players type one with a space for its hyphen
# ("k7mqd x3hrn") or choose one of several words: the words after it on the line (up
# to _MORE_WORDS) are masked too, so no part of a secret rests in a refused line.
_MORE_WORDS = 4
_SECRET = rf"(\S+(?:[ \t]+\S+){{0,{_MORE_WORDS}}})"
_SECRET_LINES = (
    # Glued to a word before it too: adjacent encoded words of a Subject are joined
    # without a space (RFC 2047), and "SIGNON power@game" is no common phrase.
    re.compile(r"SIGNON\s+\S+@\S+[ \t]+" + _SECRET, re.I),
    re.compile(_ANYWHERE + r"SIGNON\s+(?!\S*@)\S+\s+\S+[ \t]+" + _SECRET, re.I),
    re.compile(_LINE_START + r"(?:SET\s+)?PASSWORD[ \t]+" + _SECRET, re.I),
    re.compile(_LINE_START + r"JOIN\s+\S+\s+\S+[ \t]+" + _SECRET, re.I),
    re.compile(_LINE_START + r"CONFIRM[ \t]+" + _SECRET, re.I),
)
# Any length: a secret set before limits.min_secret_length existed (or by the GM on the
# command line) may be short, and at rest it is hidden all the same.
_MIN_LENGTH = 1


def find_secrets(*texts: str | None) -> set[str]:
    """Every word in the texts typed where a secret goes."""
    found: set[str] = set()
    for text in texts:
        for line in (text or "").splitlines():
            if len(line) > 4000:
                line = line[:4000]
            for pattern in _SECRET_LINES:
                for match in pattern.finditer(line):
                    for word in match.group(1).split():
                        word = word.strip("\"'<>()[],;")
                        if len(word) >= _MIN_LENGTH and word != MASK:
                            found.add(word)
    return found


_WORD = re.compile(r"[\w-]+")


class _Secrets:
    """Finds secrets as whole words, in any case, in time linear in the text
    whatever their number (a mail of sixty thousand CONFIRM lines has sixty
    thousand): a secret of word characters and hyphens is a whole run of
    them, looked up in a set; the few others are one regular expression."""

    def __init__(self, secrets: Iterable[str]):
        words = {s for s in secrets if s}
        self.simple = {w.lower() for w in words if _WORD.fullmatch(w)}
        rest = sorted(words - {w for w in words if _WORD.fullmatch(w)}, key=len, reverse=True)
        self.rest = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in rest) + r")(?![\w-])",
                               re.I) if rest else None

    def __bool__(self) -> bool:
        return bool(self.simple) or self.rest is not None

    def _absent(self, text: str) -> bool:
        """Whether no word-like secret can be in ``text``, known at once in the common case
        of a few ASCII secrets: a word that lowers to an ASCII secret holds no sigma (the one
        letter whose lowering depends on what follows), so the secret is a part of the whole
        text lowered; when none is, no word needs looking up."""
        if len(self.simple) > 8 or not all(s.isascii() for s in self.simple):
            return False
        lowered = text.lower()
        return not any(s in lowered for s in self.simple)

    def sub(self, text: str) -> str:
        if self.simple and not self._absent(text):
            text = _WORD.sub(lambda m: MASK if m.group(0).lower() in self.simple else m.group(0), text)
        return self.rest.sub(MASK, text) if self.rest else text

    def search(self, text: str) -> bool:
        if self.simple and not self._absent(text) and \
                any(m.group(0).lower() in self.simple for m in _WORD.finditer(text)):
            return True
        return bool(self.rest and self.rest.search(text))


def _pattern(secrets: Iterable[str]) -> _Secrets | None:
    found = _Secrets(secrets)
    return found if found else None


def scrub(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret, as a whole word in any case, replaced by ``****``."""
    pattern = _pattern(secrets)
    return pattern.sub(text) if pattern and text else text


def scrub_bytes(data: bytes, secrets: Iterable[str]) -> bytes:
    if _pattern(secrets) is None:
        return data
    # Bytes as latin-1 keep their length and position; UTF-8 secrets are matched by their bytes.
    as_text = data.decode("latin-1")
    variants = {s.encode("utf-8").decode("latin-1") for s in secrets}
    return _pattern(variants).sub(as_text).encode("latin-1")


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
            msg.replace_header(name, scrub(header_text(str(msg[name])), secrets))
    return msg.as_bytes()


def still_holds(raw: bytes, secrets: set[str]) -> bool:
    """Whether a secret can still be read in the mail, decoded as pbem reads it."""
    from pbem.mail.normalize import readable_texts

    if not secrets:
        return False
    pattern = _pattern(secrets)
    return any(pattern.search(t) for t in readable_texts(raw)) or bool(pattern.search(raw.decode("latin-1")))


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
