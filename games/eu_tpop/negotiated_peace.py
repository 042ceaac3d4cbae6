"""A NEGOTIATE block read into a peace (10.4 Negotiated Peace): its term, its victor and the one
extra action a party may take, each checked against the board; the block's lines are read by
deal_lines.py, and Peace Resolution (phases/peace_resolution.py) concludes the peace."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import victory as vc
from .deal_lines import read_negotiation_line


def read_negotiation(state: dict, a: str, b: str, lines: list[str]):
    """NEGOTIATE text: one term line (``<term> [details]``), optionally
    ``VICTOR <realm>``, and the optional action of one party, ``<realm> CUTS
    TIES WITH <realm>`` and/or ``<realm> PAYS <n>``.  10.4 Negotiated Peace:
    any term but vassalization and full annexation, with its own requirements
    met; the extra action disregards the restrictions for being at war."""
    term, victor, details, extras = None, None, [], []
    for line in lines:
        read = read_negotiation_line(state, line)
        if read is None:
            continue
        form, values = read
        if form == "victor":
            victor = values[0]
        elif form == "term":
            term, details = values[0], (values[1] if len(values) > 1 else [])
        else:
            actor = values[0]
            if actor not in (a, b) or any(x[1] != actor for x in extras):
                raise Refused("the extra action is taken by one of the two parties only (10.4)", "negotiation-line")
            if form == "cut_ties":
                extras.append(("cut", actor, values[1]))
            else:
                if state["realms"][actor]["ducats"] < values[1]:
                    raise Refused(f"{actor} has {state['realms'][actor]['ducats']} Ducats", "negotiation-line")
                extras.append(("pay", actor, b if actor == a else a, values[1]))
    if term is None:
        raise Refused("the negotiated peace names no term", "negotiation-line")
    if term in ("vassalization", "full_annexation"):
        raise Refused(f"a negotiated peace may not use {term} (10.4)", "negotiation-term")
    if victor is None:
        if term != "white_peace":
            raise Refused("a negotiated peace with a term other than white peace names its VICTOR", "negotiation-line")
        victor = a
    if victor not in (a, b):
        raise Refused(f"{victor} is not a party", "negotiation-line")
    loser = b if victor == a else a
    if term != "white_peace":
        why = vc.requirement(state, victor, loser, term)
        if why:
            raise Refused(why, "negotiation-term")
    return term, victor, details, extras
