"""Turn reports: what each power sees (Rules: ADMINISTRATIVE RECORD SHEETS - a
player's own accounts) and the public record (the board itself is open).

Treasuries, income breakdowns, money transfers and refused orders are private to
the powers concerned; the map, the indices and the Victory Points are public.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..core import board, mapgraph
from ..core.audiences import seen
from ..core.data import load_data
from ..core.state import label
from . import (board as report_board, diplomacy as report_diplomacy, events as say, phases as report_phases,
               war as report_war)
from .lines import column, combined, group_sentence, involves, merge_established, wrap

def own_powers(state: dict, power: str) -> list[str]:
    """The German player also keeps Austria-Hungary's accounts (Rules: AUSTRIA-HUNGARY)."""
    if power == "Germany" and board.is_great(state, "Austria-Hungary"):
        return ["Germany", "Austria-Hungary"]
    return [power]


def power_sheet(state: dict, events: Sequence[dict], power: str, reader: str | None = None) -> dict[str, Any]:
    """``power``'s sheet as ``reader`` (its player: the German player reads Austria-Hungary's)
    sees it."""
    income = next((e for e in reversed(list(events))
                   if e.get("kind") == "income" and e.get("power") == power), None)
    markers = {a: dict(ms[power]) for a, ms in sorted(state.get("markers", {}).items())
               if power in ms}
    units = [{k: u.get(k) for k in ("type", "strength", "where", "sea")}
             for u in sorted(board.units_of(state, power), key=lambda u: (u["where"], u["type"],
                                                                          -u["strength"]))]
    return {
        "power": power,
        "treasury": board.treasury(state, power),
        "vp": state["powers"][power].get("vp", 0),
        "income": None if income is None else {k: income.get(k) for k in
                                               ("colonial_office", "markers", "maintenance", "net")},
        "markers": markers,
        "units": units,
        "merchants": sorted(mapgraph.merchant_seas(state, power)),
        "merchant_pool": state.get("merchant_pool", {}).get(power, 0),
        "cb_held": seen(state, [c for c in state.get("cb", []) if c["holder"] == power], reader or power),
        "cb_against": seen(state, [c for c in state.get("cb", []) if c["against"] == power], reader or power),
        "deficit": state.get("pending", {}).get("deficit", {}).get(power, 0),
    }


def report_data(state: dict, events: Sequence[dict], power: str | None, data=None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "turn": state["turn"], "phase": state["phase"], "phase_label": label(state["phase"]),
        "eti": state.get("eti", 0), "cri": state.get("cri", 0),
        "vp": {p: state["powers"][p].get("vp", 0) for p in state.get("players", [])},
        "unrest": sorted(state.get("unrest", [])), "canals": sorted(state.get("canals", [])),
        "map": {a: {p: m["status"] + ("" if m.get("established") else " (new)")
                    for p, m in sorted(ms.items())}
                for a, ms in sorted(state.get("markers", {}).items())},
        "game_over": bool(state.get("game_over")),
        "wars": report_war.data(state),
    }
    # The events are those the moderator's gate let this reader see (pbem.kit.audience).
    out["events"] = list(events)
    if power is None:
        out["diplomacy"] = report_diplomacy.data(state, None, set())
        return out
    mine = set(own_powers(state, power))
    out["diplomacy"] = report_diplomacy.data(state, power, mine)
    out["sheets"] = [power_sheet(state, events, p, power) for p in own_powers(state, power)]
    return out


# -- layout -----------------------------------------------------------------------
def listing(title: str, items: Sequence[str]) -> list[str]:
    return wrap(f"{title}: " + (", ".join(items) or "none"), "", "    ")


def row(sign: str, text: str, amount: Any) -> str:
    return f"  {sign} {text:<34}{say.money(amount):>9}"


def income_account(income: dict) -> list[str]:
    """Rules: NET INCOME RECORD - the account as the sheet adds it up."""
    roll = f" (die {income['roll']})" if income.get("roll") is not None else ""
    lines = ["Income this turn:",
             row(" ", f"Colonial Office{roll}", income.get("colonial_office")),
             row("+", "Income from colonies", income.get("markers")),
             row("-", "Maintenance", income.get("maintenance")),
             row("=", "Net income", income.get("net"))]
    if income.get("deficit"):
        lines += wrap(f"The treasury stays at {say.money(0)}: a deficit of "
                      f"{say.money(income['deficit'])} must be met by removing units "
                      f"abroad or markers.", "  ")
    return lines


STATUS_ORDER = ("state", "dominion", "possession", "protectorate", "influence", "interest")


def marker_lines(markers: dict) -> list[str]:
    """Markers by status, strongest first; a marker not yet established says so."""
    if not markers:
        return ["Markers: none"]
    lines = ["Markers:"]
    statuses = sorted({m["status"] for m in markers.values()},
                      key=lambda s: (STATUS_ORDER.index(s) if s in STATUS_ORDER else 99, s))
    for status in statuses:
        areas = [a + ("" if m.get("established") else " (new)")
                 for a, m in markers.items() if m["status"] == status]
        lines += column(say.status(status), ", ".join(areas))
    return lines


def unit_lines(units: list[dict]) -> list[str]:
    """Units by place, in the sheet's order."""
    if not units:
        return ["Units: none"]
    places: dict[str, list[str]] = {}
    for u in units:
        places.setdefault(u["where"], []).append(say.unit(u) + (f" in {u['sea']}" if u["sea"] else ""))
    lines = ["Units:"]
    for where, items in places.items():
        lines += column(where, ", ".join(items))
    return lines


def sheet_lines(sheet: dict, income: dict | None) -> list[str]:
    lines = ["", f"== {sheet['power']} ==",
             f"Treasury {say.money(sheet['treasury'])}; Victory Points {sheet['vp']}"]
    if income:
        lines += income_account(income)
    if sheet["deficit"]:
        lines.append(f"Deficit to meet: {say.money(sheet['deficit'])}")
    lines += marker_lines(sheet["markers"])
    lines += unit_lines(sheet["units"])
    pool = f"; {sheet['merchant_pool']} to place" if sheet["merchant_pool"] else ""
    lines += wrap("Merchant Fleets: " + (", ".join(sheet["merchants"]) or "none") + pool, "", "    ")
    return lines


def position_label(d: dict, events: Sequence[dict]) -> str:
    """The position a report shows: after the last phase its events come from
    (a phase's page in the archive names that phase, not the next), else the
    start of the current phase.  Choice: see choices/map.md."""
    keys = [e["phase_key"] for e in events if isinstance(e.get("phase_key"), str) and "/" in e["phase_key"]]
    if keys:
        turn, phase = keys[-1].split("/", 1)
        return f"after {turn} {label(phase.split('/')[0])}"
    return f"{d['turn']} {d['phase_label']}"


def header_lines(d: dict, events: Sequence[dict] = ()) -> list[str]:
    title = f"Pax Britannica - {position_label(d, events)}"
    lines = [title + (" - the game is over" if d["game_over"] else ""),
             f"European Tensions Index {d['eti']}; Chinese Resentment Index {d['cri']}"]
    lines += wrap("Victory Points: " + ", ".join(f"{p} {v}" for p, v in d["vp"].items()), "", "    ")
    return lines


def map_lines(d: dict) -> list[str]:
    lines = ["", "Map:"]
    for area, ms in d["map"].items():
        lines += column(area, ", ".join(f"{p} {s}" for p, s in ms.items()))
    return lines


def board_lines(state: dict, power: str, found: list[dict] | None = None) -> list[str]:
    """The open board as this power reads it first: nearest its holdings (``found``: its rows
    already made for the HTML body, :func:`.board.rows`)."""
    return report_board.lines(state, load_data(state), own_powers(state, power), found)


# -- events -------------------------------------------------------------------------
def event_block(title: str, groups: list[tuple[Any, list[dict]]], viewer: frozenset) -> list[str]:
    if not groups:
        return []
    lines = ["", title, "-" * len(title)]
    for heading, items in report_phases.sections(merge_established(groups)):
        lines.append(heading)
        for group in items:
            lines += wrap(group_sentence(group, viewer), "  ", "  ")
    return lines


def report_text(state: dict, events: Sequence[dict], power: str | None, d: dict | None = None) -> str:
    """The report as text; ``d``: :func:`report_data` already built for it (a
    report is built once per reader and phase, for its text and its HTML)."""
    d = d if d is not None else report_data(state, events, power)
    lines = header_lines(d, events)
    mine = set(own_powers(state, power)) if power else set()
    viewer = frozenset(mine)
    for sheet in d.get("sheets", []):
        income = next((e for e in reversed(list(events)) if e.get("kind") == "income"
                       and e.get("power") == sheet["power"]), None)
        lines += sheet_lines(sheet, income)
    if power is None:
        lines += map_lines(d)
    else:
        lines += board_lines(state, power, d.get("board"))
    lines += report_diplomacy.lines(state, power, mine, wrap)
    lines += report_war.lines(state, power, wrap)
    if d["unrest"]:
        lines += [""] + listing("Unrest", d["unrest"])
    groups = combined(state, list(events), d["events"])
    if power is None:
        lines += event_block("Events", groups, viewer)
    else:
        own = [g for g in groups if any(involves(e, mine) for e in g[1])]
        rest = [g for g in groups if not any(involves(e, mine) for e in g[1])]
        lines += event_block(f"What concerned {' and '.join(own_powers(state, power))}", own, viewer)
        lines += event_block("Elsewhere in the world", rest, viewer)
    return "\n".join(lines) + "\n"
