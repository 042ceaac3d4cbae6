"""Pax Britannica: the game object the moderator talks to.

The sequence of play is the table in ``sequence.py``, the rules of each phase are in
``phases/`` and ``war/``; this module walks the table and advances the clock.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from pbem.kit import audience, treatybook
from pbem.kit.capabilities import Bots, GMCommands, Guide, Maps, Rulings, Scenarios, Treaties
from pbem.kit.gameapi import Event, Game, GMError, Obligation, Order, OrderOption, ParseResult, PhaseInfo, Problem, Refused, Report, Roster, Ruling, State, TreatyAction
from pbem.kit.positions import told
from pbem.kit.state_copy import copy_state

from . import gm, guide, helptopics, not_asked, queries, sequence
from .phase_slips import other_phase
from .gm import play_edits, position as gm_position
from .phases import obligations as duties
from .bots import diplomacy as bot_diplomacy, movement as bot, war as bot_war
from .core import audiences, options as game_options, state as st, treaties, treaty_checks, treaty_records
from .core.data import load_data
from .core.mapdata import DataError
from .report import (board as report_board, compose as report, diplomacy as report_diplomacy,
                     lines as report_lines, mapsheet, mapview, phases as report_phases, war as report_war)

PLAYABLE = ("Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy")
#: Order windows shorter than a turn (Rules: NEGOTIATION; CONGRESS OF EUROPE); each Congress step
#: has its own, so a GM may set each (OPTION congress_vote_duration=12h).
WINDOWS = {"negotiation": "48h", "congress_attend": "24h", "congress_propose": "48h",
           "congress_vote": "24h", "congress_sign": "24h", "congress_decide": "24h",
           # Rules: THE WAR SEQUENCE - every window of a War (declarations, Alliance
           # Determination, each alliance's Maneuver and Attack, the Resolution) is short.
           "war": "24h"}


class PaxBritannica(Game, Treaties, GMCommands, Rulings, Maps, Scenarios, Bots, Guide):
    """The game, with every capability (pbem.kit.capabilities)."""

    name = "pax_britannica"
    title = "Pax Britannica"
    min_players = 4
    max_players = 7
    powers = st.POWERS

    report_lists_treaties = True  # report/diplomacy.py: every treaty the reader may see, with its status

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
        return game_options.options()

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
        try:
            return list(load_data(options).assumptions or [])
        except DataError as exc:
            raise Refused(f"the data override does not fit the game's tables: {exc}", "bad-data-file") from None

    def phase(self, state: State) -> PhaseInfo:
        return sequence.info(state)

    def is_over(self, state: State) -> bool:
        return bool(state.get("game_over"))

    def nothing_due(self, state: State, power: str) -> str | None:
        return not_asked.reason(state, power)

    # -- orders --------------------------------------------------------------
    def parse_orders(self, state: State, power: str,
                     lines: Sequence[tuple[int, str]]) -> ParseResult:
        reader = sequence.READERS[sequence.phase_of(state.get("phase")).orders]
        result = reader.parse_orders(state, power, lines, load_data(state))
        result.problems = [other_phase(state, p, dict(lines)) for p in result.problems]
        return result

    def validate(self, state: State, power: str, orders: Sequence[Order]) -> list[Problem]:
        row = sequence.phase_of(state.get("phase"))
        problems = row.validate(state, power, list(orders), load_data(state))
        if row.treaty_warnings:
            refused = {p.line for p in problems if p.kind != "warning"}
            problems += treaty_checks.order_warnings(state, power,
                                                     [o for o in orders if o.line not in refused])
        return problems

    def defaults(self, state: State, power: str) -> list[Order]:
        # Rules: MOVEMENT/STATUS CHANGE - a power that sends nothing buys and moves nothing;
        # in a Congress, phases/congress.py says what silence means.  In a War silence is no
        # order at all: units hold, nothing attacks, nobody declares; a treaty duty nobody
        # answered is refused (Austria-Hungary's is kept) when the window resolves (war/declare.py).
        row = sequence.phase_of(state.get("phase"))
        return row.defaults(state, power) if row.defaults else []

    def describe_defaults(self, state: State, power: str) -> str:
        return DEFAULTS_TEXT[sequence.phase_of(state.get("phase")).orders](state, power)

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice) -> tuple[State, list[Event]]:
        new = copy_state(state)
        if new.get("game_over"):
            raise GMError("the game is over")
        data = load_data(new)
        by_power: dict[str, list[Order]] = {}
        for sender, items in (orders or {}).items():
            for o in items:
                by_power.setdefault(o.power or sender, []).append(o)
        phase = new["phase"]
        row = sequence.phase_of(phase)
        events = list(row.resolve(new, by_power, dice, data) or [])
        # What follows a phase besides its own rules: treaty clauses falling due or broken, and
        # more at some phases (sequence.py).
        events += row.after(state, new, phase, events)
        events += self._advance(new, phase)
        return new, events

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
        row = sequence.phase_of(phase)
        if row.goes_on and not state.get("great_war") and row.goes_on(state):
            return events  # Rules: CONGRESS OF EUROPE - the next step of the same phase
        great_war = state.get("great_war")
        if great_war and not great_war.get("announced"):
            great_war["announced"] = True
            events.append({"kind": "great_war", "blamed": list(great_war.get("blamed", []))})
        # Choice: the phase in progress finishes, then the Final Record follows at once.
        if great_war and phase != "final_record":
            state["phase"] = "final_record"
            return events
        state["phase"], state["turn"] = sequence.next_phase(state)
        return events

    # -- what people see -----------------------------------------------------
    def view(self, state: State, power: str | None) -> dict[str, Any]:
        return report.report_data(state, [], power, load_data(state))

    def report(self, state: State, events: Sequence[Event], power: str | None) -> Report:
        """The text every reader gets, and the same as data for the HTML body
        (templates/report.html.j2): sheets and the board as tables, events in
        sentences."""
        data = report.report_data(state, events, power, load_data(state))
        mine = set(report.own_powers(state, power)) if power else set()
        data["board"] = report_board.rows(state, load_data(state), sorted(mine)) if power else []
        data["story"] = report_board.story(state, events, data["events"], power, mine)
        return Report(text=report.report_text(state, events, power, data), data=data, template="report.html.j2")

    def concerns(self, state: State, events: Sequence[Event], power: str) -> bool:
        """Phases are worth a mail to a power when an event names it (or Austria-Hungary, for
        the German player) as its report's "What concerned ..." section does; the rest of a
        war's sub-phases reach a power that has no part in them in its next report."""
        mine = set(report.own_powers(state, power))
        return any(report_lines.involves(e, mine) for e in events)

    def map_svg(self, state: State, power: str | None) -> str | None:
        """Rules: THE MAP - the board is open, so every reader sees the same
        pieces; a power's own map rings its places (with Austria-Hungary for
        the German player)."""
        view = mapview.board_view(state, load_data(state))
        mine = report.own_powers(state, power) if power else []
        title = f"Pax Britannica, at the start of {state['turn']} {st.label(state['phase'])}" + (
            f": the map for {power}" if power else "")
        return mapsheet.draw(view, load_data(state), title=title, mine=mine)

    def map_text(self, state: State, power: str | None) -> list[str]:
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
        return helptopics.help_text(topic)

    def help_topics(self, state: State | None) -> list[str]:
        return list(helptopics.TOPICS)

    def help_on(self, state: State | None, power: str | None, topic: str) -> str | None:
        """An order, a table, the map or a place (helptopics.py), else one of the
        diplomacy topics of :meth:`help_text` (NEGOTIATION, CONGRESS, CLAUSES)."""
        return (helptopics.answer(state, load_data(state), power, topic) or helptopics.help_text(topic)
                or helptopics.help_on_form(topic) or None)

    def options_now(self, state: State, power: str) -> list[OrderOption]:
        return guide.options_now(state, load_data(state), power)

    def obligations(self, state: State, power: str) -> list[Obligation]:
        """Rules: RANDOM EVENTS; INCOME RECORD; NET INCOME RECORD; the garrison rules - what the
        power (and Austria-Hungary, for the German player) must spend, may not spend, or is
        given this turn, read from the same facts its orders are checked against."""
        if power not in state.get("powers", {}):
            return []
        return duties.obligations(state, load_data(state), power, report.own_powers(state, power))

    def order_summary(self, state: State, power: str, orders: Sequence[Order]) -> list[str]:
        return guide.order_summary(state, load_data(state), power, orders)

    def order_forms(self) -> list[str]:
        return helptopics.order_forms()

    # -- GM, treaties and scenarios ------------------------------------------
    def gm_command(self, state: State, text: str, dice) -> tuple[State, list[Event]]:
        """One GM edit (gm/); every player whose position it changed is told what changed
        (pbem.kit.positions), the others nothing."""
        new = copy_state(state)
        events = gm.apply(new, text, dice, load_data(new))
        events += self._tension_end(new)
        players = dict.fromkeys([*state.get("players", []), *new.get("players", [])])
        return new, events + told(players, lambda p: gm_position.position(state, p),
                                  lambda p: gm_position.position(new, p))

    def rule(self, state: State, ruling: Ruling, dice) -> tuple[State, list[Event]]:
        """A ruling on a treaty (a breach claim: GM RULE <treaty> UPHELD|DISMISSED, or BROKEN
        BY <power>) is carried out; any other is recorded in the game, so the archive and a
        replay show it."""
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
        new = copy_state(state)
        events = treaties.act(new, load_data(new), action) + self._tension_end(new)
        # What the command did to each player's position (a Casus Belli gained or faced on a
        # reveal, money paid on coming into force), told to that player now.
        return new, events + told(state.get("players", []), lambda p: gm_position.position(state, p),
                                  lambda p: gm_position.position(new, p), by="A treaty command")

    def stamp(self, state: State, events: list[Event]) -> list[Event]:
        """Each event's audience, by its kind (audiences.py)."""
        return audiences.stamp(state, events)

    @staticmethod
    def _tension_end(state: State) -> list[Event]:
        """Rules: EUROPEAN TENSIONS AND THE GREAT WAR - "If the European Tensions Index ever
        reaches 100, the game ends instantly, during whatever Phase is in progress": an input
        (a GM edit, a ruling, a broken treaty) that takes it there sends the game straight to
        the Final Record, which then resolves by itself.  For a phase the rule is kept by the phase
        itself: it stops where the Index reached 100 (the Movement Phase carries out no further
        order line), then the Final Record follows in the same processing."""
        war = state.get("great_war")
        if not war or war.get("announced") or state.get("game_over"):
            return []
        war["announced"] = True
        state["phase"] = "final_record"
        return [{"kind": "great_war", "blamed": list(war.get("blamed", []))}]

    def treaty_records(self, state: State, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
        return treaty_records.records(state, power, gm)

    def treaty_seats(self, state: State) -> dict[str, str]:
        return treaties.seats(state)

    def query(self, state: State, text: str) -> Any:
        return queries.answer(state, text, load_data(state))

    def as_written(self, orders: Sequence[Order], power: str) -> list[str]:
        """Rules: AUSTRIA-HUNGARY (Germany plays it): orders for
        another power the player runs stand under a FOR line, as the player writes them."""
        lines, current = [], power
        for o in orders:
            if (o.power or power) != current:
                current = o.power or power
                lines.append(f"FOR {current}")
            lines.append(o.canonical)
        return lines

    def set_phase(self, state: State, phase: str, turn: int | None, step: str | None = None) -> State:
        """``step``: the Congress's step (attend, propose, vote, sign, decide)."""
        phase = phase.lower()
        if phase not in sequence.ALL_PHASES:
            raise GMError(f"unknown phase {phase!r} (phases: {', '.join(sequence.ALL_PHASES)})")
        new = copy_state(state)
        new["phase"] = phase
        if turn is not None:
            if turn < st.FIRST_TURN or turn > st.LAST_TURN or (turn - st.FIRST_TURN) % st.TURN_LENGTH:
                raise GMError(f"turn must be a year 1880, 1884, ... 1916, not {turn}")
            new["turn"] = turn
        if step is not None:
            play_edits.congress_step(new, step)
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
        return BOTS[sequence.phase_of(state.get("phase")).orders].bot_orders(self, state, power, rng)


#: by the kind of orders a phase reads (sequence.py): what silence means, and the bot that writes them
DEFAULTS_TEXT = {"movement": report_phases.movement_defaults,
                 "diplomacy": report_diplomacy.describe_defaults, "war": report_war.describe_defaults}
BOTS = {"movement": bot, "diplomacy": bot_diplomacy, "war": bot_war}


GAME = PaxBritannica()
