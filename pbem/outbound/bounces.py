"""Mail that bounced: noticed, scored and told, never answered.

A player whose address has died would otherwise go unnoticed until they
miss their deadlines.  Like a mailing-list server, pbem keeps a bounce
score per address: a hard (permanent) failure counts 1, a soft (temporary)
one 0.5, and an address counts at most once a day (one dead mailbox bounces
every mail of the day).  An address of record that starts bouncing is
reported to the GM of each of its games and to the power's other
addresses; once its score reaches ``limits.bounce_score`` it counts as dead,
they are told again, and a power whose only address it is is flagged for
replacement (its status reads ``unreachable``).  A bounce is never
answered (:mod:`pbem.mail.classify` files it as automatic mail).

Which addresses failed is read by flufl.bounce, the bounce detectors of
the GNU Mailman project, which knows the shapes of many mail servers; a
standard delivery report (RFC 3464) is read here too (``Final-Recipient``
with ``Action: failed`` or ``delayed``); and when neither names an address,
the bounced mail's own Message-ID, if pbem sent it, names its recipients.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from email import message_from_bytes
from email.message import Message
from email.policy import compat32

from pbem.base.context import Context
from pbem.kit import audience
from pbem.outbound.outbox import queue
from pbem.storage import guard_counts, outbox_rows, store
from pbem.storage.db import loads, utcnow_iso

log = logging.getLogger(__name__)

HARD, SOFT = 1.0, 0.5
#: an address's state: ok, bouncing (told), dead (score reached: told, power flagged)
OK, BOUNCING, DEAD = "ok", "bouncing", "dead"

_MSGID = re.compile(r"<[^<>\s]{1,250}@[^<>\s]{1,250}>")
_ADDRESS = re.compile(r"[\w.+'-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")


@dataclass(frozen=True)
class Failure:
    address: str
    hard: bool


def failures(raw: bytes, ctx: Context | None = None) -> list[Failure]:
    """The addresses a bounce says failed, hard or soft (each once, hard first)."""
    msg = message_from_bytes(raw, policy=compat32)
    hard: set[str] = set()
    soft: set[str] = set()
    try:
        from flufl.bounce import all_failures

        temporary, permanent = all_failures(msg)
        hard |= {_text(a) for a in permanent}
        soft |= {_text(a) for a in temporary}
    except Exception:  # a detector that trips on an odd mail must not lose the rest
        log.debug("bounce detectors failed", exc_info=True)
    dsn_hard, dsn_soft = _delivery_status(msg)
    hard |= dsn_hard
    soft |= dsn_soft
    if not hard and not soft and ctx is not None:
        hard |= _our_recipients(ctx, raw)
    found = [Failure(a, True) for a in sorted(hard) if a]
    found += [Failure(a, False) for a in sorted(soft - hard) if a]
    own = ctx.address.lower() if ctx else ""
    return [f for f in found if _ADDRESS.fullmatch(f.address) and f.address != own]


def _text(value) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return str(value).strip().strip("<>").lower()


def _delivery_status(msg: Message) -> tuple[set[str], set[str]]:
    """RFC 3464: each recipient block of a message/delivery-status part."""
    hard: set[str] = set()
    soft: set[str] = set()
    for part in msg.walk():
        if part.get_content_type() != "message/delivery-status":
            continue
        blocks = part.get_payload()
        if isinstance(blocks, str):
            blocks = [message_from_bytes(b.encode("utf-8", "replace"), policy=compat32)
                      for b in re.split(r"\r?\n\r?\n", blocks) if b.strip()]
        for block in blocks if isinstance(blocks, list) else []:
            recipient = block.get("Final-Recipient") or block.get("Original-Recipient") or ""
            address = _text(recipient.split(";", 1)[-1])
            action = (block.get("Action") or "").strip().lower()
            if not address:
                continue
            if action == "failed":
                hard.add(address)
            elif action == "delayed":
                soft.add(address)
    return hard, soft


def _our_recipients(ctx: Context, raw: bytes) -> set[str]:
    """The recipients of the mail of ours that bounced, found by its
    Message-ID quoted in the bounce."""
    found: set[str] = set()
    for message_id in dict.fromkeys(_MSGID.findall(raw[:200_000].decode("latin-1"))):
        row = outbox_rows.by_message_id(ctx, message_id)
        if row:
            found |= {a.lower() for a in loads(row["recipients"], [])}
    return found


def record(ctx: Context, raw: bytes, msg_id: int) -> list[str]:
    """Count the bounce against each failed address (once a day), and tell
    whoever must know.  Returns the addresses it named."""
    named = failures(raw, ctx)
    day = ctx.now().date().isoformat()
    for failure in named:
        row = guard_counts.bounce_row(ctx, failure.address)
        if row and row["last_day"] == day:
            continue  # a dead mailbox bounces all the day's mail: it counts once
        score = (row["score"] if row else 0.0) + (HARD if failure.hard else SOFT)
        before = row["state"] if row else OK
        state = DEAD if score >= ctx.limits.bounce_score else BOUNCING
        now = utcnow_iso(ctx.now())
        guard_counts.save_bounce(ctx, {
            "address": failure.address, "score": score, "hard": (row["hard"] if row else 0) + failure.hard,
            "soft": (row["soft"] if row else 0) + (not failure.hard), "first": row["first"] if row else now,
            "last": now, "last_day": day, "state": state,
            "detail": f"{'hard' if failure.hard else 'soft'} bounce, mail {msg_id}"})
        if state != before:
            _tell(ctx, failure.address, state, score, msg_id)
    return [f.address for f in named]


def _tell(ctx: Context, address: str, state: str, score: float, msg_id: int) -> None:
    for row in store.players_at(ctx, address):
        rec = store.find_game(ctx, row["game"])
        if rec is None:
            continue
        others = [a for a in store.addresses(row) if a.lower() != address]
        power = row["power"]
        if state == DEAD and not others:
            store.update_player(ctx, row["id"], status="unreachable")
            # The log names no address (pbem status lists the bouncing ones).
            store.gm_log(ctx, rec.name, "moderator", "unreachable", f"{power}: their mail keeps bouncing",
                         seen_by=audience.gm())
        what = ("keeps bouncing (score {:g}): it counts as dead".format(score) if state == DEAD
                else "has started to bounce")
        flagged = ("\n\n" + power + " has no other address: it is flagged for replacement "
                   "(GM REPLACE <power> <email>).") if state == DEAD and not others else ""
        text = (f"Mail from the moderator to {address}, the address of {power} in game {rec.name}, "
                f"{what}.{flagged}\n\nA new address is set with SET ADDRESS (by the player) or GM "
                f"REPLACE (by the GM).\n\n-- \n{ctx.site_name} moderator\n")
        subject = f"[{rec.name}] mail to {power} bounces"
        gm = rec.row.get("gm_address")
        queue(ctx, key=f"bounce:{msg_id}:{rec.name}:{power}:{state}", game=rec.name, kind="notice",
              to=[a for a in [gm, *others] if a and a.lower() != address], subject=subject, text=text,
              source=msg_id)


def bouncing_addresses(ctx: Context) -> list[dict]:
    """Every address mail to it has bounced from, worst first: address,
    score, hard and soft bounces, state (ok, bouncing, dead), first and last
    bounce.  For a status listing."""
    return guard_counts.bouncing(ctx)
