"""Inbound mail: store it, then act on it in one transaction.

The order of guards is fixed (and documented in the README): seen before?
automatic mail? too large? signed on? game exists? sender is the player?
command allowed now? written against the current phase?  A mail is stored
verbatim in its own commit before anything is done with it; handling it —
its effects, its "done" mark and its queued replies — is a second, single
transaction, so a crash at any point loses nothing and repeats nothing.
"""
from __future__ import annotations

import logging
import re

from .commands.parse import parse_mail, split_lines
from .context import Context
from .crashpoints import reached
from .db import atomic, utcnow_iso
from .handlers import dispatch
from .handlers.session import Session
from .mail.normalize import parse_message
from .mail.source import RawMail
from .outbox import queue, recent_count

log = logging.getLogger(__name__)

# Within one line: the TOKEN line is blanked, so every other line keeps its number.
_TOKEN = re.compile(r"^[ \t]*TOKEN[ \t]+(\S+)[ \t]*$", re.I | re.M)


def store_raw(ctx: Context, raw: RawMail) -> int | None:
    """Keep the mail verbatim before acting on it.  Returns its row id, or
    None when this very copy (same source key) was stored before."""
    with atomic(ctx.db):
        if ctx.db["messages"].count_where("source_key = ?", [raw.key]):
            return None
        return ctx.db["messages"].insert({
            "source_key": raw.key, "message_id": None, "sender": None, "subject": None,
            "received": utcnow_iso(ctx.now()), "raw": raw.data, "status": "new",
        }).last_pk


def pending(ctx: Context) -> list[int]:
    return [r["id"] for r in ctx.db["messages"].rows_where("status = 'new'", order_by="id", select="id")]


def process_pending(ctx: Context) -> list[str]:
    """Handle every stored mail not yet handled (also those a crash left)."""
    ids = pending(ctx)
    if ids:
        reached("intake.stored")
    return [process(ctx, msg_id) for msg_id in ids]


def _finish(ctx: Context, msg_id: int, status: str, outcome: str, **extra) -> str:
    ctx.db["messages"].update(msg_id, {"status": status, "outcome": outcome,
                                       "processed": utcnow_iso(ctx.now()), **extra})
    return status


def process(ctx: Context, msg_id: int) -> str:
    """Act on one stored mail.  Returns its final status."""
    try:
        with atomic(ctx.db):
            return _process(ctx, msg_id)
    except Exception as exc:  # one bad mail must never stop the daemon
        log.exception("mail %s could not be handled", msg_id)
        with atomic(ctx.db):
            return _finish(ctx, msg_id, "error", f"{type(exc).__name__}: {exc}"[:500])


def _process(ctx: Context, msg_id: int) -> str:
    row = ctx.db["messages"].get(msg_id)
    if row["status"] != "new":
        return row["status"]
    mail = parse_message(row["raw"], max_bytes=ctx.max_message_bytes,
                         own_addresses=[ctx.address], own_domain=ctx.domain)
    ctx.db["messages"].update(msg_id, {"message_id": mail.message_id, "sender": mail.sender,
                                       "subject": mail.subject[:300]})
    if ctx.db["messages"].count_where("message_id = ? and id != ? and status != 'new'",
                                      [mail.message_id, msg_id]):
        return _finish(ctx, msg_id, "duplicate", "seen before (same Message-ID)")
    if mail.automatic:
        log.info("ignored automatic mail from %s (%s)", mail.sender, mail.automatic)
        return _finish(ctx, msg_id, "ignored", f"automatic: {mail.automatic}")
    if not mail.sender:
        return _finish(ctx, msg_id, "ignored", "no usable sender address")
    session = Session(ctx, mail, msg_id)
    if mail.too_large:
        session.problem("too-large", f"your mail is {mail.size} bytes; the limit is "
                        f"{ctx.max_message_bytes}. Nothing in it was read: send your orders as plain text.")
        session.status = "rejected"
    else:
        text, tokens = _split_tokens(mail.text)
        session.tokens = tokens
        session.lines = split_lines(text)
        parsed = parse_mail(text)
        if mail.attachments:
            session.note(f"Attachments are not read as orders ({', '.join(mail.attachments)}): "
                         "write orders in the body of the mail.")
        if mail.html_only:
            session.note("Your mail had no plain-text part; it was read from its HTML.")
        dispatch.run(session, parsed)
    _reply(ctx, session, row)
    reached("intake.before_commit")
    return _finish(ctx, msg_id, session.status, session.outcome, game=session.game_name, power=session.power)


def _split_tokens(text: str) -> tuple[str, list[str]]:
    tokens = _TOKEN.findall(text)
    return _TOKEN.sub("", text), tokens


def _reply(ctx: Context, session: Session, row: dict) -> None:
    """Queue the reply and every notice the mail caused.  The rate limit holds back only
    the reply to the sender: press, warnings and the copy to the address of record go to
    other addresses, and the copy is how a player learns of mail sent in their name."""
    mail = session.mail
    cc = [a for a in session.cc if a != mail.sender]
    to = [mail.sender]
    if ctx.reply_rate_per_hour and recent_count(ctx, mail.sender) >= ctx.reply_rate_per_hour:
        log.warning("reply to %s suppressed: over %d replies this hour", mail.sender, ctx.reply_rate_per_hour)
        session.outcome += " (reply suppressed: rate limit)"
        to, cc = cc, []
    queue(ctx, key=f"reply:{row['source_key']}", to=to, cc=cc, subject=session.subject(),
          text=session.reply_text(), game=session.game_name, kind="reply",
          in_reply_to=mail.message_id, references=mail.references, source=session.msg_id)
    for notice in session.notices:
        queue(ctx, source=session.msg_id, in_reply_to=None, **notice)
