"""An order of another phase, written in this one: said so, instead of listing this phase's
order forms ("ATTACK is an order of a War; the game is in the 1884 Negotiation Phase")."""
from __future__ import annotations

from typing import Mapping

from pbem.kit.gameapi import Problem

from . import sequence
from .core import state as st

DIPLOMACY_VERBS = {"CODOMINION", "CALL", "DECLARE", "DEFEND", "ATTEND", "DECLINE", "INVITE", "VOTE",
                   "SIGN", "REFUSE", "PROPOSE", "ENDPROPOSE"}
MOVEMENT_VERBS = {"BUY", "B", "PURCHASE", "BUILD", "MOVE", "M", "PLACE", "SUPPRESS", "REMOVE",
                  "ELIMINATE"}
WAR_VERBS = {"ATTACK", "DENY", "GRANT", "JOIN", "SUPPORT", "END", "DELAY", "DEMAND"}


def other_phase(state: dict, problem: Problem, lines: Mapping[int, str]) -> Problem:
    """A line not understood because it is another phase's order says so, instead of
    listing this phase's forms."""
    if problem.code != "invalid-order" or problem.line not in lines:
        return problem
    verb = (lines[problem.line].split() or [""])[0].upper()
    here = st.label(state.get("phase", ""))
    kind = sequence.phase_of(state.get("phase")).orders
    if kind != "war" and verb in WAR_VERBS:
        where = "a War (HELP WAR lists the war orders)"
    elif kind == "movement" and verb in DIPLOMACY_VERBS:
        where = "the Negotiation Phase" if verb in ("CODOMINION", "CALL", "DECLARE", "DEFEND") \
            else "the Congress of Europe"
    elif kind == "diplomacy" and verb in MOVEMENT_VERBS:
        where = "the Movement/Status Change Phase"
    else:
        return problem
    return Problem("wrong-phase", f"{verb} is an order of {where}; the game is in the {here} "
                   "Phase", problem.line, kind="invalid")
