"""What the archive's pages show, gathered from public facts only.

:mod:`pbem.web.archive` writes the site; this module works out its content: the
resolved phases grouped by turn (empty pass-through phases left out of the
navigation), each with the public report as readable blocks, its map and the
press every player received; the charts of the game's figures; the players
and their replacements.  Every event and press item passes the audience gate
for the public (:func:`pbem.kit.audience.admits`) before a page or the game's
renderer sees it: nothing here reads a power's own report, private press, a
secret treaty, an address or a secret.
"""
from __future__ import annotations

import re
from typing import Any

from pbem.base.context import Context
from pbem.base.sitepaths import slug
from pbem.kit import audience
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import Game
from pbem.storage import phase_orders, press_rows, store
from pbem.storage.db import loads
from pbem.web import charts

_RULE = re.compile(r"^\s*([-=])\1{2,}\s*$")
_BANNER = re.compile(r"^==\s*(.+?)\s*==$")
_COLUMNS = re.compile(r"(?<=\S) {3,}(?=\S)")


# -- the report's plain text as blocks a page can show ---------------------------------

def text_blocks(text: str) -> list[dict[str, Any]]:
    """Plain report text as ``heading`` / ``paragraph`` / ``list`` blocks.

    Reports are written for plain-text mail: a line underlined with dashes or
    ``== X ==`` is a heading; an unindented line followed by indented ones is
    a small heading over a list (each line at the list's indent starts an
    item, deeper lines continue it); other unindented lines are paragraphs
    (their indented continuations joined)."""
    lines = text.splitlines()
    blocks: list[dict[str, Any]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        banner = _BANNER.match(line.strip())
        if banner or (i + 1 < len(lines) and _RULE.match(lines[i + 1]) and not _RULE.match(line)):
            blocks.append({"kind": "heading", "text": banner.group(1) if banner else line.strip()})
            i += 1 if banner else 2
            continue
        indent = len(line) - len(line.lstrip())
        following = lines[i + 1] if i + 1 < len(lines) else ""
        deeper = len(following) - len(following.lstrip()) if following.strip() else 0
        if indent == 0 and 0 < deeper < 4:
            items, i = _list(lines, i + 1)
            blocks.append({"kind": "list", "title": line.strip(), "items": items})
            continue
        para = [line.strip()]
        i += 1
        while i < len(lines) and lines[i].startswith("    ") and lines[i].strip():
            para.append(lines[i].strip())
            i += 1
        blocks.append({"kind": "paragraph", "text": " ".join(para)})
    return blocks


def _list(lines: list[str], i: int) -> tuple[list[str], int]:
    first = lines[i]
    indent = len(first) - len(first.lstrip())
    items: list[str] = []
    firsts: list[str] = []
    while i < len(lines) and lines[i].strip():
        here = len(lines[i]) - len(lines[i].lstrip())
        if here < indent:
            break
        if here == indent or not items:
            items.append(lines[i].strip())
            firsts.append(lines[i].strip())
        else:
            items[-1] += " " + lines[i].strip()
        i += 1
    # A column layout ("Alaska       United States possession") reads as "Alaska: ...";
    # a name as wide as its column or wider is followed by one space only, so where the
    # other items' second column starts says where it ends.
    starts = {m.end() for m in map(_COLUMNS.search, firsts) if m}
    out = []
    for item, first in zip(items, firsts):
        if _COLUMNS.search(first) or len(starts) != 1:
            out.append(_COLUMNS.sub(": ", item, count=1))
            continue
        column = next(iter(starts))
        if first[column - 1:column] == " " and first[column:column + 1].strip():
            out.append(item[:column].rstrip() + ": " + item[column:])  # the name fills its column
            continue
        end = first.find(" ", column - 1)  # the name runs past it: it ends at the next space
        out.append(item[:end] + ": " + item[end + 1:] if 0 < end < len(first) - 1 else item)
    return out, i


# -- phases and turns ----------------------------------------------------------------

def is_empty(snap: dict, events: list[dict]) -> bool:
    """A pass-through phase where nothing happened: no event, no die, no order."""
    return not events and not loads(snap["dice"], []) and not any(loads(snap["orders"], {}).values())


def public_press(ctx: Context, game: str, book: audience.Book) -> dict[str, list[dict]]:
    """Press the gate lets the public see (press to every power), by the phase it was sent in.
    Grey press names nobody and shows no time finer than its phase: it is listed after the
    signed press of its phase, in an order that says nothing of when it was sent."""
    out: dict[str, list[dict]] = {}
    grey: dict[str, list[dict]] = {}
    for row in press_rows.of_game(ctx, game):
        if not audience.admits(loads(row.get("audience")), audience.PUBLIC, book):
            continue
        if row["grey"]:
            grey.setdefault(row["phase_key"], []).append({"sender": "a power (grey press)", "sent": "",
                                                         "body": row["body"] or ""})
        else:
            out.setdefault(row["phase_key"], []).append({"sender": row["sender"], "sent": row["sent"],
                                                        "body": row["body"] or ""})
    for phase_key, items in grey.items():
        out.setdefault(phase_key, []).extend(sorted(items, key=lambda item: item["body"]))
    return out


def phase_entries(ctx: Context, rec: store.GameRecord, game: Game | None) -> list[dict]:
    """Every resolved phase (rolled-back ones are not part of the game), oldest first, with
    the events of each the gate lets the public see (against the treaties as they stand now:
    a fact of a treaty revealed since is public)."""
    book = audience.game_book(game, rec.state) if game is not None else {}
    press = public_press(ctx, rec.name, book)
    out = []
    for snap in phase_orders.history(ctx, rec.name):
        after = loads(snap["after"], {})
        before = loads(snap["before"], {})
        events = audience.shown([e for e in loads(snap["events"], []) if isinstance(e, dict)],
                                audience.PUBLIC, book)
        label = snap["label"] or snap["phase_key"]
        stem = f"{snap['seq']}-{slug(label) or slug(snap['phase_key']) or 'phase'}"
        turn = game.phase(before).turn if game and before else None
        out.append({"seq": snap["seq"], "label": label, "key": snap["phase_key"], "stem": stem,
                    "file": f"{stem}.html", "map_file": f"{stem}.svg", "resolved": snap["created"],
                    "turn": turn, "empty": is_empty(snap, events), "events": events, "after": after,
                    "dice": [list(d) for d in loads(snap["dice"], [])],
                    "press": press.get(snap["phase_key"], [])})
    return out


def fill_phase(game: Game | None, page: dict) -> dict:
    """The costly part of a phase page: its public report and map's text."""
    after, events = page["after"], page["events"]
    report = game.report(after, events, None) if game else None
    page["report"] = report.text if report else ""
    page["report_blocks"] = text_blocks(report.text) if report else []
    page["map_lines"] = game.map_text(after, None) if supports(game, "maps") else []
    page["map_alt"] = (f"Map of the position after {page['label']}" if game else "")
    page["event_rows"] = [{"kind": e.get("kind", ""), "fields": [(k, v) for k, v in e.items()
                                                                  if k not in ("kind", "phase_key", audience.KEY)]}
                          for e in events]
    return page


def link_pages(pages: list[dict]) -> list[dict]:
    """Number the pages and link each to the previous and next page that is
    not empty; group them by turn."""
    shown = [p for p in pages if not p["empty"]]
    for i, page in enumerate(shown):
        page["number"] = i + 1
        page["prev"] = shown[i - 1] if i else None
        page["next"] = shown[i + 1] if i + 1 < len(shown) else None
    return shown


def turns_of(pages: list[dict]) -> list[dict]:
    """The turns, each with its phases that have a page and the names of
    those that passed with nothing to show."""
    out: list[dict] = []
    for page in pages:
        if not out or out[-1]["turn"] != page["turn"]:
            out.append({"turn": page["turn"], "phases": [], "quiet": [],
                        "anchor": f"turn-{slug(str(page['turn']))}" if page["turn"] is not None else "turn"})
        (out[-1]["quiet"] if page["empty"] else out[-1]["phases"]).append(page)
    return out


# -- charts ---------------------------------------------------------------------------

def chart_data(game: Game | None, pages: list[dict], over: bool) -> list[dict]:
    """One chart per title the game charts, with one point per turn (the
    state after the turn's last resolved phase)."""
    if game is None or not pages:
        return []
    last_of_turn: dict[Any, dict] = {}
    for page in pages:
        last_of_turn[page["turn"]] = page
    points = list(last_of_turn.values())
    labels = [str(p["turn"]) if p["turn"] is not None else p["label"] for p in points]
    figures = [game.charts(p["after"], final=over) for p in points]
    titles: list[str] = []
    for f in figures:
        titles += [t for t in f if t not in titles]
    out = []
    for n, title in enumerate(titles):
        names: list[str] = []
        for f in figures:
            names += [s for s in f.get(title, {}) if s not in names]
        series = {s: [f.get(title, {}).get(s) for f in figures] for s in names}
        out.append({"title": title, "id": f"chart-{n + 1}", "labels": labels, "series": series,
                    "svg": charts.line_chart(title, labels, series, f"chart-{n + 1}")})
    return out


# -- people -----------------------------------------------------------------------------

def player_rows(ctx: Context, game: str) -> list[dict]:
    """The powers played, when each player joined, and each replacement (from
    the GM log: the power and the date, never an address)."""
    replaced: dict[str, list[str]] = {}
    for row in store.gm_log_rows(ctx, game):
        if row["action"] == "replace" and row["detail"]:
            power = row["detail"].split(":", 1)[0].strip()
            replaced.setdefault(power, []).append(row["at"])
    return [{"power": p["power"], "joined": p.get("joined") or "", "status": p.get("status") or "",
             "replaced": replaced.get(p["power"], [])} for p in store.players(ctx, game)]
