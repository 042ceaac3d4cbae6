"""Poison mail is set aside, so one mail can never stall the queue.

Every try at handling a mail is counted in its own commit *before* the try,
so a try that kills the process still counts.  A mail whose handling failed
or crashed ``max_attempts`` times is quarantined: its status becomes
``quarantined`` (its intake copy goes to the Rejected folder), the sender gets
a short reply, the GMs concerned are told, and the queue moves on.  ``pbem
quarantine list`` shows such mail and ``pbem quarantine release ID`` puts one
back in the queue once the cause is fixed.

Setting a mail aside reads only its headers and masks its secrets without
decoding its body: whatever killed the handling may be in the body.
"""
from __future__ import annotations

import logging

from pbem.base.context import Context
from pbem.mail.normalize import parse_message
from pbem.outbound.outbox import queue
from pbem.outbound.secrets_at_rest import find_secrets, scrub, scrub_bytes
from pbem.storage import inbound_mail, store
from pbem.storage.db import utcnow_iso

log = logging.getLogger(__name__)


def count_attempt(ctx: Context, msg_id: int) -> int:
    """Count one more try at handling the mail (the caller commits it before
    the try); returns the number of tries including this one."""
    row = inbound_mail.get(ctx, msg_id)
    attempts = (row.get("attempts") or 0) + 1
    inbound_mail.update(ctx, msg_id, {"attempts": attempts})
    return attempts


def uncount_attempt(ctx: Context, msg_id: int) -> None:
    """A try that failed through no fault of the mail (the database was
    locked or full) does not count."""
    row = inbound_mail.get(ctx, msg_id)
    inbound_mail.update(ctx, msg_id, {"attempts": max(0, (row.get("attempts") or 0) - 1)})


def tries_left(ctx: Context, msg_id: int) -> int:
    row = inbound_mail.get(ctx, msg_id)
    return max(0, ctx.limits.max_attempts - (row.get("attempts") or 0))


def record_failure(ctx: Context, msg_id: int, reason: str) -> None:
    inbound_mail.update(ctx, msg_id, {"error": reason[:500]})


def _gm_addresses(ctx: Context, sender: str) -> list[str]:
    """The site's admin address, and the GM of every game the sender plays
    in or runs."""
    found = [ctx.admin_address] if ctx.admin_address else []
    if sender:
        for rec in store.list_games(ctx):
            plays = any(sender in store.addresses(p) for p in store.players(ctx, rec.name))
            if (plays or rec.row["gm_address"] == sender) and rec.row["gm_address"]:
                found.append(rec.row["gm_address"])
    return [a for a in dict.fromkeys(found) if a and a != sender]


def set_aside(ctx: Context, msg_id: int, reason: str) -> str:
    """Quarantine the mail (inside the caller's transaction): masked, marked,
    its sender and its GMs told.  Returns the new status."""
    row = inbound_mail.get(ctx, msg_id)
    raw = row["raw"] or b""
    secrets = find_secrets(raw[: ctx.max_message_bytes].decode("latin-1"))
    headers = parse_message(raw, max_bytes=0, own_addresses=[ctx.address])  # headers only
    sender = headers.sender
    subject = scrub(headers.subject, secrets)[:80] or "(no subject)"
    attempts = row.get("attempts") or 0
    inbound_mail.update(ctx, msg_id, {
        "status": "quarantined", "raw": scrub_bytes(raw, secrets),
        "outcome": f"quarantined after {attempts} tries: {reason}"[:500],
        "processed": utcnow_iso(ctx.now()), "sender": sender or row["sender"],
        "message_id": headers.message_id, "subject": subject})
    # The log names no address (`pbem quarantine list` and the GM's notice do).
    log.error("mail %s set aside after %d tries: %s", msg_id, attempts, reason)
    if sender and not headers.automatic:
        queue(ctx, key=f"quarantine:{row['source_key']}", to=[sender], kind="reply", stranger=True,
              subject=f"[{ctx.site_name}] not handled: {subject}", in_reply_to=headers.message_id,
              source=msg_id,
              text=(f"Your mail \"{subject}\" could not be handled: the moderator failed on it "
                    f"{attempts} times.\nNothing in it was done. It has been set aside, and the GM "
                    "has been told.\n\nPlease send your orders again in a short plain-text mail, "
                    f"or ask your GM.\n\n-- \n{ctx.site_name} moderator\n"))
    gms = _gm_addresses(ctx, sender)
    for gm in gms:  # one mail each: no GM sees another's address
        queue(ctx, key=f"quarantine-gm:{row['source_key']}:{gm}", to=[gm], kind="notice", source=msg_id,
              subject=f"[{ctx.site_name}] a mail was set aside (quarantine #{msg_id})",
              text=(f"The moderator failed {attempts} times on a mail and has set it aside:\n\n"
                    f"  from:    {sender or '(no usable sender)'}\n  subject: {subject}\n"
                    f"  reason:  {reason}\n\nNothing in it was done; the sender was told. "
                    f"`pbem quarantine list` shows such mail; `pbem quarantine release {msg_id}` "
                    "hands it to the moderator again once the cause is fixed (its secrets are "
                    "masked, so the sender may have to send it again).\n"))
    if not gms:
        log.warning("mail %s set aside; no GM to tell (set server.admin_address)", msg_id)
    return "quarantined"


def listing(ctx: Context) -> list[dict]:
    return inbound_mail.quarantined(ctx)


def release(ctx: Context, msg_id: int) -> None:
    """Hand a quarantined mail to the moderator again, with fresh tries."""
    row = inbound_mail.find(ctx, msg_id)
    if row is None:
        raise ValueError(f"there is no mail {msg_id}")
    if row["status"] != "quarantined":
        raise ValueError(f"mail {msg_id} is {row['status']}, not quarantined")
    inbound_mail.update(ctx, msg_id, {"status": "new", "attempts": 0, "error": None})
