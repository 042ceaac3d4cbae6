"""Europa Universalis: The Price of Power — Warfare (9), Peace Resolution (10),
Diplomatic Relations (11) and Phase 3 Peace & Rebels (4.3), moderated by email
on a scenario map given as data.

The game object only dispatches: the action phase and its queue live in
:mod:`.flow`, Phase 3 in :mod:`.phase3` and :mod:`.resolution`, the rules of
war, diplomacy and peace in their own modules.  Card effects the engine
cannot know (events, ideas, battle actions) come in as GM edits.
"""
from __future__ import annotations

from pbem.kit import treatybook
from pbem.kit.capabilities import Bots, GMCommands, Guide, Rulings, Scenarios, Treaties
from pbem.kit.gameapi import DONE_ON_ORDERS, Game, GMError, Order, PhaseInfo, Refused, Report, Roster
from pbem.kit.state_copy import copy_state

from . import audiences, bot, flow, gm, gm_edits, moves, orders, phase3, queries, report, resolution, scenario
from . import state as st
from . import validate as vd

RULES = ("pre-1.2", "1.2")
DECISIONS = {"cta": "Call to Arms", "retreat": "retreat", "leader": "leader"}


def _on(value) -> bool:
    return str(value).lower() in ("1", "true", "on", "yes")


class EuropaUniversalis(Game, Treaties, GMCommands, Rulings, Scenarios, Bots, Guide):
    """The game, with every capability but a map (pbem.kit.capabilities)."""

    name = "eu_tpop"
    title = "Europa Universalis: The Price of Power"
    min_players = 1
    max_players = 8

    # -- names -------------------------------------------------------------
    def roster(self, options, state=None):
        if state is not None and state.get("realms"):
            powers = tuple(r for r in state["order"] if state["realms"][r]["kind"] == "PR")
            powers += tuple(r for r, d in state["realms"].items() if d["kind"] == "PR" and r not in powers)
        else:
            powers = tuple(scenario.realm_names(options or {}))
        return Roster(powers, {p.lower().replace(" ", "-"): p for p in powers})

    # -- life cycle --------------------------------------------------------
    def options(self):
        return {
            "setup": ("sample", "the scenario: sample (an invented map shipped with the game) or empty"),
            "data": (None, "a GM data file (TOML): a whole scenario and/or dice tables; see data/DATA.md"),
            "rules": ("pre-1.2", "pre-1.2 (the rulebook text) or 1.2 (the 1.2 changes)"),
            "rounds": (3, "rounds to play (a round: the action phase, then Peace & Rebels)"),
            "advanced": (True, "1.2: play the advanced peace terms (vassalization, force conversion, "
                               "secure desired succession, negotiated peace)"),
            "npr_invasions": (True, "NPR invasions in Phase 3 step B (an advanced rule)"),
            "no_surrender": (False, "Optional Rule 3: No Surrender!"),
            "refresh_manpower": (True, "exhausted manpower is refreshed at the end of each round (the unseeded "
                                       "Phase 5 does it on the table); off: the GM refreshes it with edits"),
        }

    def windows(self):
        return {"action": "48h", "reaction": "24h", "peace": "72h"}

    def assumptions(self, options):
        return scenario.assumptions(options)

    def setup(self, players, options, dice):
        options = dict(options or {})
        version = str(options.get("rules", "pre-1.2")).lower()
        if version not in RULES:
            raise GMError(f"OPTION rules= takes pre-1.2 or 1.2, not {version!r}", "bad-option")
        state = st.empty_state(version, int(options.get("rounds", 3)), scenario.dice_tables(options),
                               _on(options.get("advanced", True)))
        state["npr_invasions"] = _on(options.get("npr_invasions", True))
        state["no_surrender"] = _on(options.get("no_surrender", False))
        state["refresh_manpower"] = _on(options.get("refresh_manpower", True))
        data = scenario.scenario_data(options)
        if data:
            scenario.load(state, data)
        names = {r.lower(): r for r in state["realms"]}
        seated = []
        for p in players:
            realm = names.get(p.lower().replace("-", " "), names.get(p.lower()))
            if realm is None:
                if data:
                    raise GMError(f"{p} is not a realm of the scenario", "unknown-power")
                realm = p
                state["realms"][realm] = st.new_realm("PR")
            if state["realms"][realm]["kind"] != "PR":
                raise GMError(f"{realm} is not a player realm in this scenario", "unknown-power")
            seated.append(realm)
        state["order"] = seated + [r for r in state["order"] if r not in seated]
        flow.start_round(state)
        return state

    def phase(self, state):
        rnd = state["round"]
        others = tuple(r for r in state["order"] if st.is_human(state, r))
        if state.get("over"):
            return PhaseInfo(f"{rnd}/over", "over", rnd, (), f"Round {rnd}: the game is over")
        if state["phase"] == "action":
            active = state["active"]
            owes = (active,) if active and st.is_human(state, active) else ()
            return PhaseInfo(f"{rnd}/action/{state['action_no']}", "action", rnd, owes,
                             f"Round {rnd} action {state['action_no']}: {active}",
                             may=tuple(r for r in others if r != active), window="action")
        if state["phase"] == "reaction":
            p = state["pending"]
            return PhaseInfo(f"{rnd}/action/{state['action_no']}/{state.get('pending_seq', 0)}", "reaction", rnd,
                             (p["realm"],), f"Round {rnd} action {state['action_no']}: {p['realm']} decides "
                             f"({DECISIONS[p['kind']]})",
                             may=tuple(r for r in others if r != p["realm"]), window="reaction")
        step = state["step"]
        owes = tuple(resolution.owes(state)) if step == "D" else ()
        return PhaseInfo(f"{rnd}/peace_and_rebels/{step}", "peace_and_rebels", rnd, owes,
                         f"Round {rnd} Peace & Rebels step {step}", window="peace" if owes else "turn",
                         done=DONE_ON_ORDERS)

    def is_over(self, state):
        return bool(state.get("over"))

    # -- orders ------------------------------------------------------------
    def parse_orders(self, state, power, lines):
        return orders.parse(state, power, lines)

    def validate(self, state, power, given):
        return vd.validate(state, power, list(given))

    def defaults(self, state, power):
        if state["phase"] == "action" and power == state["active"]:
            return [Order(power, "pass", {}, "PASS")]
        return []

    def describe_defaults(self, state, power):
        if state["phase"] == "action":
            return "PASS"
        if state["phase"] == "reaction" and state["pending"]["realm"] == power:
            return state["pending"]["default"]
        return "your wars continue (a Total Victory enforces keep_current_board_state)"

    def resolve(self, state, given, dice):
        state = copy_state(state)
        events: list = []
        vd.keep_standing(state, given, events)
        if state["phase"] == "action":
            active = state["active"]
            for realm, os in sorted(given.items()):
                if realm != active:
                    for o in os:
                        if o.kind == "diplomacy":
                            flow.offer(state, realm, o.args["realm"], o.args["lines"], events)
            mine = list(given.get(active, [])) if st.is_human(state, active) else \
                [Order(active, "pass", {}, "PASS")]
            flow.act(state, active, mine, events)
            self._continue(state, dice, events)
        elif state["phase"] == "reaction":
            flow.answer_pending(state, list(given.get(state["pending"]["realm"], [])), events)
            state["phase"] = "action"
            self._continue(state, dice, events)
        else:
            step = state["step"]
            phase3.run_step(state, step, given, dice, events)
            if step == "I":
                self._end_round(state, events)
            else:
                state["step"] = phase3.STEPS[phase3.STEPS.index(step) + 1]
        moves.evict_ships(state, events)
        return state, events

    def _continue(self, state, dice, events):
        pending = flow.run_queue(state, dice, events)
        if pending:
            state["phase"], state["pending"] = "reaction", pending
            state["pending_seq"] = state.get("pending_seq", 0) + 1
            events.append({"kind": "decision_needed", "realm": pending["realm"], "decision": pending["kind"],
                           "default": pending["default"]})
        else:
            flow.advance(state, events)

    def _end_round(self, state, events):
        if state.get("refresh_manpower"):
            flow.refresh_manpower(state, events)
        state["history"].append({"round": state["round"], "prestige": {r: state["realms"][r]["prestige"]
                                                                      for r in state["order"]}})
        if state["round"] >= state["rounds"]:
            state["over"], state["phase"] = True, "over"
            events.append({"kind": "game_over", "round": state["round"]})
            return
        state["round"] += 1
        flow.start_round(state)

    # -- typed inputs ------------------------------------------------------
    def gm_command(self, state, text, dice):
        state = copy_state(state)
        events = gm.apply(state, text)
        return state, events

    def stamp(self, state, events):
        """Each event's audience, by its kind (audiences.py)."""
        return audiences.stamp(events)

    def rule(self, state, ruling, dice):
        raise Refused(f"there is no open question {ruling.question!r}: this game asks none (card effects come "
                      "in as GM edits)", "unknown-question")

    def treaty(self, state, action, dice):
        state = copy_state(state)
        _, events = treatybook.act(state, action, list(self.roster({}, state).powers))
        return state, events

    def treaty_records(self, state, power, gm=False):
        return treatybook.visible(state, power, gm)

    # -- what people see ---------------------------------------------------
    def view(self, state, power):
        realms = {r: {k: d[k] for k in ("kind", "religion", "capital", "overlord", "prestige", "stability",
                                         "ducats", "manpower", "exhausted", "allied", "ruler")}
                  for r, d in state["realms"].items()}
        return {"round": state["round"], "phase": state["phase"], "step": state.get("step"),
                "active": state.get("active"), "passed": list(state["passed"]), "realms": realms,
                "provinces": state["provinces"], "units": state["units"], "rebels": state["rebels"],
                "wars": [w["pair"] for w in state["wars"]], "truces": list(state["truces"]),
                "alliances": state["alliances"], "marriages": state["marriages"], "influence": state["influence"],
                "status": report.status(state, power) if power in state["realms"] else []}

    def report(self, state, events, power):
        """The text and HTML mail drawn from the same data (report.py): the sentences of the
        events the reader may see (sentences.py), its sheet, its next steps."""
        data = report.report_data(state, events, power)
        data["view"] = self.view(state, power)
        return Report(report.text(data), data, "report.html.j2")

    def results(self, state):
        ranked = sorted(state["order"], key=lambda r: (-state["realms"][r]["prestige"], r))
        return [{"power": r, "score": state["realms"][r]["prestige"], "rank": i + 1} for i, r in enumerate(ranked)]

    def help_text(self, topic=None):
        if topic and topic.strip():
            from . import guide
            return guide.answer(topic) or ""
        return ("Europa Universalis: The Price of Power. One action a turn, in ORDERS ... ENDORDERS:\n  "
                + "\n  ".join(orders.FORMS)
                + "\nPeace terms: " + ", ".join(orders.TERMS)
                + "\nStanding orders may be sent at any time; the README lists every form and default.")

    def help_topics(self, state):
        from . import guide
        return guide.topics()

    def options_now(self, state, power):
        """The acting realm's actions, a decision's answers, the peace orders of step D, and
        standing orders in others' turns, each choice checked by validate (guide.py)."""
        from . import guide
        return guide.options_now(state, power)

    def order_forms(self):
        return list(orders.FORMS)

    # -- scenarios ---------------------------------------------------------
    def query(self, state, text):
        return queries.answer(state, text)

    def set_phase(self, state, phase, turn, step=None):
        """The Action Phase, or Phase 3 (Peace & Rebels, 4.3) at its step A-I."""
        state = copy_state(state)
        if turn is not None:
            state["round"] = turn
        if phase == "action":
            flow.start_round(state)
        elif phase in ("peace_and_rebels", "peace", "p3"):
            state["phase"], state["step"], state["active"] = "p3", "A", None
        else:
            raise GMError(f"unknown phase {phase} (action or peace_and_rebels)")
        if step is not None:
            if state["phase"] != "p3" or str(step).upper() not in phase3.STEPS:
                raise GMError(f"STEP {step}: Peace & Rebels has steps {', '.join(phase3.STEPS)}")
            gm_edits.set_step(state, str(step).upper())
        return state

    # -- bots --------------------------------------------------------------
    def bot_orders(self, state, power, rng):
        return bot.orders_for(state, power, rng)

    def turns(self, options):
        """The rounds the option ``rounds`` asks for (a round: the action phase, then Peace & Rebels)."""
        return list(range(1, int(options.get("rounds", 3)) + 1))

    def demo_setup(self, turns=None):
        """The three player realms of the sample map, as bots; ``turns`` rounds (default 3)."""
        if turns is not None and turns < 1:
            raise GMError(f"a game has at least 1 round, not {turns}")
        return ["Valmont", "Corvia", "Ostmark"], {"rounds": 3 if turns is None else turns}


GAME = EuropaUniversalis()
