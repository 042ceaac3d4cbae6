"""Europa Universalis: The Price of Power — Warfare (9), Peace Resolution (10),
Diplomatic Relations (11) and Phase 3 Peace & Rebels (4.3), moderated by email
on a scenario map given as data.

The game object walks the sequence of play, a table in :mod:`.sequence` (the
Action Phase, its decision windows, Phase 3 Peace & Rebels step by step, the end
of the round); the rules each phase plays are in :mod:`.phases` (the Action
Phase and its queue, Phase 3's steps, its Peace Resolution), the rules of war,
diplomacy and peace in their own modules.  Card effects the engine cannot know
(events, ideas, battle actions) come in as GM edits.
"""
from __future__ import annotations

from pbem.kit import treatybook
from pbem.kit.positions import told
from pbem.kit.capabilities import Bots, GMCommands, Guide, Maps, Rulings, Scenarios, Treaties
from pbem.kit.gameapi import Game, GMError, Refused, Report, Roster
from pbem.kit.state_copy import copy_state

from . import (audiences, board_words, gm, gm_edits, guide, mapdraw, moves, orders, positions, queries, report,
               scenario, scenario_check, sequence)

from .phases import action, peace_and_rebels
from . import state as st
from . import validate as vd

RULES = ("pre-1.2", "1.2")


def _on(value) -> bool:
    return str(value).lower() in ("1", "true", "on", "yes")


class EuropaUniversalis(Game, Treaties, GMCommands, Rulings, Scenarios, Bots, Guide, Maps):
    """The game, with every capability but a map (pbem.kit.capabilities)."""

    name = "eu_tpop"
    title = "Europa Universalis: The Price of Power"
    turn_word = "Round"   # 4: the game is played in rounds, each of an Action Phase and Phase 3
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

    def check_data(self, text):
        return scenario_check.check(text)

    def setup(self, players, options, dice):
        options = dict(options or {})
        scenario.refuse_broken(options)
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
        action.start_round(state)
        return state

    def phase(self, state):
        """Who is asked now: the row of the sequence of play the game is in (sequence.py)."""
        return sequence.row(state).info(state)

    def is_over(self, state):
        return bool(state.get("over"))

    # -- orders ------------------------------------------------------------
    def parse_orders(self, state, power, lines):
        return sequence.row(state).parse(state, power, lines)

    def validate(self, state, power, given):
        return sequence.validate(state, power, list(given))

    def defaults(self, state, power):
        return sequence.row(state).defaults(state, power)

    def describe_defaults(self, state, power):
        return sequence.row(state).describe(state, power)

    def resolve(self, state, given, dice):
        """One window of the sequence of play (sequence.py): standing orders take effect, the
        phase's rules play, and ships left at sea without a port are moved."""
        state = copy_state(state)
        events: list = []
        vd.keep_standing(state, given, events)
        sequence.row(state).resolve(state, given, dice, events)
        moves.evict_ships(state, events)
        return state, events

    # -- typed inputs ------------------------------------------------------
    def gm_command(self, state, text, dice):
        """One GM edit (gm.lark): it changes the game or is refused with the reason, and
        every player whose position it changed is told what changed (pbem.kit.positions)."""
        new = copy_state(state)
        events = gm.apply(new, text)
        if new == state:
            raise GMError(f"{text}: this changes nothing (the game already stands so)", "no-change")
        realms = dict.fromkeys([*self.roster({}, state).powers, *self.roster({}, new).powers])
        return new, events + told(realms, lambda r: positions.position(state, r),
                                     lambda r: positions.position(new, r))

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
    def charts(self, state, final=False):
        """Each player realm's prestige and stability (on the board's tracks, public) and the
        provinces it owns (the map), after every round."""
        realms = [r for r in self.roster({}, state).powers if r in state["realms"]]
        owned = {r: sum(1 for p in state["provinces"].values() if p.get("owner") == r) for r in realms}
        return {"Prestige": {r: state["realms"][r]["prestige"] for r in realms},
                "Stability": {r: state["realms"][r]["stability"] for r in realms},
                "Provinces owned": owned}

    def view(self, state, power):
        realms = {r: {k: d[k] for k in ("kind", "religion", "capital", "overlord", "prestige", "stability",
                                         "ducats", "manpower", "exhausted", "allied", "ruler")}
                  for r, d in state["realms"].items()}
        # The phase and step in the rules' words: the archive shows these at a glance.
        step = next((f"{x.letter}: {x.title}" for x in peace_and_rebels.SEQUENCE if x.letter == state.get("step")),
                    None) if state["phase"] == "p3" else None
        return {"round": state["round"], "phase": sequence.row(state).title, "step": step,
                "active": state.get("active"), "passed": list(state["passed"]), "realms": realms,
                "provinces": state["provinces"], "units": state["units"], "rebels": state["rebels"],
                "wars": [w["pair"] for w in state["wars"]], "truces": list(state["truces"]),
                "alliances": state["alliances"], "marriages": state["marriages"], "influence": state["influence"],
                "claims": state["claims"], "cbs": state["cbs"], "emperor": state.get("emperor"),
                "imperial_authority": board_words.board(state)["imperial_authority"],
                "leaders_on_board": {r: [{"name": ld["name"], "at": ld["at"]} for ld in lds if ld.get("at")]
                                     for r, lds in state["leaders"].items()},
                "status": report.status(state, power) if power in state["realms"] else []}

    def map_svg(self, state, power):
        """The public board as a diagram of Area and Sea Zone cards (mapdraw.py), drawn once
        for all readers of a phase; the reader's title and the rings around its provinces are
        its own layer."""
        if not state.get("areas"):
            return None
        label = self.phase(state).label
        whose = f"{power}'s map" if power else "The board"
        return mapdraw.draw(state, title=f"{whose}: {label}", mine=(power,) if power else ())

    def map_layout(self, scenario_data):
        """Every Area's and Sea Zone's card centre on the map of ``scenario_data`` (maplayout.py):
        the places it gives keep theirs, the others are laid out from the adjacency."""
        if "scenario" not in scenario_data and "areas" not in scenario_data:
            raise GMError("the file holds no scenario ([scenario], [areas.<Area>] ...)", "bad-data-file")
        state = st.empty_state("pre-1.2", 1, {})
        scenario.load(state, scenario_data)
        _, pos, _ = mapdraw.layout(state, board_words.board(state))
        out: dict = {"areas": {}, "seas": {}}
        for name, (x, y) in sorted(pos.items()):
            out["areas" if name in state["areas"] else "seas"][name] = [round(x), round(y)]
        return out

    def map_text(self, state, power):
        """The same board in words, one line per realm, relation and place (board_words.py)."""
        if not state.get("areas"):
            return []
        return board_words.lines(board_words.board(state))

    def report(self, state, events, power):
        """The text and HTML mail drawn from the same data (report.py): the sentences of the
        events the reader may see (sentences.py), its sheet, its next steps."""
        data = report.report_data(state, events, power, sequence.row(state).next_steps(state, power))
        data["view"] = self.view(state, power)
        return Report(report.text(data), data, "report.html.j2")

    def gm_status(self, state):
        """The GM's STATUS: the public board in words, then every realm's sheet and standing
        orders (report.py)."""
        if not state.get("realms"):
            return []
        public = report.text(report.report_data(state, [], None, []))
        return public.rstrip().splitlines() + [""] + report.gm_lines(state)

    def results(self, state):
        ranked = sorted(state["order"], key=lambda r: (-state["realms"][r]["prestige"], r))
        return [{"power": r, "score": state["realms"][r]["prestige"], "rank": i + 1} for i, r in enumerate(ranked)]

    def help_text(self, topic=None):
        if topic and topic.strip():
            return guide.answer(topic) or ""
        return ("Europa Universalis: The Price of Power. One action a turn, in ORDERS ... ENDORDERS:\n  "
                + "\n  ".join(orders.FORMS)
                + "\nPeace terms: " + ", ".join(orders.TERMS)
                + "\nStanding orders may be sent at any time; HELP STANDING gives each one's default.")

    def help_topics(self, state):
        return guide.topics() + (["MAP"] if state and state.get("areas") else [])

    def help_on(self, state, power, topic):
        """``HELP <Area|province|Sea Zone>``: that place on the public board (board_words.py);
        any other topic: the guide."""
        if state and state.get("areas"):
            if " ".join(topic.upper().split()) == "MAP":
                return board_words.map_help(state)
            place = board_words.place_help(state, topic)
            if place:
                return place
        return self.help_text(topic) or None

    def options_now(self, state, power):
        """The acting realm's actions, a decision's answers, the peace orders of step D, and
        standing orders in others' turns, each choice checked by validate (guide.py)."""
        if power not in state.get("realms", {}):
            return []
        return sequence.row(state).options(state, power)

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
            action.start_round(state)
        elif phase in ("peace_and_rebels", "peace", "p3"):
            state["phase"], state["step"], state["active"] = "p3", "A", None
        else:
            raise GMError(f"unknown phase {phase} (action or peace_and_rebels)")
        if step is not None:
            if state["phase"] != "p3" or str(step).upper() not in peace_and_rebels.STEPS:
                raise GMError(f"STEP {step}: Peace & Rebels has steps {', '.join(peace_and_rebels.STEPS)}")
            gm_edits.set_step(state, str(step).upper())
        return state

    # -- bots --------------------------------------------------------------
    def bot_orders(self, state, power, rng):
        return sequence.row(state).bot(state, power, rng)

    def turns(self, options):
        """The rounds the option ``rounds`` asks for (a round: the action phase, then Peace & Rebels)."""
        return list(range(1, int(options.get("rounds", 3)) + 1))

    def demo_setup(self, turns=None):
        """The three player realms of the sample map, as bots; ``turns`` rounds (default 3)."""
        if turns is not None and turns < 1:
            raise GMError(f"a game has at least 1 round, not {turns}")
        return ["Valmont", "Corvia", "Ostmark"], {"rounds": 3 if turns is None else turns}


GAME = EuropaUniversalis()
