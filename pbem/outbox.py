"""Outgoing mail: queued in the same transaction as the change that caused
it (the outbox pattern), delivered afterwards with retries.

A queued mail has its Message-ID fixed when it is queued, so a crash after
the server accepted it but before we marked it sent makes us send the very
same mail again, which mail clients collapse into one.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from .context import Context
from .crashpoints import reached
from .db import atomic, dumps, loads, utcnow_iso
from .mail.compose import Inline, build_message, make_message_id
from .mail.source import PermanentFailure, ServerUnavailable, TemporaryFailure

log = logging.getLogger(__name__)

LOOP_TAG = "pbem"


def queue(ctx: Context, *, key: str, to: list[str], subject: str, text: str, html: str | None = None,
          cc: list[str] = (), game: str | None = None, kind: str = "notice",
          in_reply_to: str | None = None, references: list[str] = (), source: int | None = None,
          stranger: bool = False, secrets: tuple[str, ...] = (),
          related: Sequence[Inline] = (), date: datetime | None = None,
          not_before: datetime | None = None) -> str | None:
    """Queue one mail.  ``key`` identifies it for good (e.g. "reply:<message row>"):
    queueing the same key twice queues it once.  Returns the Message-ID.
    ``stranger`` marks a reply to an address that has not signed on (such
    replies are limited: :mod:`pbem.reply_bounds`); ``secrets`` are the ones
    the mail hands out (a welcome mail): its stored copy is masked once it is
    sent or given up.  ``date``: the Date the mail shows (default now);
    ``not_before``: it is not sent before then (grey press goes out apart)."""
    to = sorted({a for a in to if a})
    cc = sorted({a for a in cc if a and a not in to})
    if not to:
        return None
    message_id = make_message_id(ctx.domain, key)
    if ctx.db["outbox"].count_where("message_id = ?", [message_id]):
        return message_id
    msg = build_message(from_addr=ctx.address, to=to, cc=cc, subject=subject, text=text, html=html,
                        message_id=message_id, in_reply_to=in_reply_to, references=list(references),
                        loop_tag=LOOP_TAG, date=date or ctx.now(), related=related)
    now = utcnow_iso(ctx.now())
    ctx.db["outbox"].insert({
        "message_id": message_id, "game": game, "kind": kind, "recipients": dumps(to + cc),
        "subject": subject, "raw": bytes(msg), "status": "queued", "attempts": 0,
        "next_try": utcnow_iso(not_before) if not_before else now, "created": now, "source": source, "stranger": int(stranger),
        "mask": dumps(list(secrets)) if secrets else None,
    })
    return message_id


def due(ctx: Context, limit: int = 50) -> list[dict]:
    return list(ctx.db["outbox"].rows_where(
        "status = 'queued' and next_try <= ?", [utcnow_iso(ctx.now())], order_by="id", limit=limit))


async def deliver_due(ctx: Context, sender, *, max_attempts: int = 8, retry_base: float = 30.0) -> int:
    """Send everything that is due, in batches.  Returns how many were sent.

    Raises ServerUnavailable when the server cannot be reached: the rest of the
    queue would fail the same way, so it is left for the caller's next try, and
    the outage is not charged to the mail as one of its attempts."""
    sent = 0
    while True:
        rows = due(ctx)
        if not rows:
            return sent
        sent += await _deliver(ctx, sender, rows, max_attempts, retry_base)
        if len(rows) < 50:  # the last batch: whatever failed waits for its next try
            return sent


async def _deliver(ctx: Context, sender, rows: list[dict], max_attempts: int, retry_base: float) -> int:
    from email import message_from_bytes, policy

    sent = 0
    for row in rows:
        msg = message_from_bytes(row["raw"], policy=policy.default)
        recipients = loads(row["recipients"], [])
        try:
            await sender.send(msg, recipients)
        except ServerUnavailable as exc:
            ctx.db["outbox"].update(row["id"], {"last_error": str(exc)[:500]})
            raise
        except (TemporaryFailure, PermanentFailure) as exc:
            if _partly_sent(ctx, row, recipients, exc, retry_base):
                sent += 1
                continue
            if isinstance(exc, PermanentFailure):
                ctx.db["outbox"].update(row["id"], {"attempts": row["attempts"] + 1, "status": "failed",
                                                    "last_error": str(exc)[:500], **_masked(row)})
                log.error("mail %s to %s refused for good (%s)", row["message_id"], recipients, exc)
                continue
            attempts = row["attempts"] + 1
            status = "failed" if attempts >= max_attempts else "queued"
            delay = timedelta(seconds=retry_base * 2 ** (attempts - 1))
            ctx.db["outbox"].update(row["id"], {"attempts": attempts, "status": status,
                                                "last_error": str(exc)[:500],
                                                "next_try": utcnow_iso(ctx.now() + delay),
                                                **(_masked(row) if status == "failed" else {})})
            log.warning("mail %s to %s deferred (%s)", row["message_id"], recipients, exc)
            continue
        reached("outbox.after_send")
        ctx.db["outbox"].update(row["id"], {"status": "sent", "attempts": row["attempts"] + 1,
                                            "sent": utcnow_iso(ctx.now()), **_masked(row)})
        sent += 1
    return sent


def _partly_sent(ctx: Context, row: dict, recipients: list[str], exc, retry_base: float) -> bool:
    """Some recipients have the mail, others were refused: those refused for now are
    tried again alone (the others must not get it twice), those refused for good are
    given up.  False when nobody has the mail."""
    refused = getattr(exc, "refused", {}) or {}
    if not refused or all(r in refused for r in recipients):
        return False
    again = [r for r, (code, _) in refused.items() if not 500 <= code < 600 and r in recipients]
    attempts = row["attempts"] + 1
    note = f"partly sent; refused: {refused}"[:500]
    if again:
        delay = timedelta(seconds=retry_base * 2 ** (attempts - 1))
        ctx.db["outbox"].update(row["id"], {"recipients": dumps(again), "attempts": attempts,
                                            "last_error": note, "next_try": utcnow_iso(ctx.now() + delay)})
        log.warning("mail %s sent to all but %s; tried again for them alone", row["message_id"], again)
    else:
        ctx.db["outbox"].update(row["id"], {"status": "sent", "attempts": attempts, "last_error": note,
                                            "sent": utcnow_iso(ctx.now()), **_masked(row)})
        log.error("mail %s sent, but refused for good for %s", row["message_id"], list(refused))
    return True


def _masked(row: dict) -> dict:
    """The stored copy of a mail that handed out a secret, without it, once it is no
    longer needed for sending."""
    secrets = loads(row.get("mask"), [])
    if not secrets:
        return {}
    from .secrets_at_rest import mask_raw

    return {"raw": mask_raw(row["raw"], secrets), "mask": None}


def prune(ctx: Context, *, keep_days: float) -> int:
    """Forget mail sent or given up more than ``keep_days`` ago (0 keeps all).
    Returns how many were forgotten.  Only recent mail is ever looked up: the
    limits on replies to strangers count the last hour, a Message-ID repeated
    by a loop comes back within days; the messages table keeps what was handled."""
    if keep_days <= 0:
        return 0
    before = utcnow_iso(ctx.now() - timedelta(days=keep_days))
    with atomic(ctx.db):
        cursor = ctx.db.execute("delete from outbox where status in ('sent', 'failed') and created < ?",
                                [before])
    if cursor.rowcount:
        log.info("outbox: forgot %d mail(s) sent more than %g days ago", cursor.rowcount, keep_days)
    return cursor.rowcount


def pending_count(ctx: Context) -> int:
    return ctx.db["outbox"].count_where("status = 'queued'")

