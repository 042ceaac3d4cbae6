"""Beacon with every capability: the minimal Beacon (tests/testgame) and all that a
game may declare besides (pbem.kit.capabilities), for the moderator's tests.

With ``claims=on`` a won round opens a ``claim`` reaction window (its own
deadline class, ``reaction``): the winner owes ``KEEP`` or ``GIFT <power>``,
every other power that bid in the round *may* send ``PROTEST`` (optional
responders), one that passed is asked nothing and told why (``nothing_due``),
and only the winner is told the result.  A protest is a question for the GM:
``GM RULE protest-<round> UPHELD`` takes the point away, ``DISMISSED`` keeps it.

Treaties are typed: a line ``NO BID ABOVE <n>`` in a treaty's text binds its
parties once it is in force; a party bidding above it is warned when it
orders, and breaks the treaty when the bids are opened.

GM commands (``SET GOLD|SCORE <power> <n>``), a map (a row of beacons), scenario
queries, bots and a guide for players complete it.  It is a test fixture, not a
shipped game.
"""
from __future__ import annotations

import re

from pbem.kit import audience, treatybook
from pbem.kit.capabilities import Bots, GMCommands, Guide, Maps, Rulings, Scenarios, Treaties
from pbem.kit.gameapi import GMError, Order, OrderOption, PhaseInfo, Problem, Refused, Report, copy_state
from tests.testgame import DEFAULT_POWERS, ROUNDS, Beacon as MinimalBeacon

_CAP = re.compile(r"^\s*NO\s+BID\s+ABOVE\s+(\d+)\s*$", re.I | re.M)


def _on(value) -> bool:
    return str(value).lower() in ("1", "true", "on", "yes")


class Beacon(MinimalBeacon, Treaties, GMCommands, Rulings, Maps, Scenarios, Bots, Guide):
    name = "beacon"
    title = "Beacon (test game)"
    VERBS = ("BID", "PASS", "KEEP", "GIFT", "PROTEST")
    FORMS = {"orders": ("BID <n>", "PASS"), "claim": ("KEEP", "GIFT <power>", "PROTEST")}

    def options(self):
        return {**super().options(),
                "claims": ("off", "on: a won round opens a claim window (KEEP, GIFT, PROTEST)")}

    def windows(self):
        return {"reaction": "12h"}

    def setup(self, players, options, dice):
        state = super().setup(players, options, dice)
        state.update(claims=_on(options.get("claims", "off")), questions={}, treaties={})
        return state

    def phase(self, state):
        if state["phase"] != "claim" or state["over"]:
            return super().phase(state)
        winner = state["winner"]
        return PhaseInfo(f"{state['round']}/claim", "claim", state["round"], (winner,), f"Round {state['round']} Claim",
                         may=tuple(p for p in state["players"] if p != winner and self._bid(state, p)),
                         window="reaction", audience=(winner,))

    @staticmethod
    def _bid(state, power):
        """What ``power`` bid in the round just tallied."""
        return state["history"][-1]["bids"].get(power, 0) if state["history"] else 0

    def nothing_due(self, state, power):
        if state["phase"] == "claim" and power != state["winner"] and not self._bid(state, power):
            return f"you bid nothing in round {state['round']}, so you have no bid to protest with"
        return None

    # -- orders ------------------------------------------------------------
    def _read(self, state, power, words, number):
        verb = words[0].upper()
        if verb in ("KEEP", "PROTEST") and len(words) == 1:
            return Order(power, verb.lower(), {}, verb, number)
        if verb != "GIFT" or len(words) != 2:
            return super()._read(state, power, words, number)
        to = self.roster({}, state).resolve(words[1])
        if to is None:
            return Problem("unknown-power", f"{words[1]!r} is not playing", number,
                           self.roster({}, state).nearest(words[1]), "invalid")
        return Order(power, "gift", {"to": to}, f"GIFT {to}", number)

    def _allowed(self, state, power):
        if state["phase"] == "claim":
            return {"keep", "gift"} if power == state.get("winner") else {"protest"}
        return super()._allowed(state, power)

    def _check(self, state, power, o):
        problems = super()._check(state, power, o)
        if o.kind == "bid" and not problems:
            problems = [Problem("breaks-treaty", f"a bid above {cap} breaks treaty {tid}; the bid stands if you "
                                "keep it", o.line, kind="warning")
                        for tid, cap in self._caps(state, power) if o.args["amount"] > cap]
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
        if state["phase"] == "claim":
            return [Order(power, "keep", {}, "KEEP")] if power == state.get("winner") else []
        return super().defaults(state, power)

    def resolve(self, state, orders, dice):
        if state["phase"] != "claim":
            return super().resolve(state, orders, dice)
        state = copy_state(state)
        return state, self._claim(state, orders)

    def _after_bid(self, state, power, events):
        for tid, cap in list(self._caps(state, power)):
            if state["bids"][power] > cap:
                t = state["treaties"][tid]
                t["status"] = "broken"
                t["breaches"].append({"at": "", "by": "moderator", "against": power,
                                      "text": f"bid {state['bids'][power]} above {cap}", "ruled": "broken"})
                events.append(treatybook.event(t, "broken", breaker=power))

    def _won(self, state, winner, events):
        if winner and state.get("claims"):
            state["phase"] = "claim"
        else:
            super()._won(state, winner, events)

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

    # -- typed inputs ------------------------------------------------------
    def gm_command(self, state, text, dice):
        m = re.fullmatch(r"SET\s+(GOLD|SCORE)\s+(\S+)\s+(\d+)", text.strip(), re.I)
        if not m:
            raise GMError(f"unknown GM command: {text} (this game knows SET GOLD|SCORE <power> <n>)")
        power = self.roster({}, state).resolve(m.group(2))
        if power not in state["players"]:
            raise GMError(f"{m.group(2)} is not playing")
        state = copy_state(state)
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
        state = copy_state(state)
        question = state["questions"][ruling.question.lower()]
        question["open"], question["ruling"] = False, verdict
        if verdict == "UPHELD":
            state["score"][question["holder"]] -= 1
        return state, [{"kind": "ruling", "question": ruling.question.lower(), "ruling": verdict}]

    def treaty(self, state, action, dice):
        state = copy_state(state)
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
        lines = super().report(state, events, power).data["lines"]
        return Report("\n".join(lines), {"view": self.view(state, power), "lines": lines}, "report.html.j2")

    def _line(self, e, power):
        if e["kind"] == "gift":
            return f"{e['from']} gave the point to {e['to']}."
        if e["kind"] == "kept":
            return f"{e['power']} kept the point."
        if e["kind"] == "question":
            return f"{', '.join(e['by'])} protested; the GM rules on {e['id']}."
        if e["kind"] == "treaty" and e.get("breaker") and treatybook.may_see(e, power):
            return f"{e['breaker']} broke treaty {e['id']}."
        return super()._line(e, power)

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

    # -- the guide ---------------------------------------------------------
    def help_text(self, topic=None):
        if topic:
            return ""  # its topics are help_on's
        return ("Orders: BID <n> (gold you offer for this round's beacon) or PASS; in a claim window "
                "the winner sends KEEP or GIFT <power>, the others may send PROTEST.")

    def order_forms(self):
        return [f for forms in self.FORMS.values() for f in forms]

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
        state = copy_state(state)
        state["phase"] = phase
        if turn is not None:
            state["round"] = turn
        return state

    # -- bots --------------------------------------------------------------
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
