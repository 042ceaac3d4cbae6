"""Wrong secrets are throttled, so a secret cannot be guessed by mail.

Two counters meet every sign-on: one per sender address, one per (game,
power) (or one for the whole site for the GM secret, which is the site's).  After ``limits.wrong_secrets_free``
wrong secrets on a counter, each further wrong secret makes sign-ons on it
wait: ``throttle_first`` seconds, doubling up to ``throttle_cap``.  While a
counter waits, a sign-on on it is refused at once, without the (slow) secret
check, so a flood of guesses costs almost nothing and holds up no other mail;
the sender is told when to send again.  A right secret clears the counters
it met.  A counter forgets its wrong secrets a day after the last one.

An address of record of the power meets no counter at all, and a GM's
address (of any game, or the site's admin address) none for the GM secret:
a guess in a mail that forges such an address would otherwise lock its
owner out, and its reply goes to that owner, who sees it.  (Such a guess
still pays the slow hash, one per mail, and the secrets are long.)  The address of record hears of wrong secrets at most
once per ``TELL_EVERY``, with how many there were.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from pbem.base.context import Context
from pbem.storage import guard_counts
from pbem.storage.db import parse_iso, utcnow_iso

FORGET_AFTER = timedelta(days=1)
TELL_EVERY = timedelta(hours=1)


def sender_key(address: str) -> str:
    return f"sender:{address.lower()}"


def power_key(game: str, power: str) -> str:
    return f"power:{game.lower()}:{power.lower()}"


def gm_key() -> str:
    """One counter for every guess at the site's GM secret, whatever game
    (existing or not) the guess names."""
    return "gm:site"


def _row(ctx: Context, key: str) -> dict | None:
    row = guard_counts.throttle_row(ctx, key)
    if row and row["last"] and ctx.now() - parse_iso(row["last"]) > FORGET_AFTER:
        return None
    return row


def waiting_until(ctx: Context, keys: list[str]) -> datetime | None:
    """The end of the longest wait on any of ``keys``, when one is on now."""
    ends = []
    for key in keys:
        row = _row(ctx, key)
        until = parse_iso(row["blocked_until"]) if row else None
        if until and until > ctx.now():
            ends.append(until)
    return max(ends) if ends else None


def wrong(ctx: Context, keys: list[str]) -> int:
    """Count a wrong secret on each counter; returns the most wrong secrets on one."""
    limits, now = ctx.limits, ctx.now()
    worst = 0
    for key in keys:
        row = _row(ctx, key)
        failures = (row["failures"] if row else 0) + 1
        over = failures - limits.wrong_secrets_free
        until = None
        if over > 0:
            pause = min(limits.throttle_cap, limits.throttle_first * 2 ** min(over - 1, 30))
            until = utcnow_iso(now + timedelta(seconds=pause))
        guard_counts.save_throttle(ctx, {"key": key, "failures": failures, "last": utcnow_iso(now),
                                         "first": row["first"] if row else utcnow_iso(now),
                                         "blocked_until": until, "told": row["told"] if row else None})
        worst = max(worst, failures)
    return worst


def right(ctx: Context, keys: list[str]) -> None:
    """A right secret: the counters it met start again."""
    for key in keys:
        guard_counts.clear_throttle(ctx, key)


def tell_now(ctx: Context, key: str) -> bool:
    """Whether the owner of ``key`` should hear of wrong secrets now (at most once
    per TELL_EVERY); marks it told."""
    row = _row(ctx, key)
    if row is None:
        return True
    told = parse_iso(row["told"])
    if told and ctx.now() - told < TELL_EVERY:
        return False
    guard_counts.mark_throttle_told(ctx, key, utcnow_iso(ctx.now()))
    return True


def failures(ctx: Context, key: str) -> int:
    row = _row(ctx, key)
    return row["failures"] if row else 0
