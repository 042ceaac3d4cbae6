"""The Movement/Status Change Phase: each power's orders carried out in the order written.

Rules: MOVEMENT/STATUS CHANGE - "all players engage in the following activities in any
order, reacting to one another as they wish" and "Activities during this Phase are
performed in no particular order (except that a piece must be purchased before it is
placed on the map)".  By email the orders arrive together, so:

1. every accepted order is stored in ``state["turn_orders"]`` (later phases read SUPPRESS
   and ELIMINATE from there); this turn's Merchant Fleets are taken from the Game Turn Track;
2. deficits left by the Administrative Phase are settled (the player's REMOVE orders first,
   then the documented default): the Administrative Phase's bookkeeping comes first;
3. each power's orders are carried out one at a time **in the order its player wrote them**
   (:func:`.movement_steps.carry_out`), on the board its own earlier orders left: the same
   judgement the reply to the mail made;
4. between powers (Choice, "simultaneous"): a power's orders see the board as it stood when
   the phase began, changed by its own earlier orders and by the agreements it made (GIVE
   and ACCEPT, TRANSFER and ACCEPT); what other powers do in the same phase counts for it
   when the phase ends.  Another power's canal joins the seas for it then; another power's
   upgrade counts from then; two powers placing markers in one Area both place them (a new
   marker is unestablished and blocks nobody).  So the order powers are taken in (alphabetical)
   changes nothing a power ordered, and no power's sequence is refused for another's - but
   for the Great War: once the European Tensions Index reaches 100 no further line is
   carried out (:meth:`Sequences.unplayed`);
5. when every sequence is done: placement effects (Casus Belli, Chinese Resentment, Ottoman
   War) are judged against every other power's markers after all purchases; the first
   canal's 15 VP go to its builder (several at once: a die each, highest wins, ties roll
   again); garrison compliance is recorded for the Marker Adjustment Phase.
"""
from __future__ import annotations

from pbem.kit.gameapi import Order
from pbem.kit.state_copy import copy_state

from ..core import board, summaries
from ..core.state import take_merchants
from . import administrative, marker_adjustment, movement_steps as steps

CANAL_VP = 15  # Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS
RECEIVING = ("accept_money", "accept")
Key = tuple[str, int]


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    orders = {p: [o if isinstance(o, Order) else Order.from_json(o) for o in os]
              for p, os in (orders or {}).items()}
    state["turn_orders"] = {p: [o.to_json() for o in os] for p, os in sorted(orders.items()) if os}
    for power in board.great_powers(state):
        take_merchants(state, data, power)
    events = settle_deficits(state, data, orders)
    run = Sequences(state, data, orders)
    events += run.run()
    if state.get("great_war"):
        return events  # the game ended during the phase (Sequences.unplayed): nothing more is judged
    events += finish_placements(state, data, run.ledger.placed)
    events += canal_race(state, run, dice)
    # Rules: STATUS CHANGE (Important Note) - the garrison is judged "at the end of each
    # Movement/Status Change Phase" and applied in the ensuing Marker Adjustment Phase.
    marker_adjustment.record_garrisons(state)
    return events


def settle_deficits(state: dict, data, orders: dict) -> list[dict]:
    """Rules: NET INCOME RECORD - a negative net income is met by removals.
    Choice: only REMOVE orders count towards a deficit; DOWNGRADE stays voluntary."""
    events = []
    for power in sorted(state.get("pending", {}).get("deficit", {})):
        removes = [o for o in orders.get(power, []) if o.kind == "remove"]
        events += administrative.settle_deficit(state, data, power, removes)
    return events


def failed(power: str, order: Order, code: str, reason: str) -> dict:
    return {"kind": "order_failed", "power": power, "order": order.canonical, "code": code,
            "reason": reason}


def pair_agreements(queues: dict[str, list[Order]]) -> dict[Key, Key]:
    """Rules: TRANSFERRING MONEY; ALTERING EXISTING STATUS MARKERS (Transferring Status) -
    "Both powers must be in agreement": each GIVE or TRANSFER is paired with the first
    matching ACCEPT of the other side (the same amount, or the same marker and Area)."""
    partner: dict[Key, Key] = {}
    for giver, queue in queues.items():
        for i, o in enumerate(queue):
            if o.kind not in ("give", "transfer"):
                continue
            taker = o.args["to"]
            for j, a in enumerate(queues.get(taker, [])):
                if (taker, j) not in partner and _agrees(o, a, giver):
                    partner[(giver, i)], partner[(taker, j)] = (taker, j), (giver, i)
                    break
    return partner


def _agrees(o: Order, a: Order, giver: str) -> bool:
    if a.args.get("from") != giver:
        return False
    if o.kind == "give":
        return a.kind == "accept_money" and a.args["amount"] == o.args["amount"]
    return a.kind == "accept" and a.args["area"] == o.args["area"] \
        and a.args["status"] == o.args["status"]


def unmatched(power: str, o: Order) -> tuple[str, str]:
    a = o.args
    other = {"give": lambda: f"{a['to']} did not order ACCEPT {a['amount']} FROM {power}",
             "accept_money": lambda: f"{a['from']} did not order GIVE {power} {a['amount']}",
             "transfer": lambda: (f"{a['to']} did not order ACCEPT {str(a['status']).upper()} "
                                  f"{a['area']} FROM {power}"),
             "accept": lambda: (f"{a['from']} did not order TRANSFER {str(a['status']).upper()} "
                                f"{a['area']} TO {power}")}[o.kind]()
    return "unmatched", other


class Sequences:
    """Every power's orders, each power's carried out in the order written (steps 3 and 4 of
    the module docstring).  Powers are taken alphabetically, each as far as it can go; a
    power stops at an ACCEPT until the other side's GIVE or TRANSFER has been carried out,
    so what it accepted is there for the lines below, as the reply assumed.

    Choice: when every power still under way waits at such an ACCEPT (each wrote its ACCEPT
    above its own GIVE or TRANSFER to the other), the waiting ACCEPTs go on at once and the
    money or marker arrives when the other side's line is reached; a line between that
    needed it fails, and says so."""

    def __init__(self, state: dict, data, orders: dict[str, list[Order]]):
        self.state, self.data = state, data
        self.queues = {p: [o for o in os if o.kind in steps.SEQUENCED]
                       for p, os in sorted(orders.items())}
        self.pos = {p: 0 for p in self.queues}
        self.outcome: dict[Key, tuple[str, str] | None] = {}
        self.partner = pair_agreements(self.queues)
        self.escrow: dict[Key, int] = {}   # money given, held for the ACCEPT line
        self.late: set[Key] = set()        # ACCEPT lines passed before the goods came
        self.ledger = steps.Ledger()
        self.start_canals = list(state.get("canals", []))

    def run(self) -> list[dict]:
        events: list[dict] = []
        while any(self.pos[p] < len(q) for p, q in self.queues.items()):
            moved = False
            for p, queue in self.queues.items():
                while self.pos[p] < len(queue) and not self.waiting(p):
                    if self.state.get("great_war"):
                        return events + self.unplayed()
                    events += self.step(p, self.pos[p])
                    self.pos[p] += 1
                    moved = True
            if not moved:
                for p, queue in self.queues.items():
                    if self.pos[p] < len(queue):
                        self.late.add((p, self.pos[p]))
                        self.outcome[(p, self.pos[p])] = None
                        self.pos[p] += 1
        self.state["canals"] = _unique(self.start_canals + [a for _, a in self.ledger.canals])
        return events

    def unplayed(self) -> list[dict]:
        """Rules: EUROPEAN TENSIONS AND THE GREAT WAR - "If the European Tensions Index ever
        reaches 100, the game ends instantly, during whatever Phase is in progress": no line
        is carried out after the one that took it there.  Choice: the lines are taken in the
        order this phase plays them (each power's in the order written, the powers
        alphabetically), so the powers after it lose the rest of theirs."""
        out = []
        for p, queue in self.queues.items():
            for i in range(self.pos[p], len(queue)):
                self.outcome[(p, i)] = ("game-ended", "")
                out.append(failed(p, queue[i], "game-ended", "the European Tensions Index reached 100 and the "
                                  "game ended before this order's turn came"))
            self.pos[p] = len(queue)
        return out

    def waiting(self, power: str) -> bool:
        i = self.pos[power]
        o = self.queues[power][i]
        other = self.partner.get((power, i))
        return o.kind in RECEIVING and other is not None and other not in self.outcome

    def canals_seen_by(self, power: str) -> list[str]:
        """Canals standing when the phase began and those this power built since."""
        return _unique(self.start_canals + [a for p, a in self.ledger.canals if p == power])

    def step(self, power: str, i: int) -> list[dict]:
        o = self.queues[power][i]
        self.state["canals"] = self.canals_seen_by(power)
        events: list[dict] = []
        if o.kind in steps.AGREEMENTS and (power, i) not in self.partner:
            fail = unmatched(power, o)
        elif o.kind in RECEIVING:
            fail = self.receive(power, i, o)
        else:
            fail, events = steps.carry_out(self.state, self.data, power, o, self.ledger)
            if fail is None and o.kind == "give":
                self.pay_over(power, i, o)
        self.outcome[(power, i)] = fail
        if fail:
            return [failed(power, o, fail[0], fail[1] + self.cause(power, i, o))]
        return events

    def receive(self, power: str, i: int, o: Order) -> tuple[str, str] | None:
        giver, j = self.partner[(power, i)]
        fail = self.outcome[(giver, j)]
        if fail:
            return "agreement-failed", (f"{giver}'s {self.queues[giver][j].canonical} failed "
                                        f"({fail[1]})")
        if o.kind == "accept_money":
            board.add_money(self.state, power, self.escrow.pop((power, i), 0))
        return None  # a marker changed hands at the TRANSFER line

    def pay_over(self, giver: str, i: int, o: Order) -> None:
        taker = self.partner[(giver, i)]
        if taker in self.late:
            board.add_money(self.state, taker[0], o.args["amount"])
        else:
            self.escrow[taker] = o.args["amount"]

    def cause(self, power: str, i: int, o: Order) -> str:
        """Rules: MOVEMENT/STATUS CHANGE - a line that fails because an earlier line of the
        same power failed (or its goods had not arrived) says which one."""
        for j in range(i):
            key = (power, j)
            if self.outcome.get(key) is None and key not in self.late:
                continue
            trial = copy_state(self.state)
            earlier = self.queues[power][j]
            steps.assume(trial, self.data, power, earlier)
            if steps.judge(trial, self.data, power, o) is None:
                what = (f"had not arrived: {earlier.args['from']} wrote its own GIVE or TRANSFER "
                        f"below its ACCEPT from {power}" if key in self.late
                        else f"failed: {self.outcome[key][1]}")
                return f"; it needed line {earlier.line} ({earlier.canonical}), which {what}"
        return ""


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def finish_placements(state: dict, data, placed: list) -> list[dict]:
    """Placement effects (Casus Belli, Chinese Resentment, Ottoman War).
    Choice: each is judged against every other power's markers as they stand after all
    purchases, so the order powers are taken in does not matter.  A marker its buyer no
    longer holds (handed on, or downgraded, later in its orders) is judged as it now stands."""
    events: list[dict] = []
    for power, area, old, new in placed:
        mark = board.markers_in(state, area).get(power)
        if mark is None:
            continue
        saved = dict(mark)
        if old is None:
            del state["markers"][area][power]
        else:
            state["markers"][area][power] = {"status": old, "established": True}
        effects = summaries.placement_effects(state, data, power, area, saved["status"])
        state["markers"][area][power] = saved
        events += summaries.apply_effects(state, effects)
    for marks in state.get("markers", {}).values():
        for mark in marks.values():
            if mark.pop("phase_from", None) is not None:
                mark.pop("was", None)  # established at once: nothing to fall back to
    return events


def canal_race(state: dict, run: Sequences, dice) -> list[dict]:
    """Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS - "The first player to build a canal
    ... gains 15 Victory Points immediately"; "If two or more players attempt to build a
    Canal simultaneously ... all powers attempting to build Canals shall spend the 30£.
    Roll dice to determine which was first".  Choice: every power that built one this phase
    built it simultaneously; a die each in alphabetical order of the powers, ties roll again."""
    builders = sorted({p for p, _ in run.ledger.canals})
    if not builders or run.start_canals or state.get("canal_vp_awarded"):
        return []
    events: list[dict] = []
    powers = builders
    while len(powers) > 1:
        rolls = {p: dice.d6(f"canal: who built first ({p})") for p in powers}
        events.append({"kind": "canal_race", "rolls": rolls})
        best = max(rolls.values())
        powers = [p for p in powers if rolls[p] == best]
    state["canal_vp_awarded"] = True
    events.append(board.add_vp(state, powers[0], CANAL_VP, "first Caribbean-South Pacific canal"))
    return events
