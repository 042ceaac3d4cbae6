"""Rendering mail text from templates/ (jinja2, StrictUndefined).  Templates
only render what they are given: each power's report comes from the game's
view of that power alone (:mod:`pbem.reporting.reports` composes and queues it)."""
from __future__ import annotations

import sys
import textwrap
from datetime import datetime
from pathlib import Path

from markupsafe import Markup

from pbem.base.context import Context
from pbem.base.deadlines import format_deadline, format_moment
from pbem.base import phaselabels
from pbem.base.identity import reply_token
from pbem.base.resources import resource
from pbem.kit import templating, treatybook
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import Game, Report
from pbem.mail.compose import Inline, content_id
from pbem.reporting import raster
from pbem.storage import store

TEMPLATES = resource("templates")

templating.add_folder("mail", TEMPLATES / "mail")


#: treaty statuses in words (the records keep the life cycle's codes)
TREATY_STATUS = {"proposed": "proposed, waiting for signatures", "in_force": "in force",
                 "refused": "refused", "withdrawn": "withdrawn", "lapsed": "lapsed", "broken": "broken"}
templating.filter("when", lambda at, zone="UTC": format_moment(at, zone) if at else "")


def wrap_list(items, indent: str = "      ") -> str:
    """Values joined by commas, wrapped at 76 columns without breaking a value."""
    return "\n".join(textwrap.wrap(", ".join(i.replace(" ", "\0") for i in items), 76, initial_indent=indent,
                                   subsequent_indent=indent, break_on_hyphens=False)).replace("\0", " ")


def wrap_text(text: str, first: str = "  ", rest: str = "      ") -> str:
    return "\n".join(textwrap.wrap(text, 76, initial_indent=first, subsequent_indent=rest,
                                   break_on_hyphens=False))


templating.filter("wrap_list", wrap_list)
templating.filter("wrap_text", wrap_text)


def status_words(status) -> str:
    """A treaty's status in words (an unknown code with its underscores as spaces)."""
    return TREATY_STATUS.get(status, str(status).replace("_", " "))


templating.filter("status_words", status_words)
# The parties of a treaty record the reader answers for: itself, and those it writes for.
templating.filter("acts_for", treatybook.acts_for)


def nobreak(text) -> Markup:
    """``text`` escaped for HTML, its spaces non-breaking: a choice such as "Kaiser Wilhelm's
    Land £40" stays on one line in a table cell."""
    return Markup("&nbsp;").join(Markup.escape(part) for part in str(text).split(" "))


templating.filter("nobreak", nobreak)


def render(name: str, **values) -> str:
    return templating.render(f"mail/{name}", **values)


def game_templates(game: Game) -> Path:
    """``games/<name>/templates``: a game's own body templates.  A game that
    extends another one elsewhere finds the templates of the class that has
    them (its own first)."""
    folders = [Path(sys.modules[cls.__module__].__file__).resolve().parent / "templates"
               for cls in type(game).__mro__ if cls.__module__ in sys.modules
               and getattr(sys.modules[cls.__module__], "__file__", None)]
    return next((f for f in folders if f.is_dir()), folders[0])


def game_folder(game: Game) -> str:
    """The name under which the game's templates are found (its folder's parent: the game's package)."""
    folder = game_templates(game)
    templating.add_folder(folder.parent.name, folder)
    return folder.parent.name


def report_html(game: Game, report: Report) -> Markup:
    """The HTML body of a report: the game's own template drawn from the
    structured record, or the plain text when the game has none."""
    if report.template:
        html = templating.render(f"{game_folder(game)}/{report.template}", data=report.data)
        return Markup(html)
    return Markup("<pre>{}</pre>").format(report.text)


def deadline_text(rec: store.GameRecord, deadline: datetime | None, reader: str | None = None) -> str:
    """The deadline in the game's zone and in UTC, and in ``reader``'s own
    zone (SET ZONE) when that differs."""
    if deadline is None:
        return "none (the game is not waiting for orders)"
    return format_deadline(deadline, rec.policy.timezone, reader)


def subject(rec: store.GameRecord, power: str | None, what: str) -> str:
    """``[game] power what: phase``, the phase by its short label (a subject stays under 60
    characters: :func:`pbem.mail.compose.fit_subject`)."""
    label = phaselabels.short(rec.rules.phase(rec.state)) if rec.state else rec.status
    who = f" {power}" if power else ""
    return f"[{rec.name}]{who} {what}: {label}"


def token_for(rec: store.GameRecord, power: str) -> str | None:
    if not rec.row.get("token_key") or not rec.state:
        return None
    return reply_token(rec.row["token_key"], rec.name, rec.rules.phase(rec.state).key, power)


def treaty_keys(events) -> list[str]:
    """The treaties whose records the events changed, each once, by key."""
    return list(dict.fromkeys(str(e.get("key") or e["id"]) for e in events
                              if e.get("kind") == "treaty" and (e.get("key") or e.get("id"))))


def report_map(ctx: Context, game: Game, state: dict, power: str | None, key: str,
               view: str = "png", public: dict | None = None) -> tuple[dict | None, list[Inline]]:
    """The map in a reader's HTML report as the reader chose (SET MAP): ``png``, the public map
    as an image every mail client shows (:mod:`pbem.reporting.raster`); ``svg``, the reader's
    own drawing; ``link``, only the link to the archive (the report's ``archive_url``);
    ``none``.  Returns what the page shows (``None`` for no map, or a game without one) and
    the inline parts.  ``public``: where the public map of ``state`` is kept once drawn, for
    the other readers of the same position."""
    if view == "none":
        return None, []
    if not supports(game, "maps"):
        drawing = None
    elif view == "svg":
        drawing = game.map_svg(state, power)
    else:
        public = {} if public is None else public
        if "svg" not in public:
            public["svg"] = game.map_svg(state, None)
        drawing = public["svg"]
    if drawing is None:
        return None, []
    label = game.phase(state).label
    board = {"cid": None, "lines": game.map_text(state, power),
             "alt": f"Map of {game.title} at {label}" + (f", for {power}" if power and view == "svg" else "")}
    if view == "link":
        return (board if ctx.base_url else None), []
    board["cid"] = cid = content_id(ctx.domain, f"{key}:map")
    if view == "svg":
        return board, [Inline(cid, "image/svg+xml", drawing.encode("utf-8"), "map.svg")]
    return board, [Inline(cid, "image/png", raster.png(drawing), "map.png")]
