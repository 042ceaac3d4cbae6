"""Reading names out of a line: realms, areas, sea zones and provinces,
case-insensitively, multi-word names as written (``Far Shore``), quoted, or
with hyphens (``Far-Shore``)."""
from __future__ import annotations

import re
import shlex

from pbem.kit import names as kit_names
from pbem.kit.gameapi import GMError, Problem

KINDS = ("realm", "area", "sea", "province")


def tokens(text: str) -> list[str]:
    try:
        return shlex.split(text.replace("'", "\\'"))
    except ValueError:
        return text.split()


def norm(text: str) -> str:
    """A name as names compare (the platform's one normaliser): "Far-Shore", "far shore"."""
    return kit_names.key(text)


def table(state: dict, kind: str) -> dict[str, str]:
    source = {"realm": state["realms"], "area": state["areas"], "sea": state["seas"],
              "province": state["provinces"]}[kind]
    out = {norm(n): n for n in source}
    if kind == "realm":
        out["rebels"] = "Rebels"
    return out


def lookup(state: dict, text: str, *kinds: str) -> tuple[str, str] | None:
    key = norm(text)
    for kind in kinds:
        found = table(state, kind).get(key)
        if found:
            return kind, found
    return None


def nearest(state: dict, text: str, *kinds: str) -> str | None:
    """The known name of one of ``kinds`` nearest to ``text`` (the platform's
    :func:`pbem.kit.names.nearest`): a misspelt realm is offered realms only, a
    misspelt area areas only."""
    return kit_names.nearest(text, [n for kind in kinds for n in table(state, kind).values()])


def article(word: str) -> str:
    """``a realm``, ``an area``."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


class Reader:
    """Takes names, numbers and words off the front of a list of words: the readers of the
    grammars' values (grammar.py; keywords are the grammar's to read)."""

    def __init__(self, state: dict, words: list[str]):
        self.state, self.words = state, list(words)

    def __bool__(self) -> bool:
        return bool(self.words)

    def peek(self) -> str:
        return self.words[0].upper() if self.words else ""

    def number(self, what: str = "a number") -> int:
        if not self.words or not re.fullmatch(r"[+-]?\d+", self.words[0]):
            raise GMError(f"expected {what}, found {self.words[0] if self.words else 'nothing'}")
        return int(self.words.pop(0))

    def name(self, *kinds: str, what: str | None = None) -> str:
        """The longest run of words (up to four) naming a known place or realm."""
        for n in range(min(4, len(self.words)), 0, -1):
            found = lookup(self.state, " ".join(self.words[:n]), *kinds)
            if found:
                del self.words[:n]
                return found[1]
        label = what or " or ".join(kinds)
        if not self.words:
            raise GMError(f"expected {article(label)} name")
        # The suggestion for a name of several words is found from as many words as it has.
        guess = next(filter(None, (nearest(self.state, " ".join(self.words[:n]), *kinds)
                                   for n in range(min(4, len(self.words)), 0, -1))), None)
        raise NameError_(f"there is no {label} called {self.words[0]!r}", guess, kinds[0])

    def new_name(self, *stop: str) -> str:
        """Words up to the first keyword in ``stop`` (a name being created)."""
        taken = []
        while self.words and self.words[0].upper() not in stop:
            taken.append(self.words.pop(0))
        if not taken:
            raise GMError("expected a name")
        return " ".join(w.replace("_", " ") for w in taken)

    def rest(self) -> list[str]:
        out, self.words = self.words, []
        return out

    def done(self) -> None:
        if self.words:
            raise GMError(f"unexpected {' '.join(self.words)!r} at the end of the line")


#: the grammars' name terminals (orders.lark, gm.lark) and the kinds of name each takes, in
#: the order they are looked up
NAME_KINDS = {"REALM_NAME": ("realm",), "AREA_NAME": ("area",), "PROVINCE_NAME": ("province",),
              "SEA_NAME": ("sea",), "SEA_OR_PORT": ("sea", "province"), "AREA_OR_PROVINCE": ("area", "province"),
              "PLACE": ("area", "sea", "province")}
#: each name terminal's reader
NAMES = {terminal: (lambda r, kinds=kinds: r.name(*kinds)) for terminal, kinds in NAME_KINDS.items()}


class NameError_(GMError):
    """An unknown name, with the nearest known one when there is one."""

    def __init__(self, message: str, suggestion: str | None, kind: str):
        super().__init__(message, f"unknown-{kind}")
        self.suggestion = suggestion

    def problem(self, line: int | None = None) -> Problem:
        """The reply's problem, with the suggestion (a GM edit's reply is made from this)."""
        return Problem(self.code, str(self), line, self.suggestion)
