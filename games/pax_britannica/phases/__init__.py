"""Phase dispatch: each phase is a module ``phases/<phase>.py`` with
``resolve(state, orders, dice, data) -> events`` that mutates the copy it gets.

A phase with no module yet passes straight through.  The War Phase has no
automatic resolution yet: it passes through, and tells the GM when something is
waiting for a human ruling (a declaration of War, a Chinese Rebellion).
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
    """Rules: WAR, THE WAR SEQUENCE, CHINESE REBELLION - the War Phase needs people until the
    war sequence is played by the engine: it only says what is waiting (a rebellion, the
    declarations of War made in Negotiation or the Congress, treaty duties to join them)."""
    if phase != "war":
        return []
    notices = []
    if state.get("pending", {}).get("chinese_rebellion"):
        notices.append({"kind": "gm_notice", "phase": phase,
                        "text": "A Chinese Rebellion was rolled: the GM must run the War."})
    declared = [d for d in state.get("declarations", []) if d.get("turn") == state.get("turn")]
    if declared:
        listing = "; ".join(f"{d['by']} on {', '.join(d['against'])}" for d in declared)
        notices.append({"kind": "gm_notice", "phase": phase,
                        "text": f"War was declared this turn ({listing}): the GM runs the War."})
    duties = [o for o in state.get("obligations", []) if o.get("turn") == state.get("turn")]
    if duties:
        listing = "; ".join(f"{o['power']} against {o['against']} ({o['kind']} treaty {o['treaty']})"
                            for o in duties)
        notices.append({"kind": "gm_notice", "phase": phase,
                        "text": f"Treaty duties to join a War: {listing}. A party may claim a breach "
                                "(TREATY BREACH) for the GM to rule on."})
    if state.get("cb") and not declared:
        notices.append({"kind": "gm_notice", "phase": phase,
                        "text": "Casus Belli exist: a player may declare War (GM ruling)."})
    return notices
