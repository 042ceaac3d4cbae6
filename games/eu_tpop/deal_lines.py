"""Reading the lines of a deal block with deals.lark: the terms of a ``DIPLOMACY`` deal
(NOTES 3.4 Player-to-Player Diplomacy) and the lines of a ``NEGOTIATE`` block (10.4
Negotiated Peace).  Reading only says what a line is; what it may do is
:func:`.diplomacy.check_deal`'s and :func:`.negotiated_peace.read_negotiation`'s question."""
from __future__ import annotations

import re
from pathlib import Path

from pbem.kit.gameapi import GMError, Refused

from .grammar import Declined, Grammar
from .names import NAMES, Reader, tokens
from .orders import details, term_name

#: the words that make a NEGOTIATE line one party's action
ACTIONS = ("CUTS", "PAYS")


def _one_word(r: Reader) -> str:
    if not r.words:
        raise GMError("expected a word")
    return r.words.pop(0)


def _amount(r: Reader) -> int:
    if not r.words or not re.fullmatch(r"\d+", r.words[0]):
        raise GMError("expected an amount")
    return int(r.words.pop(0))


def _sold(r: Reader) -> str:
    """The province sold: the words up to the last ``FOR <n>`` of the line."""
    if len(r.words) < 3 or r.words[-2].upper() != "FOR" or not re.fullmatch(r"\d+", r.words[-1]):
        raise GMError("expected <province> FOR <n>")
    sold, r.words = " ".join(r.words[:-2]), r.words[-2:]
    return sold


def _actor(r: Reader) -> str:
    """The realm taking the optional action of a negotiated peace: the words before CUTS or
    PAYS.  A line without either is no action (the term reader reads it)."""
    at = next((i for i, w in enumerate(r.words) if w.upper() in ACTIONS), None)
    if not at:
        raise Declined
    words, r.words = r.words[:at], r.words[at:]
    sub = Reader(r.state, words)
    realm = sub.name("realm")
    sub.done()
    return realm


class Unreadable(GMError):
    """A NEGOTIATE line that is no term, victor or action (the caller names the line)."""

    code = "negotiation-line"


def _peace_term(r: Reader) -> str:
    term = term_name(r.words[0]) if r.words else None
    if term is None:
        raise Unreadable("not a term")
    r.words.pop(0)
    return term


VALUES = {**NAMES, "PARTY": _one_word, "AMOUNT": _amount, "SOLD": _sold, "REST": lambda r: r.rest(),
          "ACTOR": _actor, "PEACE_TERM": _peace_term, "DETAILS": lambda r: details(r.state, r.rest())}
GRAMMAR = Grammar(Path(__file__).with_name("deals.lark"), ["term", "negotiation"], VALUES)


def read_term(state: dict, line: str) -> tuple[str, list]:
    """A DIPLOMACY line as its form (deals.lark) and values; Refused when it does not read."""
    try:
        tree = GRAMMAR.read(state, line.split(), "term")
    except GMError:
        raise Refused(f"cannot read the deal line {line!r}: ALLIANCE, MARRIAGE, <realm> PAYS <n>, "
                      "<realm> SELLS <province> FOR <n>", "deal-line") from None
    return str(tree.data), [c.value for c in tree.children]


def read_negotiation_line(state: dict, line: str) -> tuple[str, list] | None:
    """A NEGOTIATE line as its form (``victor``, ``cut_ties``, ``pays``, ``term``) and values;
    None for an empty line.  Raises Refused (a misspelt name: with the nearest one)."""
    words = tokens(line)
    if not words:
        return None
    try:
        tree = GRAMMAR.read(state, words, "negotiation")
    except Unreadable:
        raise Refused(f"cannot read {line!r} in the negotiated peace", "negotiation-line") from None
    return str(tree.data), [c.value for c in tree.children]


def deal_key(lines: list[str]) -> str:
    """A deal's text as both sides must send it: the same words, in any case and spacing."""
    return "\n".join(" ".join(line.upper().split()) for line in lines)
