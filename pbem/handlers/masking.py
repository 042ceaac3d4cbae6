"""Secrets never travel in what a player writes.

A player types its secret where a secret goes (the sign-on, ``SET PASSWORD``, ``JOIN``, a
``CONFIRM`` token); anywhere else in the mail -- press, a treaty's text and clauses, a
breach claim, a Congress proposal, an order line, a GM announcement -- it is masked before
any command reads the mail, so it is never stored, mailed or published, whatever its length
(a short one is masked where it stands as a word of its own) or however it is written:
in any case, in full-width or other compatibility forms, with invisible characters inside.

(The stored copy of the raw mail is masked apart, by :mod:`pbem.outbound.secrets_at_rest`.)
"""
from __future__ import annotations

import re
import unicodedata

from pbem.commands import model as m
from pbem.handlers.reading import parse_mail, split_lines

MASK = m.MASK
#: a secret this long or longer is masked inside a word too; a shorter one only as a word
WHOLE_WORD_BELOW = 4


def _folded(text: str) -> tuple[str, list[int]]:
    """``text`` as secrets are compared (compatibility forms, case folded, invisible format
    characters dropped), with the index in ``text`` of each folded character."""
    if text.isascii():  # the common case: nothing to fold but the case, nothing invisible
        return text.lower(), list(range(len(text)))
    chars: list[str] = []
    owners: list[int] = []
    for i, ch in enumerate(text):
        if unicodedata.category(ch) == "Cf":  # zero-width spaces and joiners, soft hyphens
            continue
        for c in unicodedata.normalize("NFKC", ch).casefold():
            chars.append(c)
            owners.append(i)
    return "".join(chars), owners


class Keys:
    """Secrets as they are compared, folded once for all the lines of a mail, with one
    pattern that tells at C speed whether a line holds any of them at all (most hold none:
    a mail of 60,000 lines and 300 secrets must not cost 18 million comparisons)."""

    def __init__(self, secrets):
        self.keys = sorted({k for k in (_folded(s)[0] for s in secrets if s) if k})
        self.any = re.compile("|".join(map(re.escape, self.keys))) if self.keys else None


def mask(text: str, secrets) -> str:
    """``text`` with every secret in it replaced by ``****`` (``secrets``: the secrets, or
    :class:`Keys` made of them once for many texts)."""
    keys = secrets if isinstance(secrets, Keys) else Keys(secrets)
    if not text or keys.any is None:
        return text
    folded, owners = _folded(text)
    if not keys.any.search(folded):
        return text
    spans: list[tuple[int, int]] = []
    for key in keys.keys:
        start = folded.find(key)
        while start >= 0:
            end = start + len(key)
            word = (start == 0 or not folded[start - 1].isalnum()) and \
                (end == len(folded) or not folded[end].isalnum())
            if len(key) >= WHOLE_WORD_BELOW or word:
                spans.append((owners[start], owners[end - 1] + 1))
            start = folded.find(key, start + 1)
    if not spans:
        return text
    out, at = [], 0
    for a, b in sorted(spans):
        if a < at:          # overlaps the span masked before it
            at = max(at, b)
            continue
        out += [text[at:a], MASK]
        at = b
    out.append(text[at:])
    return "".join(out)


def read(text: str) -> tuple[str, m.ParsedMail]:
    """The mail's text with every secret it types masked everywhere but where it is typed,
    and the commands read from that text."""
    first = parse_mail(text)
    secrets = set(first.typed_secrets.values())
    if not secrets:
        return text, first
    lines = split_lines(text)
    keys = Keys(secrets)
    kept = [line if n in first.typed_secrets else mask(line, keys) for n, line in enumerate(lines, 1)]
    masked = "\n".join(kept)
    if masked == text:
        return text, first
    return masked, parse_mail(masked)
