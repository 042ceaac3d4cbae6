"""Beacon: a tiny game that exercises the whole moderator contract.

Two or three powers (North, South, East) bid gold for a beacon over three
rounds.  Each round has an ``orders`` phase (everyone owes ``BID <n>`` or
``PASS``) and a ``tally`` phase that needs no orders: the highest bid wins a
point and pays its bid; a tie is broken by one die roll.  After round 3 the
game is over.  It is a test fixture, not a shipped game.
"""
from __future__ import annotations

import copy
import re

from pbem.gameapi import Game, GMError, Order, ParseResult, PhaseInfo, Problem

ROUNDS = 3
_ALIASES = {"north": "North", "n": "North", "northern": "North",
            "south": "South", "s": "South", "southern": "South",
            "east": "East", "e": "East", "eastern": "East"}


class Beacon(Game):
    name = "testgame"
    title = "Beacon (test game)"
    min_players = 2
    max_players = 3
    powers = ("North", "South", "East")

    def power_aliases(self):
        return dict(_ALIASES)

    def options(self):
        return {"gold": (10, "gold each power starts with"), "rounds": (ROUNDS, "rounds to play")}

    def setup(self, players, options, dice):
        players = [self.resolve_power(p) or p for p in players] or ["North", "South"]
        for p in players:
            if p not in self.powers:
                raise GMError(f"unknown power {p!r}")
        gold = int(options.get("gold", 10))
        return {"round": 1, "phase": "orders", "players": players,
                "rounds": int(options.get("rounds", ROUNDS)),
                "gold": {p: gold for p in players}, "score": {p: 0 for p in players},
                "bids": {}, "over": False, "history": []}

    def phase(self, state):
        owes = tuple(state["players"]) if state["phase"] == "orders" and not state["over"] else ()
        key = f"{state['round']}/{state['phase']}"
        return PhaseInfo(key, state["phase"], state["round"], owes,
                         f"Round {state['round']} {state['phase'].title()}")

    def is_over(self, state):
        return state["over"]

    # -- orders ------------------------------------------------------------
    def parse_orders(self, state, power, lines):
        result = ParseResult()
        for number, text in lines:
            words = text.split()
            if not words:
                continue
            verb = words[0].upper()
            if verb == "BID" and len(words) == 2 and words[1].isdigit():
                n = int(words[1])
                result.orders.append(Order(power, "bid", {"amount": n}, f"BID {n}", number))
            elif verb == "PASS" and len(words) == 1:
                result.orders.append(Order(power, "pass", {}, "PASS", number))
            else:
                import difflib
                near = difflib.get_close_matches(verb, ["BID", "PASS"], n=1)
                result.problems.append(Problem("invalid-order", f"cannot read {text!r}: write BID <n> or PASS",
                                               number, near[0] if near else None, "invalid"))
        return result

    def validate(self, state, power, orders):
        problems = []
        if state["phase"] != "orders":
            for o in orders:
                problems.append(Problem("wrong-phase", f"no orders are due in the {state['phase']} phase", o.line))
            return problems
        if len(orders) > 1:
            for o in orders[1:]:
                problems.append(Problem("too-many-orders", "only one order per round counts", o.line))
        for o in orders[:1]:
            if o.kind == "bid" and o.args["amount"] > state["gold"][power]:
                problems.append(Problem("insufficient-gold",
                                        f"you bid {o.args['amount']} but have {state['gold'][power]} gold",
                                        o.line, str(state["gold"][power])))
        return problems

    def defaults(self, state, power):
        return [Order(power, "pass", {}, "PASS")] if state["phase"] == "orders" else []

    def resolve(self, state, orders, dice):
        state = copy.deepcopy(state)
        events = []
        if state["phase"] == "orders":
            for power in state["players"]:
                given = orders.get(power) or self.defaults(state, power)
                o = given[0]
                bid = o.args.get("amount", 0) if o.kind == "bid" else 0
                state["bids"][power] = min(bid, state["gold"][power])
                events.append({"kind": "bid", "power": power, "amount": state["bids"][power],
                               "default": not orders.get(power)})
            state["phase"] = "tally"
            return state, events
        # tally: the one die roll of the game breaks a tie.
        bids = state["bids"]
        top = max(bids.values(), default=0)
        leaders = sorted(p for p, b in bids.items() if b == top)
        if top == 0:
            winner = None
        elif len(leaders) == 1:
            winner = leaders[0]
        else:
            roll = dice.d6("tie-break")
            winner = leaders[(roll - 1) % len(leaders)]
            events.append({"kind": "tie_break", "die": roll, "powers": leaders, "winner": winner})
        if winner:
            state["gold"][winner] -= top
            state["score"][winner] += 1
        events.append({"kind": "round", "round": state["round"], "winner": winner or "none", "bid": top})
        state["history"].append({"round": state["round"], "winner": winner, "bids": dict(bids)})
        state["bids"] = {}
        if state["round"] >= state["rounds"]:
            state["over"] = True
            state["phase"] = "over"
            events.append({"kind": "game_over", "scores": dict(state["score"])})
        else:
            state["round"] += 1
            state["phase"] = "orders"
        return state, events

    # -- views and reports -------------------------------------------------
    def view(self, state, power):
        return {"round": state["round"], "phase": state["phase"], "score": dict(state["score"]),
                "gold": {p: g for p, g in state["gold"].items() if power in (None, p) or state["over"]},
                "history": state["history"]}

    def report_text(self, state, events, power):
        lines = []
        for e in events:
            if e["kind"] == "round":
                lines.append(f"Round {e['round']}: beacon won by {e['winner']} for {e['bid']} gold.")
            elif e["kind"] == "tie_break":
                lines.append(f"Tie between {', '.join(e['powers'])}: die {e['die']} gives it to {e['winner']}.")
            elif e["kind"] == "bid" and (power is None or e["power"] == power or state["phase"] == "tally"):
                pass
        lines.append("Scores: " + ", ".join(f"{p} {s}" for p, s in sorted(state["score"].items())))
        if power in state["gold"]:
            lines.append(f"Your gold: {state['gold'][power]}")
        if state["over"]:
            lines.append("The game is over.")
        return "\n".join(lines)

    def results(self, state):
        ranked = sorted(state["players"], key=lambda p: (-state["score"][p], -state["gold"][p], p))
        return [{"power": p, "score": state["score"][p], "rank": i + 1} for i, p in enumerate(ranked)]

    def help_text(self, topic=None):
        return "Orders: BID <n> (gold you offer for this round's beacon) or PASS."

    # -- GM and scenarios --------------------------------------------------
    def gm_command(self, state, text, dice):
        m = re.fullmatch(r"SET\s+(GOLD|SCORE)\s+(\S+)\s+(\d+)", text.strip(), re.I)
        if not m:
            raise GMError(f"unknown GM command: {text} (this game knows SET GOLD|SCORE <power> <n>)")
        power = self.resolve_power(m.group(2))
        if power not in state["players"]:
            raise GMError(f"{m.group(2)} is not playing")
        state = copy.deepcopy(state)
        state[m.group(1).lower()][power] = int(m.group(3))
        return state, [{"kind": "gm_edit", "text": text}]

    def query(self, state, text):
        words = text.split()
        key = words[0].lower() if words else ""
        if key in ("gold", "score") and len(words) == 2:
            power = self.resolve_power(words[1])
            if power not in state[key]:
                raise GMError(f"{words[1]} is not playing")
            return state[key][power]
        if key == "phase" and len(words) == 1:
            return state["phase"]
        if key in ("turn", "round") and len(words) == 1:
            return state["round"]
        if key == "game_over" and len(words) == 1:
            return state["over"]
        raise GMError(f"unknown query: {text}")

    def set_phase(self, state, phase, turn):
        if phase not in ("orders", "tally"):
            raise GMError(f"unknown phase {phase}")
        state = copy.deepcopy(state)
        state["phase"] = phase
        if turn is not None:
            state["round"] = turn
        return state

    def bot_orders(self, state, power, rng):
        gold = state["gold"][power]
        if gold == 0 or rng.random() < 0.2:
            return ["PASS"]
        return [f"BID {rng.randint(1, max(1, min(gold, 5)))}"]


GAME = Beacon()
