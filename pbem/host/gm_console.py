"""GM commands from the command line: ``pbem gm GAME 'EXTEND 24h' ...``.

The command line GM goes through the dispatcher a GM mail does
(:func:`pbem.handlers.dispatch.run_commands`): the same declared guards and
handlers, each command under its own savepoint (a failing one is undone alone
and said, the others stand), so every action is checked, logged in the GM log
and announced the same way;
the reply is printed instead of mailed.  Each use is stored like a mail
(source ``cli:...``) so the audit trail has no gap.
"""
from __future__ import annotations

import uuid

from pbem.base.context import Context
from pbem.commands import model as m
from pbem.handlers import announce, dispatch
from pbem.handlers.reading import parse_mail, split_lines
from pbem.handlers.session import Session
from pbem.mail.normalize import Inbound
from pbem.outbound import batch
from pbem.outbound.outbox import queue
from pbem.storage import inbound_mail, store
from pbem.storage.db import atomic, utcnow_iso

ACTOR = "gm-console"


def run(ctx: Context, game: str, commands: list[str]) -> tuple[str, bool]:
    """Run GM command lines (with or without the leading GM) on ``game``.
    Returns the reply text and whether every command was accepted."""
    lines = [c if c.upper().startswith("GM ") or c.upper() == "GM" else f"GM {c}" for c in commands]
    text = "\n".join(lines) + "\n"
    parsed = parse_mail(text)
    key = f"cli:{uuid.uuid4().hex}"
    with atomic(ctx.db):
        rec = store.get_game(ctx, game) if not any(isinstance(c, m.GmCreate) for c in parsed.commands) \
            else store.find_game(ctx, game)
        msg_id = inbound_mail.store_handled_here(ctx, {
            "source_key": key, "message_id": f"<{key}@{ctx.domain}>", "sender": ACTOR,
            "subject": "command line", "received": utcnow_iso(ctx.now()), "raw": text.encode(),
            "game": game,
        })
        mail = Inbound(message_id=f"<{key}@{ctx.domain}>", sender=ACTOR, sender_name="GM (command line)",
                       reply_to=None, return_path=None, subject="command line", date=None,
                       in_reply_to=None, references=[], text=text, full_text=text)
        session = Session(ctx, mail, msg_id, game=rec, is_gm=True, signed_on=True, lines=split_lines(text))
        # Whoever runs the console holds the database: no sign-on is needed; each GM
        # command goes through the dispatcher as in a GM mail, under its own savepoint.
        session.problems.extend(parsed.problems)
        with batch.collect(ctx, key):  # one mail per recipient, as for a GM mail
            dispatch.run_commands(session, parsed.commands, console=True)
            announce.flush(session)
            for notice in session.notices:
                queue(ctx, source=msg_id, in_reply_to=None, **notice)
        inbound_mail.update(ctx, msg_id, {"status": "done" if not session.problems else "rejected",
                                          "outcome": "GM command line", "processed": utcnow_iso(ctx.now())})
        return session.reply_text(), not session.problems
