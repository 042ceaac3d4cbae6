"""The GM's commands: one frozen dataclass each (see :mod:`pbem.commands.base`)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.commands.base import CommandBase, block, line_field
from pbem.commands.values import format_duration


@dataclass(frozen=True)
class GmCreate(CommandBase):
    game: str
    rules: str
    options: tuple[tuple[str, str], ...] = ()
    line: int | None = line_field()

    def canonical(self) -> str:
        text = f"GM CREATE {self.game} RULES {self.rules}"
        if self.options:
            text += " OPTION " + " ".join(f"{k}={v}" for k, v in self.options)
        return text


@dataclass(frozen=True)
class GmAddPlayer(CommandBase):
    power: str
    email: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"GM ADD PLAYER {self.power} {self.email}"


@dataclass(frozen=True)
class GmStart(CommandBase):
    WORDS = "GM START"
    line: int | None = line_field()


@dataclass(frozen=True)
class GmCancel(CommandBase):
    WORDS = "GM CANCEL"
    line: int | None = line_field()


@dataclass(frozen=True)
class GmPause(CommandBase):
    WORDS = "GM PAUSE"
    line: int | None = line_field()


@dataclass(frozen=True)
class GmResume(CommandBase):
    now: bool = False
    line: int | None = line_field()

    def canonical(self) -> str:
        return "GM RESUME NOW" if self.now else "GM RESUME"


@dataclass(frozen=True)
class GmExtend(CommandBase):
    duration: timedelta
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"GM EXTEND {format_duration(self.duration)}"


@dataclass(frozen=True)
class GmSetDeadline(CommandBase):
    when: datetime  # naive: the zone is ``zone``, or the game's when None
    zone: str | None = None
    line: int | None = line_field()

    def canonical(self) -> str:
        zone = f" {self.zone}" if self.zone else ""
        return f"GM SET DEADLINE {self.when:%Y-%m-%d %H:%M}{zone}"


@dataclass(frozen=True)
class GmProcess(CommandBase):
    now: bool = False
    line: int | None = line_field()

    def canonical(self) -> str:
        return "GM PROCESS NOW" if self.now else "GM PROCESS"


@dataclass(frozen=True)
class GmPreview(CommandBase):
    WORDS = "GM PREVIEW"
    line: int | None = line_field()


@dataclass(frozen=True)
class GmRollback(CommandBase):
    phase: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"GM ROLLBACK {self.phase}"


@dataclass(frozen=True)
class GmReplace(CommandBase):
    power: str
    email: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"GM REPLACE {self.power} {self.email}"


@dataclass(frozen=True)
class GmBecome(CommandBase):
    power: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"GM BECOME {self.power}"


@dataclass(frozen=True)
class GmRule(CommandBase):
    question: str
    ruling: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"GM RULE {self.question} {self.ruling}"


@dataclass(frozen=True)
class GmAnnounce(CommandBase):
    text: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return block("GM ANNOUNCE", self.text, "ENDANNOUNCE")


@dataclass(frozen=True)
class GmRevealSeed(CommandBase):
    WORDS = "GM REVEAL SEED"
    line: int | None = line_field()


@dataclass(frozen=True)
class GmEdit(CommandBase):
    """A game-specific state edit, passed to the game's ``gm_command``."""

    text: str
    line: int | None = line_field()

    def canonical(self) -> str:
        return f"GM {self.text}"
