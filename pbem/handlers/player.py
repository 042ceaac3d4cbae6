"""Player commands: orders, press, status, help, history and resending a report
(a player's account settings are in :mod:`.account`)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from pbem.base import phaselabels
from pbem.base.deadlines import format_moment
from pbem.commands import model as m
from pbem.commands import values as v
from pbem.commands.grammar import top_keywords as help_keywords
from pbem.handlers import guide, late_orders, order_verdicts, treaty
from pbem.handlers.order_verdicts import MAX_ORDER_CHARS, MAX_ORDER_LINES, readable_lines
from pbem.handlers.declare import command
from pbem.handlers.session import Session
from pbem.kit import audience, names
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import DONE_ON_ORDERS, NOT_AN_ORDER, Problem
from pbem.reporting import render, reports
from pbem.storage import phase_orders, press_rows, store
from pbem.storage.db import dumps, parse_iso, utcnow_iso



def _running(session: Session, cmd) -> bool:
    rec = session.game
    if rec is None or rec.status not in ("active", "paused") or rec.state is None:
        state = rec.status if rec else "not known"
        session.problem("game-not-running", f"the game is {state}: no orders are taken now", cmd.line)
        return False
    return True


@command(m.Orders, "ORDERS", "orders", "ORDERS [<phase>] ... ENDORDERS",
         "Orders for this phase, one a line; the block ends at ENDORDERS, END, END ORDERS, the"
         " next command or the end of the mail. Replaces orders sent earlier.",
         "player", build=lambda c: m.Orders((), v.phrase(c[0])), for_power=True)
def orders(session: Session, cmd: m.Orders) -> None:
    if not _running(session, cmd):
        return
    rec, power = session.game, session.power
    game, state = rec.rules, rec.state
    phase = game.phase(state)
    lines = list(cmd.lines)
    if len(lines) > MAX_ORDER_LINES:
        # Said at the ORDERS line, so it leads the reply's problems (a long list is cut short).
        session.problem("too-many-orders", f"only the first {MAX_ORDER_LINES} lines of orders are read "
                        f"(to line {lines[MAX_ORDER_LINES - 1][0]}); the {len(lines) - MAX_ORDER_LINES} below "
                        "them were not", cmd.line, kind="invalid")
        lines = lines[:MAX_ORDER_LINES]
    long = [(n, t) for n, t in lines if len(t) > MAX_ORDER_CHARS]
    for n, _ in long:
        session.problem("line-too-long", f"this line has more than {MAX_ORDER_CHARS} characters: no order "
                        "is that long, and it was not read", n, kind="invalid")
    lines = readable_lines(cmd)
    parsed = order_verdicts.parse_orders(rec, power, lines)
    parsed.problems = _hints(game, phase, cmd, parsed.problems) + _unread(parsed, lines)
    if cmd.implicit and parsed.orders:
        parsed.problems = _sign_off(session, parsed)
    if cmd.implicit and not parsed.orders:  # a greeting or a signature, not orders: hints only
        session.problems.extend(parsed.problems)
        return
    if not phase.takes_orders_from(power):
        _late(session, lines)
        session.problem("no-orders-due", _nothing_due(game, state, power, f"no orders are due from {power} in "
                                                      f"{phase.label}"), cmd.line)
        return
    if cmd.phase and not phaselabels.names_phase(cmd.phase, phase):
        session.problem("orders-for-other-phase", f"these orders are written for {cmd.phase}, but the game is at "
                        f"{phase.label}; nothing was stored. For {phase.label}, send them again under "
                        "a plain ORDERS line", cmd.line, f"ORDERS {phase.label}")
        return
    problems = list(parsed.problems) + order_verdicts.validate(rec, power, parsed.orders)
    _obligations(session)
    refused = {p.line for p in problems if p.kind != "warning"}
    accepted = [o for o in parsed.orders if o.line not in refused]
    session.problems.extend(problems)
    before = phase_orders.current_orders(session.ctx, rec.name, phase.key).get(power)
    if not accepted:
        # Nothing is stored: orders sent earlier stand, and the power is not
        # counted as having ordered (the phase does not run early on this mail).
        if refused:
            _late(session, lines)
        if before:
            session.section(f"No order of this mail was accepted; your earlier orders for {phase.label} "
                            "stand:", [o.canonical for o in before])
        elif power in phase.owes:
            session.section(f"No orders stored for {phase.label}.", [
                f"Until you send orders that are accepted, the default applies at the deadline: "
                f"{game.describe_defaults(state, power)}"])
        else:
            session.section(f"No orders stored for {phase.label}.", [])
        return
    text = "\n".join(t for _, t in lines)
    phase_orders.store_orders(session.ctx, rec.name, phase.key, power, accepted, text, session.msg_id,
                       refused=len(refused))
    summary = order_verdicts.order_summary(rec, power, accepted)
    held = ([f"Some lines were refused, so {phase.label} does not run early on these orders: send "
             "them again corrected, or DONE (in a mail of its own) to let them stand. At the deadline "
             "they stand as they are."]
            if refused and phase.done == DONE_ON_ORDERS and power in phase.owes else [])
    session.section(f"Orders stored for {phase.label} (they replace any you sent before):",
                    game.as_written(accepted, power), footer=summary + held)


def _unread(parsed, lines: list) -> list[Problem]:
    """A line the game gave neither an order nor a problem is named, never lost in silence
    (the contract asks a game to account for every line: ``ParseResult``)."""
    return [Problem("unread-line", "this line was read as no order and nothing of it was stored; "
                    "write it again as HELP ORDERS shows, or ask the GM", n, kind="invalid")
            for n in parsed.unaccounted(lines)]


def _late(session: Session, lines: list) -> None:
    """Says once that the mail came after the last phase's deadline, when it did."""
    note = late_orders.too_late(session, lines)
    if note:
        session.note(note)


def _nothing_due(game, state, power: str, refusal: str) -> str:
    """The refusal of orders (or DONE) from a power the phase asks nothing of, with the game's
    reason when it gives one (``Game.nothing_due``): the game knows why, the moderator only that."""
    reason = game.nothing_due(state, power)
    return f"{refusal}: {reason}" if reason else refusal


def _obligations(session: Session) -> None:
    """What the rules oblige the power to do this phase (the game's ``obligations``), once in a
    reply, above what became of its orders, so a refusal that enforces one is read beside it."""
    for title, lines in reports.obligation_sections(session.game.rules, session.game.state, session.power):
        if all(t != title for t, _ in session.sections):
            session.section(title, lines)


def _hints(game, phase, cmd: m.Orders, problems: list) -> list:
    """Lines that are no order at all get one short hint (``not-understood``)
    with the nearest command or order form, never a grammar lecture: those the
    game marks ``not-an-order``, and, written without ORDERS, any line it could not read
    that does not start like one of its orders (a line that does is an order
    with a mistake, and keeps the game's own problem)."""
    forms = game.order_forms() if supports(game, "guide") else []
    verbs: dict[str, list[str]] = {}
    for form in forms:
        verbs.setdefault(form.split()[0].upper(), []).append(form)
    texts = dict(cmd.lines)
    out = []
    for problem in problems:
        line = texts.get(problem.line, "")
        first = (line.split() or [""])[0].upper()
        loose = cmd.implicit and problem.kind == "invalid" and first not in verbs
        if problem.code != NOT_AN_ORDER and not loose:
            out.append(problem)
            continue
        shown = line if len(line) <= 60 else line[:57] + "..."
        if first in verbs and problem.code == NOT_AN_ORDER:
            # One of the game's forms, written in the wrong phase: suggesting that same
            # form back ("did you mean DECLARE WAR ON <power>?") would not help.
            out.append(Problem("not-understood", f"{shown!r} is not an order of {phase.label}: "
                               f"{first} is written in another phase (HELP {first} says when)",
                               problem.line, None, "invalid"))
            continue
        out.append(Problem("not-understood", f"{shown!r} is neither a command nor an order of "
                           f"{phase.label}", problem.line, _nearest_form(line, verbs), "invalid"))
    return out


def _sign_off(session: Session, parsed) -> list:
    """Orders written without ORDERS end where the player's sign-off begins
    ("Thanks,", a name, a list's footer): the lines below the last order that
    are no order at all are left out with a note, not refused one by one (a
    refusal would also keep the phase from running early)."""
    last = max(o.line for o in parsed.orders)
    # A line that looks like a mistyped order or command (it has a suggestion) is refused as before.
    tail = [p for p in parsed.problems
            if p.code == "not-understood" and (p.line or 0) > last and not p.suggestion]
    if not tail:
        return parsed.problems
    session.note(f"The {len(tail)} line(s) below your last order (from line {tail[0].line}) are no "
                 "orders and were left out, as a sign-off; write ORDERS ... ENDORDERS to be sure.")
    return [p for p in parsed.problems if p not in tail]


def _nearest_form(line: str, verbs: dict[str, list[str]]) -> str | None:
    """The command or order form ``line`` most likely meant: its first word's nearest verb,
    and among that verb's forms the one whose next word is the line's ("BIULD ARMY 1": BUILD
    ARMY ..., not BUILD CANAL ...)."""
    words = line.upper().split() or [""]
    choices = {**{k: [k] for k in help_keywords()}, **verbs}
    near = names.nearest(words[0], list(choices), normalise=str.upper)
    if not near:
        return None
    forms = choices[near]
    second = words[1] if len(words) > 1 else ""

    def next_words(form: str) -> list[str]:  # "BUILD ARMY <1|3|10>": ARMY; "BUY <INTEREST|...> <area>": INTEREST, ...
        parts = form.upper().split()
        return parts[1].strip("<>[]").split("|") if len(parts) > 1 else []
    return next((f for f in forms if second in next_words(f)), forms[0])


@command(m.Done, "DONE", "done", "DONE",
         "Nothing more from you this phase: your orders (if any) stand, and the phase may end "
         "early once every power it waits for is done.",
         "player", for_power=True)
def done(session: Session, cmd: m.Done) -> None:
    if not _running(session, cmd):
        return
    rec, power = session.game, session.power
    phase = rec.rules.phase(rec.state)
    if not phase.takes_orders_from(power):
        session.problem("no-orders-due", _nothing_due(rec.rules, rec.state, power, f"nothing is asked of {power} "
                                                      f"in {phase.label}"), cmd.line)
        return
    # A line the moderator failed on (internal-error) was no mistake of the player's.
    refused = sorted({p.line for p in session.problems if p.kind != "warning" and p.code != "internal-error"
                      and p.line is not None and p.line < cmd.line})
    if refused:
        # The player meant more than what stands: DONE would close the window on it.
        session.problem("done-after-refusal", f"DONE not taken: line {', '.join(map(str, refused))} of this "
                        "mail was refused; send the line corrected, or DONE alone to let what was "
                        "accepted stand", cmd.line)
        return
    phase_orders.mark_done(session.ctx, rec.name, phase.key, power, session.msg_id)
    mine = phase_orders.current_orders(session.ctx, rec.name, phase.key).get(power)
    session.section(f"Done for {phase.label}:", [
        "your orders stand: " + "; ".join(o.canonical for o in mine) if mine else "you send no orders this phase"])


@command(m.Clear, "CLEAR", "clear", "CLEAR",
         "Withdraw the orders you sent for this phase.",
         "player", for_power=True)
def clear(session: Session, cmd: m.Clear) -> None:
    if not _running(session, cmd):
        return
    rec = session.game
    phase = rec.rules.phase(rec.state)
    phase_orders.clear_orders(session.ctx, rec.name, phase.key, session.power)
    lines = ([f"Default at the deadline: {rec.rules.describe_defaults(rec.state, session.power)}"]
             if session.power in phase.owes else [])
    session.section(f"Orders for {phase.label} withdrawn.", lines)


@command(m.Press, "PRESS", "press", "PRESS TO <power>[,<power>...] [GREY] ... ENDPRESS",
         "Send a message to some powers (or TO ALL); GREY hides who sent it. The text is kept "
         "exactly as written; it ends at ENDPRESS or END PRESS.",
         "player",
         build=lambda c: m.Press(v.recipients(c[0]), c[1] is not None, ""),
         limit="PRESS",
         text="body",
         block="PRESS")
def press(session: Session, cmd: m.Press) -> None:
    rec = session.game
    if rec is None or rec.state is None:
        session.problem("game-not-running", "press goes to a running game", cmd.line)
        return
    everyone = [p["power"] for p in store.players(session.ctx, rec.name)]
    if cmd.to == "ALL":
        to = [p for p in everyone if p != session.power]
    else:
        to = []
        for name in names.join_words(cmd.to, rec.resolve_power, everyone):
            power = rec.resolve_power(name)
            if power not in everyone:
                session.problem("unknown-power", f"press to {name!r}: no such power in this game", cmd.line,
                                rec.roster.nearest(name))
                return
            to.append(power)
    if len(set(to)) < len(to):
        session.note(f"Press on line {cmd.line} named a power more than once: each gets it once.")
        to = list(dict.fromkeys(to))
    sender = "an anonymous power" if cmd.grey else (session.power or "the GM")
    # Grey press names no sender anywhere: a list of recipients without one
    # power would name it, so the list shown is every power or none.
    shown = (everyone if cmd.to == "ALL" else []) if cmd.grey else to
    phase_key = rec.rules.phase(rec.state).key
    ctx = session.ctx
    # Choice: press to every other power of a game of three or more is public (the archive
    # shows it); press to fewer is its sender's and recipients' alone.
    public = len(everyone) >= 3 and set(everyone) - {session.power} <= set(to)
    seen_by = audience.public() if public else audience.powers([session.power] if session.power else [], to)
    press_rows.add(ctx, {"game": rec.name, "phase_key": phase_key, "sender": session.power or "GM",
                         "recipients": dumps(to), "grey": int(cmd.grey), "body": cmd.body,
                         "sent": utcnow_iso(ctx.now()), "message": session.msg_id,
                         "audience": dumps(seen_by.to_json())})
    # Grey press shows no time finer than its phase (its Date is the moment the phase opened)
    # and goes out apart from the sender's other mail (with the next batch of grey press).
    dated = {"date": parse_iso(rec.row.get("phase_opened")) or parse_iso(rec.row["created"]),
             "not_before": grey_delivery(ctx.now())} if cmd.grey else {}
    for power in to:
        row = store.player(ctx, rec.name, power)
        session.notify(key=f"press:{session.msg_id}:{cmd.line}:{power}", to=store.addresses(row)[:1],
                       kind="press", subject=f"[{rec.name}] press from {sender}",
                       text=render.render("press.txt.j2", game=rec.name, sender=sender, to=shown,
                                          everyone=cmd.grey and cmd.to == "ALL", body=cmd.body, site=ctx.site_name),
                       **dated)
    session.section("Press sent" + (" (grey: your name was not shown)" if cmd.grey else "") + ":",
                    [f"to {', '.join(to) or 'nobody'}"])


#: grey press goes out in batches, at the quarter hours
GREY_BATCH = timedelta(minutes=15)
#: and never sooner than this after it was sent
GREY_WAIT = timedelta(minutes=10)


def grey_delivery(now: datetime) -> datetime:
    """When grey press sent ``now`` goes out: at the first quarter hour (UTC) at least
    ``GREY_WAIT`` away, with every other grey press sent before then, never with the
    sender's reply or its other press (Choice: see README, Grey press)."""
    earliest = now + GREY_WAIT
    epoch = datetime(2000, 1, 1, tzinfo=timezone.utc)
    batch = epoch + ((earliest - epoch) // GREY_BATCH) * GREY_BATCH
    return batch if batch >= earliest else batch + GREY_BATCH


@command(m.Status, "STATUS", "status", "STATUS",
         "Show the game's state, the deadline and who has ordered.",
         "any", limit="STATUS")
def status(session: Session, cmd: m.Status) -> None:
    rec = session.game
    if rec is None:
        session.problem("no-signon", "sign on to a game for its status", cmd.line)
        return
    lines = [f"Game {rec.name} ({rec.rules.title}) is {rec.status}."]
    if rec.status == "paused":
        lines.append("The GM has paused it: no phase runs until the GM resumes it.")
    for row in store.players(session.ctx, rec.name):
        lines.append(f"{row['power']}: {'absent' if row['absent_from'] else row['status']}"
                     + (f", missed {row['missed']}" if row["missed"] else ""))
    if rec.state and session.power:
        phase = rec.rules.phase(rec.state)
        mine = phase_orders.current_orders(session.ctx, rec.name, phase.key).get(session.power)
        lines.append("Your orders this phase: " + ("; ".join(o.canonical for o in mine) if mine else "none yet"))
        # The game's own account of where the power stands (its report with nothing new in it).
        for title, must in reports.obligation_sections(rec.rules, rec.state, session.power):
            lines += ["", title, *must]
        lines += ["", *rec.rules.report(rec.state, [], session.power).text.rstrip().splitlines()]
        if rec.status == "active" and phase.takes_orders_from(session.power):
            may = reports.guide_lines(rec.rules, rec.state, session.power)
            lines += ["", "What you may do now", *may] if may else []
    elif rec.state and session.is_gm:
        lines += ["", *rec.rules.gm_status(rec.state)]
    if rec.state is not None and session.is_gm and not session.power and supports(rec.rules, "treaties"):
        claims = treaty.open_claims(rec.rules.treaty_records(rec.state, None, gm=True))
        lines += ["", "Open breach claims:", *claims] if claims else []
    session.section("Status:", lines)


@command(m.Help, "HELP", "help", "HELP [<topic>]",
         "This help, or help on one command or topic.",
         "any", build=lambda c: m.Help(v.phrase(c[0])), signon=False)
def help_(session: Session, cmd: m.Help) -> None:
    session.section("Help:", guide.help_answer(session, cmd.topic).splitlines())


@command(m.History, "HISTORY", "history", "HISTORY",
         "List the phases played so far, each by its label and its id in brackets.",
         "any", limit="HISTORY")
def history(session: Session, cmd: m.History) -> None:
    rec = session.game
    rows = phase_orders.history(session.ctx, rec.name) if rec else []
    zone = session.reader_zone() or (rec.policy.timezone if rec else "UTC")
    session.section("Resolved phases (name one in RESEND or GM ROLLBACK as written here):",
                    [f"{phaselabels.history_line(r)} (resolved {format_moment(r['created'], zone)})"
                     for r in rows]
                    or ["none yet"])


@command(m.Resend, "RESEND", "resend", "RESEND [<phase>]",
         "Send the whole turn report again (default: the latest; name a phase by its label or "
         "its id, as HISTORY prints them).",
         "any", build=lambda c: m.Resend(v.phrase(c[0])), limit="RESEND")
def resend(session: Session, cmd: m.Resend) -> None:
    rec, ctx = session.game, session.ctx
    rows = phase_orders.history(ctx, rec.name) if rec else []
    if cmd.phase:
        rows = phaselabels.find(cmd.phase, rows)
    if not rows or not session.power:
        every = phase_orders.history(ctx, rec.name) if rec else []
        known = phaselabels.listing(every)
        session.problem("nothing-to-resend", "no resolved phase matches"
                        + ("; the reply lists the resolved phases" if known else ""), cmd.line,
                        phaselabels.nearest(cmd.phase, every) if cmd.phase else None)
        if known:
            session.section("Resolved phases (label [id], the latest last):", known)
        return
    snap = rows[-1]
    reports.queue_again(ctx, rec, snap, session.power, key=f"resend:{session.msg_id}:{snap['seq']}")
    session.section("Report sent again:", [phaselabels.history_line(snap)])
