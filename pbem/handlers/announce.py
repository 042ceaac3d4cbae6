"""What every player hears of a GM mail: one mail each, whatever it held.

GM handlers (and a player's treaty command, for what it did to other players'
positions) record what they did with :meth:`Session.announce`, each with its
audience; when the mail is done, :func:`flush` queues one notice per reader
(and, for a GM mail, one copy for the GM) that says all of it the gate lets that
reader see, with the deadline as it then stands in the reader's own zone; a
reader it lets see none of it gets nothing.  After a rollback the notice is
the whole report of the restored position, so every player sees where the
game stands again.
"""
from __future__ import annotations

from pbem.handlers import gm_common
from pbem.handlers.session import Session
from pbem.kit import audience
from pbem.outbound.outbox import queue
from pbem.reporting import reports
from pbem.base.deadlines import format_left
from pbem.storage import phase_orders, store

#: the longest subject line kept whole
SUBJECT = 72


def flush(session: Session) -> None:
    """Queue the announcements of this mail (none: nothing is sent)."""
    _hold_gm_texts(session)
    if not session.announcements or session.game is None:
        return
    session.reload()
    rec, ctx = session.game, session.ctx
    book = audience.game_book(rec.rules, rec.state) if rec.state is not None else {}
    readers = [(row["power"], store.addresses(row)[:1]) for row in store.players(ctx, rec.name)]
    # The GM has a copy of what a GM mail did; what a player's treaty command did to other
    # players' positions is theirs (the GM reads it in the next report and the treaty records).
    if rec.row["gm_address"] and session.is_gm:
        readers.append((None, [rec.row["gm_address"]]))
    seen: set[str] = set()
    for power, to in readers:
        if not to or to[0] in seen:
            continue
        seen.add(to[0])
        reader = audience.reader_for(power, gm=True)
        heard = [(what, text) for what, text, seen_by in session.announcements
                 if audience.admits(seen_by, reader, book)]
        if not heard:
            continue
        key = f"announce:{session.msg_id}:{to[0]}"
        reminder = "deadline changed" in [what for what, _ in heard]
        text, html, parts = _body(session, power, [text for _, text in heard], key, reminder)
        queue(ctx, key=key, to=to, game=rec.name, kind="notice",
              subject=_subject(rec.name, [what for what, _ in heard]), text=text, html=html,
              source=session.msg_id, related=parts)
    session.announcements.clear()


def _hold_gm_texts(session: Session) -> None:
    """A GM ANNOUNCE is not sent when a command of its mail was refused: its text may tell of
    what that command was to do.  What the other commands did is still told."""
    failed = [p for p in session.problems if p.kind != "warning"]
    if not failed:
        for index, _ in session.gm_texts:
            gm_common.log(session, "announce", session.announcements[index][1][:200])
    if not failed or not session.gm_texts:
        session.gm_texts.clear()
        return
    lines = ", ".join(str(p.line) for p in failed if p.line) or "?"
    for index, section in session.gm_texts:
        session.sections[section] = (
            "Announcement NOT sent: a command of this mail was refused (line " + lines + "); "
            "send the announcement again once it is right.", [])
    held = {index for index, _ in session.gm_texts}
    session.announcements[:] = [a for i, a in enumerate(session.announcements) if i not in held]
    session.gm_texts.clear()


def _subject(game: str, whats: list[str]) -> str:
    whats = list(dict.fromkeys(whats))
    subject = f"[{game}] " + "; ".join(whats)
    if len(subject) > SUBJECT and len(whats) > 1:  # a long subject is folded, and some readers show it badly
        subject = f"[{game}] {whats[0]}, and {len(whats) - 1} more from the GM"
    return subject


def _body(session: Session, power: str | None, texts: list[str], key: str,
          reminder: bool = False) -> tuple[str, str | None, list]:
    rec, ctx = session.game, session.ctx
    said = "\n\n".join(texts)
    if session.announce_position and rec.state is not None:
        return reports.position(ctx, rec, power, [said], key=key, gm=power is None)
    lines = [said]
    if rec.status in ("active", "paused") and rec.state is not None and rec.deadline is not None:
        from pbem.reporting.render import deadline_text
        lines.append(f"Deadline: {deadline_text(rec, rec.deadline, reports.reader_zone(ctx, rec, power))}")
        if reminder and power and power in phase_orders.waiting_for(ctx, rec):
            # A deadline moved sooner counts the reminders it skipped as sent (this notice is
            # the one mail the GM's mail causes): it reminds a power still awaited itself.
            lines.append(f"Your orders for {rec.rules.phase(rec.state).label} are still awaited: "
                         f"{format_left(rec.deadline - ctx.now())} left. Without them: "
                         f"{rec.rules.describe_defaults(rec.state, power)}")
    return "\n\n".join(lines) + f"\n\n-- \n{ctx.site_name} moderator\n", None, []
