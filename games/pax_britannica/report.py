"""Turn reports: what each power sees (Rules: ADMINISTRATIVE RECORD SHEETS - a
player's own accounts) and the public record (the board itself is open).

Treasuries, income breakdowns, money transfers and refused orders are private to
the powers concerned; the map, the indices and the Victory Points are public.
"""
from __future__ import annotations

from typing import Any, Sequence

from . import board
from .state import label

PRIVATE_KINDS = {"money", "order_failed", "income", "deficit"}
POWER_FIELDS = ("power", "holder", "against", "to", "from", "blamed", "blame")


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


def power_sheet(state: dict, events: Sequence[dict], power: str) -> dict[str, Any]:
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
        "cb_held": [c for c in state.get("cb", []) if c["holder"] == power],
        "cb_against": [c for c in state.get("cb", []) if c["against"] == power],
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
    }
    if power is None:
        out["events"] = [e for e in events if e.get("kind") not in PRIVATE_KINDS]
        return out
    mine = set(own_powers(state, power))
    out["sheets"] = [power_sheet(state, events, p) for p in own_powers(state, power)]
    out["events"] = [e for e in events if e.get("kind") not in PRIVATE_KINDS or concerns(e, mine)]
    return out


def _event_line(e: dict) -> str:
    kind = e.get("kind", "?")
    rest = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("kind", "lines"))
    return f"  {kind}: {rest}"


def report_text(state: dict, events: Sequence[dict], power: str | None) -> str:
    d = report_data(state, events, power)
    lines = [f"Pax Britannica - {d['turn']} {d['phase_label']}"
             + (" - the game is over" if d["game_over"] else ""),
             f"European Tensions Index {d['eti']}; Chinese Resentment Index {d['cri']}",
             "Victory Points: " + ", ".join(f"{p} {v}" for p, v in d["vp"].items())]
    for sheet in d.get("sheets", []):
        lines += ["", f"== {sheet['power']} ==", f"Treasury: {sheet['treasury']}"]
        if sheet["income"]:
            i = sheet["income"]
            lines.append(f"Income: Colonial Office {i['colonial_office']} + colonies "
                         f"{i['markers']} - maintenance {i['maintenance']} = {i['net']}")
        if sheet["deficit"]:
            lines.append(f"Deficit to meet: {sheet['deficit']}")
        lines.append("Markers: " + (", ".join(
            f"{a} {m['status']}{'' if m['established'] else ' (new)'}"
            for a, m in sheet["markers"].items()) or "none"))
        lines.append("Units: " + (", ".join(
            f"{u['type']} {u['strength']} at {u['where']}" + (f" ({u['sea']})" if u["sea"] else "")
            for u in sheet["units"]) or "none"))
        lines.append("Merchant Fleets: " + (", ".join(sheet["merchants"]) or "none")
                     + (f"; {sheet['merchant_pool']} to place" if sheet["merchant_pool"] else ""))
        for c in sheet["cb_held"]:
            lines.append(f"Casus Belli against {c['against']}" + (f" ({c['area']})" if c.get("area") else ""))
        for c in sheet["cb_against"]:
            lines.append(f"{c['holder']} holds a Casus Belli against you"
                         + (f" ({c['area']})" if c.get("area") else ""))
    if power is None:
        lines += ["", "Map:"]
        lines += [f"  {a}: " + ", ".join(f"{p} {s}" for p, s in ms.items())
                  for a, ms in d["map"].items()]
    if d["unrest"]:
        lines.append("Unrest: " + ", ".join(d["unrest"]))
    if d["events"]:
        lines += ["", "Events:"] + [_event_line(e) for e in d["events"]]
    return "\n".join(lines) + "\n"
