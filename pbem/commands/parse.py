"""Read the commands in a player's or GM's mail.

A mail is read line by line.  Each command line goes through the grammar in
``envelope.lark``; the lines of a block never do: orders go to the game's own
grammar with their line numbers, and press, treaty and announcement texts are
kept exactly as written.  :func:`parse_mail` never raises on bad input:
everything it cannot use becomes a :class:`~pbem.kit.gameapi.Problem` with a stable
code and its line.  Greetings before the first command, quoted (``>``) lines
and comments are skipped; see ``HELP COMMENTS`` for what players are told.
"""
from __future__ import annotations

import difflib
import functools
import re
import zoneinfo
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

from pbem.base.identity import MAX_SECRET_LENGTH, normalize_secret
from pbem.commands import help as cmdhelp
from pbem.commands import model as m
from pbem.commands.model import BadValue, parse_duration
from pbem.kit.gameapi import Problem
from pbem.kit.names import shown

TOP_KEYWORDS = cmdhelp.top_keywords()
# First words of several commands (SET ADDRESS, SET PASSWORD...): alone they say nothing.
_GROUPS = {k: cmdhelp.subcommands(k) for k in TOP_KEYWORDS if cmdhelp.subcommands(k)}
_BLOCK_ENDS = {"ORDERS": {"END", "ENDORDERS", "END ORDERS"},
               "PRESS": {"ENDPRESS", "END PRESS"},
               "TREATY": {"ENDTREATY", "END TREATY"},
               "ANNOUNCE": {"ENDANNOUNCE", "END ANNOUNCE"}}
_ANY_END = set().union(*_BLOCK_ENDS.values())
#: Commands that never end an ORDERS block: JOIN is a newcomer's first mail, never written
#: after orders, while a game's order may start with the word (JOIN WAR WITH France).
_ORDER_WORDS = {"JOIN"}
_COMMENT = re.compile(r"(?:^|(?<=\s))(?:#|//)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_END_TOKENS = {"$END", "<END-OF-FILE>"}
_SUGGEST_CUTOFF = 0.7


@functools.cache
def _parser() -> Lark:
    grammar = Path(__file__).with_name("envelope.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual")


@dataclass(frozen=True)
class _Part:
    """One of the GAME / POWER / PASSWORD sign-on lines."""
    kind: str
    value: str
    line: int | None


#: the most command lines one mail may hold: each is read by the grammar, and a mail of
#: a megabyte of CONFIRM lines must not hold the queue (README: Security)
MAX_COMMAND_LINES = 300

# -- values ------------------------------------------------------------------

_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_DATETIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2})", re.I)
_ADDRESS = re.compile(r"[^@\s<>,]+@[^@\s<>,.][^@\s<>,]*")
_ZONE_SHAPE = re.compile(r"[A-Za-z_]+(?:/[A-Za-z0-9_+\-]+)*")


def _date(text: str) -> date:
    found = _DATE.fullmatch(text)
    try:
        if found:
            return date(*map(int, found.groups()))
    except ValueError:
        pass
    raise BadValue("bad-date", f"{text!r} is not a date (write it as 2026-01-31)")


@functools.cache
def _zones() -> dict[str, str]:
    return {z.lower(): z for z in zoneinfo.available_timezones()}


def _zone(text: str) -> str:
    if text.upper() in ("UTC", "Z"):
        return "UTC"
    zones = _zones()
    if zones:
        if text.lower() in zones:
            return zones[text.lower()]
    elif _ZONE_SHAPE.fullmatch(text):  # no zone database here: trust the shape
        return text
    raise BadValue("bad-time", f"{text!r} is not a time zone (write e.g. Europe/London or UTC)")


def parse_time(words: list[str]) -> tuple[datetime, str | None]:
    """``2026-01-05 18:00 [zone]`` or ``2026-01-05T18:00 [zone]``; raises BadValue."""
    usage = "write it as 2026-01-05 18:00, optionally followed by a zone"
    if "T" in words[0].upper():
        stamp, rest = words[0], words[1:]
    else:
        stamp, rest = "T".join(words[:2]), words[2:]
    found = _DATETIME.fullmatch(stamp)
    when = None
    if found:
        try:
            when = datetime(*map(int, found.groups()))
        except ValueError:
            pass
    if when is None:
        raise BadValue("bad-time", f"{' '.join(words)!r} is not a time ({usage})")
    if len(rest) > 1:
        raise BadValue("bad-time", f"unexpected {' '.join(rest[1:])!r} after the time zone")
    return when, (_zone(rest[0]) if rest else None)


def _address(text: str) -> str:
    text = text.strip("<>")
    if not _ADDRESS.fullmatch(text) or text.endswith("."):
        raise BadValue("bad-address", f"{text!r} is not an email address")
    return text


def _secret(text: str) -> str:
    """A new secret (SET PASSWORD, JOIN): something must be left once case,
    spaces and hyphens are set aside, and it must fit on a line."""
    if not normalize_secret(text):
        raise BadValue("empty-secret", f"{text!r} cannot be a secret: it needs a letter or a digit "
                       "(spaces and hyphens are not counted)")
    if len(text) > MAX_SECRET_LENGTH:
        raise BadValue("secret-too-long", f"a secret may have at most {MAX_SECRET_LENGTH} characters")
    return text


def _power_and_address(text: str, command: str) -> tuple[str, str]:
    """``<power> <email>``, where the power may be several words ("United
    States"): the GM writes the name as the reports print it."""
    *power, address = text.split()
    if not power:
        raise BadValue("missing-argument", f"{command} needs a power and an email address "
                       f"(write it as: {command} <power> <email>)")
    return " ".join(power), _address(address)


def _option(text: str) -> tuple[str, str]:
    key, eq, value = text.partition("=")
    if not key or not eq:
        raise BadValue("bad-option", f"{text!r} is not an option (write it as key=value)")
    return key, value


# -- one command line ------------------------------------------------------------

def _phrase(tok) -> str | None:
    return " ".join(str(tok).split()) if tok is not None else None


def _names(tree: Tree) -> tuple[str, ...]:
    return tuple(str(t) for t in tree.children)


def _gm_power(name: str) -> str:
    return "GM" if name.upper() == "GM" else name


def _deadline(c) -> m.GmSetDeadline:
    when, zone = parse_time([str(t) for t in c])
    return m.GmSetDeadline(when, zone)


def _absence(c) -> m.SetAbsence:
    start, end = _date(str(c[0])), _date(str(c[1]))
    if end < start:
        raise BadValue("bad-date", f"the absence ends ({end}) before it starts ({start})")
    return m.SetAbsence(start, end)


def _press(c) -> m.Press:
    to = c[0].children[0]
    recipients = "ALL" if isinstance(to, Token) else _names(to)
    return m.Press(recipients, c[1] is not None, "")


_BUILD = {
    "signon": lambda c: m.SignOn(_gm_power(str(c[0])), str(c[1]), str(c[2])),
    "game": lambda c: _Part("game", str(c[0]), 0),
    "power": lambda c: _Part("power", _gm_power(str(c[0])), 0),
    "password": lambda c: _Part("password", str(c[0]), 0),
    "orders": lambda c: m.Orders((), _phrase(c[0])),
    "press": _press,
    "help": lambda c: m.Help(_phrase(c[0])),
    "resend": lambda c: m.Resend(_phrase(c[0])),
    "set_address": lambda c: m.SetAddress(tuple(_address(str(t)) for t in c)),
    "set_password": lambda c: m.SetPassword(_secret(str(c[0]))),
    "set_absence": _absence,
    "set_zone": lambda c: m.SetZone(_zone(str(c[0]))),
    "confirm": lambda c: m.Confirm(str(c[0])),
    "join": lambda c: m.Join(str(c[0]), str(c[1]), _secret(str(c[2]))),
    "treaty_propose": lambda c: m.TreatyPropose(str(c[0]), _names(c[1]),
                                                c[2] is None or c[2].type == "SECRET", ""),
    "treaty_sign": lambda c: m.TreatySign(str(c[0])),
    "treaty_refuse": lambda c: m.TreatyRefuse(str(c[0])),
    "treaty_withdraw": lambda c: m.TreatyWithdraw(str(c[0])),
    "treaty_reveal": lambda c: m.TreatyReveal(str(c[0])),
    "treaty_breach": lambda c: m.TreatyBreach(str(c[0]), str(c[1]), _phrase(c[2]) or ""),
    "gm_create": lambda c: m.GmCreate(str(c[0]), str(c[1]), tuple(
        _option(str(w)) for opt in c[2:] for w in opt.children)),
    "gm_add_player": lambda c: m.GmAddPlayer(*_power_and_address(str(c[0]), "GM ADD PLAYER")),
    "gm_extend": lambda c: m.GmExtend(parse_duration(str(c[0]))),
    "gm_set_deadline": _deadline,
    "gm_process": lambda c: m.GmProcess(c[0] is not None),
    "gm_resume": lambda c: m.GmResume(c[0] is not None),
    "gm_rollback": lambda c: m.GmRollback(_phrase(c[0])),
    "gm_replace": lambda c: m.GmReplace(*_power_and_address(str(c[0]), "GM REPLACE")),
    "gm_become": lambda c: m.GmBecome(" ".join(str(c[0]).split())),
    "gm_rule": lambda c: m.GmRule(str(c[0]), _phrase(c[1])),
    "gm_announce": lambda c: m.GmAnnounce(""),
}

# Commands without arguments: the grammar's rule is the command's words in snake case.
_BUILD.update({cls.WORDS.lower().replace(" ", "_"): (lambda c, cls=cls: cls())
               for cls in (m.SignOff, m.Done, m.Clear, m.Status, m.History, m.TreatyList, m.GmStart,
                           m.GmPause, m.GmPreview, m.GmRevealSeed)})

_WHAT = {"NAME": "a name", "WORD": "a value", "ADDR": "an email address", "TEXT": "some text",
         "AT": "'@'", "COMMA": "','"}


def _entry(words: list[str]) -> cmdhelp.CommandHelp:
    """The help entry of the command the words start (the longest match)."""
    upper = [w.upper() for w in words]
    found = [c for c in cmdhelp.COMMANDS if upper[:len(c.keyword.split())] == c.keyword.split()]
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


def _suggest(word: str, choices) -> str | None:
    if len(word) > 64:  # no keyword is a typo of a word this long
        return None
    close = difflib.get_close_matches(word.upper(), sorted(choices), n=1, cutoff=_SUGGEST_CUTOFF)
    return close[0] if close else None


def _unknown(words: list[str], n: int) -> Problem:
    first = words[0].upper()
    if first in _GROUPS:  # SET / TREATY with a word that is not theirs
        subs = _GROUPS[first]
        close = _suggest(words[1], subs) if len(words) > 1 else None
        return Problem("unknown-command", f"{first} must be followed by one of: "
                       + ", ".join(sorted(subs)), n, f"{first} {close}" if close else None,
                       kind="invalid")
    return Problem("unknown-command", f"{shown(words[0])} is not a command", n,
                   _suggest(first, TOP_KEYWORDS), kind="invalid")


def _gm_edit(words: list[str], line: str) -> m.GmEdit | None:
    """A GM line that is none of the platform's GM commands is the game's."""
    subs = _GROUPS["GM"]
    upper = [w.upper() for w in words[1:3]]
    if upper[0] in subs or " ".join(upper) in subs:
        return None
    return m.GmEdit(line.split(None, 1)[1])


def parse_line(line: str, n: int | None = None):
    """One command line (comments removed) -> a command, a sign-on part, or a Problem."""
    words = line.split()
    if not words or words[0].upper() not in TOP_KEYWORDS:
        return _unknown(words or [""], n)
    # Mail converted from HTML is full of non-breaking spaces: all spacing is one space.
    line = " ".join(words)
    first = words[0].upper()
    if first in _GROUPS and len(words) == 1:
        return Problem("missing-argument", f"{first} needs more; send HELP {first}", n,
                       kind="invalid")
    if first == "GM":
        edit = _gm_edit(words, line)
        if edit is not None:
            return replace(edit, line=n)
    elif first in _GROUPS and words[1].upper() not in _GROUPS[first]:
        return _unknown(words, n)
    try:
        tree = _parser().parse(line)
    except UnexpectedInput as err:
        return _syntax_problem(err, line, words, n)
    try:
        return replace(_BUILD[tree.data](tree.children), line=n)
    except BadValue as bad:
        return Problem(bad.code, bad.message, n, kind="invalid")


# -- the whole mail --------------------------------------------------------------

# Problems of a line whose words are a command's, with a value that is wrong.
_VALUE_PROBLEMS = {"bad-date", "bad-time", "bad-address", "bad-option", "bad-duration", "empty-secret",
                   "secret-too-long"}


def _is_command(result) -> bool:
    return not isinstance(result, Problem) or result.code in _VALUE_PROBLEMS


def _strip_comment(raw: str) -> str:
    found = _COMMENT.search(raw)
    return (raw[:found.start()] if found else raw).strip()


def _clean(raw: str) -> str:
    """A command or order line without its comment; "" for quoted or empty lines."""
    return "" if raw.lstrip().startswith(">") else _strip_comment(raw)


def _is_end(line: str, block: str | None = None) -> bool:
    said = " ".join(line.upper().split())
    return said in (_BLOCK_ENDS[block] if block else _ANY_END)


def split_lines(text: str) -> list[str]:
    """The lines of a mail, numbered as problems number them (from 1)."""
    return _LINE_BREAK.split(text)


class _Reader:
    def __init__(self, text: str):
        self.lines = split_lines(text)
        self.i = 0
        self.started = False
        self.signon: m.SignOn | None = None
        self.parts: dict[str, _Part] = {}
        self.commands: list = []
        self.problems: list[Problem] = []
        self.loose: list[tuple[int, str]] = []   # lines that are no command, after the first one
        self.parsed = 0                          # command lines read so far (MAX_COMMAND_LINES)
        self.typed: dict[int, str] = {}          # secrets typed where a secret goes, by line

    def problem(self, code: str, message: str, line: int | None, suggestion: str | None = None):
        self.problems.append(Problem(code, message, line, suggestion, kind="invalid"))

    def read(self) -> m.ParsedMail:
        while self.i < len(self.lines):
            self.i += 1
            line = _clean(self.lines[self.i - 1])
            if line and self.top_line(line, self.i) == "stop":
                break
        self.finish()
        return m.ParsedMail(self.signon, self.commands, self.problems, self.typed)

    def top_line(self, line: str, n: int) -> str | None:
        words = line.split()
        if _is_end(line):
            if self.started:
                self.problem("unexpected-end", f"{line!r} does not close anything", n)
            return None
        if words[0].upper() not in TOP_KEYWORDS:
            if self.started:
                self.take_loose(line, n)
                return None
            found = _unknown(words, n)
            # Before the first command only a shouted near-miss ("ODERS") is
            # worth a word: everything else there is greeting.
            if words[0].isupper() and found.suggestion:
                self.problems.append(found)
            return None
        self.parsed += 1
        if self.parsed > MAX_COMMAND_LINES:
            self.problem("too-many-commands", f"only the first {MAX_COMMAND_LINES} command lines of a "
                         "mail are read; this line and the rest were not (send them in another mail)", n)
            return "stop"
        result = parse_line(line, n)
        if isinstance(result, Problem):
            if self.started or words[0].isupper():
                self.problems.append(result)
            return None
        self.started = True
        return self.accept(result, n)

    def accept(self, cmd, n: int) -> str | None:
        # A sign-on's secret, a new one (SET PASSWORD, JOIN) or a CONFIRM token.
        said = [cmd.value] if isinstance(cmd, _Part) and cmd.kind == "password" else \
            [getattr(cmd, "secret", None), getattr(cmd, "token", None)]
        typed = next((v for v in said if isinstance(v, str) and v), None)
        if typed:
            self.typed[n] = typed
        if isinstance(cmd, _Part):
            self.add_part(replace(cmd, line=n))
        elif isinstance(cmd, m.SignOn):
            if self.signon or self.parts:
                self.problem("duplicate-signon", "only the first sign-on counts", n)
            else:
                self.signon = cmd
        elif isinstance(cmd, m.Orders):
            self.commands.append(replace(cmd, lines=self.order_lines()))
        elif isinstance(cmd, (m.Press, m.TreatyPropose, m.GmAnnounce)):
            return self.text_block(cmd, n)
        else:
            self.commands.append(cmd)
            if isinstance(cmd, m.SignOff):
                return "stop"
        return None

    def take_loose(self, line: str, n: int) -> None:
        """A line after the first command that is no command may be an order
        written without ORDERS: the mail's loose lines become one implicit
        orders block, at the place of the first (the game judges them)."""
        if not self.loose:
            self.commands.append(m.Orders((), line=n, implicit=True))
        self.loose.append((n, line))

    def add_part(self, part: _Part) -> None:
        if self.signon or part.kind in self.parts:
            self.problem("duplicate-signon", f"{part.kind.upper()} was already given; "
                         "only the first sign-on counts", part.line)
        else:
            self.parts[part.kind] = part

    def _closed_later(self) -> bool:
        """Whether the ORDERS block being read is closed by its own end line."""
        for raw in self.lines[self.i:]:
            line = _clean(raw)
            if line and _is_end(line, "ORDERS"):
                return True
            if line and line.split()[0].upper() == "ORDERS":
                return False
        return False

    def order_lines(self) -> tuple[tuple[int, str], ...]:
        found = []
        closed = self._closed_later()
        while self.i < len(self.lines):
            line = _clean(self.lines[self.i])
            if line and _is_end(line, "ORDERS"):
                self.i += 1
                break
            # A keyword ends the block only when its line is a whole command and the block
            # is not closed further down: a game's order may well start with a word such as
            # STATUS, or read like a command (JOIN WAR WITH France).  A command with a
            # bad value (an empty secret) still ends an unclosed block.
            if not closed and line and line.split()[0].upper() in TOP_KEYWORDS - _ORDER_WORDS and \
                    _is_command(parse_line(line)):
                break
            if line:
                found.append((self.i + 1, line))
            self.i += 1
        return tuple(found)

    def text_block(self, cmd, n: int) -> str | None:
        block = {m.Press: "PRESS", m.TreatyPropose: "TREATY", m.GmAnnounce: "ANNOUNCE"}[type(cmd)]
        body = []
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            self.i += 1
            if _is_end(_strip_comment(raw), block):
                text = "\n".join(body)
                field = "body" if block == "PRESS" else "text"
                self.commands.append(replace(cmd, **{field: text}))
                return None
            body.append(raw)
        ends = sorted(_BLOCK_ENDS[block])
        message = (f"the {block} text starting here has no {' or '.join(ends)}; "
                   "it was not sent and nothing after it was read")
        # A misspelt end marker is the usual cause: point at it.
        for k, raw in enumerate(body):
            close = _suggest(" ".join(_strip_comment(raw).split()), ends)
            if close:
                self.problem("unterminated-block", f"{message} (line {n + 1 + k}?)", n, close)
                return "stop"
        self.problem("unterminated-block", message, n)
        return "stop"

    def finish(self) -> None:
        if self.parts and self.signon is None:
            missing = [k.upper() for k in ("game", "power", "password") if k not in self.parts]
            first = min(p.line for p in self.parts.values())
            if missing:
                self.problem("incomplete-signon", "to sign on, also give "
                             + " and ".join(missing), first)
                return
            p = self.parts
            self.signon = m.SignOn(p["power"].value, p["game"].value, p["password"].value, first)
        self.settle_loose()
        # A missing sign-on is the dispatcher's to report: it is a guard, like a wrong secret.
        if self.signon is None and not self.commands and not self.problems:
            self.problem("no-commands", "no command found in this mail; send HELP for the list",
                         None)


    def settle_loose(self) -> None:
        """Loose lines are orders only for a signed-on player; otherwise each
        is what it always was: an unknown command."""
        if not self.loose:
            return
        at = next(i for i, c in enumerate(self.commands) if isinstance(c, m.Orders) and c.implicit)
        if self.signon is not None and not self.signon.is_gm:
            self.commands[at] = replace(self.commands[at], lines=tuple(self.loose))
            return
        del self.commands[at]
        self.problems.extend(_unknown(line.split(), n) for n, line in self.loose)


def parse_mail(text: str) -> m.ParsedMail:
    """Every command and problem in one mail (already MIME-decoded, quotes removed)."""
    return _Reader(text).read()
