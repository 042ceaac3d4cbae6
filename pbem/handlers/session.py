"""What one inbound mail is doing while it is handled: who sent it, which
game and power it acts for, and the reply being built."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbem.base.context import Context
from pbem.commands.model import MASK
from pbem.kit import audience
from pbem.kit.gameapi import DONE_EXPLICIT, Problem
from pbem.mail.normalize import Inbound
from pbem.reporting import render, reports
from pbem.storage import store
from pbem.storage.phase_orders import waiting_for

#: how much of a line a problem quotes
QUOTE = 72
#: the longest problem line of a reply
PROBLEM_CHARS = 400
#: lines that end with a secret
_SECRET_LINES = ("SIGNON", "PASSWORD", "JOIN")


@dataclass
class Session:
    ctx: Context
    mail: Inbound
    msg_id: int
    game: store.GameRecord | None = None
    power: str | None = None          # the power this mail acts for (GM BECOME sets it)
    is_gm: bool = False
    signed_on: bool = False           # a right secret was given (GM or player): not a stranger
    #: the sender is an address of record of the power it signs on as (or a GM's
    #: address signing on as GM), right secret or wrong: its reply is never held back
    own_address: bool = False
    tokens: list[str] = field(default_factory=list)
    sections: list[tuple[str, list[str]]] = field(default_factory=list)
    #: lines shown unindented below a section's list, by the section's index (a total)
    footers: dict[int, list[str]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cc: list[str] = field(default_factory=list)
    notices: list[dict] = field(default_factory=list)   # further mails to queue
    status: str = "done"
    outcome: str = "handled"
    show_status: bool = False
    lines: list[str] = field(default_factory=list)   # the mail's text as read, for quoting
    #: GM announcements of this mail (what, text, who may hear of it), sent as one mail per
    #: reader at its end
    announcements: list[tuple[str, str, audience.Audience]] = field(default_factory=list)
    #: whether the players' announcement carries each one's report (after a rollback)
    announce_position: bool = False
    #: the GM's own texts (GM ANNOUNCE) among the announcements, by their index, with the index
    #: of the reply's section that says so: sent only when no command of the mail failed
    gm_texts: list[tuple[int, int]] = field(default_factory=list)

    @property
    def game_name(self) -> str | None:
        return self.game.name if self.game else None

    def reload(self) -> None:
        if self.game:
            self.game = store.get_game(self.ctx, self.game.name)

    def section(self, title: str, lines: list[str], footer: list[str] | None = None) -> None:
        """A titled list in the reply; ``footer``: lines below it that are not of the list
        (a total under the orders stored), so no blank or foreign line sits among its items."""
        if footer:
            self.footers[len(self.sections)] = footer
        self.sections.append((title, lines))

    def note(self, text: str) -> None:
        self.notes.append(text)

    def problem(self, code: str, message: str, line: int | None = None,
                suggestion: str | None = None, kind: str = "illegal") -> None:
        self.problems.append(Problem(code, message, line, suggestion, kind))

    def announce(self, what: str, text: str, seen_by: audience.Audience = audience.public()) -> None:
        """A GM action every player the gate lets see it hears of: one mail per
        player for the whole GM mail, however many actions it holds (see :mod:`.announce`)."""
        self.announcements.append((what, text, seen_by))

    def quote(self, line: int | None) -> str:
        """Line ``line`` of the mail as written (shortened, a secret masked), or ""."""
        if line is None or not 0 < line <= len(self.lines):
            return ""
        words = self.lines[line - 1].split()
        keys = [w.upper() for w in words[:2]]
        # A secret is never written back, right or wrong: the reply may go to a copy address.
        if len(words) > 1 and (keys[0] in _SECRET_LINES or keys == ["SET", "PASSWORD"]):
            words[-1] = MASK
        text = " ".join(words)
        return text if len(text) <= QUOTE else text[:QUOTE - 3].rstrip() + "..."

    def describe(self, problem: Problem) -> list[str]:
        """A problem as the reply shows it: its line, what is wrong, and the line
        as written (unless the message already quotes it)."""
        lines = [problem.render()]  # one line: mail readers wrap it, and it stays searchable
        if len(lines[0]) > PROBLEM_CHARS:  # whatever a player's word echoed in it, a line stays short
            lines[0] = lines[0][:PROBLEM_CHARS - 3] + "..."
        quoted = self.quote(problem.line)
        if quoted and quoted.rstrip(".") not in problem.message:
            lines.append(f"  you wrote: {quoted}")
        return lines

    def notify(self, *, key: str, to: list[str], subject: str, text: str, kind: str = "notice",
               secrets: tuple[str, ...] = (), date: datetime | None = None,
               not_before: datetime | None = None) -> None:
        """Queue a further mail with the reply; ``secrets`` it hands out are masked
        in the stored copy once it is sent (a welcome mail); ``date`` and ``not_before``
        as :func:`pbem.outbound.outbox.queue` takes them."""
        notice = {"key": key, "to": to, "subject": subject, "text": text, "kind": kind, "game": self.game_name}
        if secrets:
            notice["secrets"] = tuple(secrets)
        if date is not None:
            notice["date"] = date
        if not_before is not None:
            notice["not_before"] = not_before
        self.notices.append(notice)

    def subject(self) -> str:
        # A reply to a stranger (no right sign-on) says nothing of the game's progress.
        if self.signed_on and self.game and self.game.state:
            who = self.power or ("GM" if self.is_gm else None)
            return render.subject(self.game, who, "received")
        return f"[{self.ctx.site_name}] received: {self.mail.subject[:60] or '(no subject)'}"

    def reader_zone(self) -> str | None:
        """The zone the signed-on player set with SET ZONE, if any."""
        return reports.reader_zone(self.ctx, self.game, self.power) if self.game else None

    def reply_text(self) -> str:
        status = None
        # Only a signed-on reader is told the game's phase, deadline and who is awaited.
        if self.signed_on and self.game and self.game.status in ("active", "paused") and self.game.state:
            rec = self.game
            phase = rec.rules.phase(rec.state)
            status = {"phase": phase.label, "paused": rec.status == "paused",
                      "deadline": render.deadline_text(rec, rec.deadline, self.reader_zone()),
                      "waiting": waiting_for(self.ctx, rec), "open": phase.open,
                      "on_done": phase.done == DONE_EXPLICIT,
                      "held": bool(rec.row.get("hold_early"))}
        ordered = sorted(self.problems, key=lambda p: (p.line is None, p.line or 0))
        refused = [self.describe(p) for p in ordered if p.kind != "warning"]
        warned = [self.describe(p) for p in ordered if p.kind == "warning"]
        return render.render("ack.txt.j2", sections=self.sections, footers=self.footers, problems=refused, warnings=warned,
                             notes=self.notes, status=status, site=self.ctx.site_name,
                             game=self.game_name, power=self.power)
