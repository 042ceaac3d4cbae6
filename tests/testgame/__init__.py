"""Beacon: the smallest complete game, the required contract and nothing more.

Two to four powers (North, South, East by default; the ``powers`` option names
others) bid gold for a beacon over a few rounds.  Each round has an ``orders``
phase (everyone owes ``BID <n>`` or ``PASS``) and a ``tally`` phase that needs no
orders: the highest bid wins a point and pays its bid; a tie is broken by one die.

It declares no capability (pbem.kit.capabilities): no treaties, GM commands,
rulings, map, scenarios, bots or guide, so the moderator's answers for a game
without each are played with it.  tests/beacon/ extends it with every capability.
It is a test fixture, not a shipped game.
"""
from __future__ import annotations

from pbem.kit import audience, names
from pbem.kit.gameapi import Game, GMError, NOT_AN_ORDER, Order, ParseResult, PhaseInfo, Problem, Report, Roster, copy_state

ROUNDS = 3
DEFAULT_POWERS = ("North", "South", "East")
_ALIASES = {"n": "North", "northern": "North", "s": "South", "southern": "South",
            "e": "East", "eastern": "East", "w": "West", "western": "West"}


class Beacon(Game):
    name = "testgame"
    title = "Beacon, minimal (test game)"
    min_players = 2
    max_players = 4
    #: the verbs of every phase and the forms a phase's orders are written in
    VERBS = ("BID", "PASS")
    FORMS = {"orders": ("BID <n>", "PASS")}

    def roster(self, options, state=None):
        text = str((options or {}).get("powers") or ",".join(DEFAULT_POWERS))
        names = [n.strip().title() for n in text.split(",") if n.strip()]
        return Roster(tuple(names), {k: v for k, v in _ALIASES.items() if v in names})

    def options(self):
        return {"gold": (10, "gold each power starts with"), "rounds": (ROUNDS, "rounds to play"),
                "powers": (",".join(DEFAULT_POWERS), "the powers, comma-separated")}

    def setup(self, players, options, dice):
        roster = self.roster(options)
        players = [roster.resolve(p) or p for p in players] or list(roster.powers[:2])
        for p in players:
            if p not in roster.powers:
                raise GMError(f"unknown power {p!r}")
        gold = int(options.get("gold", 10))
        return {"round": 1, "phase": "orders", "players": players, "rounds": int(options.get("rounds", ROUNDS)),
                "gold": {p: gold for p in players}, "score": {p: 0 for p in players},
                "bids": {}, "over": False, "history": [], "winner": None}

    def phase(self, state):
        key, label = f"{state['round']}/{state['phase']}", f"Round {state['round']} {state['phase'].title()}"
        owes = tuple(state["players"]) if state["phase"] == "orders" and not state["over"] else ()
        return PhaseInfo(key, state["phase"], state["round"], owes, label)

    def is_over(self, state):
        return state["over"]

    # -- orders ------------------------------------------------------------
    def parse_orders(self, state, power, lines):
        result = ParseResult()
        for number, text in lines:
            words = text.split()
            if not words:
                continue
            found = self._read(state, power, words, number)
            if found is not None:
                (result.orders if isinstance(found, Order) else result.problems).append(found)
                continue
            near = names.nearest(words[0], self.VERBS)
            if near is None:
                result.problems.append(Problem(NOT_AN_ORDER, f"{text!r} is no order", number, None, "invalid"))
            else:
                forms = self.FORMS.get(state["phase"], ("BID <n>",))
                result.problems.append(Problem("invalid-order", f"cannot read {text!r}: write " + " or ".join(forms),
                                               number, near, "invalid"))
        return result

    def _read(self, state, power, words, number):
        """One line as an Order (or a Problem), or None when it is not understood."""
        verb = words[0].upper()
        if verb == "BID" and len(words) == 2 and words[1].isdecimal():
            return Order(power, "bid", {"amount": int(words[1])}, f"BID {int(words[1])}", number)
        if verb == "PASS" and len(words) == 1:
            return Order(power, "pass", {}, "PASS", number)
        return None

    def _allowed(self, state, power):
        return {"bid", "pass"} if state["phase"] == "orders" else set()

    def validate(self, state, power, orders):
        allowed = self._allowed(state, power)
        problems = [Problem("wrong-phase", f"{o.canonical} is not an order of the {state['phase']} phase for "
                            f"{power}", o.line) for o in orders if o.kind not in allowed]
        kept = [o for o in orders if o.kind in allowed]
        problems += [Problem("one-order-a-phase", "only one order per phase counts", o.line) for o in kept[1:]]
        for o in kept[:1]:
            problems += self._check(state, power, o)
        return problems

    def _check(self, state, power, order):
        """The problems of the one order that counts."""
        if order.kind == "bid" and order.args["amount"] > state["gold"][power]:
            return [Problem("insufficient-gold", f"you bid {order.args['amount']} but have "
                            f"{state['gold'][power]} gold", order.line, str(state["gold"][power]))]
        return []

    def defaults(self, state, power):
        return [Order(power, "pass", {}, "PASS")] if state["phase"] == "orders" else []

    def resolve(self, state, orders, dice):
        state = copy_state(state)
        return state, (self._bids(state, orders) if state["phase"] == "orders" else self._tally(state, dice))

    def stamp(self, state, events):
        """Beacon's bids and rounds happen in the open: every event is public unless it
        was made with an audience."""
        return [e if audience.KEY in e else audience.tag(e, audience.public()) for e in events]

    def _bids(self, state, orders):
        events = []
        for power in state["players"]:
            o = (orders.get(power) or self.defaults(state, power))[0]
            state["bids"][power] = min(o.args.get("amount", 0) if o.kind == "bid" else 0, state["gold"][power])
            events.append({"kind": "bid", "power": power, "amount": state["bids"][power],
                           "default": not orders.get(power)})
            self._after_bid(state, power, events)
        state["phase"] = "tally"
        return events

    def _after_bid(self, state, power, events):
        """What a bid sets off besides (nothing here)."""

    def _tally(self, state, dice):
        events, bids = [], state["bids"]
        top = max(bids.values(), default=0)
        leaders = sorted(p for p, b in bids.items() if b == top)
        winner = None if top == 0 else leaders[0]
        if top and len(leaders) > 1:
            roll = dice.d6("tie-break")
            winner = leaders[(roll - 1) % len(leaders)]
            events.append({"kind": "tie_break", "die": roll, "powers": leaders, "winner": winner})
        if winner:
            state["gold"][winner] -= top
            state["score"][winner] += 1
        events.append({"kind": "round", "round": state["round"], "winner": winner or "none", "bid": top})
        state["history"].append({"round": state["round"], "winner": winner, "bids": dict(bids)})
        state["bids"], state["winner"] = {}, winner
        self._won(state, winner, events)
        return events

    def _won(self, state, winner, events):
        """After the tally: the next round (or the end)."""
        self._next_round(state, events)

    def _next_round(self, state, events):
        state["winner"] = None
        if state["round"] >= state["rounds"]:
            state["over"], state["phase"] = True, "over"
            events.append({"kind": "game_over", "scores": dict(state["score"])})
        else:
            state["round"] += 1
            state["phase"] = "orders"

    # -- what people are told ----------------------------------------------
    def report(self, state, events, power):
        lines = [line for line in (self._line(e, power) for e in events) if line]
        lines.append("Scores: " + ", ".join(f"{p} {s}" for p, s in sorted(state["score"].items())))
        if power in state["gold"]:
            lines.append(f"Your gold: {state['gold'][power]}")
        if state["over"]:
            lines.append("The game is over.")
        return Report("\n".join(lines), {"lines": lines})

    def _line(self, e, power):
        """One event in words for ``power``, or None."""
        if e["kind"] == "round":
            return f"Round {e['round']}: beacon won by {e['winner']} for {e['bid']} gold."
        if e["kind"] == "tie_break":
            return f"Tie between {', '.join(e['powers'])}: die {e['die']} gives it to {e['winner']}."
        return None

    def results(self, state):
        ranked = sorted(state["players"], key=lambda p: (-state["score"][p], -state["gold"][p], p))
        return [{"power": p, "score": state["score"][p], "rank": i + 1} for i, p in enumerate(ranked)]


GAME = Beacon()
