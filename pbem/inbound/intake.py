"""Inbound mail: store it, then act on it in one transaction.

The order of guards is fixed (and documented in the README): seen before?
automatic mail? too large? signed on? game exists? sender is the player?
command allowed now? written against the current phase?  A mail is stored
verbatim in its own commit before anything is done with it; handling it —
its effects, its "done" mark and its queued replies — is a second, single
transaction, so a crash at any point loses nothing and repeats nothing.

Each try at handling is counted before it starts: a mail that fails or
crashes the daemon ``limits.max_attempts`` times is set aside
(:mod:`pbem.inbound.quarantine`) and the queue moves on.

A backlog is handled by group commit (:func:`batches`, :func:`process_batch`):
the tries of up to ``limits.batch_mails`` fresh mails are counted in one
commit and the mails handled in one transaction, each in its own savepoint,
so a mail that raises is undone alone and the others stand.  A batch that
crashes or overruns commits nothing; its mails, each counted once, are then
tried one by one (a counted mail never joins a batch again), which isolates
the poison mail in a single try of its own.  A handled mail is stored
with its secrets masked (:mod:`pbem.outbound.secrets_at_rest`), and its reply is
bounded (:mod:`pbem.outbound.reply_bounds`).
"""
from __future__ import annotations

import hashlib
import logging
import sqlite3
from datetime import timedelta

from pbem.base.context import Context
from pbem.base.crashpoints import reached
from pbem.commands import model as m
from pbem.handlers import dispatch, order_verdicts
from pbem.handlers.session import Session
from pbem.inbound import quarantine
from pbem.inbound.prepared import OVERSIZED, Prepared, prepare
from pbem.mail.mime_body import MAX_DEPTH
from pbem.mail.source import RawMail
from pbem.outbound import batch, bounces, reply_bounds
from pbem.outbound.outbox import queue
from pbem.outbound.secrets_at_rest import mask_raw, scrub
from pbem.storage import inbound_mail, outbox_rows
from pbem.storage.db import atomic, savepoint, utcnow_iso

log = logging.getLogger(__name__)

def store_raw(ctx: Context, raw: RawMail) -> int | None:
    """Keep the mail verbatim before acting on it.  Returns its row id, or
    None when this very copy (same source key) was stored before."""
    with atomic(ctx.db):
        return inbound_mail.store_new(ctx, raw.key, utcnow_iso(ctx.now()), _kept(ctx, raw.data))


def _kept(ctx: Context, data: bytes) -> bytes:
    """What is stored of a mail: all of it, or of a mail over the size limit
    (which is only refused) its headers and its first ``limits.keep_oversized_bytes``."""
    if len(data) <= ctx.max_message_bytes:
        return data
    ends = [i for i in (data.find(b"\r\n\r\n"), data.find(b"\n\n")) if i >= 0]
    head = data[:min(ends)] if ends and min(ends) < 65536 else data[:65536].rsplit(b"\n", 1)[0]
    body = data[len(head):len(head) + ctx.limits.keep_oversized_bytes]
    return OVERSIZED + str(len(data)).encode() + b"\n" + head + body + b"\n\n[pbem: the rest was not kept]\n"


def pending(ctx: Context) -> list[int]:
    return inbound_mail.pending_ids(ctx)


def handled_statuses() -> tuple[str, ...]:
    """Statuses whose intake copy goes to the Rejected folder."""
    return ("rejected", "error", "ignored", "quarantined")


def _finish(ctx: Context, msg_id: int, status: str, outcome: str, **extra) -> str:
    inbound_mail.update(ctx, msg_id, {"status": status, "outcome": outcome,
                                      "processed": utcnow_iso(ctx.now()), **extra})
    return status


def process(ctx: Context, msg_id: int) -> str:
    """Act on one stored mail.  Returns its status: final, or "new" when the
    try failed and the mail is tried again later.

    A failure of the database itself (locked, disk full) is not the mail's:
    it goes on up, the try is not counted, and the daemon's step retries."""
    begun = begin(ctx, msg_id)
    return begun if begun is not None else handle(ctx, msg_id)


def handle(ctx: Context, msg_id: int, read: Prepared | BaseException | None = None) -> str:
    """One try at a mail whose try :func:`begin` has counted (``read``: the mail read
    before, by :func:`prepare_batch`)."""
    try:
        with atomic(ctx.db):
            return _process(ctx, msg_id, read)
    except sqlite3.OperationalError:
        with atomic(ctx.db):
            quarantine.uncount_attempt(ctx, msg_id)
        raise
    except Exception as exc:  # one bad mail must never stop the daemon
        log.exception("mail %s could not be handled", msg_id)
        return failed(ctx, msg_id, f"{type(exc).__name__}: {exc}")


def begin(ctx: Context, msg_id: int) -> str | None:
    """Count the try about to start (committed first, so a crash still
    counts); the mail's status instead when it is not to be tried: handled
    already, or out of tries (then it is set aside)."""
    with atomic(ctx.db):
        return _count(ctx, msg_id)


def _count(ctx: Context, msg_id: int) -> str | None:
    row = inbound_mail.get(ctx, msg_id)
    if row["status"] != "new":
        return row["status"]
    if quarantine.tries_left(ctx, msg_id) <= 0:
        return quarantine.set_aside(ctx, msg_id, row.get("error") or
                                    "the moderator stopped while handling it")
    quarantine.count_attempt(ctx, msg_id)
    return None


def batches(ctx: Context, ids: list[int]) -> list[list[int]]:
    """The pending mails in order, cut into groups handled together: runs of
    at most ``limits.batch_mails`` mails never tried, and every mail tried
    before (a failure, or a batch that crashed) alone."""
    tried = inbound_mail.tried(ctx, ids)
    # A batch that crashes costs each of its mails a try: with a single try allowed,
    # that would set innocent mail aside, so then every mail is handled alone.
    size = max(1, ctx.limits.batch_mails) if ctx.limits.max_attempts > 1 else 1
    groups: list[list[int]] = []
    for msg_id in ids:
        if msg_id in tried or not groups or len(groups[-1]) >= size or groups[-1][0] in tried:
            groups.append([msg_id])
        else:
            groups[-1].append(msg_id)
    return groups


def begin_batch(ctx: Context, ids: list[int]) -> tuple[list[int], dict[int, str]]:
    """:func:`begin` for a group, in one commit: the mails to try now, and the
    statuses of those not to be tried."""
    settled: dict[int, str] = {}
    with atomic(ctx.db):
        for msg_id in ids:
            status = _count(ctx, msg_id)
            if status is not None:
                settled[msg_id] = status
    return [i for i in ids if i not in settled], settled


def process_batch(ctx: Context, ids: list[int]) -> dict[int, str]:
    """:func:`process` for a group of mails: one commit counts their tries,
    one handles them all."""
    todo, statuses = begin_batch(ctx, ids)
    if todo:
        statuses.update(handle_batch(ctx, todo))
    return statuses


def prepare_batch(ctx: Context, ids: list[int]) -> dict[int, Prepared | BaseException]:
    """Each of these stored mails read (:mod:`pbem.inbound.prepared`), outside any
    transaction: what reading one raised is kept, and raised again when it is handled,
    so that its try fails as it would have in the transaction."""
    read: dict[int, Prepared | BaseException] = {}
    games: dict = {}
    for msg_id, raw in inbound_mail.new_raws(ctx, ids).items():
        try:
            read[msg_id] = prepare(ctx, raw)
        except Exception as exc:  # the worker's memory limit too: that mail's try fails
            read[msg_id] = exc
            continue
        if read[msg_id].parsed is not None:  # and what the game will say of its orders
            order_verdicts.ask_ahead_of_mail(ctx, read[msg_id].parsed, games)
    return read


def handle_batch(ctx: Context, ids: list[int], read: dict | None = None) -> dict[int, str]:
    """One try at each of several counted mails, in one transaction with a
    savepoint per mail: a mail that raises is undone alone (its failure is
    recorded in the same transaction) and the others stand.  A failure of
    the database undoes the whole group and counts none of its tries.
    ``read``: mails of the group read before (:func:`prepare_batch`)."""
    read = read or {}
    if len(ids) == 1:
        return {ids[0]: handle(ctx, ids[0], read.get(ids[0]))}
    statuses: dict[int, str] = {}
    try:
        with atomic(ctx.db):
            for msg_id in ids:
                statuses[msg_id] = _try_in_savepoint(ctx, msg_id, read.get(msg_id))
    except sqlite3.OperationalError:
        with atomic(ctx.db):
            for msg_id in ids:
                quarantine.uncount_attempt(ctx, msg_id)
        raise
    return statuses


def _try_in_savepoint(ctx: Context, msg_id: int, read: Prepared | BaseException | None) -> str:
    try:
        with savepoint(ctx.db, "mail"):
            return _process(ctx, msg_id, read)
    except sqlite3.OperationalError:
        raise
    except Exception as exc:  # one bad mail must never stop the daemon, nor undo the others
        log.exception("mail %s could not be handled", msg_id)
        return failed(ctx, msg_id, f"{type(exc).__name__}: {exc}")


def failed(ctx: Context, msg_id: int, reason: str) -> str:
    """A try that failed: tried again later, or set aside when out of tries."""
    with atomic(ctx.db):
        quarantine.record_failure(ctx, msg_id, reason)
        if quarantine.tries_left(ctx, msg_id) <= 0:
            return quarantine.set_aside(ctx, msg_id, reason)
    return "new"


def _process(ctx: Context, msg_id: int, read: Prepared | BaseException | None = None) -> str:
    row = inbound_mail.get(ctx, msg_id)
    if row["status"] != "new":
        return row["status"]
    if isinstance(read, BaseException):  # reading it before its transaction failed
        raise read
    if read is None or read.raw != row["raw"]:
        read = prepare(ctx, row["raw"])
    mail, at_rest = read.mail, read.at_rest
    if read.asked and outbox_rows.has_message_id(ctx, read.asked):
        mail.automatic = "loop"  # its own Message-ID is one pbem made: its own mail come back
    inbound_mail.update(ctx, msg_id, {"message_id": mail.message_id, "sender": mail.sender,
                                      "subject": mail.subject[:300], "raw": read.masked})
    # The same mail again is known by its Message-ID and its sender: another sender's
    # mail under a known Message-ID (made up, or forged to drop it) is answered.
    if inbound_mail.seen_before(ctx, mail.message_id, mail.sender, but_not=msg_id):
        return _finish(ctx, msg_id, "duplicate", "seen before (same Message-ID and sender)")
    if mail.automatic == "bounce":
        failed = bounces.record(ctx, row["raw"], msg_id)
        log.info("bounce from %s for %s", mail.sender, ", ".join(failed) or "no address found")
        return _finish(ctx, msg_id, "ignored", "automatic: bounce"
                       + (f" for {', '.join(failed)[:200]}" if failed else ""))
    if mail.automatic:
        log.debug("automatic mail (%s): never answered", mail.automatic)  # the daemon logs the result
        return _finish(ctx, msg_id, "ignored", f"automatic: {mail.automatic}")
    if not mail.sender:
        return _finish(ctx, msg_id, "ignored", "no usable sender address")
    if _same_mail_again(ctx, mail, msg_id):
        log.info("ignored a mail without commands from %s: the same as one answered today", mail.sender)
        return _finish(ctx, msg_id, "ignored", "automatic: the same mail without a command again (a loop)")
    with batch.collect(ctx, row["source_key"]):
        session, spoken = _handle(ctx, read, msg_id, row)
    if spoken - at_rest:
        inbound_mail.update(ctx, msg_id, {"raw": mask_raw(row["raw"], at_rest | spoken)})
    reached("intake.before_commit")
    return _finish(ctx, msg_id, session.status, session.outcome, game=session.game_name, power=session.power)


def _same_mail_again(ctx: Context, mail, msg_id: int) -> bool:
    """Whether this sender sent this very text in the last day and it held no
    command: an auto-responder that marks itself nowhere answers every reply
    with the same text, and a second answer would start a loop."""
    digest = hashlib.sha256(mail.text.strip().encode("utf-8", "replace")).hexdigest()
    inbound_mail.update(ctx, msg_id, {"body_hash": digest})
    since = utcnow_iso(ctx.now() - timedelta(days=1))
    return inbound_mail.same_text_without_commands(ctx, mail.sender, digest, but_not=msg_id, since=since)


def _handle(ctx: Context, read: Prepared, msg_id: int, row: dict) -> tuple[Session, set[str]]:
    """Run the mail's commands and queue the reply; the session and the real secrets
    the mail spoke (see :func:`_real_secrets`)."""
    mail, spoken = read.mail, set()
    session = Session(ctx, mail, msg_id)
    if mail.too_large:
        session.problem("too-large", f"your mail is {mail.size} bytes; the limit is "
                        f"{ctx.max_message_bytes}. Nothing in it was read: send your orders as plain text.")
        session.status = "rejected"
    else:
        session.tokens, session.lines = read.tokens, read.lines
        if mail.attachments:
            session.note(f"Attachments are not read as orders ({', '.join(mail.attachments)}): "
                         "write orders in the body of the mail.")
        if mail.html_only:
            session.note("Your mail had no plain-text part; it was read from its HTML.")
        if mail.too_deep:
            session.problem("too-deep", f"your mail nests its parts more than {MAX_DEPTH} levels deep; "
                            "the parts below that were not read. Send your orders as plain text.",
                            kind="invalid")
        dispatch.run(session, read.parsed)
        spoken = _real_secrets(read.parsed, session)
    _reply(ctx, session, row, spoken)
    return session, spoken


def _real_secrets(parsed, session: Session) -> set[str]:
    """The secrets of this mail that are real: a sign-on that was right, and
    the new secrets it sets.  Replies never show them.  (A wrong guess is no
    secret, and hiding it would hide words of the reply's own text.)"""
    found = {parsed.signon.secret} if parsed.signon and session.signed_on else set()
    found.update(cmd.secret for cmd in parsed.commands if isinstance(cmd, (m.SetPassword, m.Join)))
    found.update(cmd.token for cmd in parsed.commands if isinstance(cmd, m.Confirm))
    return {s for s in found if len(s) >= 3}


def _reply(ctx: Context, session: Session, row: dict, secrets: set[str]) -> None:
    """Queue the reply and every notice the mail caused, without the mail's secrets.

    The reply is bounded (:mod:`pbem.outbound.reply_bounds`).  Only a reply to a stranger (a
    sender without a right sign-on) is ever held back, and only the reply to that
    stranger: press, warnings and the copy to the address of record go to other
    addresses, and the copy is how a player learns of mail sent in their name."""
    mail = session.mail
    # A player signed on from an address not of record may be forging it: its
    # reply is bounded like a stranger's (the address of record has the copy).
    stranger = not session.signed_on or bool(session.power and not session.is_gm and not session.own_address)
    session.problems, rest = reply_bounds.summarise(session.problems, ctx.limits.max_problems)
    if rest:
        session.note(rest)
    cap = reply_bounds.reply_cap(ctx, stranger=stranger, mail_size=mail.size)
    text = reply_bounds.fit(scrub(session.reply_text(), secrets), cap)
    subject = scrub(session.subject(), secrets)
    cc = [a for a in session.cc if a != mail.sender]
    to = [mail.sender]
    # A sign-on from the power's own address (or the GM's) is always answered, right
    # secret or wrong: no limit may silence the real player.
    held = reply_bounds.stranger_limit(ctx, mail.sender, len(text.encode("utf-8")) + 1000) \
        if stranger and not session.own_address else None
    if held:
        log.warning("reply to %s held back: %s", mail.sender, held)
        session.outcome += " (reply held back: limit for addresses that have not signed on)"
        to, cc = cc, []
    queue(ctx, key=f"reply:{row['source_key']}", to=to, cc=cc, subject=subject, text=text,
          game=session.game_name, kind="reply", in_reply_to=mail.message_id,
          references=mail.references, source=session.msg_id, stranger=stranger and mail.sender in to)
    for notice in session.notices:
        if notice.get("kind") != "welcome":  # the one mail that hands out a secret
            notice = {**notice, "subject": scrub(notice["subject"], secrets),
                      "text": scrub(notice["text"], secrets)}
        queue(ctx, source=session.msg_id, in_reply_to=None, **notice)
