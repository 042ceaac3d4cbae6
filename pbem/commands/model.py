"""What a mail's commands mean: one frozen dataclass per command.

Every command has a ``line`` (1-based, in the mail it came from) that takes no
part in equality: two commands are equal when they mean the same thing.
``canonical()`` is the one way a command is written back (parsing it gives an
equal command); ``echo()`` is the same with secrets masked, for replies.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Union

from pbem.base import deadlines
from pbem.kit.gameapi import Problem

MASK = "****"


def _line() -> int | None:
    return field(default=None, compare=False)


def _block(header: str, body: str, end: str) -> str:
    return f"{header}\n{body}\n{end}" if body else f"{header}\n{end}"


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(names)


class BadValue(ValueError):
    """A bad date, time, duration, address or option; ``code`` is the Problem code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def parse_duration(text: str) -> timedelta:
    """``48h``, ``2d``, ``1d12h``, ``90m``, ``45s``, ``1w``: the one duration
    reader of pbem (:func:`pbem.base.deadlines.parse_duration`), with its error as a
    :class:`BadValue` for a reply.  A command's duration is never zero."""
    try:
        duration = deadlines.parse_duration(text)
    except ValueError as exc:
        raise BadValue("bad-duration", str(exc)) from None
    if not duration:
        raise BadValue("bad-duration", f"{text!r} is no time at all")
    return duration


format_duration = deadlines.format_duration


class _Command:
    """Commands without secrets echo exactly their canonical form."""

    WORDS = ""  # the whole text of a command without arguments

    def canonical(self) -> str:
        return self.WORDS

    def echo(self) -> str:
        return self.canonical()


@dataclass(frozen=True)
class SignOn(_Command):
    power: str
    game: str
    secret: str
    line: int | None = _line()

    @property
    def is_gm(self) -> bool:
        return self.power.upper() == "GM"

    def canonical(self) -> str:
        return f"SIGNON {self.power}@{self.game} {self.secret}"

    def echo(self) -> str:
        return f"SIGNON {self.power}@{self.game} {MASK}"


@dataclass(frozen=True)
class SignOff(_Command):
    WORDS = "SIGNOFF"
    line: int | None = _line()


@dataclass(frozen=True)
class Orders(_Command):
    """An orders block; ``implicit`` when the lines were written after the
    sign-on without an ORDERS line (as the classic judges accept): the game
    then decides which of them are orders."""

    lines: tuple[tuple[int, str], ...]
    phase: str | None = None
    line: int | None = _line()
    implicit: bool = field(default=False, compare=False)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(text for _, text in self.lines)

    def canonical(self) -> str:
        header = f"ORDERS {self.phase}" if self.phase else "ORDERS"
        return _block(header, "\n".join(self.texts), "ENDORDERS")


@dataclass(frozen=True)
class Done(_Command):
    WORDS = "DONE"
    line: int | None = _line()


@dataclass(frozen=True)
class Clear(_Command):
    WORDS = "CLEAR"
    line: int | None = _line()


@dataclass(frozen=True)
class Press(_Command):
    to: Union[tuple[str, ...], str]  # the powers as written, or "ALL"
    grey: bool
    body: str
    line: int | None = _line()

    def canonical(self) -> str:
        to = "ALL" if self.to == "ALL" else _names(self.to)
        grey = " GREY" if self.grey else ""
        return _block(f"PRESS TO {to}{grey}", self.body, "ENDPRESS")


@dataclass(frozen=True)
class Status(_Command):
    WORDS = "STATUS"
    line: int | None = _line()


@dataclass(frozen=True)
class Help(_Command):
    topic: str | None = None
    line: int | None = _line()

    def canonical(self) -> str:
        return f"HELP {self.topic}" if self.topic else "HELP"


@dataclass(frozen=True)
class History(_Command):
    WORDS = "HISTORY"
    line: int | None = _line()


@dataclass(frozen=True)
class Resend(_Command):
    phase: str | None = None
    line: int | None = _line()

    def canonical(self) -> str:
        return f"RESEND {self.phase}" if self.phase else "RESEND"


@dataclass(frozen=True)
class SetAddress(_Command):
    addresses: tuple[str, ...]
    line: int | None = _line()

    def canonical(self) -> str:
        return f"SET ADDRESS {_names(self.addresses)}"


@dataclass(frozen=True)
class Confirm(_Command):
    """A new address accepting the SET ADDRESS that named it."""

    token: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"CONFIRM {self.token}"

    def echo(self) -> str:
        return f"CONFIRM {MASK}"


@dataclass(frozen=True)
class SetPassword(_Command):
    secret: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"SET PASSWORD {self.secret}"

    def echo(self) -> str:
        return f"SET PASSWORD {MASK}"


@dataclass(frozen=True)
class SetAbsence(_Command):
    start: date
    end: date
    line: int | None = _line()

    def canonical(self) -> str:
        return f"SET ABSENCE {self.start.isoformat()} {self.end.isoformat()}"


@dataclass(frozen=True)
class SetZone(_Command):
    zone: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"SET ZONE {self.zone}"


@dataclass(frozen=True)
class Join(_Command):
    game: str
    power: str
    secret: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"JOIN {self.game} {self.power} {self.secret}"

    def echo(self) -> str:
        return f"JOIN {self.game} {self.power} {MASK}"


@dataclass(frozen=True)
class TreatyPropose(_Command):
    """A proposal is private to its parties unless written PUBLIC (SECRET,
    the default, may still be written)."""

    id: str
    parties: tuple[str, ...]
    secret: bool
    text: str
    line: int | None = _line()

    def canonical(self) -> str:
        secret = "" if self.secret else " PUBLIC"
        header = f"TREATY PROPOSE {self.id} WITH {_names(self.parties)}{secret}"
        return _block(header, self.text, "ENDTREATY")


@dataclass(frozen=True)
class TreatySign(_Command):
    id: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"TREATY SIGN {self.id}"


@dataclass(frozen=True)
class TreatyRefuse(_Command):
    id: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"TREATY REFUSE {self.id}"


@dataclass(frozen=True)
class TreatyWithdraw(_Command):
    id: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"TREATY WITHDRAW {self.id}"


@dataclass(frozen=True)
class TreatyReveal(_Command):
    id: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"TREATY REVEAL {self.id}"


@dataclass(frozen=True)
class TreatyBreach(_Command):
    id: str
    against: str
    text: str = ""
    line: int | None = _line()

    def canonical(self) -> str:
        return f"TREATY BREACH {self.id} {self.against}" + (f" {self.text}" if self.text else "")


@dataclass(frozen=True)
class TreatyList(_Command):
    WORDS = "TREATY LIST"
    line: int | None = _line()


@dataclass(frozen=True)
class GmCreate(_Command):
    game: str
    rules: str
    options: tuple[tuple[str, str], ...] = ()
    line: int | None = _line()

    def canonical(self) -> str:
        text = f"GM CREATE {self.game} RULES {self.rules}"
        if self.options:
            text += " OPTION " + " ".join(f"{k}={v}" for k, v in self.options)
        return text


@dataclass(frozen=True)
class GmAddPlayer(_Command):
    power: str
    email: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"GM ADD PLAYER {self.power} {self.email}"


@dataclass(frozen=True)
class GmStart(_Command):
    WORDS = "GM START"
    line: int | None = _line()


@dataclass(frozen=True)
class GmPause(_Command):
    WORDS = "GM PAUSE"
    line: int | None = _line()


@dataclass(frozen=True)
class GmResume(_Command):
    now: bool = False
    line: int | None = _line()

    def canonical(self) -> str:
        return "GM RESUME NOW" if self.now else "GM RESUME"


@dataclass(frozen=True)
class GmExtend(_Command):
    duration: timedelta
    line: int | None = _line()

    def canonical(self) -> str:
        return f"GM EXTEND {format_duration(self.duration)}"


@dataclass(frozen=True)
class GmSetDeadline(_Command):
    when: datetime  # naive: the zone is ``zone``, or the game's when None
    zone: str | None = None
    line: int | None = _line()

    def canonical(self) -> str:
        zone = f" {self.zone}" if self.zone else ""
        return f"GM SET DEADLINE {self.when:%Y-%m-%d %H:%M}{zone}"


@dataclass(frozen=True)
class GmProcess(_Command):
    now: bool = False
    line: int | None = _line()

    def canonical(self) -> str:
        return "GM PROCESS NOW" if self.now else "GM PROCESS"


@dataclass(frozen=True)
class GmPreview(_Command):
    WORDS = "GM PREVIEW"
    line: int | None = _line()


@dataclass(frozen=True)
class GmRollback(_Command):
    phase: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"GM ROLLBACK {self.phase}"


@dataclass(frozen=True)
class GmReplace(_Command):
    power: str
    email: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"GM REPLACE {self.power} {self.email}"


@dataclass(frozen=True)
class GmBecome(_Command):
    power: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"GM BECOME {self.power}"


@dataclass(frozen=True)
class GmRule(_Command):
    question: str
    ruling: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"GM RULE {self.question} {self.ruling}"


@dataclass(frozen=True)
class GmAnnounce(_Command):
    text: str
    line: int | None = _line()

    def canonical(self) -> str:
        return _block("GM ANNOUNCE", self.text, "ENDANNOUNCE")


@dataclass(frozen=True)
class GmRevealSeed(_Command):
    WORDS = "GM REVEAL SEED"
    line: int | None = _line()


@dataclass(frozen=True)
class GmEdit(_Command):
    """A game-specific state edit, passed to the game's ``gm_command``."""

    text: str
    line: int | None = _line()

    def canonical(self) -> str:
        return f"GM {self.text}"


Command = Union[
    SignOff, Orders, Done, Clear, Press, Status, Help, History, Resend, SetAddress, Confirm, SetPassword,
    SetAbsence, SetZone, Join, TreatyPropose, TreatySign, TreatyRefuse, TreatyWithdraw, TreatyReveal,
    TreatyBreach, TreatyList, GmCreate, GmAddPlayer, GmStart, GmPause, GmResume, GmExtend, GmSetDeadline,
    GmProcess, GmPreview, GmRollback, GmReplace, GmBecome, GmRule, GmAnnounce, GmRevealSeed,
    GmEdit,
]


@dataclass
class ParsedMail:
    """Everything understood in one mail, and every problem with its line."""

    signon: SignOn | None
    commands: list = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    #: the secrets the mail types where a secret goes (a sign-on, a new secret, a token), by
    #: the line each is typed on
    typed_secrets: dict[int, str] = field(default_factory=dict)

    def canonical(self) -> str:
        """The whole mail written back (sign-on first), parseable again."""
        parts = [self.signon.canonical()] if self.signon else []
        return "\n".join(parts + [c.canonical() for c in self.commands])

    def echo(self) -> str:
        parts = [self.signon.echo()] if self.signon else []
        return "\n".join(parts + [c.echo() for c in self.commands])
