"""Sending held: the SMTP server refuses the session itself (a wrong or
changed password, a refused sender address, a sending quota), so every mail
would be refused alike.  No mail is given up for that: the whole queue waits,
is tried again after a pause that doubles (``outbound.retry_base_seconds`` up
to ``outbound.held_retry_max_seconds``), every try that fails is logged at
ERROR, and `pbem status` reports it.  Once mail goes out again, the log says
so and the site's admin (``server.admin_address``) gets one mail saying what
happened and that the waiting mail has gone.

The hold is kept in the database (``site_state``), so a restart neither
forgets it nor tells it twice, and `pbem outbox retry` can cut its pause short.
"""
from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from datetime import timedelta

from pbem.base.context import Context
from pbem.outbound.outbox import pending_count, queue, without_addresses
from pbem.storage import site_state
from pbem.storage.db import atomic, dumps, loads, parse_iso, utcnow_iso

log = logging.getLogger(__name__)

KEY = "sending_hold"


class Held(Exception):
    """The outbox step did not send: sending is held (its log lines are written)."""


@dataclass
class Hold:
    since: str
    cause: str
    tries: int
    next_try: str
    last_try: str

    def summary(self) -> str:
        return f"since {self.since}: {self.cause} ({self.tries} tries; next try {self.next_try})"


def current(ctx: Context) -> Hold | None:
    text = site_state.value(ctx, KEY)
    return Hold(**loads(text)) if text is not None else None


def ready(ctx: Context) -> bool:
    """Whether sending may be tried now (no hold, or its pause is over)."""
    hold = current(ctx)
    return hold is None or parse_iso(hold.next_try) <= ctx.now()


def refused(ctx: Context, exc: Exception, *, first: float, cap: float) -> Hold:
    """Record one more refused try and when to try again; log it at ERROR."""
    now = ctx.now()
    with atomic(ctx.db):
        hold = current(ctx)
        tries = (hold.tries if hold else 0) + 1
        delay = min(cap, max(first, 1.0) * 2 ** (tries - 1))
        new = Hold(since=hold.since if hold else utcnow_iso(now), cause=str(exc)[:500], tries=tries,
                   next_try=utcnow_iso(now + timedelta(seconds=delay)), last_try=utcnow_iso(now))
        _store(ctx, new)
    waiting = pending_count(ctx)
    log.error("sending held: the SMTP server refuses the session (%s); %d mail(s) wait, none is "
              "given up; next try in %.0fs (`pbem outbox retry` tries at once). Fix the cause, "
              "e.g. smtp.password or the provider's sending limit", without_addresses(new.cause), waiting,
              delay)
    return new


def release(ctx: Context, sent: int) -> Hold | None:
    """Mail goes out again: end the hold (if any), say so, tell the admin once."""
    hold = current(ctx)
    if hold is None:
        return None
    if not sent and pending_count(ctx):
        return hold  # nothing was due yet: no proof that the server takes mail again
    now = utcnow_iso(ctx.now())
    with atomic(ctx.db):
        site_state.drop(ctx, KEY)
        if ctx.admin_address:
            queue(ctx, key=f"sending-restored:{hold.since}", to=[ctx.admin_address], kind="notice",
                  subject=f"[{ctx.site_name}] sending works again",
                  text=(f"From {hold.since} to {now} the SMTP server refused to take mail from "
                        f"{ctx.site_name}; {hold.tries} tries failed. The last answer was:\n\n  "
                        f"{hold.cause}\n\nNo mail was given up: what waited has been sent since "
                        "(`pbem outbox list` shows the queue).\n\n-- \n"
                        f"{ctx.site_name} moderator\n"))
    log.warning("sending works again after being held since %s (%d tries failed); the waiting mail "
                "goes out", hold.since, hold.tries)
    return hold


def wake(ctx: Context) -> bool:
    """Cut the pause of a hold short (`pbem outbox retry`); False when there is none."""
    with atomic(ctx.db):
        hold = current(ctx)
        if hold is None:
            return False
        hold.next_try = utcnow_iso(ctx.now())
        _store(ctx, hold)
    return True


def _store(ctx: Context, hold: Hold) -> None:
    site_state.put(ctx, KEY, dumps(asdict(hold)), utcnow_iso(ctx.now()))
