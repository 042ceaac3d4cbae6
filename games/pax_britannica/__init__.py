"""Pax Britannica: the game object the moderator talks to.

The phase sequence lives in :mod:`.state`, the rules of each phase in
``phases/<phase>.py``; this module only dispatches and advances the clock.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.kit import audience, treatybook
from pbem.kit.gameapi import DONE_EXPLICIT, Event, Game, GMError, Order, OrderOption, ParseResult, PhaseInfo, Problem, Refused, Report, Roster, Ruling, State, TreatyAction
from pbem.kit.state_copy import copy_state

from . import audiences
from . import state as st

PLAYABLE = ("Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy")
#: Order windows shorter than a turn (Rules: NEGOTIATION; CONGRESS OF EUROPE); each Congress step
#: has its own, so a GM may set each (OPTION congress_vote_duration=12h).
WINDOWS = {"negotiation": "48h", "congress_attend": "24h", "congress_propose": "48h",
           "congress_vote": "24h", "congress_sign": "24h", "congress_decide": "24h",
           # Rules: THE WAR SEQUENCE - every window of a War (declarations, Alliance
           # Determination, each alliance's Maneuver and Attack, the Resolution) is short.
           "war": "24h"}
DIPLOMACY = ("negotiation", "congress")
WAR = ("war", *st.WAR_PHASES)
DIPLOMACY_VERBS = {"CODOMINION", "CALL", "DECLARE", "DEFEND", "ATTEND", "DECLINE", "INVITE", "VOTE",
                   "SIGN", "REFUSE", "PROPOSE", "ENDPROPOSE"}
MOVEMENT_VERBS = {"BUY", "B", "PURCHASE", "BUILD", "MOVE", "M", "PLACE", "SUPPRESS", "REMOVE",
                  "ELIMINATE"}
WAR_VERBS = {"ATTACK", "DENY", "GRANT", "JOIN", "SUPPORT", "END", "DELAY", "DEMAND"}


def load_data(state_or_options: Mapping[str, Any] | None = None):
    """The map data, with the GM's data override when the game has one: the
    ``data`` option holds the copy frozen into the game when it was created
    (``OPTION data=<file>``), never a path."""
    from . import mapdata
    options = (state_or_options or {}).get("options", state_or_options or {})
    override = options.get("data") if isinstance(options, Mapping) else None
    return mapdata.load(override if isinstance(override, Mapping) else None)


class PaxBritannica(Game):
    name = "pax_britannica"
    title = "Pax Britannica"
    min_players = 4
    max_players = 7
    powers = st.POWERS

    treaties = True
    report_lists_treaties = True  # report_diplomacy.py: every treaty the reader may see, with its status

    # -- names ---------------------------------------------------------------
    def roster(self, options: Mapping[str, Any], state: State | None = None) -> Roster:
        """The seven playable Great Powers (Austria-Hungary is run by the German
        player: its name resolves, so orders and treaties can name it)."""
        cached = self.__dict__.get("_roster")
        if cached is None:
            aliases = {p.lower(): p for p in self.powers}
            for p, info in load_data().powers.items():
                for alias in (p, info.adjective, *info.aliases):
                    if alias:
                        aliases[" ".join(str(alias).lower().split())] = p
            cached = self._roster = Roster(PLAYABLE, aliases)
        return cached

    def resolve_power(self, text: str) -> str | None:
        return self.roster({}).resolve(text)

    # -- life cycle ----------------------------------------------------------
    def options(self) -> Mapping[str, tuple[Any, str]]:
        return {
            "setup": ("1880", "1880 (the historical start) or empty (a bare board)"),
            "data": (None, "a GM data file (TOML) overriding any table, read once when the game is "
                     "created; see data/DATA.md"),
            "marker_conflicts": ("marker_adjustment", "where marker conflicts are settled: "
                                 "marker_adjustment or negotiation"),
            "garrison_eti": (True, "garrison reductions raise European Tensions"),
            "cri_per_turn_vassals": (False, "per-turn Chinese Resentment counts Chinese Vassals too"),
            "treaty_vp": (None, "VP per revealed treaty in force each turn (the rules give no number)"),
            "canal_needs_established": (True, "canal builders need an established marker"),
            "last_turn": (st.LAST_TURN, "the last Game Turn (1880, 1884, ... 1916); an earlier one makes a "
                          "shorter game, scored at its Final Record as at the end"),
            "congress_rounds": (3, "rounds of proposals and votes before a Congress of Europe fails"),
        }

    def windows(self) -> Mapping[str, str]:
        return dict(WINDOWS)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], dice) -> State:
        """Rules: SETTING UP THE GAME."""
        players = [self._player(p) for p in players]
        if not self.min_players <= len(players) <= self.max_players:
            raise GMError(f"Pax Britannica needs 4 to 7 players, not {len(players)}")
        opts = {k: v[0] for k, v in self.options().items()}
        opts.update(options or {})
        data = load_data(opts)
        try:
            st.check_last_turn(int(opts["last_turn"]))
        except ValueError as exc:
            raise GMError(f"option last_turn: {exc}") from None
        state = st.new_state(players, opts, data)
        state["last_turn"] = int(opts["last_turn"])
        if str(opts.get("setup", "1880")).lower() == "1880":
            st.apply_1880(state, data)
        return state

    def _player(self, name: str) -> str:
        power = self.resolve_power(name) or name
        if power not in PLAYABLE:
            raise GMError(f"{name} cannot be played (players choose from {', '.join(PLAYABLE)})")
        return power

    def assumptions(self, options: Mapping[str, Any]) -> list[str]:
        from .mapdata import DataError
        try:
            return list(load_data(options).assumptions or [])
        except DataError as exc:
            raise Refused(f"the data override does not fit the game's tables: {exc}", "bad-data-file") from None

    def phase(self, state: State) -> PhaseInfo:
        phase, turn = state["phase"], state["turn"]
        if phase == "negotiation":
            from .phases import negotiation
            owes, may = negotiation.asked(state)
            return PhaseInfo(key=f"{turn}/{phase}", name=phase, turn=turn, owes=owes, may=may,
                             label=f"{turn} {st.label(phase)}", window="negotiation",
                             done=DONE_EXPLICIT)
        if phase == "congress":
            return self._congress_phase(state)
        if phase in WAR:
            from .war import sequence
            return sequence.info(state)
        owes = tuple(state["players"]) if phase == "movement" and not state.get("game_over") else ()
        return PhaseInfo(key=f"{turn}/{phase}", name=phase, turn=turn, owes=owes,
                         label=f"{turn} {st.label(phase)}")

    def _congress_phase(self, state: State) -> PhaseInfo:
        """Rules: CONGRESS OF EUROPE - one order window per step (attendance, proposals,
        votes, signatures, and after a failure the choice of War), each its own phase key."""
        from . import congress_rules as cr
        from .phases import congress
        turn, c = state["turn"], cr.current(state)
        if not cr.sitting(state):
            return PhaseInfo(key=f"{turn}/congress", name="congress", turn=turn,
                             label=f"{turn} {st.label('congress')}")
        step = c["step"]
        owes, may = congress.asked(state)
        key = f"{turn}/congress/{step}" + ("" if step == "attend" else f"/{c['round']}")
        title = cr.STEP_TITLES[step] + ("" if step == "attend" else f", round {c['round']}")
        return PhaseInfo(key=key, name="congress", turn=turn, owes=owes, may=may,
                         label=f"{turn} {st.label('congress')} in {c['site']} ({title})",
                         window=f"congress_{step}",
                         done=DONE_EXPLICIT if step == "propose" else "orders")

    def is_over(self, state: State) -> bool:
        return bool(state.get("game_over"))

    # -- orders --------------------------------------------------------------
    def parse_orders(self, state: State, power: str,
                     lines: Sequence[tuple[int, str]]) -> ParseResult:
        from . import diplomacy_orders, orders
        from .war import orders as war_orders
        if state.get("phase") in DIPLOMACY:
            result = diplomacy_orders.parse_orders(state, power, lines, load_data(state))
        elif state.get("phase") in WAR:
            result = war_orders.parse_orders(state, power, lines, load_data(state))
        else:
            result = orders.parse_orders(state, power, lines, load_data(state))
        result.problems = [self._other_phase(state, p, dict(lines)) for p in result.problems]
        return result

    @staticmethod
    def _other_phase(state: State, problem: Problem, lines: Mapping[int, str]) -> Problem:
        """A line not understood because it is another phase's order says so, instead of
        listing this phase's forms."""
        if problem.code != "invalid-order" or problem.line not in lines:
            return problem
        verb = (lines[problem.line].split() or [""])[0].upper()
        here = st.label(state.get("phase", ""))
        if state.get("phase") not in WAR and verb in WAR_VERBS:
            where = "a War (HELP WAR lists the war orders)"
        elif state.get("phase") not in DIPLOMACY and state.get("phase") not in WAR and verb in DIPLOMACY_VERBS:
            where = "the Negotiation Phase" if verb in ("CODOMINION", "CALL", "DECLARE", "DEFEND") \
                else "the Congress of Europe"
        elif state.get("phase") in DIPLOMACY and verb in MOVEMENT_VERBS:
            where = "the Movement/Status Change Phase"
        else:
            return problem
        return Problem("wrong-phase", f"{verb} is an order of {where}; the game is in the {here} "
                       "Phase", problem.line, kind="invalid")

    def validate(self, state: State, power: str, orders: Sequence[Order]) -> list[Problem]:
        from . import treaty_checks
        from .phases import congress, movement_validate, negotiation
        data, phase = load_data(state), state.get("phase")
        if phase == "negotiation":
            problems = negotiation.validate(state, power, list(orders), data)
        elif phase in WAR:
            from .war import checks
            return checks.validate(state, power, list(orders), data)
        elif phase == "congress":
            problems = congress.validate(state, power, list(orders), data)
        else:
            problems = movement_validate.validate(state, power, orders, data)
        if phase in ("movement", "negotiation"):
            refused = {p.line for p in problems if p.kind != "warning"}
            problems += treaty_checks.order_warnings(state, power,
                                                     [o for o in orders if o.line not in refused])
        return problems

    def defaults(self, state: State, power: str) -> list[Order]:
        # Rules: MOVEMENT/STATUS CHANGE - a power that sends nothing buys and moves nothing;
        # in a Congress, phases/congress.py says what silence means.  In a War silence is no
        # order at all: units hold, nothing attacks, nobody declares; a treaty duty nobody
        # answered is refused (Austria-Hungary's is kept) when the window resolves (war/declare.py).
        if state.get("phase") == "congress":
            from .phases import congress
            return congress.defaults(state, power)
        return []

    def describe_defaults(self, state: State, power: str) -> str:
        if state.get("phase") in DIPLOMACY:
            from . import report_diplomacy
            return report_diplomacy.describe_defaults(state, power)
        if state.get("phase") in WAR:
            from . import report_war
            return report_war.describe_defaults(state, power)
        text = "no orders: nothing is bought, nothing moves"
        deficit = state.get("pending", {}).get("deficit", {})
        owed = {p: n for p, n in deficit.items() if p == power
                or (power == "Germany" and p == "Austria-Hungary")}
        for p, n in sorted(owed.items()):
            text += (f"; {p}'s deficit of {n} is met by the default removals "
                     f"(units abroad and markers, as the Administrative rules choose)")
        return text

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice) -> tuple[State, list[Event]]:
        from . import phases
        new = copy_state(state)
        if new.get("game_over"):
            raise GMError("the game is over")
        data = load_data(new)
        by_power: dict[str, list[Order]] = {}
        for sender, items in (orders or {}).items():
            for o in items:
                by_power.setdefault(o.power or sender, []).append(o)
        phase = new["phase"]
        events = phases.run(phase, new, by_power, dice, data)
        events += self._after(state, new, phase, events)
        events += self._advance(new, phase)
        return new, events

    @staticmethod
    def _after(before: State, state: State, phase: str, events: list[Event]) -> list[Event]:
        """What follows a phase besides its own rules: treaty clauses falling due or broken
        (treaty_checks.py), a Minor Power's displaced Influence noted for Negotiation, and at the
        end of the Game Turn the withdrawals left unagreed and the Casus Belli that expire."""
        from . import disputes, treaties, treaty_checks
        from .phases import negotiation
        out: list[Event] = []
        if phase == "administrative":
            out += treaty_checks.turn_payments(state)
        if phase == "marker_adjustment":
            negotiation.record_claims(state, events)
        out += treaty_checks.after_phase(before, state, phase)
        if phase == "final_record":
            out += treaties.end_of_turn(state)
            out += disputes.expire(state)
        return out

    def _advance(self, state: State, phase: str) -> list[Event]:
        """Rules: GAME TURN SEQUENCE; EUROPEAN TENSIONS AND THE GREAT WAR (the game
        ends at once: straight to the Final Record, no Victory Point Record)."""
        events: list[Event] = []
        if phase == "final_record":
            if st.game_should_end(state):
                state["game_over"] = True
                events.append({"kind": "game_over", "turn": state["turn"],
                               "great_war": bool(state.get("great_war"))})
                return events
        if phase == "congress" and not state.get("great_war"):
            from . import congress_rules
            if congress_rules.sitting(state):
                return events  # Rules: CONGRESS OF EUROPE - the next step of the same phase
        great_war = state.get("great_war")
        if great_war and not great_war.get("announced"):
            great_war["announced"] = True
            events.append({"kind": "great_war", "blamed": list(great_war.get("blamed", []))})
        # Choice: the phase in progress finishes, then the Final Record follows at once.
        if great_war and phase != "final_record":
            state["phase"] = "final_record"
            return events
        state["phase"], state["turn"] = st.next_phase(state)
        return events

    # -- what people see -----------------------------------------------------
    def view(self, state: State, power: str | None) -> dict[str, Any]:
        from . import report
        return report.report_data(state, [], power, load_data(state))

    def report(self, state: State, events: Sequence[Event], power: str | None) -> Report:
        """The text every reader gets, and the same as data for the HTML body
        (templates/report.html.j2): sheets and the board as tables, events in
        sentences."""
        from . import report, report_board
        data = report.report_data(state, events, power, load_data(state))
        mine = set(report.own_powers(state, power)) if power else set()
        data["board"] = report_board.rows(state, load_data(state), sorted(mine)) if power else []
        data["story"] = report_board.story(state, events, data["events"], power, mine)
        return Report(text=report.report_text(state, events, power, data), data=data, template="report.html.j2")

    def map_svg(self, state: State, power: str | None) -> str | None:
        """Rules: THE MAP - the board is open, so every reader sees the same
        pieces; a power's own map rings its places (with Austria-Hungary for
        the German player)."""
        from . import mapdraw, mapview, report
        view = mapview.board_view(state, load_data(state))
        mine = report.own_powers(state, power) if power else []
        title = f"Pax Britannica, at the start of {state['turn']} {st.label(state['phase'])}" + (
            f": the map for {power}" if power else "")
        return mapdraw.draw(view, load_data(state), title=title, mine=mine)

    def map_text(self, state: State, power: str | None) -> list[str]:
        from . import mapview
        return mapview.text_lines(mapview.board_view(state, load_data(state)))

    def charts(self, state: State, final: bool = False) -> dict[str, dict[str, float]]:
        """Victory Points and the two indices are public (Rules: VICTORY POINT
        RECORD, the tracks on the map).  Choice: a treasury is private while
        the game is played (ADMINISTRATIVE RECORD SHEETS), so it is charted
        only once the game is over."""
        players = list(state.get("players", []))
        out: dict[str, dict[str, float]] = {
            "Victory Points": {p: state["powers"][p].get("vp", 0) for p in players},
            "European Tensions and Chinese Resentment": {
                "European Tensions Index": state.get("eti", 0),
                "Chinese Resentment Index": state.get("cri", 0)},
        }
        if final:
            out["Treasury (£)"] = {p: state["powers"][p].get("treasury", 0) for p in players}
        return out

    def results(self, state: State) -> list[dict[str, Any]]:
        final = state.get("final") or {}
        scores = (final.get("vp") or final.get("scores")) if isinstance(final, dict) else None
        if not scores:
            scores = {p: state["powers"][p].get("vp", 0) for p in state["players"]}
        ordered = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
        out, last, rank_no = [], None, 0
        for i, (p, s) in enumerate(ordered, 1):
            if s != last:
                rank_no, last = i, s
            out.append({"power": p, "score": s, "rank": rank_no})
        return out

    def help_text(self, topic: str | None = None) -> str:
        from . import clauses, diplomacy_orders as dip, gm, orders
        key = (topic or "").strip().lower()
        if key == "gm":
            return "GM commands: " + "; ".join(gm.COMMANDS)
        if key == "negotiation":
            return "Negotiation Phase orders, one a line (end with DONE):\n" + \
                "\n".join("  " + f for f in dip.NEGOTIATION_FORMS + ("DONE",))
        if key == "congress":
            return ("Congress of Europe orders, by step (attendance, proposals, votes, "
                    "signatures):\n" + "\n".join("  " + f for f in dip.CONGRESS_FORMS)
                    + "\n  DECLARE WAR ON <power>[,<power>...] (in any step, with a Casus Belli)")
        if key in ("war", "wars", "rebellion"):
            from .war import orders as war_orders
            return ("War orders, one a line (each window takes some of them; the report says which "
                    "you may send now):\n" + "\n".join("  " + f for f in war_orders.FORMS))
        if key in ("clauses", "treaty", "treaties", "propose"):
            return ("Treaty clauses the moderator checks, one a line in a treaty's text or a "
                    "proposal, each optionally after '<power>:' naming the power bound:\n"
                    + "\n".join("  " + f for f in clauses.FORMS))
        if key:
            return ""
        return orders.HELP

    def help_topics(self, state: State | None) -> list[str]:
        from . import helptopics
        return list(helptopics.TOPICS)

    def help_on(self, state: State | None, power: str | None, topic: str) -> str | None:
        """An order, a table, the map or a place (helptopics.py), else one of the
        diplomacy topics of :meth:`help_text` (NEGOTIATION, CONGRESS, CLAUSES)."""
        from . import helptopics
        return (helptopics.answer(state, load_data(state), power, topic) or self.help_text(topic)
                or self._help_on_form(topic) or None)

    def _help_on_form(self, topic: str) -> str | None:
        """``HELP DECLARE WAR``, ``HELP JOIN``: an order of the Negotiation, the Congress or
        the War is answered with the help of the topics whose forms it begins."""
        from . import diplomacy_orders
        from .war import orders as war_orders
        words = topic.upper().split()
        if not words:
            return None
        found = [name for name, forms in (("NEGOTIATION", diplomacy_orders.NEGOTIATION_FORMS),
                                          ("CONGRESS", diplomacy_orders.CONGRESS_FORMS),
                                          ("WAR", war_orders.FORMS))
                 if any(f.upper().split()[:len(words)] == words for f in forms)]
        return "\n\n".join(self.help_text(name) for name in found) or None

    def options_now(self, state: State, power: str) -> list[OrderOption]:
        from . import guide
        return guide.options_now(state, load_data(state), power)

    def order_summary(self, state: State, power: str, orders: Sequence[Order]) -> list[str]:
        from . import guide
        return guide.order_summary(state, load_data(state), power, orders)

    def order_forms(self) -> list[str]:
        from . import diplomacy_orders, orders
        from .war import orders as war_orders
        forms = list(orders.FORMS) + [f for f in diplomacy_orders.FORMS if f not in orders.FORMS]
        return forms + [f for f in war_orders.FORMS if f not in forms]

    # -- GM, treaties and scenarios ------------------------------------------
    def gm_command(self, state: State, text: str, dice) -> tuple[State, list[Event]]:
        from . import gm
        new = copy_state(state)
        events = gm.apply(new, text, dice, load_data(new))
        return new, events + self._tension_end(new)

    def rule(self, state: State, ruling: Ruling, dice) -> tuple[State, list[Event]]:
        """A ruling on a treaty (a breach claim: GM RULE <treaty> UPHELD|DISMISSED, or BROKEN
        BY <power>) is carried out; any other is recorded in the game, so the archive and a
        replay show it."""
        from . import treaties
        new = copy_state(state)
        new.setdefault("rulings", []).append({"question": ruling.question, "ruling": ruling.ruling,
                                              "turn": new["turn"], "phase": new["phase"]})
        # A ruling on a treaty is seen by whoever may see the treaty; any other by everyone.
        record = treatybook.find(new, ruling.question)
        seen_by = treatybook.audience_of(record) if record else audience.public()
        events = [audience.tag({"kind": "ruling", "question": record["id"] if record else ruling.question,
                                "ruling": ruling.ruling}, seen_by)]
        events += treaties.rule(new, ruling) or []
        return new, events + self._tension_end(new)

    def treaty(self, state: State, action: TreatyAction, dice) -> tuple[State, list[Event]]:
        """Rules: TREATIES.  The common life cycle (pbem.kit.treatybook) with the game's clauses on
        top (treaties.py); a revealed treaty in force scores the optional ``treaty_vp``."""
        from . import treaties
        new = copy_state(state)
        events = treaties.act(new, load_data(new), action)
        return new, events + self._tension_end(new)

    def stamp(self, state: State, events: list[Event]) -> list[Event]:
        """Each event's audience, by its kind (audiences.py)."""
        return audiences.stamp(state, events)

    @staticmethod
    def _tension_end(state: State) -> list[Event]:
        """Rules: EUROPEAN TENSIONS AND THE GREAT WAR - "If the European Tensions Index ever
        reaches 100, the game ends instantly, during whatever Phase is in progress": an input
        (a GM edit, a ruling, a broken treaty) that takes it there sends the game straight to
        the Final Record, which then resolves by itself.  Choice: for a phase the rule is kept by
        the phase itself (it finishes, then the Final Record follows in the same processing)."""
        war = state.get("great_war")
        if not war or war.get("announced") or state.get("game_over"):
            return []
        war["announced"] = True
        state["phase"] = "final_record"
        return [{"kind": "great_war", "blamed": list(war.get("blamed", []))}]

    def treaty_records(self, state: State, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
        from . import treaties
        return treaties.records(state, power, gm)

    def query(self, state: State, text: str) -> Any:
        from . import queries
        return queries.answer(state, text, load_data(state))

    def set_phase(self, state: State, phase: str, turn: int | None) -> State:
        phase = phase.lower()
        if phase not in st.ALL_PHASES:
            raise GMError(f"unknown phase {phase!r} (phases: {', '.join(st.ALL_PHASES)})")
        new = copy_state(state)
        new["phase"] = phase
        if turn is not None:
            if turn < st.FIRST_TURN or turn > st.LAST_TURN or (turn - st.FIRST_TURN) % st.TURN_LENGTH:
                raise GMError(f"turn must be a year 1880, 1884, ... 1916, not {turn}")
            new["turn"] = turn
        return new

    def demo_setup(self, turns: int | None = None) -> tuple[list[str], dict[str, Any]]:
        """Seven bots; with ``turns`` a shorter game that ends after that many turns."""
        if turns is None:
            return list(PLAYABLE), {}
        last = st.FIRST_TURN + st.TURN_LENGTH * (turns - 1)
        try:
            st.check_last_turn(last)
        except ValueError:
            raise GMError(f"a game has 1 to {(st.LAST_TURN - st.FIRST_TURN) // st.TURN_LENGTH + 1} "
                          f"turns, not {turns}") from None
        return list(PLAYABLE), {"last_turn": last}

    def turns(self, options: Mapping[str, Any]) -> list[int]:
        """Rules: THE GAME TURN (each Game Turn is four years); GAME TURN SEQUENCE (the game
        ends once the 1916 Game Turn is completed, or at the last turn option ``last_turn`` sets;
        a Great War ends it early)."""
        return list(range(st.FIRST_TURN, int(options.get("last_turn") or st.LAST_TURN) + 1, st.TURN_LENGTH))

    def bot_orders(self, state: State, power: str, rng) -> list[str]:
        from . import bot, bot_diplomacy, bot_war
        if state.get("phase") in DIPLOMACY:
            return bot_diplomacy.bot_orders(state, power, rng)
        if state.get("phase") in WAR:
            return bot_war.bot_orders(state, power, rng)
        return bot.bot_orders(state, power, rng)


GAME = PaxBritannica()
