"""Pax Britannica: the game object the moderator talks to.

The phase sequence lives in :mod:`.state`, the rules of each phase in
``phases/<phase>.py``; this module only dispatches and advances the clock.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Mapping, Sequence

from pbem import treatybook
from pbem.gameapi import (Event, Game, GMError, Order, OrderOption, ParseResult, PhaseInfo, Problem, Refused,
                          Report, Roster, Ruling, State, TreatyAction)

from . import state as st

PLAYABLE = ("Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy")


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
        }

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
        owes = tuple(state["players"]) if phase == "movement" and not state.get("game_over") else ()
        return PhaseInfo(key=f"{turn}/{phase}", name=phase, turn=turn, owes=owes,
                         label=f"{turn} {st.label(phase)}")

    def is_over(self, state: State) -> bool:
        return bool(state.get("game_over"))

    # -- orders --------------------------------------------------------------
    def parse_orders(self, state: State, power: str,
                     lines: Sequence[tuple[int, str]]) -> ParseResult:
        from . import orders
        return orders.parse_orders(state, power, lines, load_data(state))

    def validate(self, state: State, power: str, orders: Sequence[Order]) -> list[Problem]:
        from .phases import movement_validate
        return movement_validate.validate(state, power, orders, load_data(state))

    def defaults(self, state: State, power: str) -> list[Order]:
        # Rules: MOVEMENT/STATUS CHANGE - a power that sends nothing buys and moves nothing.
        return []

    def describe_defaults(self, state: State, power: str) -> str:
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
        new = copy.deepcopy(state)
        if new.get("game_over"):
            raise GMError("the game is over")
        data = load_data(new)
        by_power: dict[str, list[Order]] = {}
        for sender, items in (orders or {}).items():
            for o in items:
                by_power.setdefault(o.power or sender, []).append(o)
        phase = new["phase"]
        events = phases.run(phase, new, by_power, dice, data)
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
        return Report(text=report.report_text(state, events, power), data=data, template="report.html.j2")

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
        from . import gm, orders
        if topic and topic.lower() == "gm":
            return "GM commands: " + "; ".join(gm.COMMANDS)
        return orders.HELP

    def help_topics(self, state: State | None) -> list[str]:
        from . import helptopics
        return list(helptopics.TOPICS)

    def help_on(self, state: State | None, power: str | None, topic: str) -> str | None:
        from . import helptopics
        return helptopics.answer(state, load_data(state), power, topic)

    def options_now(self, state: State, power: str) -> list[OrderOption]:
        from . import guide
        return guide.options_now(state, load_data(state), power)

    def order_summary(self, state: State, power: str, orders: Sequence[Order]) -> list[str]:
        from . import guide
        return guide.order_summary(state, load_data(state), power, orders)

    def order_forms(self) -> list[str]:
        from . import orders
        return list(orders.FORMS)

    # -- GM, treaties and scenarios ------------------------------------------
    def gm_command(self, state: State, text: str, dice) -> tuple[State, list[Event]]:
        from . import gm
        new = copy.deepcopy(state)
        events = gm.apply(new, text, dice, load_data(new))
        return new, events

    def rule(self, state: State, ruling: Ruling, dice) -> tuple[State, list[Event]]:
        """The engine asks no questions yet (Negotiation, Congress and War pass
        through with a GM notice): a ruling is recorded in the game, so the
        archive and a replay show it."""
        new = copy.deepcopy(state)
        new.setdefault("rulings", []).append({"question": ruling.question, "ruling": ruling.ruling,
                                              "turn": new["turn"], "phase": new["phase"]})
        return new, [{"kind": "ruling", "question": ruling.question, "ruling": ruling.ruling}]

    def treaty(self, state: State, action: TreatyAction, dice) -> tuple[State, list[Event]]:
        """Rules: TREATIES.  The common life cycle; a revealed treaty in force
        scores the optional ``treaty_vp`` (Victory Point Record)."""
        new = copy.deepcopy(state)
        _, events = treatybook.act(new, action, list(new["players"]))
        return new, events

    def treaty_records(self, state: State, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
        return treatybook.visible(state, power, gm)

    def query(self, state: State, text: str) -> Any:
        from . import queries
        return queries.answer(state, text, load_data(state))

    def set_phase(self, state: State, phase: str, turn: int | None) -> State:
        phase = phase.lower()
        if phase not in st.ALL_PHASES:
            raise GMError(f"unknown phase {phase!r} (phases: {', '.join(st.ALL_PHASES)})")
        new = copy.deepcopy(state)
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

    def bot_orders(self, state: State, power: str, rng) -> list[str]:
        from . import bot
        return bot.bot_orders(state, power, rng)


GAME = PaxBritannica()
