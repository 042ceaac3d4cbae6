"""Read-only validation of a power's Movement/Status Change orders: the immediate reply.

Rules: MOVEMENT/STATUS CHANGE ("Activities during this Phase are performed in no particular
order (except that a piece must be purchased before it is placed on the map)").  The orders
are carried out on a private copy of the board one at a time in the order written, by the
same :func:`.movement_steps.carry_out` the phase uses: a fleet moved or placed above, or a
canal built above, carries the Communication Link for a purchase below; money spent above
is gone below.  Where it matters the reply says what a line was judged against:

* an accepted line that is legal only thanks to lines above it names them
  (``uses-earlier-order``, a note that refuses nothing);
* a refused line that would be legal written lower down (or higher up) says below (above)
  which line, when the rest of the mail stays legal so;
* a refused line that needed a line above it that was itself refused says which.
"""
from __future__ import annotations

from typing import Sequence

from pbem.kit.gameapi import Order, Problem
from pbem.kit.state_copy import copy_state

from ..core import board
from ..core.state import label
from . import movement_rules as rules, movement_steps as steps, obligations as duties

Verdict = tuple[Order, steps.Fail]
WRITTEN = "orders take effect in the order written"
#: the explanations replay the orders; beyond this many a reply gives the verdicts alone,
#: so one huge mail cannot hold up the moderator
EXPLAIN_UP_TO = 60
#: places tried per direction when looking for where a refused line would be legal
TRIES = 3


def validate(state: dict, power: str, orders: Sequence[Order], data) -> list[Problem]:
    if not orders:
        return []
    if state.get("phase") != "movement":
        return [Problem("wrong-phase", f"orders are for the Movement/Status Change Phase; the game "
                        f"is in the {label(state.get('phase', ''))} Phase", o.line) for o in orders]
    by_power: dict[str, list[Order]] = {}
    for o in orders:
        by_power.setdefault(o.power or power, []).append(o)
    for p in by_power:
        if p not in state["powers"] or not board.is_great(state, p):
            # Rules: MINOR POWERS - nobody writes orders for a Minor Power.
            return [Problem("not-a-great-power", f"{p} is not played in this game", o.line)
                    for o in orders]
    problems: list[Problem] = []
    for p, own in by_power.items():
        verdicts, sim = sequence(state, data, p, own)
        boards = Boards(state, data, p, own)
        accepted = [o for o, fail in verdicts if fail is None]
        problems += side_orders(state, data, p, own)
        if len(verdicts) <= EXPLAIN_UP_TO:
            problems += explain(state, data, p, verdicts, boards)
        else:
            problems += [Problem(fail[0], fail[1], o.line) for o, fail in verdicts if fail]
            problems.append(Problem("no-explanations", f"{p} has more than {EXPLAIN_UP_TO} orders: "
                                    "the reply gives each refusal without saying where it would "
                                    "be legal", None, kind="warning"))
        problems += forced(state, data, p, accepted)
        problems += garrisons(sim, p, accepted)
        problems += rebuild(state, sim, data, p)
    return sorted(problems, key=lambda x: (x.line is None, x.line or 0))


def sequence(state: dict, data, power: str, orders: list[Order]) -> tuple[list[Verdict], dict]:
    """Each sequenced order carried out in turn on a copy: (order, None or the failure)."""
    sim = copy_state(state)
    ledger = steps.Ledger()
    verdicts = []
    for o in orders:
        if o.kind in steps.SEQUENCED:
            fail, _ = steps.carry_out(sim, data, power, o, ledger)
            verdicts.append((o, fail))
    return verdicts, sim


class Boards:
    """``boards[k]``: the board the ``k``-th sequenced order was judged on in
    :func:`sequence`, made when first asked for by carrying out the orders above it again
    on a copy (the same steps from the same board give the same board).  Most mails ask
    for none (every line legal on its own); copying the board before every line was the
    largest part of checking a mail.  A board given out is shared: copy it to change it."""

    def __init__(self, state: dict, data, power: str, orders: list[Order]):
        self.state, self.data, self.power = state, data, power
        self.sequenced = [o for o in orders if o.kind in steps.SEQUENCED]
        self._made: dict[int, dict] = {}

    def __getitem__(self, k: int) -> dict:
        if k not in self._made:
            sim, ledger = copy_state(self.state), steps.Ledger()
            for o in self.sequenced[:k]:
                steps.carry_out(sim, self.data, self.power, o, ledger)
            self._made[k] = sim
        return self._made[k]


def replay(state: dict, data, power: str, before: list[tuple[Order, bool]], o: Order) -> steps.Fail:
    """Judge ``o`` after ``before`` (each order carried out, or only assumed when False)."""
    sim = copy_state(state)
    ledger = steps.Ledger()
    for q, real in before:
        if real:
            steps.carry_out(sim, data, power, q, ledger)
        else:
            steps.assume(sim, data, power, q)
    return steps.judge(sim, data, power, o)


def explain(state: dict, data, power: str, verdicts: list[Verdict], boards: Boards) -> list[Problem]:
    """``boards[k]`` is the board line ``k`` was judged on (see :func:`sequence`)."""
    out = []
    for k, (o, fail) in enumerate(verdicts):
        if fail is None:
            note = reliance(state, data, power, verdicts, boards, k)
            if note:
                out.append(note)
        else:
            out.append(Problem(fail[0], fail[1] + hint(state, data, power, verdicts, boards, k),
                               o.line))
    return out


def reliance(state: dict, data, power: str, verdicts: list[Verdict], boards: Boards,
             k: int) -> Problem | None:
    """A note on an accepted line that is legal only after the lines above it: those it
    needs are the lines without which it would be refused."""
    o = verdicts[k][0]
    alone = steps.judge(state, data, power, o)
    prior = [q for q, fail in verdicts[:k] if fail is None]
    if alone is None:
        # legal on the board as the phase began; but the money left for it may be money
        # accepted above (each purchase alone fits the Treasury, together they need the gift)
        gifts = [q for q in prior if q.kind == "accept_money"]
        needed = [q for q in gifts
                  if replay(state, data, power, [(x, True) for x in prior if x is not q], o)]
        if not needed:
            return None
        alone = ("insufficient-funds", "")
    else:
        # boards[j + 1] is the board after line j; lines below the first after which this one
        # is legal cannot be what it needs
        legal_from = next((j for j in range(k)
                           if steps.judge(boards[j + 1], data, power, o) is None), k - 1)
        prior = [q for q, fail in verdicts[:legal_from + 1] if fail is None]
        needed = [q for q in prior
                  if replay(state, data, power, [(x, True) for x in prior if x is not q], o)]
    what = " and ".join(steps.provides(q) for q in needed) or "the orders written above it"
    text = f"{o.canonical} is judged after your earlier orders: {steps.need_phrase(o, alone[0])} {what}"
    others = sorted({q.args["from"] for q in needed if q.kind in ("accept_money", "accept")})
    if others:
        text += (f"; if {' and '.join(others)} does not hand it over, this order fails when the "
                 "phase is resolved")
    return Problem("uses-earlier-order", f"{text} ({WRITTEN})", o.line, kind="warning")


def hint(state: dict, data, power: str, verdicts: list[Verdict], boards: Boards, k: int) -> str:
    """What a refused line would need: to be written lower down or higher up (only where the
    lines it passes over, and those below, stay legal: moving a purchase that lacks money
    only moves the shortage), or a refused line above it."""
    o = verdicts[k][0]
    accepted = [(i, q) for i, (q, fail) in enumerate(verdicts) if fail is None]
    sim, ledger = copy_state(boards[k]), steps.Ledger()
    tries = TRIES
    for i, q in accepted:
        if i < k:
            continue
        steps.carry_out(sim, data, power, q, ledger)
        if tries and steps.judge(sim, data, power, o) is None:
            tries -= 1
            if all_legal(sim, data, power, [o] + [x for j, x in accepted if j > i]):
                return f"; written below line {q.line} ({q.canonical}) it would be legal: {WRITTEN}"
    tries = TRIES
    for j, q in reversed([(i, q) for i, q in accepted if i < k]):
        if tries and steps.judge(boards[j], data, power, o) is None:
            tries -= 1
            if all_legal(boards[j], data, power, [o] + [x for i, x in accepted if i >= j]):
                return f"; written above line {q.line} ({q.canonical}) it would be legal: {WRITTEN}"
    for j, (q, fail) in enumerate(verdicts[:k]):
        if fail is None:
            continue
        trial = [(x, True) for x, f in verdicts[:j] if f is None] + [(q, False)] + \
                [(x, True) for x, f in verdicts[j + 1:k] if f is None]
        if replay(state, data, power, trial, o) is None:
            return f"; it needs line {q.line} ({q.canonical}), which is refused above"
    return ""


def all_legal(board_: dict, data, power: str, orders: list[Order]) -> bool:
    """Whether ``orders``, carried out in turn on a copy of ``board_``, are all legal."""
    sim, ledger = copy_state(board_), steps.Ledger()
    return all(steps.carry_out(sim, data, power, q, ledger)[0] is None for q in orders)


def side_orders(state: dict, data, power: str, orders: list[Order]) -> list[Problem]:
    """REMOVE (the Administrative Phase's deficit, settled before anything else) and
    SUPPRESS / ELIMINATE (acted on in later phases) are judged on the board as it stands."""
    out = []
    for o in orders:
        if o.kind not in steps.DEFICIT + steps.LATER:
            continue
        fail = rules.check(state, data, power, o.kind, dict(o.args))
        if fail:
            out.append(Problem(fail[0], fail[1], o.line))
        elif o.kind == "remove" and power not in state.get("pending", {}).get("deficit", {}):
            # Choice: REMOVE only meets a deficit; without one it warns and does nothing.
            out.append(Problem("no-deficit", f"{power} has no deficit: REMOVE does nothing "
                               "(units are only removed to meet a deficit)", o.line, kind="warning"))
    return out


def rebuild(state: dict, sim: dict, data, power: str) -> list[Problem]:
    """Rules: Special British Garrison Rule ("If any of the Units are destroyed in the
    game, he must rebuild them as soon as he can afford to do so (after paying regular
    maintenance)"); Special Russian Garrison Rule (the same for the Western Garrison).

    Judged on the orders as they leave the board (``sim``).  Choice: like a forced
    expenditure, a shortfall the Treasury could pay for is a warning for the GM."""
    short, can, price, name = duties.garrison_need(sim, state, data, power)
    if can <= 0:
        return []
    return [Problem("garrison-rebuild", f"the {name} lacks {short} Army (10) Unit(s): {power} can "
                    f"afford {can} ({price} each) and must rebuild them", None, kind="warning")]


def garrisons(sim: dict, power: str, accepted: list[Order]) -> list[Problem]:
    """Rules: STATUS CHANGE (Important Note) - "you must have at least one Army Unit in an
    Area that contains one of your Control markers - whether it is established or not - at
    the end of each Movement/Status Change Phase"; otherwise it is reduced in the ensuing
    Marker Adjustment Phase.  Not illegal ("foolish"), so a warning on the line that left the
    Area bare (the purchase, or the last army moved out), else on no line."""
    out = []
    for area in board.areas_of(sim, power, board.CONTROL):
        if board.army_strength(sim, power, area):
            continue
        lines = [o.line for o in accepted
                 if (o.kind == "buy" and o.args["area"] == area)
                 or (o.kind == "move_army" and o.args["from"] == area)
                 or (o.kind == "accept" and o.args["area"] == area)]
        status = board.status_of(sim, area, power)
        out.append(Problem("no-garrison", f"no Army Unit of {power} will be in {area} when the "
                           f"Movement/Status Change Phase ends: the {status.title()} is reduced at "
                           "the Marker Adjustment Phase (an army arriving later, by a retreat, "
                           "does not count)", lines[-1] if lines else None, kind="warning"))
    return out


def forced(state: dict, data, power: str, accepted: list[Order]) -> list[Problem]:
    """Rules: Forced Expenditures - what the Administrative Phase did not cover must be
    spent building units, as far as the treasury allows.
    Choice: a shortfall is a warning for the GM, not a refusal."""
    need = duties.forced(state, power)
    if not need:
        return []
    naval_only = need.get("naval_only")
    spent = sum(rules.cost(state, data, power, o.kind, dict(o.args)) for o in accepted
                if o.kind == "build_navy" or (o.kind == "build_army" and not naval_only))
    can = duties.forced_due(state, power)
    if spent < can:
        what = "naval units" if naval_only else "units"
        return [Problem("forced-expenditure", f"{power} must spend at least {can} on {what} this turn "
                        f"({need.get('event') or 'set by the GM'}); these orders spend {spent}", None,
                        kind="warning")]
    return []
