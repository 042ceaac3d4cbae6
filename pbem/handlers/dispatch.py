"""Route a parsed mail to its game and power, authenticate it, and run each
command through its handler, in the mail's order.

Which guards a command meets and which handler runs it is its declaration's
(:mod:`.declare`, gathered in :mod:`.catalogue`); the GM's command line runs
its commands through :func:`run_commands` too."""
from __future__ import annotations

import logging

from pbem.commands import model as m
from pbem.handlers import announce, budget
from pbem.handlers.catalogue import BY_CLASS
from pbem.handlers.declare import Declaration
from pbem.handlers.guard import run_command
from pbem.handlers.reading import unread_notes
from pbem.handlers.session import Session

log = logging.getLogger(__name__)


def run(session: Session, parsed: m.ParsedMail) -> None:
    for p in parsed.problems:
        session.problems.append(p)
    # Every line written is read or named: greeting above the first command, text below SIGNOFF.
    for note in unread_notes(parsed.unread, session.quote):
        session.note(note)
    signed_on = BY_CLASS[m.SignOn].handler(session, parsed.signon) if parsed.signon else None
    if parsed.signon and not signed_on:
        session.status, session.outcome = "rejected", session.outcome
        return
    if not parsed.commands and not parsed.signon:
        session.outcome = "no commands"
    # One "no-signon" per mail, at the first command refused for it; an incomplete
    # sign-on (GAME/POWER/PASSWORD) was reported by the parser and says the same.
    told = any(p.code == "incomplete-signon" for p in parsed.problems)
    run_commands(session, parsed.commands, told=told)
    announce.flush(session)


def run_commands(session: Session, commands: list, told: bool = False, console: bool = False) -> None:
    """Each command, through its declared guards, under its own savepoint
    (:func:`~pbem.handlers.guard.run_command`); ``console``: the GM's command line,
    which takes the GM's commands only."""
    helped: set[str] = set()
    spent = budget.MailBudget()
    for cmd in commands:
        found = BY_CLASS.get(type(cmd))
        if console and (found is None or found.who != "gm"):
            session.problem("not-gm-command", f"{cmd.canonical().splitlines()[0]} is not a GM command",
                            cmd.line)
            continue
        if isinstance(cmd, m.SignOff):
            break
        if isinstance(cmd, m.Help) and not _first_help(session, cmd, helped):
            continue
        if not session.signed_on and (found is None or found.signon):
            if not told:
                session.problem("no-signon", f"{cmd.canonical().splitlines()[0]}: sign on first with "
                                "SIGNON <power>@<game> <secret>; nothing in this mail that needs it "
                                "was done", cmd.line, kind="invalid")
                told = True
            continue
        if found is None or found.handler is None:
            session.problem("unsupported", f"{type(cmd).__name__} is not supported here", cmd.line)
            continue
        if not _allowed(session, cmd, found, spent):
            continue
        run_command(session, cmd, found.handler)
    undone = budget.summary(spent)
    if undone:
        session.note(undone)


def _allowed(session: Session, cmd, found: Declaration, spent: budget.MailBudget) -> bool:
    """The declared guards after the sign-on: the GM's, acting for a power, the caps."""
    if found.who == "gm" and not session.is_gm:
        session.problem("not-gm", "GM commands need the GM sign-on: SIGNON GM@<game> <GM secret>",
                        cmd.line)
        return False
    if found.for_power and not session.power:
        session.problem("no-power", f"{cmd.canonical().splitlines()[0]} acts for a power: "
                        "write GM BECOME <power> before it", cmd.line)
        return False
    return budget.allow(session, cmd, spent, found.limit) and _text_fits(session, cmd, found)


def _text_fits(session: Session, cmd, found: Declaration) -> bool:
    """A press, treaty text or breach claim is at most ``limits.max_text_bytes``:
    what one player writes is copied into others' mail and reports (the GM's own
    announcement is not capped)."""
    if found.text is None or found.who == "gm":
        return True
    text = getattr(cmd, found.text)
    cap = session.ctx.limits.max_text_bytes
    size = len(text.encode("utf-8"))
    if size <= cap:
        return True
    session.problem("text-too-long", f"{cmd.echo().splitlines()[0][:60]}: its text is {size} bytes; "
                    f"at most {cap} are taken. Nothing of it was done: shorten it.", cmd.line)
    return False


def _first_help(session: Session, cmd: m.Help, helped: set[str]) -> bool:
    """Each HELP topic is answered once a mail, and only the first few topics:
    a mail of a thousand HELP lines gets one answer, not a thousand."""
    topic = " ".join((cmd.topic or "").upper().split())
    if topic in helped:
        return False
    limit = session.ctx.limits.max_help
    if len(helped) >= limit:
        if len(helped) == limit:
            session.problem("too-much-help", f"only the first {limit} HELP topics of a mail are "
                            "answered; ask for the others in another mail", cmd.line)
            helped.add("\x00")  # say it once
        return False
    helped.add(topic)
    return True
