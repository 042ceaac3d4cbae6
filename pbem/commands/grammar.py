"""The grammar of a command line (``envelope.lark``) and what can be read
from it without running it: the command rules and the keywords that start them.

Which declaration builds each rule is the handlers' registry's business
(:mod:`pbem.handlers.declare`); a test checks both name the same rules.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark

GRAMMAR = Path(__file__).with_name("envelope.lark")


def text() -> str:
    return GRAMMAR.read_text(encoding="utf-8")


@functools.cache
def parser() -> Lark:
    return Lark(text(), parser="lalr", lexer="contextual")


@functools.cache
def command_rules() -> tuple[str, ...]:
    """The rules a command line may be (the alternatives of ``start``), in order."""
    found = re.search(r"^\?start:(.*?)\n\n", text(), re.M | re.S)
    return tuple(r for r in re.split(r"[\s|]+", found.group(1)) if r)


@functools.cache
def top_keywords() -> frozenset[str]:
    """First words that start a command line: the first keyword of each command
    rule, and GM (a GM line that is no rule is the game's own edit)."""
    rules = set(command_rules())
    firsts = {word.upper() for rule, word in re.findall(r'^([a-z_]+):\s+"(\w+)"i', text(), re.M)
              if rule in rules}
    return frozenset(firsts | {"GM"})
