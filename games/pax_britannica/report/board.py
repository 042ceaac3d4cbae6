"""The board in a power's report: who holds what, nearest the power first;
and the report as structured data for the HTML body (tables, sentences).

Rules: THE MAP - markers, units, fleets and Unrest are on the open board, so
every player may see all of them; only Treasuries, income and money moved
are private (ADMINISTRATIVE RECORD SHEETS), and those stay in the power's
own sheet.  "Nearest" counts steps over Overland Routes and Sea Zones from
the power's Home Country and every place it holds something in.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..core import board, mapgraph
from . import events as say, phases as report_phases
from .lines import column, combined, group_sentence, involves, merge_established


def distances(state: dict, data, powers: Sequence[str]) -> dict[str, int]:
    """Steps from the places ``powers`` hold (their homes, markers, units and
    Merchant Fleets) to every place of the map."""
    start = set()
    for p in powers:
        home = board.home_name(data, p)
        if home:
            start.add(home)
        start |= set(board.areas_of(state, p))
        start |= {u["where"] for u in board.units_of(state, p)}
        start |= mapgraph.merchant_seas(state, p)
    return mapgraph.distances(state, data, start)


def holdings(state: dict, data, place: str) -> list[str]:
    """What stands in one place, as a reader would list it."""
    parts = [f"{p} {m['status']}" + ("" if m.get("established") else " (new)")
             for p, m in sorted(board.markers_in(state, place).items())]
    units = sorted(board.units_of(state, where=place), key=lambda u: (u["power"], u["type"], -u["strength"]))
    counted: dict[str, int] = {}
    for u in units:
        text = f"{u['power']} {say.unit(u)}" + (f" in {u['sea']}" if u.get("sea") else "")
        counted[text] = counted.get(text, 0) + 1
    parts += [text + (f" x{n}" if n > 1 else "") for text, n in counted.items()]
    fleets = state.get("merchants", {}).get(place, [])
    if fleets:
        parts.append("Merchant Fleets: " + ", ".join(fleets))
    if board.in_unrest(state, place):
        parts.append("Unrest")
    if place in state.get("canals", []):
        parts.append("canal")
    return parts


def rows(state: dict, data, powers: Sequence[str]) -> list[dict[str, Any]]:
    """Every place where something stands, nearest ``powers`` first, then by name."""
    places = set(state.get("markers", {})) | {u["where"] for u in state.get("units", [])} \
        | set(state.get("merchants", {})) | set(state.get("unrest", [])) | set(state.get("canals", []))
    far = distances(state, data, powers)
    out = []
    for place in places:
        held = holdings(state, data, place)
        if held:
            out.append({"place": place, "steps": far.get(place, 99), "holds": held,
                        "mine": any(h.startswith(f"{p} ") for h in held for p in powers)})
    return sorted(out, key=lambda r: (r["steps"], r["place"]))


def lines(state: dict, data, powers: Sequence[str], found: list[dict[str, Any]] | None = None) -> list[str]:
    """The board in words; ``found``: its :func:`rows` for ``powers`` already made (the HTML's)."""
    found = rows(state, data, powers) if found is None else found
    if not found:
        return []
    out = ["", "The board, nearest you first (who holds what):"]
    for r in found:
        out += column(r["place"], "; ".join(r["holds"]))
    return out


def story(state: dict, events: Sequence[dict], shown: Sequence[dict], power: str | None,
          mine: set[str]) -> list[dict[str, Any]]:
    """The events in sentences, as the text report groups them: what concerned the
    reader, then elsewhere (the public report: one block), each by phase."""
    viewer = frozenset(mine)
    groups = combined(state, list(events), list(shown))
    if power is None:
        blocks = [("Events", groups)]
    else:
        own = [g for g in groups if any(involves(e, mine) for e in g[1])]
        rest = [g for g in groups if not any(involves(e, mine) for e in g[1])]
        blocks = [(f"What concerned {' and '.join(sorted(mine, key=lambda p: p != power))}", own),
                  ("Elsewhere in the world", rest)]
    out = []
    for title, found in blocks:
        if not found:
            continue
        parts = [{"heading": heading, "sentences": [group_sentence(g, viewer) for g in items]}
                 for heading, items in report_phases.sections(merge_established(found))]
        out.append({"title": title, "sections": parts})
    return out
