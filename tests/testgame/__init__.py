"""Beacon: a tiny game that exercises the whole moderator contract.

Two to four powers (North, South, East by default; the ``powers`` option names
others) bid gold for a beacon over a few rounds.  Each round has an
``orders`` phase (everyone owes ``BID <n>`` or ``PASS``) and a ``tally``
phase that needs no orders: the highest bid wins a point and pays its bid; a
tie is broken by one die roll.

With ``claims=on`` a won round opens a ``claim`` reaction window (its own
deadline class, ``reaction``): the winner owes ``KEEP`` or ``GIFT <power>``,
every other power *may* send ``PROTEST`` (optional responders), and only the
winner is told the result.  A protest is a question for the GM:
``GM RULE protest-<round> UPHELD`` takes the point away, ``DISMISSED`` keeps it.

Treaties are typed: a line ``NO BID ABOVE <n>`` in a treaty's text binds its
parties once it is in force; a party bidding above it is warned when it
orders, and breaks the treaty when the bids are opened.

It is a test fixture, not a shipped game.
"""
from __future__ import annotations

import copy
import difflib
import re

from pbem.kit import audience, treatybook
from pbem.kit.gameapi import Game, GMError, NOT_AN_ORDER, Order, OrderOption, ParseResult, PhaseInfo, Problem, Refused, Report, Roster

ROUNDS = 3
DEFAULT_POWERS = ("North", "South", "East")
_ALIASES = {"n": "North", "northern": "North", "s": "South", "southern": "South",
            "e": "East", "eastern": "East", "w": "West", "western": "West"}
_CAP = re.compile(r"^\s*NO\s+BID\s+ABOVE\s+(\d+)\s*$", re.I | re.M)


def _public(events: list[dict]) -> list[dict]:
    """Beacon's bids, rounds, gifts and protests happen in the open: every event is public
    unless it was made with an audience (a treaty's)."""
    return [e if audience.KEY in e else audience.tag(e, audience.public()) for e in events]


def _on(value) -> bool:
    return str(value).lower() in ("1", "true", "on", "yes")


class Beacon(Game):
    name = "testgame"
    title = "Beacon (test game)"
    min_players = 2
    max_players = 4
    treaties = True

    def roster(self, options, state=None):
        text = str((options or {}).get("powers") or ",".join(DEFAULT_POWERS))
        names = [n.strip().title() for n in text.split(",") if n.strip()]
        aliases = {k: v for k, v in _ALIASES.items() if v in names}
        return Roster(tuple(names), aliases)

    def options(self):
        return {"gold": (10, "gold each power starts with"), "rounds": (ROUNDS, "rounds to play"),
                "powers": (",".join(DEFAULT_POWERS), "the powers, comma-separated"),
                "claims": ("off", "on: a won round opens a claim window (KEEP, GIFT, PROTEST)")}

    def windows(self):
        return {"reaction": "12h"}

    def setup(self, players, options, dice):
        roster = self.roster(options)
        players = [roster.resolve(p) or p for p in players] or list(roster.powers[:2])
        for p in players:
            if p not in roster.powers:
                raise GMError(f"unknown power {p!r}")
        gold = int(options.get("gold", 10))
        return {"round": 1, "phase": "orders", "players": players,
                "rounds": int(options.get("rounds", ROUNDS)), "claims": _on(options.get("claims", "off")),
                "gold": {p: gold for p in players}, "score": {p: 0 for p in players},
                "bids": {}, "over": False, "history": [], "winner": None, "questions": {},
                "treaties": {}}

    def phase(self, state):
        key = f"{state['round']}/{state['phase']}"
        label = f"Round {state['round']} {state['phase'].title()}"
        if state["over"]:
            return PhaseInfo(key, state["phase"], state["round"], (), label)
        if state["phase"] == "orders":
            return PhaseInfo(key, "orders", state["round"], tuple(state["players"]), label)
        if state["phase"] == "claim":
            winner = state["winner"]
            others = tuple(p for p in state["players"] if p != winner)
            return PhaseInfo(key, "claim", state["round"], (winner,), label, may=others,
                             window="reaction", audience=(winner,))
        return PhaseInfo(key, state["phase"], state["round"], (), label)

    def is_over(self, state):
        return state["over"]

    # -- orders ------------------------------------------------------------
    _FORMS = {"orders": ("BID <n>", "PASS"), "claim": ("KEEP", "GIFT <power>", "PROTEST")}

    def parse_orders(self, state, power, lines):
        result = ParseResult()
        for number, text in lines:
            words = text.split()
            if not words:
                continue
            verb = words[0].upper()
            if verb == "BID" and len(words) == 2 and words[1].isdecimal():
                n = int(words[1])
                result.orders.append(Order(power, "bid", {"amount": n}, f"BID {n}", number))
            elif verb in ("PASS", "KEEP", "PROTEST") and len(words) == 1:
                result.orders.append(Order(power, verb.lower(), {}, verb, number))
            elif verb == "GIFT" and len(words) == 2:
                to = self.roster({}, state).resolve(words[1])
                if to is None:
                    result.problems.append(Problem("unknown-power", f"{words[1]!r} is not playing", number,
                                                   self.roster({}, state).nearest(words[1]), "invalid"))
                else:
                    result.orders.append(Order(power, "gift", {"to": to}, f"GIFT {to}", number))
            elif not difflib.get_close_matches(verb, ["BID", "PASS", "KEEP", "GIFT", "PROTEST"], n=1):
                result.problems.append(Problem(NOT_AN_ORDER, f"{text!r} is no order", number, None, "invalid"))
            else:
                near = difflib.get_close_matches(verb, ["BID", "PASS", "KEEP", "GIFT", "PROTEST"], n=1)
                result.problems.append(Problem("invalid-order", f"cannot read {text!r}: write "
                                               + " or ".join(self._FORMS.get(state["phase"], ("BID <n>",))),
                                               number, near[0] if near else None, "invalid"))
        return result

    def validate(self, state, power, orders):
        allowed = {"orders": {"bid", "pass"}, "claim": {"keep", "gift"} if power == state.get("winner")
                   else {"protest"}}.get(state["phase"], set())
        problems = []
        for o in orders:
            if o.kind not in allowed:
                problems.append(Problem("wrong-phase", f"{o.canonical} is not an order of the "
                                        f"{state['phase']} phase for {power}", o.line))
        kept = [o for o in orders if o.kind in allowed]
        for o in kept[1:]:
            problems.append(Problem("one-order-a-phase", "only one order per phase counts", o.line))
        for o in kept[:1]:
            if o.kind == "bid" and o.args["amount"] > state["gold"][power]:
                problems.append(Problem("insufficient-gold",
                                        f"you bid {o.args['amount']} but have {state['gold'][power]} gold",
                                        o.line, str(state["gold"][power])))
            elif o.kind == "bid":
                for tid, cap in self._caps(state, power):
                    if o.args["amount"] > cap:
                        problems.append(Problem("breaks-treaty", f"a bid above {cap} breaks treaty {tid}; "
                                                "the bid stands if you keep it", o.line, kind="warning"))
            elif o.kind == "gift" and (o.args["to"] == power or o.args["to"] not in state["players"]):
                problems.append(Problem("bad-gift", "give the point to another player", o.line))
        return problems

    @staticmethod
    def _caps(state, power):
        for tid, t in sorted(state.get("treaties", {}).items()):
            if t["status"] == "in_force" and power in t["parties"]:
                for found in _CAP.finditer(t.get("text", "")):
                    yield tid, int(found.group(1))

    def defaults(self, state, power):
        if state["phase"] == "orders":
            return [Order(power, "pass", {}, "PASS")]
        if state["phase"] == "claim" and power == state.get("winner"):
            return [Order(power, "keep", {}, "KEEP")]
        return []

    def resolve(self, state, orders, dice):
        state = copy.deepcopy(state)
        if state["phase"] == "orders":
            return state, self._bids(state, orders)
        if state["phase"] == "claim":
            return state, self._claim(state, orders)
        return state, self._tally(state, dice)

    def stamp(self, state, events):
        return _public(events)

    def _bids(self, state, orders):
        events = []
        for power in state["players"]:
            given = orders.get(power) or self.defaults(state, power)
            o = given[0]
            bid = o.args.get("amount", 0) if o.kind == "bid" else 0
            state["bids"][power] = min(bid, state["gold"][power])
            events.append({"kind": "bid", "power": power, "amount": state["bids"][power],
                           "default": not orders.get(power)})
            for tid, cap in list(self._caps(state, power)):
                if state["bids"][power] > cap:
                    t = state["treaties"][tid]
                    t["status"] = "broken"
                    t["breaches"].append({"at": "", "by": "moderator", "against": power,
                                          "text": f"bid {state['bids'][power]} above {cap}", "ruled": "broken"})
                    events.append(treatybook.event(t, "broken", breaker=power))
        state["phase"] = "tally"
        return events

    def _tally(self, state, dice):
        events = []
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
        state["bids"], state["winner"] = {}, winner
        if winner and state.get("claims"):
            state["phase"] = "claim"
        else:
            self._next_round(state, events)
        return events

    def _claim(self, state, orders):
        winner, events = state["winner"], []
        choice = (orders.get(winner) or self.defaults(state, winner))[0]
        if choice.kind == "gift":
            state["score"][winner] -= 1
            state["score"][choice.args["to"]] += 1
            events.append({"kind": "gift", "from": winner, "to": choice.args["to"]})
        else:
            events.append({"kind": "kept", "power": winner})
        holder = choice.args["to"] if choice.kind == "gift" else winner
        protesters = sorted(p for p, os in orders.items() if p != winner and any(o.kind == "protest" for o in os))
        if protesters:
            qid = f"protest-{state['round']}"
            state["questions"][qid] = {"holder": holder, "by": protesters, "open": True}
            events.append({"kind": "question", "id": qid, "by": protesters, "holder": holder})
        self._next_round(state, events)
        return events

    def _next_round(self, state, events):
        state["winner"] = None
        if state["round"] >= state["rounds"]:
            state["over"] = True
            state["phase"] = "over"
            events.append({"kind": "game_over", "scores": dict(state["score"])})
        else:
            state["round"] += 1
            state["phase"] = "orders"

    # -- typed inputs ------------------------------------------------------
    def gm_command(self, state, text, dice):
        m = re.fullmatch(r"SET\s+(GOLD|SCORE)\s+(\S+)\s+(\d+)", text.strip(), re.I)
        if not m:
            raise GMError(f"unknown GM command: {text} (this game knows SET GOLD|SCORE <power> <n>)")
        power = self.roster({}, state).resolve(m.group(2))
        if power not in state["players"]:
            raise GMError(f"{m.group(2)} is not playing")
        state = copy.deepcopy(state)
        state[m.group(1).lower()][power] = int(m.group(3))
        # a power's gold is its own; the score is public
        seen_by = audience.powers(power) if m.group(1).upper() == "GOLD" else audience.public()
        return state, [audience.tag({"kind": "gm_edit", "text": text}, seen_by)]

    def rule(self, state, ruling, dice):
        question = state["questions"].get(ruling.question.lower())
        if question is None or not question["open"]:
            known = ", ".join(q for q, v in state["questions"].items() if v["open"]) or "none"
            raise Refused(f"there is no open question {ruling.question!r} (open: {known})", "unknown-question")
        found = re.match(r"\s*([A-Za-z]+)", ruling.ruling)
        verdict = found.group(1).upper() if found else ""
        if verdict not in ("UPHELD", "DISMISSED"):
            raise Refused("rule UPHELD (the point is taken away) or DISMISSED", "bad-ruling")
        state = copy.deepcopy(state)
        question = state["questions"][ruling.question.lower()]
        question["open"], question["ruling"] = False, verdict
        if verdict == "UPHELD":
            state["score"][question["holder"]] -= 1
        return state, [{"kind": "ruling", "question": ruling.question.lower(), "ruling": verdict}]

    def treaty(self, state, action, dice):
        state = copy.deepcopy(state)
        record, events = treatybook.act(state, action, list(state["players"]))
        record["clauses"] = [f"NO BID ABOVE {m.group(1)}" for m in _CAP.finditer(record.get("text", ""))]
        return state, events

    def treaty_records(self, state, power, gm=False):
        return treatybook.visible(state, power, gm)

    # -- views and reports -------------------------------------------------
    def view(self, state, power):
        return {"round": state["round"], "phase": state["phase"], "score": dict(state["score"]),
                "gold": {p: g for p, g in state["gold"].items() if power in (None, p) or state["over"]},
                "history": state["history"]}

    def report(self, state, events, power):
        lines = []
        for e in events:
            if e["kind"] == "round":
                lines.append(f"Round {e['round']}: beacon won by {e['winner']} for {e['bid']} gold.")
            elif e["kind"] == "tie_break":
                lines.append(f"Tie between {', '.join(e['powers'])}: die {e['die']} gives it to {e['winner']}.")
            elif e["kind"] == "gift":
                lines.append(f"{e['from']} gave the point to {e['to']}.")
            elif e["kind"] == "kept":
                lines.append(f"{e['power']} kept the point.")
            elif e["kind"] == "question":
                lines.append(f"{', '.join(e['by'])} protested; the GM rules on {e['id']}.")
            elif e["kind"] == "treaty" and e.get("breaker") and treatybook.may_see(e, power):
                lines.append(f"{e['breaker']} broke treaty {e['id']}.")
        lines.append("Scores: " + ", ".join(f"{p} {s}" for p, s in sorted(state["score"].items())))
        if power in state["gold"]:
            lines.append(f"Your gold: {state['gold'][power]}")
        if state["over"]:
            lines.append("The game is over.")
        return Report("\n".join(lines), {"view": self.view(state, power), "lines": lines}, "report.html.j2")

    def map_svg(self, state, power):
        """A row of beacons, one per power, lit by its score: a trivial map
        that still goes through every path a real one does."""
        cells = "".join(
            f'<rect x="{10 + 60 * i}" y="10" width="50" height="30" fill="{"#f2b705" if state["score"][p] else "#ccc"}"/>'
            f'<text x="{15 + 60 * i}" y="55" font-size="10">{p} {state["score"][p]}</text>'
            for i, p in enumerate(state["players"]))
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 260 70" role="img" '
                f'aria-labelledby="beacon-title"><title id="beacon-title">Beacons after round '
                f'{state["round"]}</title>{cells}</svg>\n')

    def map_text(self, state, power):
        return [f"{p}: {state['score'][p]} beacons" for p in state["players"]]

    def charts(self, state, final=False):
        out = {"Score": {p: state["score"][p] for p in state["players"]}}
        if final:
            out["Gold"] = {p: state["gold"][p] for p in state["players"]}
        return out

    def results(self, state):
        ranked = sorted(state["players"], key=lambda p: (-state["score"][p], -state["gold"][p], p))
        return [{"power": p, "score": state["score"][p], "rank": i + 1} for i, p in enumerate(ranked)]

    def help_text(self, topic=None):
        if topic:
            return ""  # its topics are help_on's
        return ("Orders: BID <n> (gold you offer for this round's beacon) or PASS; in a claim window "
                "the winner sends KEEP or GIFT <power>, the others may send PROTEST.")

    def order_forms(self):
        return [f for forms in self._FORMS.values() for f in forms]

    def help_topics(self, state):
        return ["BID", "GOLD"]

    def help_on(self, state, power, topic):
        word = topic.upper()
        if word == "BID":
            return "BID <n>: offer n gold for this round's beacon; the highest bid wins it and pays."
        if word == "GOLD" and state is not None:
            return "Gold: " + ", ".join(f"{p} {g}" for p, g in sorted(state["gold"].items())
                                        if power in (None, p))
        return None

    def options_now(self, state, power):
        if state["phase"] == "orders" and power in state["players"]:
            gold = state["gold"][power]
            return [OrderOption("BID <n>", f"you have {gold} gold", tuple(str(n) for n in range(1, gold + 1))),
                    OrderOption("PASS", "bid nothing")]
        if state["phase"] == "claim" and power == state.get("winner"):
            others = tuple(p for p in state["players"] if p != power)
            return [OrderOption("KEEP"), OrderOption("GIFT <power>", "give the point away", others)]
        return []

    def order_summary(self, state, power, orders):
        bids = [o.args["amount"] for o in orders if o.kind == "bid"]
        if not bids:
            return []
        return [f"Your bid {bids[0]} of your {state['gold'][power]} gold; "
                f"{state['gold'][power] - bids[0]} left if it wins."]

    # -- scenarios ---------------------------------------------------------
    def query(self, state, text):
        words = text.split()
        key = words[0].lower() if words else ""
        if key in ("gold", "score") and len(words) == 2:
            power = self.roster({}, state).resolve(words[1])
            if power not in state[key]:
                raise GMError(f"{words[1]} is not playing")
            return state[key][power]
        if key == "phase" and len(words) == 1:
            return state["phase"]
        if key in ("turn", "round") and len(words) == 1:
            return state["round"]
        if key == "game_over" and len(words) == 1:
            return state["over"]
        if key == "treaty" and len(words) == 2:
            record = treatybook.find(state, words[1])
            return record["status"] if record else "none"
        if key == "question" and len(words) == 2:
            q = state["questions"].get(words[1].lower())
            return "none" if q is None else ("open" if q["open"] else q["ruling"].lower())
        raise GMError(f"unknown query: {text}")

    def set_phase(self, state, phase, turn, step=None):
        if phase not in ("orders", "tally") or step is not None:
            raise GMError(f"unknown phase {phase}" + (f" step {step} (no phase has steps)" if step else ""))
        state = copy.deepcopy(state)
        state["phase"] = phase
        if turn is not None:
            state["round"] = turn
        return state

    def bot_orders(self, state, power, rng):
        if state["phase"] == "claim":
            return ["KEEP"] if power == state["winner"] else []
        gold = state["gold"][power]
        if gold == 0 or rng.random() < 0.2:
            return ["PASS"]
        return [f"BID {rng.randint(1, max(1, min(gold, 5)))}"]

    def turns(self, options):
        return list(range(1, int(options.get("rounds", ROUNDS)) + 1))

    def demo_setup(self, turns=None):
        return list(DEFAULT_POWERS), {"claims": "on", **({"rounds": turns} if turns else {})}


GAME = Beacon()
