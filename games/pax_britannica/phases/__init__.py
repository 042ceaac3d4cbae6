"""Phase dispatch: each phase is a module ``phases/<phase>.py`` with
``resolve(state, orders, dice, data) -> events`` that mutates the copy it gets.

A phase with no module passes straight through.  The War Phase and the War Sequence's
phases are played by ``war/`` (Rules: (20) WAR; THE WAR SEQUENCE).
"""
from __future__ import annotations

import importlib
from typing import Callable

from ..state import WAR_PHASES

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
    if phase == "war" or phase in WAR_PHASES:
        from ..war import sequence
        return list(sequence.resolve(phase, state, orders, dice, data) or [])
    resolver = find(phase)
    if resolver is not None:
        return list(resolver(state, orders, dice, data) or [])
    return []
