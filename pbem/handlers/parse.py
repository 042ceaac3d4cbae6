"""Read one command line of a player's or GM's mail.

The line goes through the grammar in ``pbem/commands/envelope.lark``; the rule
it matches names the declaration (:mod:`.declare`) that builds the typed
command.  A GM line that is none of the platform's GM commands is the game's
own edit.  Bad input never raises: it becomes a :class:`~pbem.kit.gameapi.Problem`
with a stable code, its line and, where one is close, a suggestion.  The mail as
a whole (blocks, the sign-on, loose lines) is read by :mod:`.reading`.
"""
from __future__ import annotations

from dataclasses import replace

from lark.exceptions import UnexpectedInput, UnexpectedToken

from pbem.commands import grammar
from pbem.commands import model as m
from pbem.commands.values import BadValue
from pbem.handlers.catalogue import BY_RULE, COMMANDS
from pbem.handlers.declare import Declaration, gm_words
from pbem.kit.gameapi import Problem
from pbem.kit import names
from pbem.kit.names import shown

TOP_KEYWORDS = grammar.top_keywords()
#: first words of several commands (SET ADDRESS, SET PASSWORD...): alone they say nothing
GROUPS = {first: frozenset(c.keyword.split(" ", 1)[1] for c in COMMANDS
                           if " " in c.keyword and c.keyword.split()[0] == first)
          for first in TOP_KEYWORDS}
GROUPS = {first: subs for first, subs in GROUPS.items() if subs}
_END_TOKENS = {"$END", "<END-OF-FILE>"}

_WHAT = {"NAME": "a name", "WORD": "a value", "ADDR": "an email address", "TEXT": "some text",
         "AT": "'@'", "COMMA": "','"}


def _entry(words: list[str]) -> Declaration:
    """The declaration of the command the words start (the longest match)."""
    upper = [w.upper() for w in words]
    found = [c for c in COMMANDS if upper[:len(c.keyword.split())] == c.keyword.split()]
    return max(found, key=lambda c: len(c.keyword.split()))


def _syntax_problem(err: UnexpectedInput, line: str, words: list[str], n: int) -> Problem:
    entry = _entry(words)
    usage = f"write it as: {entry.syntax}"
    expected = set(getattr(err, "expected", None) or getattr(err, "allowed", None) or ())
    token = getattr(err, "token", None)
    if isinstance(err, UnexpectedToken) and token is not None and token.type in _END_TOKENS:
        wanted = " or ".join(sorted(_WHAT.get(e, e) for e in expected)) or "more"
        return Problem("missing-argument", f"{entry.keyword} needs {wanted}; {usage}", n,
                       kind="invalid")
    pos = getattr(err, "pos_in_stream", 0) or 0
    found = str(token) if token is not None else (line[pos:].split() or [line[pos:pos + 1]])[0]
    if expected & _END_TOKENS:
        return Problem("extra-argument", f"unexpected {found!r} at the end; {usage}", n,
                       kind="invalid")
    return Problem("bad-syntax", f"did not understand {found!r}; {usage}", n, kind="invalid")


def suggest(word: str, choices) -> str | None:
    """The keyword ``word`` is a typo of, if any."""
    # The one nearest of pbem and its games, keywords compared as written (a space counts).
    return names.nearest(word.upper(), choices, normalise=str.upper)


def unknown(words: list[str], n: int) -> Problem:
    first = words[0].upper()
    if first in GROUPS:  # SET / TREATY with a word that is not theirs
        subs = GROUPS[first]
        close = suggest(words[1], subs) if len(words) > 1 else None
        return Problem("unknown-command", f"{first} must be followed by one of: "
                       + ", ".join(sorted(subs)), n, f"{first} {close}" if close else None,
                       kind="invalid")
    if first in gm_words():  # a GM's command without its GM (as the console takes it)
        return Problem("unknown-command", f"{shown(words[0])} is not a command on its own", n,
                       f"GM {first}", kind="invalid")
    return Problem("unknown-command", f"{shown(words[0])} is not a command", n,
                   suggest(first, TOP_KEYWORDS), kind="invalid")


def _gm_edit(words: list[str], line: str) -> m.GmEdit | None:
    """A GM line that is none of the platform's GM commands is the game's."""
    subs = GROUPS["GM"]
    upper = [w.upper() for w in words[1:3]]
    if upper[0] in subs or " ".join(upper) in subs:
        return None
    return m.GmEdit(line.split(None, 1)[1])


def parse_line(line: str, n: int | None = None):
    """One command line (comments removed) -> a command, a sign-on part, or a Problem."""
    words = line.split()
    if not words or words[0].upper() not in TOP_KEYWORDS:
        return unknown(words or [""], n)
    # Mail converted from HTML is full of non-breaking spaces: all spacing is one space.
    line = " ".join(words)
    first = words[0].upper()
    if first in GROUPS and len(words) == 1:
        return Problem("missing-argument", f"{first} needs more; send HELP {first}", n,
                       kind="invalid")
    if first == "GM":
        edit = _gm_edit(words, line)
        if edit is not None:
            return replace(edit, line=n)
    elif first in GROUPS and words[1].upper() not in GROUPS[first]:
        return unknown(words, n)
    try:
        tree = grammar.parser().parse(line)
    except UnexpectedInput as err:
        return _syntax_problem(err, line, words, n)
    try:
        return replace(BY_RULE[tree.data].make(tree.children), line=n)
    except BadValue as bad:
        return Problem(bad.code, bad.message, n, kind="invalid")
