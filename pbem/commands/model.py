"""What a mail's commands mean: one frozen dataclass per command (the GM's
are in :mod:`pbem.commands.gm_model`, and named here too).

Every command has a ``line`` (1-based, in the mail it came from) that takes no
part in equality: two commands are equal when they mean the same thing.
``canonical()`` is the one way a command is written back (parsing it gives an
equal command); ``echo()`` is the same with secrets masked, for replies.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Union

from pbem.commands.base import MASK, CommandBase, block, line_field, listed
from pbem.commands.gm_model import (GmAddPlayer, GmAnnounce, GmBecome, GmCancel, GmCreate, GmEdit, GmExtend,
                                    GmPause, GmPreview, GmProcess, GmReplace, GmResume, GmRevealSeed,
                                    GmRollback, GmRule, GmSetDeadline, GmStart)
from pbem.kit.gameapi import Problem


@dataclass(frozen=True)
class SignOn(CommandBase):
    power: str
    game: str
    secret: str
    line: int | None = line_field()

    @property
    def is_gm(self) -> bool:
        return self.power.upper() == "GM"

    def canonical(self) -> str:
        return f"SIGNON {self.power}@{self.game} {self.secret}"

    def echo(self) -> str:
        return f"SIGNON {self.power}@{self.game} {MASK}"


@dataclass(frozen=True)
class SignOnPart(CommandBase):
    """One of the GAME / POWER / PASSWORD lines that sign on in three lines
    (the parser makes a :class:`SignOn` of them)."""

    kind: str     # "game", "power" or "password"
    value: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"{self.kind.upper()} {self.value}"

    def echo(self) -> str:
        return f"PASSWORD {MASK}" if self.kind == "password" else self.canonical()


@dataclass(frozen=True)
class SignOff(CommandBase):
    WORDS = "SIGNOFF"
    line: int | None = line_field()


@dataclass(frozen=True)
class Orders(CommandBase):
    """An orders block; ``implicit`` when the lines were written after the
    sign-on without an ORDERS line (as the classic judges accept): the game
    then decides which of them are orders."""

    lines: tuple[tuple[int, str], ...]
    phase: str | None = None
    line: int | None = line_field()
    implicit: bool = field(default=False, compare=False)

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(text for _, text in self.lines)

    def canonical(self) -> str:
        header = f"ORDERS {self.phase}" if self.phase else "ORDERS"
        return block(header, "\n".join(self.texts), "ENDORDERS")


@dataclass(frozen=True)
class Done(CommandBase):
    WORDS = "DONE"
    line: int | None = line_field()


@dataclass(frozen=True)
class Clear(CommandBase):
    WORDS = "CLEAR"
    line: int | None = line_field()


@dataclass(frozen=True)
class Press(CommandBase):
    to: Union[tuple[str, ...], str]  # the powers as written, or "ALL"
    grey: bool
    body: str
    line: int | None = line_field()

    def canonical(self) -> str:
        to = "ALL" if self.to == "ALL" else listed(self.to)
        grey = " GREY" if self.grey else ""
        return block(f"PRESS TO {to}{grey}", self.body, "ENDPRESS")


@dataclass(frozen=True)
class Status(CommandBase):
    WORDS = "STATUS"
    line: int | None = line_field()


@dataclass(frozen=True)
class Help(CommandBase):
    topic: str | None = None
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"HELP {self.topic}" if self.topic else "HELP"


@dataclass(frozen=True)
class History(CommandBase):
    WORDS = "HISTORY"
    line: int | None = line_field()


@dataclass(frozen=True)
class Resend(CommandBase):
    phase: str | None = None
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"RESEND {self.phase}" if self.phase else "RESEND"


@dataclass(frozen=True)
class SetAddress(CommandBase):
    addresses: tuple[str, ...]
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"SET ADDRESS {listed(self.addresses)}"


@dataclass(frozen=True)
class Confirm(CommandBase):
    """A new address accepting the SET ADDRESS that named it."""

    token: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"CONFIRM {self.token}"

    def echo(self) -> str:
        return f"CONFIRM {MASK}"


@dataclass(frozen=True)
class SetPassword(CommandBase):
    secret: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"SET PASSWORD {self.secret}"

    def echo(self) -> str:
        return f"SET PASSWORD {MASK}"


@dataclass(frozen=True)
class SetAbsence(CommandBase):
    start: date
    end: date
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"SET ABSENCE {self.start.isoformat()} {self.end.isoformat()}"


@dataclass(frozen=True)
class SetZone(CommandBase):
    zone: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"SET ZONE {self.zone}"


@dataclass(frozen=True)
class SetMap(CommandBase):
    choice: str  # one of pbem.commands.values.MAP_CHOICES
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"SET MAP {self.choice.upper()}"


@dataclass(frozen=True)
class Join(CommandBase):
    game: str
    power: str
    secret: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"JOIN {self.game} {self.power} {self.secret}"

    def echo(self) -> str:
        return f"JOIN {self.game} {self.power} {MASK}"


@dataclass(frozen=True)
class TreatyPropose(CommandBase):
    """A proposal is private to its parties unless written PUBLIC (SECRET,
    the default, may still be written)."""

    id: str
    parties: tuple[str, ...]
    secret: bool
    text: str
    line: int | None = line_field()

    def canonical(self) -> str:
        secret = "" if self.secret else " PUBLIC"
        header = f"TREATY PROPOSE {self.id} WITH {listed(self.parties)}{secret}"
        return block(header, self.text, "ENDTREATY")


@dataclass(frozen=True)
class TreatySign(CommandBase):
    id: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"TREATY SIGN {self.id}"


@dataclass(frozen=True)
class TreatyRefuse(CommandBase):
    id: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"TREATY REFUSE {self.id}"


@dataclass(frozen=True)
class TreatyWithdraw(CommandBase):
    id: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"TREATY WITHDRAW {self.id}"


@dataclass(frozen=True)
class TreatyReveal(CommandBase):
    id: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"TREATY REVEAL {self.id}"


@dataclass(frozen=True)
class TreatyBreach(CommandBase):
    id: str
    against: str
    text: str = ""
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"TREATY BREACH {self.id} {self.against}" + (f" {self.text}" if self.text else "")


@dataclass(frozen=True)
class TreatyList(CommandBase):
    WORDS = "TREATY LIST"
    line: int | None = line_field()


Command = Union[
    SignOff, Orders, Done, Clear, Press, Status, Help, History, Resend, SetAddress, Confirm, SetPassword,
    SetAbsence, SetZone, Join, TreatyPropose, TreatySign, TreatyRefuse, TreatyWithdraw, TreatyReveal,
    TreatyBreach, TreatyList, GmCreate, GmAddPlayer, GmStart, GmCancel, GmPause, GmResume, GmExtend, GmSetDeadline,
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
    #: the lines no command reads, with why: "greeting" (before the first command) or
    #: "signoff"; the reply names them (every line written is read or named)
    unread: list[tuple[int, str]] = field(default_factory=list)

    def canonical(self) -> str:
        """The whole mail written back (sign-on first), parseable again."""
        parts = [self.signon.canonical()] if self.signon else []
        return "\n".join(parts + [c.canonical() for c in self.commands])

    def echo(self) -> str:
        parts = [self.signon.echo()] if self.signon else []
        return "\n".join(parts + [c.echo() for c in self.commands])
