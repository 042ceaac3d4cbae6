"""The clock's side of the moderator: reminders before a deadline, and
running every phase that is due (all orders in, or deadline plus grace)."""
from __future__ import annotations

import logging
from datetime import timedelta

from pbem.base.context import Context
from pbem.base.deadlines import format_left, is_due, warnings_due
from pbem.outbound.outbox import queue
from pbem.play import turns
from pbem.reporting import render
from pbem.storage import phase_orders, store
from pbem.storage.db import atomic

log = logging.getLogger(__name__)


def reminders_due(ctx: Context, rec: store.GameRecord) -> list[str]:
    """The labels of the reminders due now and not yet sent (no state decoded)."""
    if rec.deadline is None:
        return []
    return warnings_due(rec.policy_for(rec.phase), rec.deadline, ctx.now(), set(rec.warnings_sent))


def send_reminders(ctx: Context, rec: store.GameRecord) -> int:
    labels = reminders_due(ctx, rec)
    if not labels:
        return 0
    phase = rec.phase
    sent = 0
    with atomic(ctx.db):
        waiting = phase_orders.waiting_for(ctx, rec)
        for row in store.players(ctx, rec.name):
            if row["power"] not in waiting:
                continue
            label = labels[-1]  # after a long outage only the nearest warning is worth sending
            # Say the time really left: a reminder due while the moderator was down, or
            # sent just after the deadline moved, is later than its nominal moment.
            left = format_left(rec.deadline - ctx.now())
            # The key names the deadline warned about: a moved deadline gets its reminders again.
            queue(ctx, key=f"reminder:{rec.name}:{rec.row['phase_key']}:{rec.row['deadline']}:{label}:{row['power']}",
                  to=store.addresses(row)[:1], game=rec.name, kind="reminder",
                  subject=render.subject(rec, row["power"], f"reminder, {left} left"),
                  text=render.render("reminder.txt.j2", game=rec.name, power=row["power"], left=left,
                                     phase=phase.label,
                                     deadline=render.deadline_text(rec, rec.deadline, row.get("zone")),
                                     defaults=rec.rules.describe_defaults(rec.state, row["power"]),
                                     site=ctx.site_name))
            sent += 1
        store.update_game(ctx, rec.name, warnings_sent=sorted(set(rec.warnings_sent) | set(labels)))
    return sent


def phase_due(ctx: Context, rec: store.GameRecord) -> bool:
    """Whether the current phase should run now: on the GM's request; at
    once when it takes no orders; else when its window closes (every owing
    power done, where the phase and the game allow ending early — a phase
    nobody owes ends only at its deadline) or at deadline plus grace."""
    if rec.status != "active" or rec.row["state"] is None or rec.over:
        return False
    if rec.row.get("process_requested"):
        return True
    phase = rec.phase
    if rec.deadline is None:
        return not phase.open
    policy = rec.policy_for(phase)
    now = ctx.now()
    early = policy.process_early and phase.early and not rec.row.get("hold_early")
    # Whether every order is in changes the answer only before the deadline of a
    # phase that may end early, or within the grace: elsewhere it is not asked (a
    # query per game and pass, with a thousand games in progress).
    asked = (now < rec.deadline and early) or rec.deadline <= now < rec.deadline + policy.grace
    return is_due(rec.deadline, now, grace=policy.grace,
                  all_orders_in=asked and bool(phase.owes) and not phase_orders.waiting_for(ctx, rec),
                  process_early=early, paused=False)


def tick(ctx: Context) -> list[str]:
    """One pass over every game.  Returns the labels of phases resolved."""
    resolved: list[str] = []
    for rec in store.list_games(ctx, "active"):
        try:
            if reminders_due(ctx, rec):
                send_reminders(ctx, rec)
                rec = store.get_game(ctx, rec.name)
            if phase_due(ctx, rec):
                reason = ("GM PROCESS" if rec.row.get("process_requested") else
                          "all orders in" if not phase_orders.waiting_for(ctx, rec) else "deadline")
                steps = turns.run_phase(ctx, rec.name, reason=reason)
                resolved.extend(f"{rec.name}: {s.phase.label}" for s in steps)
        except Exception:  # one broken game must not stop the others
            log.exception("game %s could not be advanced", rec.name)
    return resolved


def next_wakeup(ctx: Context) -> timedelta | None:
    """How long until something may be due (a deadline or a warning)."""
    soonest = None
    now = ctx.now()
    for rec in store.list_games(ctx, "active"):
        if rec.deadline is None:
            continue
        policy = rec.policy_for(rec.phase)
        moments = [rec.deadline + policy.grace] + [rec.deadline - w for w in policy.warnings]
        for moment in moments:
            if moment > now and (soonest is None or moment < soonest):
                soonest = moment
    return soonest - now if soonest else None
