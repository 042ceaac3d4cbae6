"""The handover dossier: what a new player of a power needs on day one.

``GM REPLACE`` hands a power to someone who has seen none of its mail.  The
dossier gives them everything that power may see, and nothing more: its
position (the game's own report for it, with what it may do now and the
deadline), every treaty it may see in full, its private press both ways
(grey press it received stays anonymous; press it sent grey says so), the
orders stored for it this phase, what it owes, and where its past reports
are.  It is built only from what the power was shown: the game's
``treaty_records`` and ``report`` for that power, and press it sent or
received.
"""
from __future__ import annotations

import textwrap

from pbem.base.context import Context
from pbem.base.deadlines import format_moment
from pbem.base.sitepaths import game_url
from pbem.kit import audience, treatybook
from pbem.kit.capabilities import supports
from pbem.outbound.outbox import queue
from pbem.reporting import reports
from pbem.reporting.render import status_words
from pbem.storage import phase_orders, press_rows, store
from pbem.storage.db import loads


def _wrap(text: str, indent: str = "  ") -> list[str]:
    out = []
    for para in str(text).splitlines() or [""]:
        out += textwrap.wrap(para, 76, initial_indent=indent, subsequent_indent=indent) or [indent.rstrip()]
    return out


def _treaties(rec: store.GameRecord, power: str) -> list[dict]:
    """The treaties ``power`` may see; none in a game without treaties."""
    return rec.rules.treaty_records(rec.state, power) if supports(rec.rules, "treaties") else []


def treaty_lines(rec: store.GameRecord, power: str) -> list[str]:
    zone = rec.policy.timezone
    lines: list[str] = []
    for t in _treaties(rec, power):
        status = status_words(t["status"])
        lines.append(f"{t['id']}: {status}; parties {', '.join(t['parties'])}"
                     + ("; secret (parties only)" if t.get("secret") else "; public"))
        if t.get("concluded"):
            lines.append(f"  concluded by the game: {t['concluded']}")
        for p in [] if t.get("concluded") else t["parties"]:
            signed = t.get("signatures", {}).get(p)
            lines.append(f"  {p}: " + (f"signed {format_moment(signed, zone)}" if signed else "not signed"))
        lines += _wrap(t.get("text", ""), "  | ")
        for b in t.get("breaches") or []:
            found = b.get("by") == "moderator"  # a clause the game saw broken
            lines.append((f"  breach found by the moderator against {b.get('against')}" if found else
                          f"  breach claimed: {b.get('by')} against {b.get('against')}")
                         + (f" ({b['text']})" if b.get("text") else "")
                         + (f"; ruled: {b['ruled']}" if b.get("ruled") else "; not yet ruled"))
        lines.append("")
    return lines or ["none"]


def press_lines(ctx: Context, rec: store.GameRecord, power: str) -> list[str]:
    """The power's press both ways, oldest first.  A grey sender stays hidden,
    except from itself; grey press shows no list of recipients but 'every power',
    and no time finer than its phase."""
    zone = rec.policy.timezone
    everyone = [p["power"] for p in store.players(ctx, rec.name)]
    labels = {r["phase_key"]: r["label"] for r in phase_orders.history(ctx, rec.name)}
    labels[rec.rules.phase(rec.state).key] = rec.rules.phase(rec.state).label
    lines: list[str] = []
    grey: list[tuple[str, list[str]]] = []  # grey press received: after the rest, in no order of time
    for row in press_rows.of_game(ctx, rec.name):
        to = loads(row["recipients"], [])
        mine, theirs = row["sender"] == power, power in to
        if not (mine or theirs) or not audience.admits(loads(row.get("audience")), power, {}):
            continue
        when = (f"in {labels.get(row['phase_key'], row['phase_key'])}" if row["grey"]
                else format_moment(row["sent"], zone))
        all_of_them = sorted(to) == sorted(p for p in everyone if p != row["sender"])
        if mine:
            head = f"{when}, you wrote to {', '.join(to)}" + (" (grey: your name was not shown)"
                                                            if row["grey"] else "")
        elif row["grey"]:
            head = f"{when}, an anonymous power wrote" + (" to every power" if all_of_them else "")
            grey.append((row["body"], [head + ":", *_wrap(row["body"], "  | "), ""]))
            continue
        else:
            head = f"{when}, {row['sender']} wrote to {', '.join(to)}"
        lines.append(head + ":")
        lines += _wrap(row["body"], "  | ")
        lines.append("")
    lines += [line for _, block in sorted(grey) for line in block]
    return lines or ["none"]


def orders_lines(ctx: Context, rec: store.GameRecord, power: str) -> list[str]:
    phase = rec.rules.phase(rec.state)
    if not phase.takes_orders_from(power):
        return [f"{phase.label} asks nothing of {power}."]
    mine = phase_orders.current_orders(ctx, rec.name, phase.key).get(power)
    done = power not in phase_orders.waiting_for(ctx, rec)
    if mine:
        return [f"Stored for {phase.label} (send ORDERS to replace them):"] + [
            f"  {line}" for line in rec.rules.as_written(mine, power)]
    if done and power in phase.owes:
        return [f"{power} has said DONE for {phase.label}, with no orders."]
    return [f"None yet for {phase.label}. If none are accepted by the deadline, the default applies: "
            f"{rec.rules.describe_defaults(rec.state, power)}."]


def owed_lines(rec: store.GameRecord, power: str) -> list[str]:
    """Treaty proposals waiting for the power's answer and claims against it."""
    out = []
    for t in _treaties(rec, power):
        mine = treatybook.acts_for(t, power)
        if t["status"] == "proposed" and [p for p in mine if p not in t.get("signatures", {})]:
            out.append(f"treaty {t['id']} waits for your answer: TREATY SIGN {t['id']} or TREATY REFUSE {t['id']}")
        for b in t.get("breaches") or []:
            if b.get("against") == power and not b.get("ruled"):
                out.append(f"treaty {t['id']}: {b.get('by')} claims you broke it; the GM rules on it")
    return out


def past_lines(ctx: Context, rec: store.GameRecord) -> list[str]:
    rows = phase_orders.history(ctx, rec.name)
    if not rows:
        return ["none yet"]
    lines = ["Any of them comes again with RESEND <phase>, e.g. RESEND " + rows[-1]["label"] + ":"]
    lines += _wrap(", ".join(r["label"] for r in rows))
    url = game_url(ctx.base_url, rec.name)
    if url:
        lines.append(f"Every turn of the game, with its maps, in the archive: {url}")
    return lines


def build(ctx: Context, rec: store.GameRecord, power: str, key: str) -> tuple[str, str, list]:
    """The dossier as a report of the position now (text, HTML, the map as an inline part)."""
    intro = (f"You now play {power} in game {rec.name} ({rec.rules.title}). This dossier holds everything "
             f"{power} may see: its position and what it may do now, its treaties, its press, the orders "
             "stored for it and where its past reports are. Your secret comes in a separate mail.")
    owed = owed_lines(rec, power)
    sections = [("Treaties " + power + " may see", treaty_lines(rec, power)),
                ("Press " + power + " sent and received", press_lines(ctx, rec, power)),
                ("Orders", orders_lines(ctx, rec, power) + ([""] + owed if owed else [])),
                ("Past reports", past_lines(ctx, rec))]
    return reports.position(ctx, rec, power, [intro], sections, key=key)


def queue_dossier(ctx: Context, rec: store.GameRecord, power: str, address: str, key: str) -> bool:
    """Mail the dossier to the power's new player; False before the game starts."""
    if rec.state is None:
        return False
    text, html, parts = build(ctx, rec, power, key)
    queue(ctx, key=key, to=[address], game=rec.name, kind="report",
          subject=f"[{rec.name}] {power}: handover dossier", text=text, html=html, related=parts)
    # The dossier tells the new player the position now: reports held for the seat before
    # it are of a board the dossier already shows.
    store.mark_told(ctx, rec.name, power, rec.row["seq"])
    return True
