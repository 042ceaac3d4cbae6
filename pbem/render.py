"""Rendering mail text from templates/ (jinja2, StrictUndefined) and queueing
the turn reports.  Templates only render what they are given: each power's
report comes from the game's view of that power alone."""
from __future__ import annotations

from datetime import datetime

import jinja2

from . import store
from .context import Context
from .deadlines import format_deadline
from .engine import Step
from .identity import reply_token
from .outbox import queue
from .resources import resource

TEMPLATES = resource("templates")

_env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                          undefined=jinja2.StrictUndefined, autoescape=jinja2.select_autoescape(["html", "html.j2"]),
                          keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)


def render(name: str, **values) -> str:
    return _env.get_template(f"mail/{name}").render(**values)


def deadline_text(rec: store.GameRecord, deadline: datetime | None) -> str:
    if deadline is None:
        return "none (the game is not waiting for orders)"
    return format_deadline(deadline, rec.policy.timezone)


def subject(rec: store.GameRecord, power: str | None, what: str) -> str:
    label = rec.rules.phase(rec.state).label if rec.state else rec.status
    who = f" {power}" if power else ""
    return f"[{rec.name}]{who} {what}: {label}"


def token_for(rec: store.GameRecord, power: str) -> str | None:
    if not rec.row.get("token_key") or not rec.state:
        return None
    return reply_token(rec.row["token_key"], rec.name, rec.rules.phase(rec.state).key, power)


def queue_reports(ctx: Context, rec: store.GameRecord, steps: list[Step], events: list[dict],
                  deadline: datetime | None) -> None:
    game, state = rec.rules, rec.state
    over = game.is_over(state)
    labels = [s.phase.label for s in steps]
    seq = rec.row["seq"]
    results = game.results(state) if over else []
    def report(power: str | None) -> tuple[str, str]:
        values = dict(game=rec.name, title=game.title, power=power, phases=labels,
                      body=game.report_text(state, events, power), over=over, results=results,
                      next_phase=game.phase(state).label, deadline=deadline_text(rec, deadline),
                      site=ctx.site_name, seed=rec.row["seed"] if over else None,
                      seed_hash=rec.row["seed_hash"])
        text = render("report.txt.j2", owes=power in game.phase(state).owes,
                      token=token_for(rec, power) if power and ctx.reply_token else None, **values)
        return text, render("report.html.j2", **values)

    for row in store.players(ctx, rec.name):
        power = row["power"]
        text, html = report(power)
        queue(ctx, key=f"report:{rec.name}:{seq}:{power}", to=store.addresses(row), game=rec.name,
              kind="report", subject=subject(rec, power, "turn report"), text=text, html=html)
    text, html = report(None)
    queue(ctx, key=f"report:{rec.name}:{seq}:public", to=[rec.row["gm_address"]], game=rec.name,
          kind="report", subject=subject(rec, None, "public report"), text=text, html=html)


def broadcast(ctx: Context, rec: store.GameRecord, key: str, subject_text: str, text: str,
              include_gm: bool = True) -> None:
    """The same mail to every player (and the GM), e.g. a deadline change:
    one mail each, so no reader sees another player's address."""
    to = [a for row in store.players(ctx, rec.name) for a in store.addresses(row)[:1]]
    if include_gm and rec.row["gm_address"]:
        to.append(rec.row["gm_address"])
    for address in dict.fromkeys(to):
        queue(ctx, key=f"{key}:{address}", to=[address], game=rec.name, kind="notice",
              subject=subject_text, text=text)
