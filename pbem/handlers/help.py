"""Help for every mail command, from the commands' declarations.

Each command's syntax and summary are declared with it (:mod:`.declare`):
``HELP`` answers from them, and the README's command list is
:func:`commands_markdown`.
"""
from __future__ import annotations

from typing import Iterable

from pbem.handlers.declare import Declaration, commands
from pbem.kit.names import nearest


#: topics that are not commands: the formats shared by several commands
TOPICS: dict[str, str] = {
    "DURATIONS": "A duration is a number and a unit, combined from largest to smallest: "
                 "90m, 48h, 2d, 1d12h, 1w (w weeks, d days, h hours, m minutes).",
    "TIMES": "A time is a date and a clock time, 2026-01-05 18:00 or 2026-01-05T18:00, "
             "optionally followed by a zone such as Europe/London or UTC; "
             "without one the game's zone applies.",
    "COMMENTS": "# or // (at the start of a line or after a space) starts a comment, except "
                "inside PRESS, TREATY and ANNOUNCE texts, which are kept exactly as written "
                "(so a secret may contain # but not start with it). Text before the first "
                "command (a greeting) and after SIGNOFF is not read, and the reply names it; "
                "lines starting with > (quoted mail) and the mail you answered are ignored; "
                "keywords may be written in any case.",
}

_WHO_TITLES = (("any", "Everyone"), ("player", "Players"), ("gm", "Game master"))


def find(keyword: str) -> Declaration | None:
    keyword = " ".join(keyword.upper().split())
    return next((c for c in commands() if c.keyword == keyword), None)


def _line(c: Declaration) -> str:
    return f"  {c.syntax}\n      {c.summary}"


def _matching(topic: str) -> list[Declaration]:
    """Commands named by ``topic``: exactly, or all commands under a first word."""
    exact = find(topic)
    if exact is not None and exact.keyword not in ("GM",):
        return [exact]
    return [c for c in commands() if c.keyword.split()[0] == topic]


def help_text(topic: str | None = None) -> str:
    """The answer to ``HELP`` (all commands) or ``HELP <topic>``."""
    if topic is None or not topic.strip():
        parts = ["Commands (keywords may be written in any case):"]
        for who, title in _WHO_TITLES:
            parts.append(f"\n{title}:")
            parts.extend(_line(c) for c in commands() if c.who == who)
        parts.append("\nMore: HELP <command>, HELP " + ", HELP ".join(TOPICS))
        return "\n".join(parts) + "\n"
    return answer(topic) or no_help(topic)


def answer(topic: str) -> str | None:
    """The platform's help on one command or topic, or None when it has none."""
    key = " ".join(topic.upper().split())
    if key in TOPICS:
        return f"{key}\n  {TOPICS[key]}\n"
    found = _matching(key)
    if found:
        return "\n".join(_line(c) for c in found) + "\n"
    return None


def no_help(topic: str, more: Iterable[str] = ()) -> str:
    """The reply to a topic nobody knows, with the nearest topic (commands,
    the shared topics and ``more``: the game's own) by edit distance."""
    key = " ".join(topic.upper().split())
    names = [c.keyword for c in commands()] + list(TOPICS) + [t.upper() for t in more]
    close = nearest(key, names, normalise=lambda t: t.replace(" ", ""))
    hint = f" Did you mean HELP {close}?" if close else ""
    return f"There is no help on {topic.strip()!r}.{hint} Send HELP for the list of commands.\n"


def commands_markdown() -> str:
    """A Markdown table of every mail command (pasted into the README)."""
    rows = ["| Command | Who | What it does |", "| --- | --- | --- |"]
    rows.extend(f"| `{c.syntax}` | {c.who} | {c.summary} |" for c in commands())
    return "\n".join(rows) + "\n"
