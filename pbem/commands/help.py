"""Help for every mail command, from one table.

:data:`COMMANDS` is the single place a command is declared for people: the
parser takes its top-level keywords from it (so a command cannot exist
without help), ``HELP`` answers from it, and the README's command list is
:func:`commands_markdown`.
"""
from __future__ import annotations

from typing import Iterable, NamedTuple

from pbem.kit.names import nearest


class CommandHelp(NamedTuple):
    keyword: str   # the words that name the command, upper case ("SET ADDRESS")
    syntax: str    # one line, as a player would type it; placeholders in <>
    summary: str   # one line of help
    who: str       # "player", "gm" or "any"


COMMANDS: tuple[CommandHelp, ...] = (
    # -- signing on ---------------------------------------------------------
    CommandHelp("SIGNON", "SIGNON <power>@<game> <secret>",
                "Sign on as a power (also: SIGNON <power> <game> <secret>; the GM signs on as GM).",
                "any"),
    CommandHelp("GAME", "GAME <game>",
                "Sign on in three lines: the game (with POWER and PASSWORD, in any order).", "any"),
    CommandHelp("POWER", "POWER <power>", "Sign on in three lines: the power you play.", "any"),
    CommandHelp("PASSWORD", "PASSWORD <secret>", "Sign on in three lines: your secret.", "any"),
    CommandHelp("SIGNOFF", "SIGNOFF", "End of the commands; anything after it is ignored.", "any"),
    # -- playing --------------------------------------------------------------
    CommandHelp("ORDERS", "ORDERS [<phase>] ... ENDORDERS",
                "Orders for this phase, one a line; the block ends at ENDORDERS, END, END ORDERS, "
                "the next command or the end of the mail. Replaces orders sent earlier.", "player"),
    CommandHelp("CLEAR", "CLEAR", "Withdraw the orders you sent for this phase.", "player"),
    CommandHelp("DONE", "DONE",
                "Nothing more from you this phase: your orders (if any) stand, and the phase may "
                "end early once every power it waits for is done.", "player"),
    CommandHelp("PRESS", "PRESS TO <power>[,<power>...] [GREY] ... ENDPRESS",
                "Send a message to some powers (or TO ALL); GREY hides who sent it. "
                "The text is kept exactly as written; it ends at ENDPRESS or END PRESS.",
                "player"),
    CommandHelp("STATUS", "STATUS", "Show the game's state, the deadline and who has ordered.",
                "any"),
    CommandHelp("HELP", "HELP [<topic>]", "This help, or help on one command or topic.", "any"),
    CommandHelp("HISTORY", "HISTORY", "List the phases played so far.", "any"),
    CommandHelp("RESEND", "RESEND [<phase>]",
                "Send the whole turn report again (default: the latest; name a phase as HISTORY prints it).",
                "any"),
    CommandHelp("SET ADDRESS", "SET ADDRESS <email>[,<email>...]",
                "Replace the addresses your reports go to (at most 3); a new address counts once "
                "it answers the token mailed to it with CONFIRM.", "player"),
    CommandHelp("CONFIRM", "CONFIRM <token>",
                "From a new address: accept the SET ADDRESS (or take the JOIN seat) that named it "
                "(the token was mailed to it); no sign-on needed.", "any"),
    CommandHelp("SET PASSWORD", "SET PASSWORD <new-secret>", "Change your secret.", "any"),
    CommandHelp("SET ABSENCE", "SET ABSENCE <from-date> <to-date>",
                "Announce an absence (dates as 2026-01-31).", "player"),
    CommandHelp("SET ZONE", "SET ZONE <zone>",
                "Show deadlines in your own time zone too, e.g. SET ZONE America/New_York "
                "(the game's zone and UTC are always shown).", "player"),
    CommandHelp("JOIN", "JOIN <game> <power> <secret>",
                "Ask to play a power in a game that has not started; choose your secret. The seat "
                "is yours once your address answers the token mailed to it with CONFIRM.", "any"),
    # -- treaties -----------------------------------------------------------
    CommandHelp("TREATY PROPOSE",
                "TREATY PROPOSE <id> WITH <power>[,<power>...] [PUBLIC] ... ENDTREATY",
                "Propose a treaty; the lines up to ENDTREATY are its text. It stays private to its "
                "parties (until one of them reveals it) unless PUBLIC shows it to every power.", "player"),
    CommandHelp("TREATY SIGN", "TREATY SIGN <id>", "Sign a treaty proposed to you.", "player"),
    CommandHelp("TREATY REFUSE", "TREATY REFUSE <id>", "Refuse a treaty proposed to you.", "player"),
    CommandHelp("TREATY WITHDRAW", "TREATY WITHDRAW <id>",
                "Withdraw a treaty you proposed (or your signature).", "player"),
    CommandHelp("TREATY REVEAL", "TREATY REVEAL <id>", "Make a secret treaty public.", "player"),
    CommandHelp("TREATY BREACH", "TREATY BREACH <id> <power> [<what they did>]",
                "Claim that another party broke a treaty in force; the GM rules on it.", "player"),
    CommandHelp("TREATY LIST", "TREATY LIST", "List the treaties you can see.", "player"),
    # -- game master ----------------------------------------------------------
    CommandHelp("GM CREATE", "GM CREATE <game> RULES <rules> [OPTION <key>=<value> ...]",
                "Create a game played under a rule set, with options.", "gm"),
    CommandHelp("GM ADD PLAYER", "GM ADD PLAYER <power> <email>",
                "Seat a player at a power (its name as the reports print it, e.g. United States).", "gm"),
    CommandHelp("GM START", "GM START", "Start the game (publishes the dice seed's hash).", "gm"),
    CommandHelp("GM PAUSE", "GM PAUSE", "Stop the clock.", "gm"),
    CommandHelp("GM RESUME", "GM RESUME [NOW]",
                "Restart the clock with the time that was left; NOW also resolves the phase at once "
                "(without it, a phase whose orders are all in waits for its deadline).", "gm"),
    CommandHelp("GM EXTEND", "GM EXTEND <duration>",
                "Move the deadline later (durations as 48h, 2d, 1d12h, 90m, 1w).", "gm"),
    CommandHelp("GM SET DEADLINE", "GM SET DEADLINE <date> <time> [<zone>]",
                "Set the deadline, e.g. 2026-01-05 18:00 Europe/London (default: the game's zone).",
                "gm"),
    CommandHelp("GM PROCESS", "GM PROCESS [NOW]",
                "Resolve the phase on the next pass, or with NOW within this mail; missing orders get the defaults.",
                "gm"),
    CommandHelp("GM PREVIEW", "GM PREVIEW", "Show what resolving now would give, changing nothing.",
                "gm"),
    CommandHelp("GM ROLLBACK", "GM ROLLBACK <phase>",
                "Go back to the start of a resolved phase, named as HISTORY prints it (1884 "
                "Movement/Status Change or 1884/movement); every player is mailed the restored position.",
                "gm"),
    CommandHelp("GM REPLACE", "GM REPLACE <power> <email>",
                "Give a power to a new player; they are mailed their secret and a handover dossier "
                "(position, treaties, press, pending orders).", "gm"),
    CommandHelp("GM BECOME", "GM BECOME <power>",
                "Act as a power (the following commands are that power's).", "gm"),
    CommandHelp("GM RULE", "GM RULE <question-id> <ruling...>",
                "Answer a question the rules engine could not decide.", "gm"),
    CommandHelp("GM ANNOUNCE", "GM ANNOUNCE ... ENDANNOUNCE",
                "Send the text up to ENDANNOUNCE to every player.", "gm"),
    CommandHelp("GM REVEAL SEED", "GM REVEAL SEED", "Publish the dice seed so anyone can verify.",
                "gm"),
    CommandHelp("GM", "GM <game-command...>",
                "Any other GM line is a state edit in the game's own vocabulary "
                "(e.g. GM SET TREASURY France 10).", "gm"),
)

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
                "command (a greeting) and lines starting with > (quoted mail) are ignored; "
                "keywords may be written in any case.",
}

_WHO_TITLES = (("any", "Everyone"), ("player", "Players"), ("gm", "Game master"))


def top_keywords() -> frozenset[str]:
    """First words that start a command line (what the parser looks for)."""
    return frozenset(c.keyword.split()[0] for c in COMMANDS)


def subcommands(first: str) -> frozenset[str]:
    """The words after ``first`` of its multi-word commands (``SET`` -> ADDRESS, ...)."""
    return frozenset(c.keyword.split(" ", 1)[1] for c in COMMANDS
                     if " " in c.keyword and c.keyword.split()[0] == first)


def find(keyword: str) -> CommandHelp | None:
    keyword = " ".join(keyword.upper().split())
    return next((c for c in COMMANDS if c.keyword == keyword), None)


def _line(c: CommandHelp) -> str:
    return f"  {c.syntax}\n      {c.summary}"


def _matching(topic: str) -> list[CommandHelp]:
    """Commands named by ``topic``: exactly, or all commands under a first word."""
    exact = find(topic)
    if exact is not None and exact.keyword not in ("GM",):
        return [exact]
    return [c for c in COMMANDS if c.keyword.split()[0] == topic]


def help_text(topic: str | None = None) -> str:
    """The answer to ``HELP`` (all commands) or ``HELP <topic>``."""
    if topic is None or not topic.strip():
        parts = ["Commands (keywords may be written in any case):"]
        for who, title in _WHO_TITLES:
            parts.append(f"\n{title}:")
            parts.extend(_line(c) for c in COMMANDS if c.who == who)
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
    names = [c.keyword for c in COMMANDS] + list(TOPICS) + [t.upper() for t in more]
    close = nearest(key, names, normalise=lambda t: t.replace(" ", ""))
    hint = f" Did you mean HELP {close}?" if close else ""
    return f"There is no help on {topic.strip()!r}.{hint} Send HELP for the list of commands.\n"


def commands_markdown() -> str:
    """A Markdown table of every mail command (pasted into the README)."""
    rows = ["| Command | Who | What it does |", "| --- | --- | --- |"]
    rows.extend(f"| `{c.syntax}` | {c.who} | {c.summary} |" for c in COMMANDS)
    return "\n".join(rows) + "\n"
