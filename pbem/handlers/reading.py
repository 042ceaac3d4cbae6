"""Read the commands in a player's or GM's mail.

A mail is read line by line.  Each command line is read by :mod:`.parse`; the
lines of a block never are: orders go to the game's own grammar with their line
numbers, and press, treaty and announcement texts (the declarations with a
``block``) are kept exactly as written.  :func:`parse_mail` never raises on bad
input: everything it cannot use becomes a :class:`~pbem.kit.gameapi.Problem`
with a stable code and its line.  Greetings before the first command, quoted
(``>``) lines and comments are skipped; see ``HELP COMMENTS`` for what players
are told.
"""
from __future__ import annotations

import re
from dataclasses import replace

from pbem.commands import model as m
from pbem.handlers.catalogue import BY_CLASS
from pbem.handlers.parse import TOP_KEYWORDS, parse_line, suggest, unknown
from pbem.kit.gameapi import Problem

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

#: the most command lines one mail may hold: each is read by the grammar, and a mail of
#: a megabyte of CONFIRM lines must not hold the queue (README: Security)
MAX_COMMAND_LINES = 300

# Problems of a line whose words are a command's, with a value that is wrong.
_VALUE_PROBLEMS = {"bad-date", "bad-time", "bad-address", "bad-option", "bad-duration", "empty-secret",
                   "secret-too-long"}


def _is_command(result) -> bool:
    return not isinstance(result, Problem) or result.code in _VALUE_PROBLEMS


def _strip_comment(raw: str) -> str:
    found = _COMMENT.search(raw)
    return (raw[:found.start()] if found else raw).strip()


def clean(raw: str) -> str:
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
        self.parts: dict[str, m.SignOnPart] = {}
        self.commands: list = []
        self.problems: list[Problem] = []
        self.loose: list[tuple[int, str]] = []   # lines that are no command, after the first one
        self.parsed = 0                          # command lines read so far (MAX_COMMAND_LINES)
        self.typed: dict[int, str] = {}          # secrets typed where a secret goes, by line
        self.unread: list[tuple[int, str]] = []  # lines no command reads, and why
        self.held: set[int] = set()              # lines read as a command, an order or a block's text

    def problem(self, code: str, message: str, line: int | None, suggestion: str | None = None):
        self.problems.append(Problem(code, message, line, suggestion, kind="invalid"))

    def read(self) -> m.ParsedMail:
        while self.i < len(self.lines):
            self.i += 1
            line = clean(self.lines[self.i - 1])
            if line and self.top_line(line, self.i) == "stop":
                if self.commands and isinstance(self.commands[-1], m.SignOff):
                    self.unread.extend((n, "signoff") for n in self.rest())
                break
        self.finish()
        self.name_the_rest()
        return m.ParsedMail(self.signon, self.commands, self.problems, self.typed, self.unread)

    def name_the_rest(self) -> None:
        """The net under the reader: a line with text that no command, order, block, problem
        or note holds is named as unread, never dropped (there should be none)."""
        named = self.held | {p.line for p in self.problems} | {n for n, _ in self.unread}
        for n, raw in enumerate(self.lines, 1):
            if n not in named and clean(raw):
                self.problem("unread-line", "this line was read as no command and nothing of it was "
                             "done; write it again as HELP shows", n)

    def rest(self) -> list[int]:
        """The numbers of the lines with text below the one being read."""
        return [n for n in range(self.i + 1, len(self.lines) + 1) if clean(self.lines[n - 1])]

    def top_line(self, line: str, n: int) -> str | None:
        words = line.split()
        if _is_end(line):
            if self.started:
                self.problem("unexpected-end", f"{line!r} does not close anything", n)
            else:
                self.unread.append((n, "greeting"))
            return None
        if words[0].upper() not in TOP_KEYWORDS:
            if self.started:
                self.take_loose(line, n)
                return None
            found = unknown(words, n)
            # Before the first command only a shouted near-miss ("ODERS") is
            # worth a problem: everything else there is greeting, named in the reply.
            if words[0].isupper() and found.suggestion:
                self.problems.append(found)
            else:
                self.unread.append((n, "greeting"))
            return None
        self.parsed += 1
        if self.parsed > MAX_COMMAND_LINES:
            self.held.update(self.rest())  # "this line and the rest were not read" says it
            self.problem("too-many-commands", f"only the first {MAX_COMMAND_LINES} command lines of a "
                         "mail are read; this line and the rest were not (send them in another mail)", n)
            return "stop"
        result = parse_line(line, n)
        if isinstance(result, Problem):
            # A broken sign-on is never greeting, however it is written: unsaid, the
            # player would read only that nothing was signed on.
            if self.started or words[0].isupper() or words[0].upper() == "SIGNON":
                self.problems.append(result)
            else:
                self.unread.append((n, "greeting"))
            return None
        self.started = True
        return self.accept(result, n)

    def accept(self, cmd, n: int) -> str | None:
        self.held.add(n)
        # A sign-on's secret, a new one (SET PASSWORD, JOIN) or a CONFIRM token.
        said = [cmd.value] if isinstance(cmd, m.SignOnPart) and cmd.kind == "password" else \
            [getattr(cmd, "secret", None), getattr(cmd, "token", None)]
        typed = next((v for v in said if isinstance(v, str) and v), None)
        if typed:
            self.typed[n] = typed
        if isinstance(cmd, m.SignOnPart):
            self.add_part(cmd)
        elif isinstance(cmd, m.SignOn):
            if self.signon or self.parts:
                self.problem("duplicate-signon", "only the first sign-on counts", n)
            else:
                self.signon = cmd
        elif isinstance(cmd, m.Orders):
            self.commands.append(replace(cmd, lines=self.order_lines()))
        elif BY_CLASS[type(cmd)].block:
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
        self.held.add(n)

    def add_part(self, part: m.SignOnPart) -> None:
        if self.signon or part.kind in self.parts:
            self.problem("duplicate-signon", f"{part.kind.upper()} was already given; "
                         "only the first sign-on counts", part.line)
        else:
            self.parts[part.kind] = part

    def _closed_later(self) -> bool:
        """Whether the ORDERS block being read is closed by its own end line."""
        for raw in self.lines[self.i:]:
            line = clean(raw)
            if line and _is_end(line, "ORDERS"):
                return True
            if line and line.split()[0].upper() == "ORDERS":
                return False
        return False

    def order_lines(self) -> tuple[tuple[int, str], ...]:
        found = []
        closed = self._closed_later()
        while self.i < len(self.lines):
            line = clean(self.lines[self.i])
            if line and _is_end(line, "ORDERS"):
                self.held.add(self.i + 1)
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
                self.held.add(self.i + 1)
            self.i += 1
        return tuple(found)

    def text_block(self, cmd, n: int) -> str | None:
        found = BY_CLASS[type(cmd)]
        block = found.block
        body = []
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            self.i += 1
            # The block's text, its end line, or (unterminated) the rest the problem names.
            self.held.add(self.i)
            if _is_end(_strip_comment(raw), block):
                self.commands.append(replace(cmd, **{found.text: "\n".join(body)}))
                return None
            body.append(raw)
        ends = sorted(_BLOCK_ENDS[block])
        message = (f"the {block} text starting here has no {' or '.join(ends)}; "
                   "it was not sent and nothing after it was read")
        # A misspelt end marker is the usual cause: point at it.
        for k, raw in enumerate(body):
            close = suggest(" ".join(_strip_comment(raw).split()), ends)
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
        self.problems.extend(unknown(line.split(), n) for n, line in self.loose)


_UNREAD_WHY = {"greeting": "they come before the mail's first command (commands and orders go "
                           "below the sign-on)",
               "signoff": "they come after SIGNOFF"}


def unread_notes(unread: list[tuple[int, str]], quote) -> list[str]:
    """One note per reason naming the lines no command read (``quote(n)``: line n as
    written, shortened and with any secret masked)."""
    notes = []
    for why, text in _UNREAD_WHY.items():
        numbers = [n for n, w in unread if w == why]
        if not numbers:
            continue
        shown = [f"line {n} ({quote(n)})" for n in numbers[:3]]
        more = f" and {len(numbers) - 3} more" if len(numbers) > 3 else ""
        notes.append(f"Not read, as {text}: {', '.join(shown)}{more}.")
    return notes


def parse_mail(text: str) -> m.ParsedMail:
    """Every command and problem in one mail (already MIME-decoded, quotes removed)."""
    return _Reader(text).read()
