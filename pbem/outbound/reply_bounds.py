"""No mail to pbem can make it send much more than it received.

A mail gets one reply, of bounded size: past ``max_problems`` the problems
are summarised by code, a reply longer than its cap is cut at a line with a
note.  A *stranger* — a sender that has not signed on with a right secret —
is the one who may be forging someone else's address, so a reply to a
stranger is capped at a few times the size of the mail that caused it, and
replies to strangers are limited per address and for all of them together,
by count and by size, over the last hour.  A signed-on player's own replies
are never held back, and no limit ever holds back mail to anyone else.

Nobody's mail can silence a real player or a GM: the limits for all
strangers together never hold back a reply to an address of record (or a
GM's), and a sign-on from a power's own address is answered whether its
secret is right or wrong.  A player signed on from an address that is not
of record may be forging it, so that reply is bounded like a stranger's
(the address of record gets the copy).
"""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

from pbem.base.context import Context
from pbem.kit.gameapi import Problem
from pbem.storage import outbox_rows, store
from pbem.storage.db import utcnow_iso

TRUNCATED = "[... the rest of this reply was cut: a reply is at most {cap} bytes]"


def reply_cap(ctx: Context, *, stranger: bool, mail_size: int) -> int:
    """The most bytes the reply to this mail may have."""
    limits = ctx.limits
    if not stranger:
        return limits.max_reply_bytes
    return min(limits.max_reply_bytes,
               max(limits.stranger_reply_floor, limits.stranger_reply_factor * mail_size))


def fit(text: str, cap: int) -> str:
    """``text`` cut at a line so that, with the note saying so, it fits ``cap`` bytes."""
    if len(text.encode("utf-8")) <= cap:
        return text
    note = "\n" + TRUNCATED.format(cap=cap) + "\n"
    room = max(0, cap - len(note.encode("utf-8")))
    cut = text.encode("utf-8")[:room].decode("utf-8", "ignore")
    if "\n" in cut:
        cut = cut[:cut.rindex("\n")]
    return cut + note


def summarise(problems: list[Problem], limit: int) -> tuple[list[Problem], str | None]:
    """The first ``limit`` problems (by line) and one line counting the rest by code."""
    ordered = sorted(problems, key=lambda p: p.line or 0)
    if len(ordered) <= limit:
        return problems, None
    rest = Counter(p.code for p in ordered[limit:])
    counts = ", ".join(f"{code} x{n}" for code, n in rest.most_common())
    return ordered[:limit], (f"{len(ordered) - limit} more problems are not listed one by one "
                             f"({counts}); fix the ones above and send the mail again.")


def _since(ctx: Context) -> str:
    return utcnow_iso(ctx.now() - timedelta(hours=1))


def stranger_traffic(ctx: Context, address: str | None = None) -> tuple[int, int]:
    """(replies, bytes) sent to strangers in the last hour: to ``address``, or to all."""
    return outbox_rows.stranger_replies_since(ctx, _since(ctx), address)


def stranger_limit(ctx: Context, address: str, size: int) -> str | None:
    """Why a reply of ``size`` bytes to the stranger ``address`` must be held
    back now, or None when it may go."""
    limits = ctx.limits
    count, sent = stranger_traffic(ctx, address)
    if ctx.reply_rate_per_hour and count >= ctx.reply_rate_per_hour:
        return f"{count} replies to {address} this hour"
    if sent + size > limits.stranger_reply_bytes_per_hour:
        return f"{sent} bytes of replies to {address} this hour"
    if store.of_record(ctx, address):
        return None  # the limits for all strangers together never silence a player or a GM
    count_all, sent_all = stranger_traffic(ctx)
    if count_all >= limits.stranger_replies_per_hour_all:
        return f"{count_all} replies to addresses that have not signed on this hour"
    if sent_all + size > limits.stranger_reply_bytes_per_hour_all:
        return f"{sent_all} bytes of replies to addresses that have not signed on this hour"
    return None
