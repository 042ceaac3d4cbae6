"""The rules' summaries as data (``data/summaries.toml``) and the effects the engine applies.

Rules: Status Change and Casus Belli; Casus Belli; CHINESE RESENTMENT; EUROPEAN TENSION
INCREASES; VICTORY POINTS.  The printed summaries are on the Player Sheets, outside the rules
text, so every entry of the data file is compiled from the rules text and names the section
it comes from.
"""
from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from . import board

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PATH = Path(__file__).resolve().parent.parent / "data" / "summaries.toml"
KINDS = ("casus_belli", "placement", "cri", "eti", "bonus_vp")
CONTROL = board.CONTROL


@lru_cache(maxsize=1)
def _document() -> dict:
    with PATH.open("rb") as fh:
        return tomllib.load(fh)["summaries"]


def entries(summary: str | None = None) -> list[dict]:
    """Every entry (each with ``summary`` set to its kind), or one summary's entries."""
    doc = _document()
    kinds = KINDS if summary is None else (summary,)
    return [{**e, "summary": k} for k in kinds for e in doc.get(k, [])]


def entry(entry_id: str) -> dict:
    for e in entries():
        if e["id"] == entry_id:
            return e
    raise KeyError(entry_id)


def bonus_vp_rules() -> list[dict]:
    """Rules: VICTORY POINTS - the Bonus Victory Point Summary, for the Final Record."""
    return entries("bonus_vp")


# -- European Tensions -----------------------------------------------------------------
def eti_steps(before: str | None, after: str | None) -> int:
    """Rules: EUROPEAN TENSION INCREASES - one point per step downgraded
    (State/Dominion > Possession > Protectorate > Influence > Interest > nothing)."""
    return max(0, board.rank(before) - board.rank(after))


# -- placements ----------------------------------------------------------------------------
def cri_for_placement(data, area: str, status: str) -> int:
    """Rules: CHINESE RESENTMENT (entries CRI-01, CRI-02): the marker table's placement value
    for a Chinese Empire or Chinese Vassal Area; 0 elsewhere."""
    marker = data.markers.get(status)
    kind = data.areas[area].kind if area in data.areas else None
    if marker is None or kind not in ("chinese_empire", "chinese_vassal"):
        return 0
    return int(marker.cri_place_empire if kind == "chinese_empire" else marker.cri_place_vassal)


def placement_effects(state: dict, data, power: str, area: str, new_status: str) -> list[dict]:
    """What placing (or upgrading to) ``new_status`` for ``power`` in ``area`` sets off,
    judged against the markers already there (call it *before* changing the state).

    Each effect is a dict: {"type": "cb", "holder", "against", "area", "reason"},
    {"type": "cri", "delta", "reason"}, {"type": "ottoman_war", "against", "area", "when":
    "established", "reason"} or {"type": "eti", "delta", "reason", "blame"}.
    Rules: Status Change and Casus Belli; MINOR POWER/GREAT POWER STATUS CONFLICTS;
    WAR WITH THE OTTOMANS; CHINESE RESENTMENT."""
    effects: list[dict] = []
    present = board.markers_in(state, area)
    mine = present.get(power)
    if new_status in CONTROL:
        placer_great = board.is_great(state, power)
        for other, marker in sorted(present.items()):
            if other == power or marker["status"] != "influence":
                continue
            # CB-04: a Minor Power with only Influence does not contest a Great Power.
            if not board.is_great(state, other) and placer_great:
                continue
            rule = "CB-01" if placer_great else "CB-03"
            effects.append({"type": "cb", "holder": other, "against": power, "area": area,
                            "rule": rule,
                            "reason": f"{power} placed a {new_status} where {other} has Influence"})
        kind = data.areas[area].kind if area in data.areas else None
        if kind == "ottoman" and (mine is None or mine["status"] not in CONTROL):
            effects.append({"type": "ottoman_war", "against": power, "area": area,
                            "when": "established", "rule": "PL-08",
                            "reason": f"{power} places Control in the Ottoman Empire ({area})"})
    delta = cri_for_placement(data, area, new_status)
    if delta:
        effects.append({"type": "cri", "delta": delta, "rule": "CRI-01" if
                        data.areas[area].kind == "chinese_empire" else "CRI-02",
                        "reason": f"{power} placed a {new_status} in {area}"})
    return effects


def apply_effects(state: dict, effects: list[dict]) -> list[dict]:
    """Apply the ``cb``, ``cri`` and ``eti`` effects to the state; ``ottoman_war`` effects are
    returned as ``gm_notice`` events (the Ottoman War itself belongs to the War Phase)."""
    events: list[dict] = []
    for eff in effects:
        if eff["type"] == "cb":
            ev = board.add_cb(state, eff["holder"], eff["against"], eff.get("area"), eff["reason"],
                              cause="placement", rule=eff.get("rule"))
            if ev:
                events.append(ev)
        elif eff["type"] == "cri":
            events.append(board.add_cri(state, eff["delta"], eff["reason"]))
        elif eff["type"] == "eti":
            events.append(board.add_eti(state, eff["delta"], eff["reason"], eff.get("blame")))
        elif eff["type"] == "ottoman_war":
            events.append({"kind": "gm_notice", "text": eff["reason"]
                           + ": the Ottoman Empire declares War once it is established."})
    return events
