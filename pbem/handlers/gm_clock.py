"""The GM's commands on the game's clock: pause, resume, extend, set the
deadline, process, preview and roll back.  Every one is written to the GM log;
every deadline change is announced to all players."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from pbem.base import deadlines, phaselabels
from pbem.base.deadlines import DeadlineError
from pbem.commands import model as m
from pbem.commands import values as v
from pbem.handlers.declare import command
from pbem.handlers.gm_common import announce as _announce, log as _log, need_game as _need_game
from pbem.handlers.session import Session
from pbem.play import turns
from pbem.reporting import render
from pbem.storage import phase_orders, store
from pbem.storage.db import parse_iso, utcnow_iso


@command(m.GmPause, "GM PAUSE", "gm_pause", "GM PAUSE",
         "Stop the clock.",
         "gm")
def pause(session: Session, cmd: m.GmPause) -> None:
    if not _need_game(session, cmd, "active"):
        return
    rec = session.game
    if not deadlines.pause_allowed(rec.policy, rec.row["pauses"]):
        session.problem("pause-cap", f"this game allows {rec.policy.max_pauses} pauses; all are used", cmd.line)
        return
    store.update_game(session.ctx, rec.name, status="paused", paused_at=utcnow_iso(session.ctx.now()),
                      pauses=rec.row["pauses"] + 1)
    _log(session, "pause")
    _announce(session, "the game is paused", "The GM has paused the game. No phase runs until it "
              "resumes; the time left before the deadline is kept for you.")
    session.section("Game paused.", [])


@command(m.GmResume, "GM RESUME", "gm_resume", "GM RESUME [NOW]",
         "Restart the clock with the time that was left; NOW also resolves the phase at once "
         "(without it, a phase whose orders are all in waits for its deadline).",
         "gm", build=lambda c: m.GmResume(c[0] is not None))
def resume(session: Session, cmd: m.GmResume) -> None:
    """The clock restarts with the time that was left when the game paused.
    A phase whose every owing power is already done then waits for its
    deadline rather than running at once, unless the GM says RESUME NOW."""
    if not _need_game(session, cmd, "paused"):
        return
    rec, now = session.game, session.ctx.now()
    deadline = rec.deadline
    if deadline is not None:
        # The time the game stood still is given back to the players.
        deadline = max(deadline + (now - parse_iso(rec.row["paused_at"])), now)
    store.update_game(session.ctx, rec.name, status="active", paused_at=None,
                      deadline=utcnow_iso(deadline) if deadline else None,
                      warnings_sent=_passed_warnings(rec, deadline, now))
    session.reload()
    _log(session, "resume now" if cmd.now else "resume", f"deadline {utcnow_iso(deadline) if deadline else '-'}")
    if cmd.now:
        steps = turns.run_phase(session.ctx, rec.name, reason="GM RESUME NOW")
        session.reload()
        _announce(session, "the game resumes", "The GM has resumed the game and resolved "
                  + ", ".join(s.phase.label for s in steps) + " at once; your reports follow.")
        session.section("Game resumed and processed:", [s.phase.label for s in steps])
        return
    rec = session.game
    phase = rec.rules.phase(rec.state)
    lines = []
    if phase.owes and not phase_orders.waiting_for(session.ctx, rec):
        store.update_game(session.ctx, rec.name, hold_early=1)
        session.reload()
        lines = [f"Every power that owes orders for {phase.label} is done: the phase runs at the deadline "
                 f"({render.deadline_text(rec, deadline)}), not at once, so orders may still change. "
                 "GM PROCESS NOW (or GM RESUME NOW) runs it at once."]
    _announce(session, "the game resumes", "The GM has resumed the game, with the time that was left "
              "when it paused.")
    session.section("Game resumed.", lines)


def _passed_warnings(rec, deadline: datetime | None, now: datetime) -> list[str]:
    """Reminders whose moment lies before ``now`` for this deadline: a deadline
    the GM just set or moved is announced to everyone, so those are not sent
    on top of the announcement (the later ones still are)."""
    if deadline is None:
        return []
    policy = rec.policy_for(rec.rules.phase(rec.state)) if rec.state else rec.policy
    return sorted(deadlines.format_duration(w) for w in policy.warnings if now >= deadline - w)


def _set_deadline(session: Session, cmd, new: datetime, what: str, **extra) -> None:
    rec = session.game
    store.update_game(session.ctx, rec.name, deadline=utcnow_iso(new),
                      warnings_sent=_passed_warnings(rec, new, session.ctx.now()), **extra)
    session.reload()
    _log(session, what, utcnow_iso(new))
    _announce(session, "deadline changed", f"The GM {what}.")
    session.section("Deadline changed:", [render.deadline_text(session.game, new)])


@command(m.GmExtend, "GM EXTEND", "gm_extend", "GM EXTEND <duration>",
         "Move the deadline later (durations as 48h, 2d, 1d12h, 90m, 1w).",
         "gm", build=lambda c: m.GmExtend(v.parse_duration(str(c[0]))))
def extend(session: Session, cmd: m.GmExtend) -> None:
    if not _need_game(session, cmd, "active", "paused"):
        return
    rec = session.game
    if rec.deadline is None:
        session.problem("no-deadline", "the game is not waiting for orders", cmd.line)
        return
    done = [timedelta(seconds=s) for s in rec.extensions]
    try:
        new = deadlines.extend(rec.deadline, cmd.duration, rec.policy, done)
    except DeadlineError as exc:
        session.problem("extension-cap", str(exc), cmd.line)
        return
    _set_deadline(session, cmd, new, f"extended the deadline by {deadlines.format_duration(cmd.duration)}",
                  extensions=[*rec.extensions, cmd.duration.total_seconds()])


@command(m.GmSetDeadline, "GM SET DEADLINE", "gm_set_deadline", "GM SET DEADLINE <date> <time> [<zone>]",
         "Set the deadline, e.g. 2026-01-05 18:00 Europe/London (default: the game's zone).",
         "gm", build=lambda c: m.GmSetDeadline(*v.parse_time([str(t) for t in c])))
def set_deadline(session: Session, cmd: m.GmSetDeadline) -> None:
    if not _need_game(session, cmd, "active", "paused"):
        return
    zone = ZoneInfo(cmd.zone or session.game.policy.timezone)
    when = deadlines.to_instant(cmd.when, zone).astimezone(timezone.utc)
    if when <= session.ctx.now():
        session.problem("deadline-past", "the new deadline is in the past", cmd.line)
        return
    _set_deadline(session, cmd, when, "set a new deadline")


@command(m.GmProcess, "GM PROCESS", "gm_process", "GM PROCESS [NOW]",
         "Resolve the phase on the next pass, or with NOW within this mail; missing orders get"
         " the defaults.",
         "gm", build=lambda c: m.GmProcess(c[0] is not None))
def process(session: Session, cmd: m.GmProcess) -> None:
    if not _need_game(session, cmd, "active"):
        return
    if not cmd.now:
        # Runs on the daemon's next pass, after this mail (and any orders
        # arriving with it) is committed; the deadline itself is not moved.
        store.update_game(session.ctx, session.game.name, process_requested=1)
        _log(session, "process requested")
        session.section("Processing requested:", ["the phase runs on the moderator's next pass, "
                                                  "with the defaults for missing orders"])
        return
    steps = turns.run_phase(session.ctx, session.game.name, reason="GM PROCESS NOW")
    _log(session, "process now", ", ".join(s.phase.label for s in steps))
    session.section("Processed:", [s.phase.label for s in steps])


@command(m.GmPreview, "GM PREVIEW", "gm_preview", "GM PREVIEW",
         "Show what resolving now would give, changing nothing.",
         "gm")
def preview(session: Session, cmd: m.GmPreview) -> None:
    if not _need_game(session, cmd, "active", "paused"):
        return
    rec = session.game
    steps = turns.preview(session.ctx, rec.name)
    events = [e for s in steps for e in s.events]
    after = steps[-1].after
    lines = [f"Would resolve: {', '.join(s.phase.label for s in steps)}", ""]
    lines += rec.rules.report(after, events, None).text.splitlines()
    _log(session, "preview")
    session.section("Preview (nothing was stored):", lines)


@command(m.GmRollback, "GM ROLLBACK", "gm_rollback", "GM ROLLBACK <phase>",
         "Go back to the start of a resolved phase, named by its label or its id as HISTORY "
         "prints them (1884 Movement/Status Change or 1884/movement); every player is mailed the "
         "restored position.",
         "gm", build=lambda c: m.GmRollback(v.phrase(c[0])))
def rollback(session: Session, cmd: m.GmRollback) -> None:
    """Back to the start of a resolved phase, named as HISTORY prints it; every
    player is mailed the restored position with what is due."""
    if not _need_game(session, cmd, "active", "paused", "over"):
        return
    rows = phase_orders.history(session.ctx, session.game.name)
    found = phaselabels.find(cmd.phase, rows)
    keys = list(dict.fromkeys(r["phase_key"] for r in found))
    if len(keys) != 1:
        what = (f"{cmd.phase!r} names {len(keys)} phases: name one by its label or its id" if keys else
                f"no resolved phase {cmd.phase!r} in {session.game.name}")
        session.problem("bad-rollback", what + ("; the reply lists the resolved phases" if rows else ""), cmd.line,
                        None if keys else phaselabels.nearest(cmd.phase, rows))
        if rows:
            session.section(f"Resolved phases{' it names' if keys else ''} (label [id], the latest last):",
                            phaselabels.listing(found or rows))
        return
    rec = turns.rollback(session.ctx, session.game.name, keys[0])
    session.game = rec
    label = rec.rules.phase(rec.state).label
    session.announce_position = True
    _announce(session, f"the GM rolled the game back to {label}",
              f"The GM has rolled the game back to the start of {label}. Orders sent for it and for the "
              "phases after it were withdrawn: send your orders again. The position below is the one "
              "restored.")
    session.section("Rolled back:", [label, "every player is mailed the restored position"])
