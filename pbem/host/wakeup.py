"""When the daemon wakes next, if no mail wakes it first."""
from __future__ import annotations

from collections.abc import Iterable

from pbem.base.context import Context
from pbem.host.backoff import Backoff
from pbem.outbound import sendhold
from pbem.play import scheduler
from pbem.storage import outbox_rows
from pbem.storage.db import parse_iso, utcnow_iso


def next_timeout(ctx: Context, poll_interval: float, backoffs: Iterable[Backoff]) -> float:
    """Seconds to wait for mail: the poll interval, cut short by the next deadline or
    warning, by the next queued mail falling due (grey press goes out at its quarter hour,
    not with whatever mail wakes the daemon next: that could be its sender's), by the end
    of a held sending's pause, or by the end of a failed step's pause."""
    timeout = poll_interval
    try:
        wake = scheduler.next_wakeup(ctx)
    except Exception:  # the deadlines step reports what is wrong; wait the poll interval
        wake = None
    if wake is not None:
        timeout = min(timeout, wake.total_seconds())
    for backoff in backoffs:
        remaining = backoff.remaining()
        if remaining is not None:
            timeout = min(timeout, remaining)
    try:
        hold = sendhold.current(ctx)
    except Exception:  # the outbox step reports what is wrong
        hold = None
    if hold is not None:
        timeout = min(timeout, (parse_iso(hold.next_try) - ctx.now()).total_seconds())
    try:
        due = outbox_rows.next_due(ctx, utcnow_iso(ctx.now()))
    except Exception:  # the outbox step reports what is wrong
        due = None
    if due is not None:
        timeout = min(timeout, (parse_iso(due) - ctx.now()).total_seconds())
    return max(0.05, timeout)
