"""A mail command is one declaration: the grammar rule (or keyword) that
selects it, how its typed form is built, its help, its guards and its handler.

Each command family (:mod:`.signon`, :mod:`.player`, :mod:`.addresses`,
:mod:`.account`, :mod:`.treaty`, :mod:`.gm`, :mod:`.gm_clock`) declares its
commands with :func:`command` on the handler; :mod:`.catalogue` gathers the
families.  The parser (:mod:`.parse`), HELP (:mod:`.help`), the dispatcher's
guards (:mod:`.dispatch`, :mod:`.budget`) and the README's command table all
read these declarations and nothing else.

The guards a declaration names run in this order before its handler (see
:func:`pbem.handlers.dispatch.run_commands`): signed on (``signon``), the GM's
(``who == "gm"``), acting for a power (``for_power``), the mail's and the hour's
caps (``limit``), the size of a player's text (``text``).  What a command needs
of the game's state (started, running, has such a treaty) its handler checks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

#: who a command is for, as HELP groups them: everyone, the players, the GM
WHO = ("any", "player", "gm")


@dataclass(frozen=True)
class Declaration:
    cls: type                   # the typed command (pbem.commands.model)
    keyword: str                # the words that name it, upper case ("SET ADDRESS")
    rule: str | None            # its rule in envelope.lark; None: GM's own edit, chosen by keyword
    syntax: str                 # one line, as a player would type it; placeholders in <>
    summary: str                # one line of help
    who: str                    # "any", "player" or "gm" (HELP's group; "gm": the GM's alone)
    handler: Callable | None    # handler(session, cmd); None: read by the parser or the dispatcher
    build: Callable | None = None   # the rule's children -> the command; None: no arguments
    signon: bool = True         # needs a sign-on (False: HELP, JOIN, CONFIRM, SIGNOFF, GM CREATE)
    for_power: bool = False     # acts for a power: a GM needs GM BECOME <power> first
    limit: str | None = None    # its cap's name in pbem.handlers.budget (PRESS, TREATY ...)
    text: str | None = None     # the field holding what the sender wrote (a player's is capped)
    block: str | None = None    # a text block up to END<block> (PRESS, TREATY, ANNOUNCE)

    def make(self, children) -> object:
        return self.build(children) if self.build else self.cls()


_DECLARED: list[Declaration] = []


def command(cls: type, keyword: str, rule: str | None, syntax: str, summary: str, who: str,
            **guards) -> Callable:
    """Declare the decorated function as the handler of ``cls`` (a ``rule`` of
    the grammar); ``guards`` are :class:`Declaration`'s other fields."""
    def declare(handler: Callable | None) -> Callable | None:
        declared(cls, keyword, rule, syntax, summary, who, handler, **guards)
        return handler
    return declare


def declared(cls: type, keyword: str, rule: str | None, syntax: str, summary: str, who: str,
             handler: Callable | None = None, **guards) -> Declaration:
    """Declare a command; without a handler for those the parser or the
    dispatcher reads themselves (the sign-on lines, SIGNOFF)."""
    if who not in WHO:
        raise ValueError(f"{keyword}: who is one of {', '.join(WHO)}, not {who!r}")
    found = Declaration(cls, keyword, rule, syntax, summary, who, handler, **guards)
    _DECLARED.append(found)
    return found


_ALL: list[tuple[Declaration, ...]] = []


def seal(order: tuple[str, ...]) -> tuple[Declaration, ...]:
    """Close the registry once every family is declared (:mod:`.catalogue` does),
    the commands in the grammar's ``order`` of rules, the GM's own edit last."""
    if not _ALL:
        rank = {rule: i for i, rule in enumerate(order)}
        _ALL.append(tuple(sorted(_DECLARED, key=lambda d: rank.get(d.rule, len(rank)))))
    return _ALL[0]


def commands() -> tuple[Declaration, ...]:
    """Every command, in HELP's order; importing :mod:`.catalogue` declares them."""
    if not _ALL:
        raise RuntimeError("the mail commands are not declared yet: import pbem.handlers.catalogue")
    return _ALL[0]


def gm_words() -> frozenset[str]:
    """The word after GM of each of pbem's own GM commands (EXTEND, PAUSE, SET...): what a
    GM line's second word is checked against before it goes to the game as an edit."""
    return frozenset(d.keyword.split()[1] for d in commands() if d.keyword.startswith("GM "))
