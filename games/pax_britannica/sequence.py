"""The sequence of play of Pax Britannica, as a table (Rules: GAME TURN SEQUENCE).

Each row is one phase of the Game Turn, in the order the rules play them, and names what the
phase does: who is asked for orders (``info``), which orders it reads (``orders``: the forms of
the Movement/Status Change Phase, of diplomacy or of a War) and how it judges them
(``validate``), what silence means (``defaults``), its rules (``resolve``, always
``(state, orders, dice, data)``), what follows it besides its own rules (``after``: treaty
clauses falling due or broken, and more at some phases) and where play goes next.  The War
Phase's row plays the whole War Sequence, a table of its own (``war/sequence.py``).  The game
object (``game.py``) walks this table; a new phase is a module in ``phases/`` and a row here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from pbem.kit.gameapi import DONE_EXPLICIT, Order, PhaseInfo, Problem

from .core import congress_rules, disputes, state as st, treaties, treaty_checks
from .phases import (administrative, chinese_resentment, colonial_combat, congress, diplomacy_orders,
                     final_record, marker_adjustment, minor_powers, movement, movement_orders,
                     movement_validate, negotiation, negotiation_checks, negotiation_windows, random_events,
                     victory_points)
from .war import checks as war_checks, orders as war_orders, sequence as war_sequence

Events = list[dict]


# -- who is asked ------------------------------------------------------------------------------
def plain_info(state: dict) -> PhaseInfo:
    """A phase nobody writes orders for: it resolves as soon as it opens."""
    phase, turn = state["phase"], state["turn"]
    return PhaseInfo(key=f"{turn}/{phase}", name=phase, turn=turn, owes=(),
                     label=f"{turn} {st.label(phase)}")


def movement_info(state: dict) -> PhaseInfo:
    """Rules: MOVEMENT/STATUS CHANGE - every player writes orders (silence buys and moves nothing)."""
    phase, turn = state["phase"], state["turn"]
    owes = tuple(state["players"]) if not state.get("game_over") else ()
    return PhaseInfo(key=f"{turn}/{phase}", name=phase, turn=turn, owes=owes,
                     label=f"{turn} {st.label(phase)}")


def negotiation_info(state: dict) -> PhaseInfo:
    """Rules: NEGOTIATION - the window stays open until every player asked says DONE."""
    phase, turn = state["phase"], state["turn"]
    owes, may = negotiation.asked(state)
    n = negotiation_windows.round_of(state)   # a further window is a phase of its own (negotiation_windows.goes_on)
    return PhaseInfo(key=f"{turn}/{phase}" + (f"/{n}" if n > 1 else ""), name=phase, turn=turn,
                     owes=owes, may=may, label=f"{turn} {st.label(phase)}" + (f" (window {n})" if n > 1 else ""),
                     window="negotiation", done=DONE_EXPLICIT)


def congress_info(state: dict) -> PhaseInfo:
    """Rules: CONGRESS OF EUROPE - one order window per step (attendance, proposals,
    votes, signatures, and after a failure the choice of War), each its own phase key."""
    turn, c = state["turn"], congress_rules.current(state)
    if not congress_rules.sitting(state):
        return PhaseInfo(key=f"{turn}/congress", name="congress", turn=turn,
                         label=f"{turn} {st.label('congress')}")
    step = c["step"]
    owes, may = congress.asked(state)
    key = f"{turn}/congress/{step}" + ("" if step == "attend" else f"/{c['round']}")
    title = congress_rules.STEP_TITLES[step] + ("" if step == "attend" else f", round {c['round']}")
    return PhaseInfo(key=key, name="congress", turn=turn, owes=owes, may=may,
                     label=f"{turn} {st.label('congress')} in {c['site']} ({title})",
                     short=_short(f"{turn} Congress: {congress_rules.STEP_TITLES[step]}"
                                  + ("" if step == "attend" else f" {c['round']}")),
                     window=f"congress_{step}",
                     done=DONE_EXPLICIT if step == "propose" else "orders")


def _short(text: str) -> str:
    """A label for a mail's subject, 28 characters at most ("1884 Congress: war or peace 2")."""
    return text if len(text) <= 28 else text.replace(": ", " ")[:28]


# -- what follows a phase besides its own rules --------------------------------------------------
def treaty_clauses(before: dict, state: dict, phase: str, events: Events) -> Events:
    """Treaty clauses falling due or broken by what the phase did (treaty_checks.py)."""
    return treaty_checks.after_phase(before, state, phase)


def after_administrative(before: dict, state: dict, phase: str, events: Events) -> Events:
    """Rules: TREATIES - the payments a treaty promises each turn fall due with the treasuries."""
    return treaty_checks.turn_payments(state) + treaty_clauses(before, state, phase, events)


def after_marker_adjustment(before: dict, state: dict, phase: str, events: Events) -> Events:
    """A Minor Power's displaced Influence is noted for the Negotiation Phase to settle."""
    negotiation.record_claims(state, events)
    return treaty_clauses(before, state, phase, events)


def after_final_record(before: dict, state: dict, phase: str, events: Events) -> Events:
    """At the end of the Game Turn the withdrawals left unagreed and the Casus Belli expire."""
    return treaty_clauses(before, state, phase, events) + treaties.end_of_turn(state) + disputes.expire(state)


# -- the table ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Phase:
    name: str                                          # state["phase"]
    resolve: Callable[[dict, dict, Any, Any], Events]  # (state, orders, dice, data) -> events
    info: Callable[[dict], PhaseInfo] = plain_info     # who is asked, the window, its label
    #: whose forms the orders take: "movement" (the Movement/Status Change Phase's, read in
    #: any phase without its own to say they are for another phase), "diplomacy" or "war"
    orders: str = "movement"
    validate: Callable[[dict, str, list, Any], list[Problem]] = movement_validate.validate
    treaty_warnings: bool = False      # orders are checked against the treaties in force
    defaults: Callable[[dict, str], list[Order]] | None = None   # what silence means
    after: Callable[[dict, dict, str, Events], Events] = treaty_clauses
    #: the phases played inside this one (the War Sequence's windows)
    steps: Sequence[str] = ()
    #: the phase that follows, when the rules choose it (the War Sequence); else the next row
    next: Callable[[dict], str] | None = None
    #: the phase goes on with another window (a Congress sitting for its next step)
    goes_on: Callable[[dict], bool] | None = None


SEQUENCE: tuple[Phase, ...] = (
    Phase("random_events", random_events.resolve),
    Phase("administrative", administrative.resolve, after=after_administrative),
    Phase("minor_powers", minor_powers.resolve),
    Phase("movement", movement.resolve, info=movement_info, treaty_warnings=True),
    Phase("colonial_combat", colonial_combat.resolve),
    Phase("marker_adjustment", marker_adjustment.resolve, after=after_marker_adjustment),
    Phase("negotiation", negotiation.resolve, info=negotiation_info, orders="diplomacy",
          validate=negotiation_checks.validate, treaty_warnings=True, goes_on=negotiation_windows.goes_on),
    Phase("congress", congress.resolve, info=congress_info, orders="diplomacy",
          validate=congress.validate, defaults=congress.defaults, goes_on=congress_rules.sitting),
    Phase("chinese_resentment", chinese_resentment.resolve),
    Phase("war", war_sequence.resolve, info=war_sequence.info, orders="war", validate=war_checks.validate,
          steps=tuple(war_sequence.WAR_PHASES), next=war_sequence.next_phase),
    Phase("victory_points", victory_points.resolve),
    Phase("final_record", final_record.resolve, after=after_final_record),
)
#: the phases of the Game Turn, in order
PHASES = [p.name for p in SEQUENCE]
WAR_PHASES = list(war_sequence.WAR_PHASES)
#: every value ``state["phase"]`` may take
ALL_PHASES = PHASES + WAR_PHASES
#: the grammar each kind of orders is read with
READERS = {"movement": movement_orders, "diplomacy": diplomacy_orders, "war": war_orders}

_ROWS = {name: p for p in SEQUENCE for name in (p.name, *p.steps)}


def phase_of(name: str) -> Phase:
    """The row that plays ``name`` (a War's windows are played by the War Phase's row)."""
    return _ROWS[name]


def info(state: dict) -> PhaseInfo:
    """Who is asked for orders in the phase the game is in."""
    return phase_of(state["phase"]).info(state)


def next_phase(state: dict) -> tuple[str, int]:
    """The phase after the current one, and its Game Turn (Rules: GAME TURN SEQUENCE; THE WAR
    SEQUENCE - once the War is completed, play resumes at the Victory Point Record Phase)."""
    phase, turn = state["phase"], state["turn"]
    row = phase_of(phase)
    if row.next is not None:
        return row.next(state), turn
    index = SEQUENCE.index(row) + 1
    if index == len(SEQUENCE):
        return SEQUENCE[0].name, turn + st.TURN_LENGTH
    return SEQUENCE[index].name, turn
