"""Reading a line of orders, for every grammar of the game (orders, clauses, diplomacy, war):
the words, the names the map data knows, the keywords, and a ``FOR <power>`` line.

Players write names without quotes (``MOVE ARMY 3 Cape Colony TO Sudwest Afrika``):
the longest run of words that the map data knows as a name is taken as one name;
words that are neither keywords nor known names run together into one unknown
name, so the reply can say "unknown area ... did you mean ...?".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from lark import Transformer

from pbem.kit.gameapi import ParseResult, Problem
from pbem.kit.names import nearest

_WORD = re.compile(r'"[^"]*"|->|[^\s,;]+')
MAX_NAME_WORDS = 6


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
    return bool(data.resolve_place(text, home_power) or data.resolve_power(text, natives=True))


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
        if number.isdecimal():
            out.append(Tok("num", number))
            i += 1
            continue
        span = name_span(raw, i, data, home_power)
        if span:
            out.append(Tok("name", " ".join(raw[i:i + span]), True))
            i += span
            continue
        if out and out[-1].kind == "name" and i > 0 and plain_word(raw[i - 1]) \
                and not raw[i - 1].startswith('"'):
            # an unknown word after a name spoils it ("Cape Colny"): one unknown name
            out[-1] = Tok("name", out[-1].text + " " + w, False)
        else:
            out.append(Tok("name", w, False))
        i += 1
    return out


def plain_word(w: str) -> bool:
    return not (w.startswith('"') or w == "->" or w.lstrip("£").isdecimal())


def name_span(raw: list[str], i: int, data, home_power: str | None) -> int:
    """Length of the longest known name starting at ``raw[i]`` (0 if none)."""
    limit = 0
    while i + limit < len(raw) and limit < MAX_NAME_WORDS and plain_word(raw[i + limit]):
        limit += 1
    for n in range(limit, 0, -1):
        if _known(data, " ".join(raw[i:i + n]), home_power):
            return n
    return 0


def _longer_name(raw: list[str], i: int, data, home_power: str | None) -> bool:
    """A keyword that starts a longer known name is part of the name."""
    return name_span(raw, i, data, home_power) > 1


# -- parsing -----------------------------------------------------------------


class ShapeBase(Transformer):
    """What every grammar of the game shares: a quoted name and a number."""

    def NAME(self, tok):  # noqa: N802 - lark terminal callback
        return ("name", tok[1:-1])

    def INT(self, tok):  # noqa: N802
        return int(tok)


def misspelt_keyword(text: str, forms: Sequence[str], power: str, data, known: set[str]) -> tuple[str, str] | None:
    """(the word as written, the keyword of the verb's forms it most likely is) for the first
    word after the verb that is neither a keyword (``known``: the grammar's keywords and
    aliases) nor part of a name ("BUY INTREST Siam": INTEREST; "PLACE POSSESION Guiana":
    POSSESSION), or None."""
    raw = words(text)
    wanted = sorted({w for f in forms for w in re.findall(r"[A-Z]{2,}", f)} - {raw[0].upper()})
    for i, w in enumerate(raw):
        if i and w.upper() not in known and plain_word(w) and not name_span(raw, i, data, power):
            near = nearest(w, wanted, normalise=str.upper)
            return (w, near) if near else None
    return None


def normalise_with(text: str, data, keywords, aliases: dict | None = None, power: str | None = None) -> str:
    """A line for one of the game's grammars (orders, clauses, diplomacy, war):
    its keywords (aliases made canonical), numbers, and every name quoted."""
    aliases = aliases or {}
    out = []
    for t in tokenize(text, data, set(keywords) | set(aliases), power):
        if t.kind == "kw":
            out.append(aliases.get(t.text, t.text))
        elif t.kind == "num":
            out.append(t.text)
        else:
            out.append('"' + t.text.replace('"', "") + '"')
    return " ".join(out)


def for_line(power: str, current: str, text: str, data, number: int | None,
             result: ParseResult) -> str | None:
    """Rules: AUSTRIA-HUNGARY - a ``FOR <power>`` line: the German player's orders after
    ``FOR Austria-Hungary`` are Austria-Hungary's, until ``FOR Germany`` or the end.  The power
    the lines below it are written for (``current`` when the line names none a player may write
    for; the problem goes to ``result``), or None when the line is not a FOR line."""
    head = text.split(None, 1)
    if head[0].upper() != "FOR":
        return None
    # The line says whose orders follow: it is read as part of them.
    result.part_lines.add(number)
    target = data.resolve_power(head[1]) if len(head) > 1 else None
    if target is None:
        result.problems.append(Problem("unknown-power", f"FOR names no power: {text!r}",
                                       number, data.suggest(head[-1], "power"), "invalid"))
    elif target == power or (power == "Germany" and target == "Austria-Hungary"):
        return target
    else:
        result.problems.append(Problem("not-your-power",
                                       f"{power} cannot write orders for {target}", number))
    return current


def take_line(power: str, current: str, text: str, data, number: int | None, result: ParseResult,
              parse) -> str:
    """One line of an orders block: a FOR line switches the power the orders are for
    (:func:`for_line`), any other is read by ``parse(power, text, number) -> (order,
    problem)`` into ``result``.  Returns the power the next line is for."""
    switched = for_line(power, current, text, data, number, result)
    if switched is not None:
        return switched
    order, problem = parse(current, text, number)
    if order is not None:
        result.orders.append(order)
    if problem is not None:
        result.problems.append(problem)
    return current

