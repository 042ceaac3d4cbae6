"""Outgoing mail: queued in the same transaction as the change that caused
it (the outbox pattern), delivered afterwards with retries.

A queued mail has its Message-ID fixed when it is queued, so a crash after
the server accepted it but before we marked it sent makes us send the very
same mail again, which mail clients collapse into one.

Nothing queued is lost: a mail is given up only for a reason of its own (see
:func:`deliver_due`), and whoever can mend it is told (:mod:`pbem.outbound.undelivered`);
a server that refuses every mail holds the queue (:mod:`pbem.outbound.sendhold`).  The
log names recipients by role (a power, the GM), never by address.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from pbem.base.context import Context
from pbem.base.crashpoints import reached
from pbem.mail.compose import Inline, compose_bytes, make_message_id
from pbem.mail.source import MessageRefused, PermanentFailure, ServerUnavailable, SessionRefused, TemporaryFailure
from pbem.outbound.sent_journal import SentJournal
from pbem.storage import outbox_rows, store
from pbem.storage.db import atomic, dumps, loads, utcnow_iso

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
    replies are limited: :mod:`pbem.outbound.reply_bounds`); ``secrets`` are the ones
    the mail hands out (a welcome mail): its stored copy is masked once it is
    sent or given up.  ``date``: the Date the mail shows (default now);
    ``not_before``: it is not sent before then (grey press goes out apart).

    While one inbound mail is handled (:func:`pbem.outbound.batch.collect`), the mail
    is only gathered, and queued at the end merged per recipient."""
    if ctx.batch is not None:
        ctx.batch.append(dict(
            key=key, to=list(to), subject=subject, text=text, html=html, cc=list(cc), game=game,
            kind=kind, in_reply_to=in_reply_to, references=list(references), source=source,
            stranger=stranger, secrets=tuple(secrets), related=list(related), date=date,
            not_before=not_before))
        return make_message_id(ctx.domain, key)
    to = sorted({a for a in to if a})
    cc = sorted({a for a in cc if a and a not in to})
    if not to:
        return None
    message_id = make_message_id(ctx.domain, key)
    if outbox_rows.has_message_id(ctx, message_id):
        return message_id
    # RFC 3834: "auto-replied" is the answer to a mail; a report, a notice or a reminder
    # that answers nobody's mail is "auto-generated".
    raw = compose_bytes(from_addr=ctx.address, from_name=ctx.site_name, to=to, cc=cc, subject=subject,
                        text=text, html=html, message_id=message_id, in_reply_to=in_reply_to,
                        references=list(references), loop_tag=LOOP_TAG, date=date or ctx.now(), related=related,
                        auto_submitted="auto-replied" if in_reply_to else "auto-generated")
    now = utcnow_iso(ctx.now())
    outbox_rows.add(ctx, {
        "message_id": message_id, "game": game, "kind": kind, "recipients": dumps(to + cc),
        "subject": subject, "raw": raw, "status": "queued", "attempts": 0,
        "next_try": utcnow_iso(not_before) if not_before else now, "created": now, "source": source,
        "stranger": int(stranger),
        "mask": dumps(list(secrets)) if secrets else None,
    }, pack=kind == "report" or bool(related), inline=[part.data for part in related])
    return message_id


def due(ctx: Context, limit: int = 50, after: int = 0) -> list[dict]:
    """Queued mail whose time has come, oldest first, from row ``after`` on."""
    return outbox_rows.due(ctx, utcnow_iso(ctx.now()), after=after, limit=limit)


#: on_failed(ctx, row, addresses, reason): told of every mail (or recipient) given up,
#: inside the transaction that gives it up (pbem.outbound.undelivered tells the GM)
OnFailed = Callable[[Context, dict, list, str], None]


async def deliver_due(ctx: Context, sender, *, max_attempts: int = 8, retry_base: float = 30.0,
                      on_failed: OnFailed | None = None, journal: SentJournal | None = None) -> int:
    """Send everything that is due, oldest first.  Returns how many were sent.

    With a ``journal``, each mail the server takes is marked sent there, not in the
    database, and mail marked there is not sent again: for sending while another process
    holds the database's write lock (:mod:`pbem.outbound.sent_journal`); the caller
    writes the marks with :func:`settle_journal` once it can.

    Nothing is given up unless it is this mail's (or recipient's) own fault:

    - ServerUnavailable (the server cannot be reached, or answers 4xx before any
      recipient) and SessionRefused (it refuses the login, the sender, a quota)
      go up at once: the rest of the queue would fail the same way, so it waits
      for the caller's next try, and no mail is charged an attempt;
    - a recipient refused as a bad address is given up for that recipient;
    - a mail refused in a way that may concern the session (MessageRefused) is
      given up only when the server takes a later mail in the same run; when it
      takes none, the session is at fault: SessionRefused goes up, and the mail
      is kept, uncharged;
    - a failure for now is tried again after a delay that doubles, and given up
      after ``max_attempts``."""
    sent, after = 0, 0
    suspects: list[tuple[dict, Exception]] = []
    while True:
        rows = due(ctx, after=after)
        for row in rows:
            after = row["id"]
            if journal is not None and row["id"] in journal:
                continue  # sent: its mark waits in the journal
            outcome = await _send_one(ctx, sender, row, max_attempts, retry_base, on_failed, journal)
            if isinstance(outcome, MessageRefused):
                suspects.append((row, outcome))
                continue
            sent += outcome
            if outcome and suspects:  # the server takes mail: those refused before were at fault
                _give_up_suspects(ctx, suspects, on_failed)
                suspects = []
        if len(rows) < 50:
            break
    if suspects:
        row, exc = suspects[-1]
        raise SessionRefused(f"{len(suspects)} mail(s) refused and none after them accepted, so the "
                             f"server may refuse every mail: {exc}")
    return sent


async def _send_one(ctx: Context, sender, row: dict, max_attempts: int, retry_base: float,
                    on_failed: OnFailed | None, journal: SentJournal | None = None):
    """Try one mail: 1 when it went out (to every recipient, or to some and the rest
    were dealt with), 0 when it did not, or the MessageRefused it met."""
    recipients = loads(row["recipients"], [])
    try:
        await sender.send(row["raw"], recipients)
    except (ServerUnavailable, SessionRefused) as exc:
        outbox_rows.update(ctx, row["id"], {"last_error": str(exc)[:500]})
        raise
    except (TemporaryFailure, PermanentFailure) as exc:
        if _partly_sent(ctx, row, recipients, exc, retry_base, on_failed):
            return 1
        if isinstance(exc, MessageRefused):
            outbox_rows.update(ctx, row["id"], {"last_error": str(exc)[:500]})
            return exc
        attempts = row["attempts"] + 1
        if isinstance(exc, PermanentFailure) or attempts >= max_attempts:
            why = str(exc) if isinstance(exc, PermanentFailure) else f"{attempts} tries failed; the last: {exc}"
            _give_up(ctx, row, recipients, why, on_failed)
            return 0
        delay = timedelta(seconds=retry_base * 2 ** (attempts - 1))
        outbox_rows.update(ctx, row["id"], {"attempts": attempts, "last_error": str(exc)[:500],
                                            "next_try": utcnow_iso(ctx.now() + delay)})
        log.warning("mail %s (%s) to %s deferred: %s", row["id"], row["kind"],
                    describe_recipients(ctx, row, recipients), without_addresses(str(exc)))
        return 0
    reached("outbox.after_send")
    if journal is not None:
        journal.add(row["id"], row["message_id"], utcnow_iso(ctx.now()))
    else:
        outbox_rows.mark_sent(ctx, row["id"], _sent_fields(row, utcnow_iso(ctx.now())))
    log.info("sent mail %s (%s%s) to %s", row["id"], row["kind"], f", {row['game']}" if row["game"] else "",
             describe_recipients(ctx, row, recipients))
    return 1


def _sent_fields(row: dict, when: str) -> dict:
    return {"status": "sent", "attempts": row["attempts"] + 1, "sent": when, **_masked(row)}


def settle_journal(ctx: Context, journal: SentJournal) -> int:
    """Write the journal's marks into the outbox rows, in one transaction, and empty it.
    A mark whose row is no longer queued (written before a kill that left the journal
    full), or is another mail, changes nothing.  Returns how many rows were marked."""
    if not len(journal):
        return 0
    marked = 0
    with atomic(ctx.db):
        for row_id, (message_id, when) in sorted(journal.marks.items()):
            row = outbox_rows.by_id(ctx, row_id)
            if row is not None and row["status"] == "queued" and row["message_id"] == message_id:
                outbox_rows.update(ctx, row_id, _sent_fields(row, when))
                marked += 1
    journal.clear()
    return marked


def _give_up(ctx: Context, row: dict, recipients: list[str], why: str, on_failed: OnFailed | None,
             attempts: int | None = None) -> None:
    with atomic(ctx.db):
        outbox_rows.update(ctx, row["id"], {"attempts": attempts or row["attempts"] + 1, "status": "failed",
                                            "last_error": why[:500], **_masked(row)})
        if on_failed is not None:
            on_failed(ctx, row, recipients, why)
    log.error("mail %s (%s) to %s given up: %s", row["id"], row["kind"],
              describe_recipients(ctx, row, recipients), without_addresses(why))


def _give_up_suspects(ctx: Context, suspects: list[tuple[dict, Exception]], on_failed) -> None:
    for row, exc in suspects:
        _give_up(ctx, row, loads(row["recipients"], []),
                 f"refused while the server took later mail, so the refusal concerns this mail: {exc}",
                 on_failed)


def _partly_sent(ctx: Context, row: dict, recipients: list[str], exc, retry_base: float,
                 on_failed: OnFailed | None) -> bool:
    """Some recipients have the mail, others were refused: those refused for now are
    tried again alone (the others must not get it twice), those refused for good are
    given up (the server took the mail for the others, so the refusal is theirs).
    False when nobody has the mail."""
    refused = getattr(exc, "refused", {}) or {}
    if not refused or all(r in refused for r in recipients):
        return False
    again = [r for r, (code, _) in refused.items() if not 500 <= code < 600 and r in recipients]
    lost = [r for r, (code, _) in refused.items() if 500 <= code < 600 and r in recipients]
    attempts = row["attempts"] + 1
    note = f"partly sent; refused: {refused}"[:500]
    with atomic(ctx.db):
        if again:
            delay = timedelta(seconds=retry_base * 2 ** (attempts - 1))
            outbox_rows.update(ctx, row["id"], {"recipients": dumps(again), "attempts": attempts,
                                                "last_error": note, "next_try": utcnow_iso(ctx.now() + delay)})
        else:
            outbox_rows.update(ctx, row["id"], {"status": "sent", "attempts": attempts, "last_error": note,
                                                "sent": utcnow_iso(ctx.now()), **_masked(row)})
        if lost and on_failed is not None:
            on_failed(ctx, row, lost, f"refused for good: {({r: refused[r] for r in lost})}")
    delivered = [r for r in recipients if r not in refused]
    log.info("sent mail %s (%s) to %s", row["id"], row["kind"], describe_recipients(ctx, row, delivered))
    if again:
        log.warning("mail %s: tried again later for %s alone", row["id"], describe_recipients(ctx, row, again))
    if lost:
        log.error("mail %s refused for good for %s", row["id"], describe_recipients(ctx, row, lost))
    return True


_ADDRESS = re.compile(r"[^\s<>'\"(),:;]+@[^\s<>'\"(),:;]+")


def without_addresses(text: str) -> str:
    """A server's answer for the log: the addresses it names (a recipient's, ours) left out.
    `pbem outbox show` gives the whole answer."""
    return _ADDRESS.sub("(address)", text)


def describe_recipients(ctx: Context, row: dict, addresses: list[str]) -> str:
    """Who the recipients are, by role (a power, the GM, the admin), never by address."""
    return ", ".join(recipient_roles(ctx, row, addresses)) or "nobody"


def recipient_roles(ctx: Context, row: dict, addresses: list[str]) -> list[str]:
    known: dict[str, str] = {}
    if ctx.admin_address:
        known[ctx.admin_address.lower()] = "the admin"
    game = row.get("game")
    if game:
        gm = store.gm_address_of(ctx, game)
        if gm:
            known[gm.lower()] = "the GM"
        for player in store.players(ctx, game):
            for address in store.addresses(player):
                known.setdefault(address.lower(), player["power"])
    other = "an address that has not signed on" if row.get("stranger") else "another address"
    return list(dict.fromkeys(known.get(a.lower(), other) for a in addresses))


def _masked(row: dict) -> dict:
    """The stored copy of a mail that handed out a secret, without it, once it is no
    longer needed for sending."""
    secrets = loads(row.get("mask"), [])
    if not secrets:
        return {}
    from pbem.outbound.secrets_at_rest import mask_raw

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
        forgotten = outbox_rows.forget_finished_before(ctx, before)
    if forgotten:
        log.info("outbox: forgot %d mail(s) sent more than %g days ago", forgotten, keep_days)
    return forgotten


def pending_count(ctx: Context) -> int:
    return outbox_rows.queued_count(ctx)

