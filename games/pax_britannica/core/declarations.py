"""Declarations of War, as the register keeps them, wherever they are made: in the Negotiation
Phase, at a failed Congress of Europe, in a War.

Rules: DECLARATIONS OF WAR; EUROPEAN TENSION INCREASES (a declaration of War, +5); TREATIES (a
declaration may break a treaty or call its partners to War).
"""
from __future__ import annotations

from . import board, treaties


def record(state: dict, who: str, targets: list[str], phase: str, player: bool = True) -> list[dict]:
    """Note ``who``'s declaration of War on ``targets``; a player's raises the European Tensions
    Index by 5 (a Minor Power joining at a Congress is no player's, ``player=False``)."""
    state.setdefault("declarations", []).append({"by": who, "against": list(targets),
                                                 "turn": state["turn"], "phase": phase,
                                                 "player": player})
    events = [{"kind": "declaration", "by": who, "against": list(targets), "phase": phase}]
    if player:
        events.append(board.add_eti(state, 5, f"{who} declared War on {', '.join(targets)}", who))
    events += treaties.on_declaration(state, who, targets)
    return events
