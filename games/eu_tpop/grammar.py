"""Reading one line with one of the game's grammars (orders.lark).

The grammar gives the forms; the line is read word by word as the grammar asks
(lark's LALR parser, fed one token at a time):

* a word that is a keyword the grammar accepts here is that keyword, in any case;
* where the grammar accepts a value terminal (a realm, an area, a number ...), that
  terminal's reader takes it off the line (:class:`.names.Reader`: names with spaces,
  case-insensitive, quoted or with hyphens) and says what is wrong when it cannot;
* the line may end where the grammar accepts its end; where it ends too soon, the reply
  names the keyword that must come, else the value that must (its reader says how).

Where the grammar accepts several values, they are tried in alphabetical order: a reader
that finds the line is not its kind raises :class:`Declined` (taking nothing) and the next is
tried.  A word that fits nowhere gets the reply a player has always had: ``expected TO, found
x`` where a keyword must come (the keywords listed in :attr:`Grammar.order`, leaving out
those the form only may have), else ``unexpected 'x' at the end of the line``.
"""
from __future__ import annotations

import re
from copy import copy
from pathlib import Path
from typing import Any, Callable, Mapping

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedToken
from lark.parsers.lalr_interactive_parser import InteractiveParser

from pbem.kit.gameapi import GMError

from .names import Reader

ValueReader = Callable[[Reader], Any]


class Declined(Exception):
    """A value reader's answer when the line is not its kind: the next value is tried."""


class Grammar:
    """A lark grammar file read with value readers (one per declared terminal)."""

    def __init__(self, path: Path, start: list[str], values: Mapping[str, ValueReader],
                 order: tuple[str, ...] = ()):
        text = path.read_text(encoding="utf-8")
        self.lark = Lark(text, parser="lalr", start=start)
        self.values = dict(values)
        #: keywords in the order a reply lists them (others follow, alphabetically)
        self.order = order
        self._keywords = frozenset(t.name for t in self.lark.terminals if t.name not in self.values
                                   and t.pattern.type == "str" and t.pattern.value == t.name)
        missing = {t.name for t in self.lark.terminals} - set(self.values) - self.keywords()
        if missing:
            raise ValueError(f"{path.name}: terminals without a reader: {sorted(missing)}")
        clash = set(self.values) & set(re.findall(r'"([A-Z_]+)"', text))
        if clash:
            raise ValueError(f"{path.name}: values named as keywords: {sorted(clash)}")

    def keywords(self) -> set[str]:
        """The grammar's keywords (every terminal whose text is one upper-case word)."""
        return set(self._keywords)

    def starts(self, start: str) -> set[str]:
        """The keywords a line read from ``start`` may begin with."""
        return self.lark.parse_interactive(None, start=start).accepts() - {"$END"}

    def read(self, state: dict, words: list[str], start: str, optional: frozenset[str] = frozenset()) -> Tree:
        """The parse tree of ``words`` from rule ``start``; raises GMError with the reply.
        ``optional``: keywords left out of "expected ..." (the form may have them)."""
        r = Reader(state, words)
        ip = self.lark.parse_interactive(None, start=start)
        keywords = self._keywords
        while True:
            # Each candidate is tried on a copy of the parser (what lark's accepts() does for
            # every terminal at once, which is several times slower).
            choices = ip.choices()
            word = r.peek()
            if word in keywords and word in choices and _fits(ip, word):
                r.words.pop(0)
                ip.feed_token(Token(word, word))
            elif not r and "$END" in choices and _fits(ip, "$END"):
                return ip.feed_eof()
            elif (readable := sorted(t for t in choices if t in self.values and _fits(ip, t))) and \
                    (r or not {t for t in choices if t in keywords and t not in optional and _fits(ip, t)}) and \
                    (token := self._value(readable, r)) is not None:
                ip.feed_token(token)
            else:
                raise self._refusal(ip.accepts(), optional, r)

    def _value(self, terminals: list[str], r: Reader) -> Token | None:
        """The first of ``terminals`` whose reader takes a value off the line (None: all declined)."""
        for terminal in terminals:
            try:
                return Token(terminal, self.values[terminal](r))
            except Declined:
                continue
        return None

    def _refusal(self, accepts: set[str], optional: frozenset[str], r: Reader) -> GMError:
        keywords = (accepts - optional) & self._keywords
        listed = [k for k in self.order if k in keywords] + sorted(keywords - set(self.order))
        if listed:
            exc = GMError(f"expected {' or '.join(listed)}, found {r.words[0] if r.words else 'the end of the line'}")
        else:
            exc = GMError(f"unexpected {' '.join(r.words)!r} at the end of the line")
        if r.words:
            # A misspelt keyword the form may have here (SEIGE for SIEGE) is named, optional ones too.
            from pbem.kit.names import nearest
            exc.suggestion = nearest(r.words[0], sorted(accepts & self._keywords))
        return exc


def _fits(ip: InteractiveParser, terminal: str) -> bool:
    """Whether the parser would take ``terminal`` next (tried on a copy, without callbacks)."""
    trial = ip.copy(deepcopy_values=False)
    trial.parser_state.parse_conf = copy(trial.parser_state.parse_conf)
    trial.parser_state.parse_conf.callbacks = {}
    try:
        trial.feed_token(Token(terminal, ""))
    except UnexpectedToken:
        return False
    return True
