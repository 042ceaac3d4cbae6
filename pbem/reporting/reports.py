"""A reader's report mail, composed one way wherever it is sent: after a
phase resolves, again on RESEND, after a GM rollback, in a new player's
handover dossier.  Each carries the game's map as an inline image of the
HTML part (``map_svg``; none for a game without a map) and, when the site
has a ``server.base_url``, the link to the game's archive page.

Besides the game's own report (what the reader may see of the board and
what happened) a power's report carries what the moderator knows for it:
the treaties in force it may see, whether it missed the phase just played,
what it may order now with real names and prices (the game's
``options_now``), and the deadline in the game's zone, in UTC and in its own
zone (SET ZONE).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Sequence

from pbem.base import phaselabels
from pbem.base.context import Context
from pbem.base.sitepaths import game_url
from pbem.kit import audience
from pbem.kit.capabilities import supports
from pbem.kit.engine import Step
from pbem.kit.gameapi import EFFECT, Event, Game, OrderOption
from pbem.mail.compose import Inline
from pbem.outbound.outbox import queue
from pbem.reporting import render
from pbem.storage import phase_orders, store
from pbem.storage.db import loads


@dataclass
class Told:
    """What a report covers: the phases resolved, their events, and notes
    for this reader put first ("You sent no orders for ...")."""

    phases: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: further sections after the game's report: (title, lines), e.g. a dossier's press
    sections: list[tuple[str, list[str]]] = field(default_factory=list)


def reader_zone(ctx: Context, rec: store.GameRecord, power: str | None) -> str | None:
    row = store.player(ctx, rec.name, power) if power else None
    return row.get("zone") if row else None


def map_view(ctx: Context, rec: store.GameRecord, power: str | None) -> str:
    """How ``power``'s reports show the map (SET MAP); the GM's and the public's: a PNG."""
    row = store.player(ctx, rec.name, power) if power else None
    return (row or {}).get("map_view") or "png"


def treaties_in_force(game: Game, state: dict, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
    """The treaties in force ``power`` may see (None: the public ones; ``gm``: the GM's, every
    one), briefly; none when the game's own report lists them."""
    if not supports(game, "treaties") or game.report_lists_treaties:
        return []
    out = []
    book = audience.game_book(game, state)
    reader = audience.reader_for(power, gm)
    for t in game.treaty_records(state, power, gm=gm and power is None):
        if not audience.admits(audience.treaty_of(t), reader, book):
            continue
        if t.get("status") != "in_force":
            continue
        first = next((line.strip() for line in str(t.get("text", "")).splitlines() if line.strip()), "")
        out.append({"id": t["id"], "parties": list(t["parties"]), "secret": bool(t.get("secret")),
                    "text": first if len(first) <= 70 else first[:67] + "...",
                    "clauses": list(t.get("clauses") or [])})
    return out


def obligations(game: Game, state: dict, power: str | None, gm: bool = False,
                seated: Sequence[str] = ()) -> list[dict[str, Any]]:
    """What the rules oblige ``power`` to do this phase (the game's ``obligations``), those its
    reader may see, as JSON (each with its ``line`` in words); for the GM (no power, ``gm``)
    every seated power's, each line led by its power; for the public, none."""
    if state is None or game.is_over(state):
        return []
    powers = [power] if power else (list(seated) if gm else [])
    reader = audience.reader_for(power, gm)
    book = audience.game_book(game, state) if powers else {}
    out = []
    for p in powers:
        for o in game.obligations(state, p):
            if audience.admits(o.audience, reader, book):
                item = o.to_json()
                if not power:  # the GM's list: led by the power asked (the player who owes it)
                    item["line"] = f"{p}: {item['line']}"
                out.append(item)
    return out


def obligation_blocks(items: Sequence[dict[str, Any]], power: str | None, label: str) -> list[dict[str, Any]]:
    """The obligations as a report shows them: what is owed or capped first, under "What you must
    do this phase", then what else is in force (an event's effect, a die's income), each block
    ``{"title", "items"}``; none when there is nothing."""
    who = "you" if power else "each power"
    owed = [o for o in items if o["kind"] != EFFECT]
    rest = [o for o in items if o["kind"] == EFFECT]
    return ([{"title": f"What {who} must do this phase ({label})", "items": owed, "owed": True}] if owed else []) \
        + ([{"title": f"Also in force for {who} this phase" + ("" if owed else f" ({label})"), "items": rest,
             "owed": False}] if rest else [])


def obligation_sections(game: Game, state: dict, power: str) -> list[tuple[str, list[str]]]:
    """The power's obligations as (title, plain lines), as STATUS and the reply to orders show them."""
    blocks = obligation_blocks(obligations(game, state, power), power, game.phase(state).label)
    return [(b["title"] + ":", [line for o in b["items"]
                                for line in render.wrap_text(o["line"], "* ", "  ").splitlines()])
            for b in blocks]


def guide(game: Game, state: dict, power: str) -> list[OrderOption]:
    """What the power may order now, as the game says (nothing when it cannot)."""
    return list(game.options_now(state, power)) if supports(game, "guide") else []


def guide_lines(game: Game, state: dict, power: str) -> list[str]:
    """The guide as plain lines, as the text report shows it (for STATUS)."""
    out = []
    for o in guide(game, state, power):
        out.append(render.wrap_text(o.form + (f" -- {o.note}" if o.note else "")))
        if o.choices:
            out.append(render.wrap_list(list(o.choices)))
    return [line for block in out for line in block.splitlines()]


def compose(ctx: Context, rec: store.GameRecord, state: dict, power: str | None, told: Told,
            deadline: datetime | None, *, key: str, current: bool = True,
            gm: bool = False, public: dict | None = None) -> tuple[str, str, list[Inline]]:
    """The report mail for one reader -- ``power``, else the GM (``gm``) or the public: plain
    text, HTML, and the parts the HTML shows inline (the map, whose Content-ID derives from
    ``key``, the mail's outbox key).  The game renders only the events the gate lets this
    reader see (:func:`pbem.kit.audience.admits`), against the game's treaties as they stand now.
    ``current``: the report is of the game as it stands now, so it says what is due; a
    report of an earlier position (RESEND of an old phase) does not.  ``public``: what every
    reader of ``state`` shares once drawn (the public map), kept for the next reader."""
    game = rec.rules
    over = game.is_over(state)
    phase = game.phase(state)
    events = audience.shown(told.events, audience.reader_for(power, gm), audience.game_book(game, rec.state))
    rep = game.report(state, events, power)
    live = current and not over and power is not None
    owes, may = live and power in phase.owes, live and power in phase.may
    # A phase that takes orders, but none from this reader: the game's reason, when it gives one.
    idle = game.nothing_due(state, power) if live and phase.open and not (owes or may) else None
    seated = [r["power"] for r in store.players(ctx, rec.name)] if gm and not power else []
    # What the reader must do this phase opens the report; an earlier position's owes nothing now.
    owed = obligation_blocks(obligations(game, state, power, gm, seated), power, phase.label) if current else []
    values = dict(
        game=rec.name, title=game.title, power=power, phases=told.phases, body=rep.text, over=over,
        results=game.results(state) if over else [], next_phase=phase.label, current=current,
        deadline=render.deadline_text(rec, deadline, reader_zone(ctx, rec, power)),
        site=ctx.site_name, seed=rec.row["seed"] if over else None, seed_hash=rec.row["seed_hash"],
        notes=told.notes, sections=told.sections, obligations=owed, gm=gm,
        treaties=treaties_in_force(game, state, power, gm),
        guide=guide(game, state, power) if owes or may else [],
        mail_power=game.mail_name(power) if power else None, archive_url=game_url(ctx.base_url, rec.name))
    # The token is printed whether the site or the game asks for it (both are checked at sign-on).
    token = render.token_for(rec, power) if owes and (ctx.reply_token or store.option_on(rec, "reply_token")) \
        else None
    text = render.render("report.txt.j2", owes=owes, may=may, idle=idle, token=token, **values)
    board, parts = render.report_map(ctx, game, state, power, key, map_view(ctx, rec, power), public)
    html = render.render("report.html.j2", body_html=render.report_html(game, rep), owes=owes, may=may,
                         idle=idle, map=board, **values)
    return text, html, parts


# -- a report sent again ------------------------------------------------------------

def _run_of(game: Game, rows: list[dict], seq: int) -> list[dict]:
    """The phases resolved together with the one at ``seq``: from the last phase
    that took orders up to the next one (a report covers them all)."""
    at = next(i for i, r in enumerate(rows) if r["seq"] == seq)
    start = at
    while start > 0 and not game.phase(loads(rows[start]["before"])).open:
        start -= 1
    end = at + 1
    while end < len(rows) and not game.phase(loads(rows[end]["before"])).open:
        end += 1
    return rows[start:end]


def again(ctx: Context, rec: store.GameRecord, snap: dict, power: str,
          key: str) -> tuple[str, str, str, list[Inline]]:
    """The whole report that told ``power`` of the phase in ``snap``: (label, text, HTML,
    inline parts)."""
    game = rec.rules
    rows = phase_orders.history(ctx, rec.name)
    run = _run_of(game, rows, snap["seq"])
    shown = [r for r in run if game.phase(loads(r["before"])).told(power)] or run
    after = loads(run[-1]["after"])
    latest = run[-1]["seq"] == rows[-1]["seq"] and game.phase(after).key == game.phase(rec.state).key
    notes = [] if latest else [f"Sent again on request: this report is of an earlier position; the game is "
                               f"now at {game.phase(rec.state).label}."]
    told = Told([r["label"] for r in shown], [e for r in shown for e in loads(r["events"], [])], notes)
    text, html, parts = compose(ctx, rec, after, power, told, rec.deadline if latest else None, key=key,
                                current=latest)
    return run[-1]["label"], text, html, parts


def queue_again(ctx: Context, rec: store.GameRecord, snap: dict, power: str, key: str) -> str:
    """RESEND: the whole report, as mailed (text and HTML), to the power's addresses."""
    from pbem.outbound.outbox import queue

    label, text, html, parts = again(ctx, rec, snap, power, key)
    row = store.player(ctx, rec.name, power)
    queue(ctx, key=key, to=store.addresses(row)[:1], game=rec.name, kind="report",
          subject=f"[{rec.name}] {power} report again: {phaselabels.short_label(snap['label'])}", text=text, html=html, related=parts)
    return label


def position(ctx: Context, rec: store.GameRecord, power: str | None, notes: Sequence[str],
             sections: Sequence[tuple[str, list[str]]] = (), *,
             key: str, gm: bool = False) -> tuple[str, str, list[Inline]]:
    """The report of the position the game stands at now, with no events (after a
    rollback, in a dossier): text, HTML and inline parts."""
    return compose(ctx, rec, rec.state, power, Told([], [], list(notes), list(sections)), rec.deadline,
                   key=key, gm=gm)


# -- queueing the reports of resolved phases ---------------------------------

def queue_reports(ctx: Context, rec: store.GameRecord, steps: list[Step], deadline: datetime | None,
                  missed: dict[str, str] | None = None) -> None:
    """Each player's report of the phases just resolved — only of the phases whose audience
    includes the player — and the GM's report (everything the GM may see); then the record of
    every treaty those phases changed, to its readers.  ``missed``: the powers that sent
    nothing for the first phase, with the default that applied (each is told).

    A power is mailed when the new phase owes its orders, when the game is over, when
    it missed the phase, or when the game finds what it may see of the phases worth a mail
    (:meth:`Game.concerns`: an event about it, say);
    otherwise its report is held, and the phases it covers go into its next report (a
    digest), so a war's sub-phases do not each mail a power that has no part in them."""
    game, state = rec.rules, rec.state
    over = game.is_over(state)
    seq = rec.row["seq"]
    phase = game.phase(state)
    first = steps[0].phase.label
    first_seq = seq - len(steps) + 1
    book = audience.game_book(game, state)
    public: dict = {}  # the public map, drawn once for every reader of this position

    for row in store.players(ctx, rec.name):
        power = row["power"]
        chosen = [s for s in steps if s.phase.told(power)]
        if not chosen and not (phase.takes_orders_from(power) and not over):
            continue
        events = [e for s in chosen for e in s.events]
        seen = audience.shown(events, audience.reader_for(power, False), book)
        owes = power in phase.owes and not over
        if not (owes or over or power in (missed or {}) or game.concerns(state, seen, power)):
            continue  # held: these phases reach the power in its next report
        notes = [f"You sent no orders for {first}: the default applied ({missed[power]})."] \
            if power in (missed or {}) else []
        held = _held(ctx, rec, power, row.get("told_seq") or 0, first_seq)
        told = Told([r["label"] for r in held] + [s.phase.label for s in chosen],
                    [e for r in held for e in loads(r["events"], [])] + events, notes)
        key = f"report:{rec.name}:{seq}:{power}"
        text, html, parts = compose(ctx, rec, state, power, told, deadline, key=key, public=public)
        queue(ctx, key=key, to=store.addresses(row), game=rec.name, kind="report",
              subject=render.subject(rec, power, "turn report"), text=text, html=html, related=parts)
        store.mark_told(ctx, rec.name, power, seq)
    key = f"report:{rec.name}:{seq}:public"
    told = Told([s.phase.label for s in steps], [e for s in steps for e in s.events])
    text, html, parts = compose(ctx, rec, state, None, told, deadline, key=key, gm=True, public=public)
    queue(ctx, key=key, to=[rec.row["gm_address"]], game=rec.name, kind="report",
          subject=render.subject(rec, None, "GM report"), text=text, html=html, related=parts)
    queue_treaty_records(ctx, rec, render.treaty_keys([e for s in steps for e in s.events]), f"report:{seq}")


def _held(ctx: Context, rec: store.GameRecord, power: str, told_seq: int, before: int) -> list[dict]:
    """The resolved phases after the last one ``power`` was told of and before ``before``
    that it may be told of: the reports held for it (rolled-back phases are not history)."""
    if told_seq + 1 >= before:
        return []
    game = rec.rules
    return [r for r in phase_orders.history_between(ctx, rec.name, told_seq, before)
            if game.phase(loads(r["before"])).told(power)]


def queue_treaty_records(ctx: Context, rec: store.GameRecord, treaty_keys, key: str) -> None:
    """Mail the current record of each treaty (by key) to every player the gate lets see it
    (its parties while it is secret, else everyone)."""
    if not treaty_keys or not supports(rec.rules, "treaties"):
        return
    game, state = rec.rules, rec.state
    players = store.players(ctx, rec.name)
    book = audience.game_book(game, state)
    for treaty_key in treaty_keys:
        for row in players:
            record = next((t for t in game.treaty_records(state, row["power"])
                           if str(t.get("key") or t["id"]).lower() == str(treaty_key).lower()), None)
            if record is None or not audience.admits(audience.treaty_of(record), row["power"], book):
                continue
            queue(ctx, key=f"treaty:{rec.name}:{key}:{treaty_key}:{row['power']}",
                  to=store.addresses(row)[:1], game=rec.name, kind="treaty",
                  subject=f"[{rec.name}] treaty {record['id']}: "
                          f"{render.TREATY_STATUS.get(record['status'], record['status'])}",
                  text=render.render("treaty.txt.j2", t=record, game=rec.name, site=ctx.site_name,
                              reader=row["power"], zone=row.get("zone") or rec.policy.timezone))

