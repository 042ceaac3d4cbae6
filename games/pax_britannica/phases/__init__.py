"""Phase dispatch: each phase is a module ``phases/<phase>.py`` with
``resolve(state, orders, dice, data) -> events`` that mutates the copy it gets.

A phase with no module yet passes straight through.  Negotiation, Congress and
War have no automatic resolution here: they pass through, and tell the GM when
something is waiting for a human ruling (a Casus Belli, a Chinese Rebellion).
"""
from __future__ import annotations

import importlib
from typing import Callable

Resolver = Callable[..., list]


def find(phase: str) -> Resolver | None:
    """The phase's ``resolve`` function, or None when the phase has no module."""
    try:
        module = importlib.import_module(f"{__name__}.{phase}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith(f".{phase}"):
            return None
        raise
    return getattr(module, "resolve", None)


def run(phase: str, state: dict, orders: dict, dice, data) -> list[dict]:
    resolver = find(phase)
    if resolver is not None:
        return list(resolver(state, orders, dice, data) or [])
    notices = gm_notices(phase, state)
    if phase == "war":
        # Choice: with no War run by the engine the rebellion is the GM's; the flag is
        # cleared once the GM has been told, so it is not reported again every turn.
        state.get("pending", {}).pop("chinese_rebellion", None)
    return notices


def gm_notices(phase: str, state: dict) -> list[dict]:
    """Rules: NEGOTIATION, CONGRESS OF EUROPE, WAR WITH THE OTTOMANS/CHINESE REBELLION -
    these need people; the engine only says what is waiting."""
    cbs = state.get("cb", [])
    if phase in ("negotiation", "congress") and cbs:
        listing = "; ".join(f"{c['holder']} against {c['against']}"
                            + (f" in {c['area']}" if c.get("area") else "") for c in cbs)
        return [{"kind": "gm_notice", "phase": phase,
                 "text": f"Casus Belli outstanding ({listing}): the GM may run a "
                         f"{'Congress of Europe' if phase == 'congress' else 'negotiation'}."}]
    if phase == "war":
        # Choice: a rolled rebellion is flagged in state["pending"]["chinese_rebellion"].
        notices = []
        if state.get("pending", {}).get("chinese_rebellion"):
            notices.append({"kind": "gm_notice", "phase": phase,
                            "text": "A Chinese Rebellion was rolled: the GM must run the War."})
        if cbs:
            notices.append({"kind": "gm_notice", "phase": phase,
                            "text": "Casus Belli exist: a player may declare War (GM ruling)."})
        return notices
    return []
