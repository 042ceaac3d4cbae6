"""The board as anyone may see it: who holds which Area, the pieces on it,
Unrest, Casus Belli, merchant fleets and navies at sea, canals.

Rules: THE MAP and PLAYING PIECES - the board itself is open (markers, units,
merchant fleets, the indices); treasuries and accounts are not part of it.
This is the structured view the map is drawn from and its text equivalent is
written from, so the two always say the same.
"""
from __future__ import annotations

from typing import Any

from ..core import board
from ..core.audiences import seen
from .compose import STATUS_ORDER

#: Short names used on the map beside the colour, so colour is never the only cue.
ABBREVIATIONS = {"Britain": "Br", "France": "Fr", "Germany": "Ge", "Austria-Hungary": "AH",
                 "United States": "US", "Japan": "Ja", "Russia": "Ru", "Italy": "It",
                 "Netherlands": "Ne", "Belgium": "Be", "Spain": "Sp", "Portugal": "Po"}


def _strength(units: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u["power"]] = out.get(u["power"], 0) + int(u["strength"])
    return dict(sorted(out.items()))


def _markers(state: dict, area: str) -> list[dict[str, Any]]:
    """Strongest first, then by power: the order the map and the text use."""
    ms = board.markers_in(state, area)
    rows = [{"power": p, "status": m["status"], "established": bool(m.get("established"))}
            for p, m in ms.items()]
    return sorted(rows, key=lambda r: (STATUS_ORDER.index(r["status"])
                                       if r["status"] in STATUS_ORDER else 99, r["power"]))


def board_view(state: dict, data) -> dict[str, Any]:
    """JSON data: ``areas``, ``homes``, ``seas`` and ``canals``, every place
    of the map present whether or not anything is on it."""
    cbs: dict[str, list[dict]] = {}
    for cb in seen(state, state.get("cb", []), None):  # the board is the same for every reader
        if cb.get("area"):
            cbs.setdefault(cb["area"], []).append({"holder": cb["holder"], "against": cb["against"]})
    armies = [u for u in state.get("units", []) if u["type"] == "army"]
    navies = [u for u in state.get("units", []) if u["type"] == "navy"]
    areas = {}
    for name, area in sorted(data.areas.items()):
        areas[name] = {
            "kind": area.kind,
            "markers": _markers(state, name),
            "controllers": board.controllers(state, name),
            "armies": _strength([u for u in armies if u["where"] == name]),
            "unrest": board.in_unrest(state, name),
            "cb": cbs.get(name, []),
        }
    homes = {}
    for power, home in data.homes.items():
        homes[power] = {"name": home.name, "great": board.is_great(state, power),
                        "armies": _strength([u for u in armies if u["where"] == home.name
                                             or u["where"] == power])}
    # Choice: a navy is shown in the box of the Sea Zone it sits in, at home or abroad.
    seas = {}
    merchants = state.get("merchants", {})
    for name in sorted(data.seas, key=lambda s: data.seas[s].number):
        seas[name] = {"merchants": sorted(merchants.get(name, [])),
                      "navies": _strength([u for u in navies if u.get("sea") == name])}
    # Choice: the Suez canal is always open; a canal site is open once built (choices/map.md).
    canals = [{"area": area, "seas": sorted(seas_), "kind": kind, "open": kind != "canal_site"
               or area in state.get("canals", [])}
              for area, seas_, kind in _straits(data)]
    return {"areas": areas, "homes": homes, "seas": seas, "canals": canals,
            "eti": state.get("eti", 0), "cri": state.get("cri", 0),
            "turn": state.get("turn"), "phase": state.get("phase")}


def _straits(data):
    kinds = data.raw.get("straits", {})
    for area, seas in sorted(data.straits.items()):
        yield area, seas, str(kinds.get(area, {}).get("kind", "straits"))


def holding(marker: dict) -> str:
    """"Britain Possession", "France Interest (new)"."""
    new = "" if marker["established"] else " (new)"
    return f"{marker['power']} {marker['status'].title()}{new}"


def forces(strengths: dict[str, int], kind: str) -> str:
    return ", ".join(f"{p} {kind} {n}" for p, n in strengths.items())


def area_line(name: str, info: dict) -> str:
    """One Area in words, for the text equivalent of the map."""
    parts = [", ".join(holding(m) for m in info["markers"]) or "no markers"]
    if info["armies"]:
        parts.append(forces(info["armies"], "Army"))
    if info["unrest"]:
        parts.append("in Unrest")
    for cb in info["cb"]:
        parts.append(f"Casus Belli: {cb['holder']} against {cb['against']}")
    return f"{name}: " + "; ".join(parts)


def sea_line(name: str, info: dict) -> str:
    parts = ["merchant fleets of " + ", ".join(info["merchants"]) if info["merchants"]
             else "no merchant fleets"]
    if info["navies"]:
        parts.append(forces(info["navies"], "Navy"))
    return f"{name}: " + "; ".join(parts)


def text_lines(view: dict) -> list[str]:
    """The map in words: held and occupied Areas, Home Countries with armies,
    Sea Zones, canals.  Empty Areas are counted, not listed."""
    lines = []
    shown = [n for n, a in view["areas"].items()
             if a["markers"] or a["armies"] or a["unrest"] or a["cb"]]
    lines += [area_line(n, view["areas"][n]) for n in shown]
    empty = len(view["areas"]) - len(shown)
    if empty:
        lines.append(f"{empty} other Areas have no markers, units or Unrest.")
    for power, home in view["homes"].items():
        if home["armies"]:
            lines.append(f"{home['name']} (Home Country): {forces(home['armies'], 'Army')}")
    lines += [sea_line(n, s) for n, s in view["seas"].items()]
    for canal in view["canals"]:
        if canal["kind"] != "straits":
            state = "open" if canal["open"] else "not built"
            lines.append(f"Canal in {canal['area']} ({' - '.join(canal['seas'])}): {state}")
    return lines
