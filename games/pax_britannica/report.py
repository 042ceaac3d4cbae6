"""Turn reports: what each power sees (Rules: ADMINISTRATIVE RECORD SHEETS - a
player's own accounts) and the public record (the board itself is open).

Treasuries, income breakdowns, money transfers and refused orders are private to
the powers concerned; the map, the indices and the Victory Points are public.
"""
from __future__ import annotations

import textwrap
from typing import Any, Sequence

from . import board, report_diplomacy, report_war
from . import report_events as say
from . import report_phases
from .audiences import seen
from .state import label

POWER_FIELDS = ("power", "holder", "against", "to", "from", "blamed", "blame")
#: Further fields naming the powers an event is about (for "what concerns you" only;
#: privacy is decided by ``concerns`` alone).
# Fields naming the powers an event is about (a combat's sides, a conquest's loser too).
INVOLVED_FIELDS = ("powers", "parties", "sides", "by", "rolls", "victors", "defeated", "ally",
                   "attackers", "defenders", "from", "with")
WIDTH = 78


def concerns(event: dict, powers: set[str]) -> bool:
    for key in POWER_FIELDS:
        value = event.get(key)
        if isinstance(value, str) and value in powers:
            return True
        if isinstance(value, list) and powers & set(value):
            return True
    return False


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
        "merchants": sorted(board.merchant_seas(state, power)),
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


def involves(event: dict, powers: set[str]) -> bool:
    """Whether the event is about one of ``powers`` (its own section of the report)."""
    if concerns(event, powers):
        return True
    reason = str(event.get("reason") or "")
    if any(reason.startswith(f"{p}'s ") for p in powers):  # "France's interest in Kongo: ..."
        return True
    for key in INVOLVED_FIELDS:
        value = event.get(key)
        if isinstance(value, str):
            value = value.split("+")
        if isinstance(value, dict):
            value = list(value)
        if not isinstance(value, list):   # a flag such as a combat's "defeated": true
            continue
        flat = {str(x) for v in (value or []) for x in (v if isinstance(v, list) else [v])}
        if powers & flat:
            return True
    return False


# -- layout -----------------------------------------------------------------------
def wrap(text: str, indent: str = "", more: str = "    ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + more,
                         break_on_hyphens=False) or [indent.rstrip()]


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


def column(label_text: str, text: str) -> list[str]:
    """``label_text`` in a column of its own, ``text`` wrapped beside it."""
    return textwrap.wrap(text, WIDTH, initial_indent=f"  {label_text:<22} ",
                         subsequent_indent=" " * 25, break_on_hyphens=False)


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


def board_lines(state: dict, power: str) -> list[str]:
    """The open board as this power reads it first: nearest its holdings."""
    from . import load_data, report_board
    return report_board.lines(state, load_data(state), own_powers(state, power))


# -- events -------------------------------------------------------------------------
def combined(state: dict, events: Sequence[dict], shown: Sequence[dict]) -> list[tuple[Any, list[dict]]]:
    """(place, events) groups of the ``shown`` events: a Colonial Combat takes its
    consequences in the same Area (losses, retreats, the marker, the Unrest) as clauses of
    one sentence.  Phases are placed from every event: hidden ones still tell the phase."""
    keep = {id(e) for e in shown}
    groups: list[tuple[Any, list[dict]]] = []
    for e, where in zip(events, report_phases.place(state, events)):
        if id(e) not in keep:
            continue
        last = groups[-1] if groups else None
        if (last and last[0] == where and last[1][0].get("kind") == "colonial_combat"
                and say.combat_clause(e) and say.combat_area(e) == last[1][0].get("area")):
            last[1].append(e)
        elif (last and last[0] == where and len(last[1]) == 1 and e.get("kind") == "unrest"
              and e.get("table") and last[1][0].get("kind") == "random_event"):
            last[1].append(e)  # "Random event 2 (4-4): Unrest in Abyssinia ..."
        else:
            groups.append((where, [e]))
    return groups


def is_established(group: list[dict]) -> bool:
    e = group[0]
    return len(group) == 1 and e.get("kind") == "marker" and e.get("reason") == "established"


def merge_established(groups: list[tuple[Any, list[dict]]]) -> list[tuple[Any, list[dict]]]:
    out: list[tuple[Any, list[dict]]] = []
    for where, group in groups:
        if out and out[-1][0] == where and is_established(group) and \
                all(x.get("kind") == "marker" and x.get("reason") == "established" for x in out[-1][1]):
            out[-1][1].extend(group)
        else:
            out.append((where, list(group)))
    return out


def group_sentence(group: list[dict], viewer: frozenset) -> str:
    first = group[0]
    if first.get("kind") == "colonial_combat" and len(group) > 1:
        clauses = [c for c in (say.combat_clause(e) for e in group[1:]) if c]
        return say.combat_head(first) + " - " + "; ".join(clauses) + "."
    if first.get("kind") == "random_event" and len(group) > 1:
        return say.random_unrest(first, group[1])
    if len(group) > 1 and all(e.get("reason") == "established" for e in group):
        return say.established_list(group)
    return say.sentence(first, viewer)


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
        lines += board_lines(state, power)
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
