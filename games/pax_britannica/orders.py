"""Orders of the Movement/Status Change Phase: tokenizing, parsing (grammar in
orders.lark), resolving names, and the canonical form of each order.

Players write names without quotes (``MOVE ARMY 3 Cape Colony TO Sudwest Afrika``):
the longest run of words that the map data knows as a name is taken as one name;
words that are neither keywords nor known names run together into one unknown
name, so the reply can say "unknown area ... did you mean ...?".
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r'"[^"]*"|->|[^\s,;]+')
_MAX_NAME_WORDS = 6


@dataclass(frozen=True)
class Tok:
    kind: str     # "kw" (a keyword, upper-cased), "num", "name" (raw text as written)
    text: str
    known: bool = False   # a name the data resolves (as a place or a power)


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def _known(data, text: str, home_power: str | None) -> bool:
    if text.lower() == "home":
        return True
    return bool(data.resolve_place(text, home_power) or data.resolve_power(text))


def tokenize(text: str, data, keywords: set[str], home_power: str | None = None) -> list[Tok]:
    raw = words(text)
    out: list[Tok] = []
    i = 0
    while i < len(raw):
        w = raw[i]
        if w.startswith('"'):
            out.append(Tok("name", w.strip('"').strip(), _known(data, w.strip('"'), home_power)))
            i += 1
            continue
        if w == "->" or w.upper() in keywords and not _longer_name(raw, i, data, home_power):
            out.append(Tok("kw", w.upper()))
            i += 1
            continue
        number = w.lstrip("£").rstrip("£")
        if number.isdigit():
            out.append(Tok("num", number))
            i += 1
            continue
        span = _name_span(raw, i, data, home_power)
        if span:
            out.append(Tok("name", " ".join(raw[i:i + span]), True))
            i += span
            continue
        if out and out[-1].kind == "name" and not out[-1].known:
            out[-1] = Tok("name", out[-1].text + " " + w, False)
        else:
            out.append(Tok("name", w, False))
        i += 1
    return out


def _plain(w: str) -> bool:
    return not (w.startswith('"') or w == "->" or w.lstrip("£").isdigit())


def _name_span(raw: list[str], i: int, data, home_power: str | None) -> int:
    """Length of the longest known name starting at ``raw[i]`` (0 if none)."""
    limit = 0
    while i + limit < len(raw) and limit < _MAX_NAME_WORDS and _plain(raw[i + limit]):
        limit += 1
    for n in range(limit, 0, -1):
        if _known(data, " ".join(raw[i:i + n]), home_power):
            return n
    return 0


def _longer_name(raw: list[str], i: int, data, home_power: str | None) -> bool:
    """A keyword that starts a longer known name is part of the name."""
    return _name_span(raw, i, data, home_power) > 1
