"""One command that fails never takes the rest of its mail with it.

Each command of a mail runs inside a savepoint of the mail's transaction.
When a handler raises, that command's changes to the database and to the
reply being built are undone, the sender is told which command failed and
that nothing of it was done, the game's GM is told, and the mail's other
commands go on.  The traceback goes to the log: a failing command is a bug
to fix, never a silent loss.

A failure of the database itself (locked, disk full) is not a command's
fault: it goes on up, and the whole mail is tried again later.
"""
from __future__ import annotations

import copy
import dataclasses
import logging
import sqlite3

from pbem.handlers.session import Session
from pbem.outbound import batch
from pbem.storage.db import savepoint

log = logging.getLogger(__name__)

_KEEP = ("ctx", "mail", "msg_id")  # what a command cannot change


def _saved(session: Session) -> dict:
    return {f.name: copy.copy(getattr(session, f.name)) for f in dataclasses.fields(session)
            if f.name not in _KEEP}


def run_command(session: Session, cmd, handler) -> bool:
    """Run ``handler(session, cmd)``; False when it failed and was undone."""
    before = _saved(session)
    queued = batch.mark(session.ctx)
    try:
        with savepoint(session.ctx.db):
            handler(session, cmd)
            session.reload()
    except sqlite3.OperationalError:
        raise
    except Exception as exc:  # any bug in one command: undo it, say so, go on with the mail
        log.exception("mail %s: command on line %s failed", session.msg_id, cmd.line)
        for name, value in before.items():
            setattr(session, name, value)
        batch.undo(session.ctx, queued)
        _report(session, cmd, exc)
        return False
    return True


def _report(session: Session, cmd, exc: Exception) -> None:
    what = cmd.echo().splitlines()[0][:80]
    session.problem("internal-error", f"{what}: the moderator failed on this command "
                    f"({type(exc).__name__}); nothing of it was done. The rest of your mail was handled "
                    "as this reply says, and the GM has been told.", cmd.line)
    rec = session.game
    gm = rec.row.get("gm_address") if rec else None
    if gm and gm != session.mail.sender:
        session.notify(key=f"internal-error:{session.msg_id}:{cmd.line}", to=[gm],
                       subject=f"[{rec.name}] a command could not be handled",
                       text=f"A command in a mail from {session.mail.sender} failed inside the moderator:\n\n"
                            f"  line {cmd.line}: {what}\n  {type(exc).__name__}\n\n"
                            "It was not done and the sender was told; the rest of the mail was handled. "
                            "The moderator's log has the details.")
