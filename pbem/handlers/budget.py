"""What one mail, and one player in an hour, may ask of the moderator.

A command that makes mail for others (press, treaty records, breach
notices, confirmation tokens), costs a slow hash (SET PASSWORD, JOIN), or
answers with a whole report (STATUS, RESEND) has a cap per mail and, for the
first kinds, a cap per hour for whoever sends it (the power it acts for, or
the sender's address when it acts for none); a command's kind is declared with it
(``limit`` in :mod:`.declare`).  A command over a cap is not
run; the reply says which cap, once per kind and mail, and counts what was
left undone.  The GM's own commands are capped per mail only.

Every cap is a setting of ``[limits]`` (README: Security), so a test or a
site may set it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from pbem.storage import guard_counts
from pbem.storage.db import utcnow_iso

#: kinds whose later lines replace the first (one a mail is all that makes sense)
ONCE = {"SET ADDRESS", "SET PASSWORD", "JOIN", "STATUS", "HISTORY", "TREATY LIST", "RESEND"}
#: kinds counted over the hour (those that make mail for others or cost a slow hash)
HOURLY = {"PRESS", "TREATY", "TREATY BREACH", "SET ADDRESS", "SET PASSWORD", "CONFIRM", "JOIN", "RESEND"}


def per_mail(limits, kind: str) -> int:
    if kind in ONCE:
        return 1
    if kind == "CONFIRM":
        return limits.addresses_per_power
    return limits.commands_per_mail


@dataclass
class MailBudget:
    """The caps met by one mail so far."""
    used: dict[str, int] = field(default_factory=dict)
    refused: dict[str, int] = field(default_factory=dict)
    said: set[str] = field(default_factory=set)


def who(session) -> str:
    """Whom the hourly caps count: the power the mail acts for, else its sender."""
    if session.game is not None and session.power:
        return f"power:{session.game.name.lower()}:{session.power.lower()}"
    return f"sender:{session.mail.sender.lower()}"


def hourly_count(ctx, key: str, kind: str) -> int:
    since = utcnow_iso(ctx.now() - timedelta(hours=1))
    return guard_counts.commands_since(ctx, key, kind, since)


def allow(session, cmd, budget: MailBudget, kind: str | None) -> bool:
    """Whether ``cmd``, capped as ``kind`` (its declaration's ``limit``), may run
    now; when not, the reply says why (once per kind)."""
    if kind is None:
        return True
    ctx, limits = session.ctx, session.ctx.limits
    cap = per_mail(limits, kind)
    why = None
    if budget.used.get(kind, 0) >= cap:
        why = (f"only the first {kind} of a mail is done" if cap == 1 else
               f"only the first {cap} {kind} commands of a mail are done")
    elif kind in HOURLY and not (session.is_gm and not session.power):
        key = who(session)
        if hourly_count(ctx, key, kind) >= limits.commands_per_hour:
            why = (f"{kind}: at most {limits.commands_per_hour} an hour from "
                   f"{session.power or session.mail.sender}; this one was not done, send it again later")
    if why:
        budget.refused[kind] = budget.refused.get(kind, 0) + 1
        if kind not in budget.said:
            budget.said.add(kind)
            session.problem("over-limit", why + " (README: Security)", cmd.line)
        return False
    budget.used[kind] = budget.used.get(kind, 0) + 1
    if kind in HOURLY:
        guard_counts.count_command(ctx, who(session), kind, utcnow_iso(ctx.now()))
    return True


def summary(budget: MailBudget) -> str | None:
    """One note counting the commands left undone by a cap, or None."""
    if not budget.refused:
        return None
    counts = ", ".join(f"{kind} x{n}" for kind, n in budget.refused.items())
    return f"Not done because of the limits on one mail or one hour: {counts}."


def prune(ctx) -> int:
    """Forget commands counted more than a day ago (only the last hour is read)."""
    before = utcnow_iso(ctx.now() - timedelta(days=1))
    return guard_counts.forget_commands_before(ctx, before)
