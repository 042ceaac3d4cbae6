"""The sequence of play of Europa Universalis: The Price of Power, as a table.

A round is played by email as the rules play it:

1. the Action Phase (:mod:`.phases.action`): the realms act one at a time in turn order, one
   action a turn, until every realm has passed (4.3: "Once all players have Passed, the
   Peace & Rebels Phase begins"; 9.5: all movement is performed in the Action Phase).  An
   action runs at once through its queue of work (Calls to Arms, battles, sieges); where the
   queue needs a decision that belongs to another realm and its standing orders do not
   settle it, the Action Phase waits in a decision window (the ``reaction`` row) for that
   realm alone;
2. Phase 3, Peace & Rebels (4.3, :mod:`.phases.peace_and_rebels`), its steps A to I in order
   (a table of their own), step D the Peace Resolution of 10.1
   (:mod:`.phases.peace_resolution`), the only one that takes orders;
3. the end of the round: exhausted manpower is refreshed (the table's Phase 5; Choice,
   option ``refresh_manpower``), then the next round's Action Phase, or the end of the game
   after the last round.

Phases 1, 2 and 4 and the rest of Phase 5 are played on the table; what they change enters
the game as GM edits.

Each row is one value of ``state["phase"]`` and names what it does: who is asked for orders
(``info``), how its orders are read (``parse``: one grammar, orders.lark, in every phase;
whether an order belongs to the phase is ``validate``'s question) and judged (``validate``),
what silence means (``defaults``, ``describe``), its rules (``resolve``, always ``(state,
orders, dice, events)`` on a copy of the state the game object owns), what a reader's report
asks of it next (``next_steps``), what HELP offers (``options``) and what a bot sends
(``bot``).  The game object (``__init__.py``) walks this table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pbem.kit.gameapi import DONE_ON_ORDERS, Order, OrderOption, ParseResult, PhaseInfo, Problem

from . import bot, guide, orders, report
from . import state as st
from . import validate as vd
from .phases import action, peace_and_rebels, peace_resolution

Events = list[dict]
#: what a decision window asks, as its label says it
DECISIONS = {"cta": "Call to Arms", "retreat": "retreat", "leader": "leader"}
#: what silence means outside a turn or a decision
WARS_GO_ON = "your wars continue (a Total Victory enforces keep_current_board_state)"


def _others(state: dict) -> tuple[str, ...]:
    return tuple(r for r in state["order"] if st.is_human(state, r))


# -- the Action Phase --------------------------------------------------------------------------
def action_info(state: dict) -> PhaseInfo:
    """The acting realm owes its action; the others may send standing orders and offers."""
    rnd, active = state["round"], state["active"]
    owes = (active,) if active and st.is_human(state, active) else ()
    return PhaseInfo(f"{rnd}/action/{state['action_no']}", "action", rnd, owes,
                     f"Round {rnd} action {state['action_no']}: {active}",
                     may=tuple(r for r in _others(state) if r != active), window="action")


def action_defaults(state: dict, power: str) -> list[Order]:
    """A realm whose turn passes in silence passes."""
    return [Order(power, "pass", {}, "PASS")] if power == state["active"] else []


def play_action(state: dict, given: dict, dice, events: Events) -> None:
    """The offers of the realms not acting, then the acting realm's action and its queue."""
    active = state["active"]
    for realm, os in sorted(given.items()):
        if realm != active:
            for o in os:
                if o.kind == "diplomacy":
                    action.offer(state, realm, o.args["realm"], o.args["lines"], events)
    mine = list(given.get(active, [])) if st.is_human(state, active) else [Order(active, "pass", {}, "PASS")]
    action.act(state, active, mine, events)
    _work_the_queue(state, dice, events)


# -- a decision within the Action Phase ------------------------------------------------------------
def reaction_info(state: dict) -> PhaseInfo:
    """The realm whose decision the queue waits for (a Call to Arms, a retreat, a leader)."""
    rnd, p = state["round"], state["pending"]
    return PhaseInfo(f"{rnd}/action/{state['action_no']}/{state.get('pending_seq', 0)}", "reaction", rnd,
                     (p["realm"],), f"Round {rnd} action {state['action_no']}: {p['realm']} decides "
                     f"({DECISIONS[p['kind']]})",
                     may=tuple(r for r in _others(state) if r != p["realm"]), window="reaction")


def reaction_describe(state: dict, power: str) -> str:
    return state["pending"]["default"] if state["pending"]["realm"] == power else WARS_GO_ON


def play_reaction(state: dict, given: dict, dice, events: Events) -> None:
    """The answer (or, silent, the default) given to the queue, which then goes on."""
    action.answer_pending(state, list(given.get(state["pending"]["realm"], [])), events)
    state["phase"] = "action"
    _work_the_queue(state, dice, events)


def _work_the_queue(state: dict, dice, events: Events) -> None:
    """The action's queue to its end, or to the next decision asked of another realm; at its
    end, the next realm's turn or Phase 3."""
    pending = action.run_queue(state, dice, events)
    if pending:
        state["phase"], state["pending"] = "reaction", pending
        state["pending_seq"] = state.get("pending_seq", 0) + 1
        events.append({"kind": "decision_needed", "realm": pending["realm"], "decision": pending["kind"],
                       "default": pending["default"]})
    else:
        action.advance(state, events)


# -- Phase 3: Peace & Rebels (4.3) ---------------------------------------------------------------
def peace_info(state: dict) -> PhaseInfo:
    """One window a step; step D waits for the realms with a war to decide (10.1)."""
    rnd, step = state["round"], state["step"]
    owes = tuple(peace_resolution.owes(state)) if step == "D" else ()
    # 10.2: after a surrender, its victor is asked for its term in a window of its own; two
    # NEGOTIATE texts that differed are sent again there.
    asked = "/again" if step == "D" and peace_resolution.reopened(state) else ""
    label = " (the decisions left open: a surrender's term, a negotiated peace)" if asked else ""
    return PhaseInfo(f"{rnd}/peace_and_rebels/{step}{asked}", "peace_and_rebels", rnd, owes,
                     f"Round {rnd} Peace & Rebels step {step}{label}", window="peace" if owes else "turn",
                     done=DONE_ON_ORDERS)


def peace_describe(state: dict, power: str) -> str:
    """What silence means in step D; after a surrender, for its victor, the default term (10.2)."""
    asked = [loser for v, loser in state.get("peace_asked", []) if v == power]
    if asked:
        return "; ".join(f"ENFORCE keep_current_board_state ON {loser}" for loser in asked)
    if peace_resolution.asked_of(state, power):
        return "no negotiated peace; " + WARS_GO_ON
    return WARS_GO_ON


def play_peace_and_rebels(state: dict, given: dict, dice, events: Events) -> None:
    """One step of Phase 3; after step I the round ends."""
    step = state["step"]
    if step != "D":
        # a second window of step D left behind by a GM edit of the step asks nothing any more
        state.pop("peace_asked", None)
        state.pop("negotiating", None)
    peace_and_rebels.run_step(state, step, given, dice, events)
    if step == "D" and peace_resolution.reopened(state):
        return   # step D goes on: a surrender's victor names its term (10.2), or a negotiation is retried
    if step == peace_and_rebels.STEPS[-1]:
        end_round(state, events)
    else:
        state["step"] = peace_and_rebels.STEPS[peace_and_rebels.STEPS.index(step) + 1]


def end_round(state: dict, events: Events) -> None:
    """The table's Phase 5 refresh (Choice, option refresh_manpower), the round's prestige on
    record, then the next round or, after the last, the end of the game."""
    if state.get("refresh_manpower"):
        action.refresh_manpower(state, events)
    state["history"].append({"round": state["round"], "prestige": {r: state["realms"][r]["prestige"]
                                                                  for r in state["order"]}})
    if state["round"] >= state["rounds"]:
        state["over"], state["phase"] = True, "over"
        events.append({"kind": "game_over", "round": state["round"]})
        return
    state["round"] += 1
    action.start_round(state)


# -- after the last round --------------------------------------------------------------------
def over_info(state: dict) -> PhaseInfo:
    rnd = state["round"]
    return PhaseInfo(f"{rnd}/over", "over", rnd, (), f"Round {rnd}: the game is over")


def closed(state: dict, power: str, given: list) -> list[Problem]:
    return []   # validate's shared part refuses every order once the game is over


def play_nothing(state: dict, given: dict, dice, events: Events) -> None:
    return None


# -- the table ---------------------------------------------------------------------------------
def no_defaults(state: dict, power: str) -> list[Order]:
    return []


@dataclass(frozen=True)
class Phase:
    name: str                                                   # state["phase"]
    title: str                                                  # the rules'
    info: Callable[[dict], PhaseInfo]                           # who is asked, the window, its label
    validate: Callable[[dict, str, list], list[Problem]]        # (state, power, orders)
    resolve: Callable[[dict, dict, Any, Events], None]          # (state, orders, dice, events)
    next_steps: Callable[[dict, str | None], list[str]]         # the report's (state, reader)
    options: Callable[[dict, str], list[OrderOption]]           # HELP's (state, power)
    bot: Callable[[dict, str, Any], list[str]]                  # (state, power, rng)
    defaults: Callable[[dict, str], list[Order]] = no_defaults  # what silence means
    describe: Callable[[dict, str], str] = lambda state, power: WARS_GO_ON
    parse: Callable[[dict, str, Any], ParseResult] = orders.parse


SEQUENCE: tuple[Phase, ...] = (
    Phase("action", "the Action Phase", action_info, vd.action, play_action, report.action_steps,
          guide.action_options, bot.action, defaults=action_defaults, describe=lambda state, power: "PASS"),
    Phase("reaction", "a decision within the Action Phase", reaction_info, vd.reaction, play_reaction,
          report.reaction_steps, guide.reaction_options, bot.reaction, describe=reaction_describe),
    Phase("p3", "Phase 3: Peace & Rebels (4.3)", peace_info, vd.peace_and_rebels, play_peace_and_rebels,
          report.peace_steps, guide.peace_options, bot.peace_and_rebels, describe=peace_describe),
    Phase("over", "the game is over", over_info, closed, play_nothing, report.over_steps, guide.no_options,
          lambda state, power, rng: []),
)
_ROWS = {p.name: p for p in SEQUENCE}


def row(state: dict) -> Phase:
    """The row of the phase the game is in."""
    return _ROWS[state["phase"]]


def validate(state: dict, power: str, given: list) -> list[Problem]:
    """The checks every phase shares, then the phase's own (validate.py)."""
    return vd.validate(state, power, given, row(state).validate)
