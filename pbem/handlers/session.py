"""What one inbound mail is doing while it is handled: who sent it, which
game and power it acts for, and the reply being built."""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import render, store
from ..context import Context
from ..gameapi import Problem
from ..mail.normalize import Inbound


@dataclass
class Session:
    ctx: Context
    mail: Inbound
    msg_id: int
    game: store.GameRecord | None = None
    power: str | None = None          # the power this mail acts for (GM BECOME sets it)
    is_gm: bool = False
    signed_on: bool = False           # a right secret was given (GM or player): not a stranger
    tokens: list[str] = field(default_factory=list)
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)
    notices: list[dict] = field(default_factory=list)   # further mails to queue
    status: str = "done"
    outcome: str = "handled"
    show_status: bool = False

    @property
    def game_name(self) -> str | None:
        return self.game.name if self.game else None

    def reload(self) -> None:
        if self.game:
            self.game = store.get_game(self.ctx, self.game.name)

    def section(self, title: str, lines: list[str]) -> None:
        self.sections.append((title, lines))

    def note(self, text: str) -> None:
        self.notes.append(text)

    def problem(self, code: str, message: str, line: int | None = None,
                suggestion: str | None = None, kind: str = "illegal") -> None:
        self.problems.append(Problem(code, message, line, suggestion, kind))

    def notify(self, *, key: str, to: list[str], subject: str, text: str, kind: str = "notice",
               secrets: tuple[str, ...] = ()) -> None:
        """Queue a further mail with the reply; ``secrets`` it hands out are masked
        in the stored copy once it is sent (a welcome mail)."""
        notice = {"key": key, "to": to, "subject": subject, "text": text, "kind": kind, "game": self.game_name}
        if secrets:
            notice["secrets"] = tuple(secrets)
        self.notices.append(notice)

    def subject(self) -> str:
        if self.game and self.game.state:
            who = self.power or ("GM" if self.is_gm else None)
            return render.subject(self.game, who, "received")
        return f"[{self.ctx.site_name}] received: {self.mail.subject[:60] or '(no subject)'}"

    def reply_text(self) -> str:
        status = None
        if self.game and self.game.status in ("active", "paused") and self.game.state:
            from ..turns import waiting_for

            rec = self.game
            phase = rec.rules.phase(rec.state)
            status = {"phase": phase.label, "deadline": render.deadline_text(rec, rec.deadline),
                      "paused": rec.status == "paused", "waiting": waiting_for(self.ctx, rec)}
        return render.render("ack.txt.j2", sections=self.sections,
                             problems=[p.render() for p in sorted(self.problems, key=lambda p: p.line or 0)],
                             notes=self.notes, status=status, site=self.ctx.site_name,
                             game=self.game_name, power=self.power)
