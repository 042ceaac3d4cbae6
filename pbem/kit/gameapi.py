"""The contract between the moderator and a game's rules (second edition).

A game is one declared object (a subclass of :class:`Game`) living under
``games/<name>/`` and registered by name (see :mod:`pbem.base.registry`).  The
moderator never looks inside a game's state: it only calls the methods below.
docs/contract.md explains the contract with examples; this module is its
reference.

Everything here is pure: rules never read the clock, the database, the network
or a global random source.  They get a state (plain JSON-serialisable data),
the orders or another typed input, and a :class:`pbem.kit.dice.Dice`, and return a
new state and events.  The moderator relies on it: it may ask :meth:`Game.parse_orders`,
:meth:`Game.validate` and :meth:`Game.order_summary` about a mail's orders before the
mail is handled, and use the answer when the same question is asked of the same state
(:mod:`pbem.handlers.order_verdicts`); the caller owns what they return.

What changes a game's state, and how each is stored and replayed:

- the orders of a phase, through :meth:`Game.resolve` (one snapshot per phase);
- a typed :data:`Input` — a treaty action, a GM ruling, a GM state edit —
  through :meth:`Game.apply` (one snapshot per input).

``pbem verify`` replays both kinds, so every state a game ever had is checked.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from pbem.kit import (  # noqa: F401  (for games: who may see each event, pbem.kit.gameapi.audience.public() ...)
    audience
)
from pbem.kit.capabilities import (  # noqa: F401  (for games: the capabilities a game may declare)
    Bots, GMCommands, Guide, Maps, Rulings, Scenarios, Treaties, supports
)
# The contract's data, declared in gametypes.py, is part of this module's interface.
from pbem.kit.gametypes import (  # noqa: F401
    DONE_EXPLICIT, DONE_ON_ORDERS, EFFECT, LIMIT, MUST, NOT_AN_ORDER, Edit, Event, GMError, Input, Obligation, Order,
    OrderOption, ParseResult,
    PhaseInfo, Problem, Refused, Report, Roster, Ruling, State, TreatyAction, input_from_json, input_to_json
)
from pbem.kit.state_copy import copy_state  # noqa: F401  (for games: a fast deep copy of a state)

if TYPE_CHECKING:  # pragma: no cover
    from pbem.kit.dice import Dice

# -- the game -------------------------------------------------------------------------

class Game:
    """Base class of every game.  The ten methods that raise NotImplementedError here
    (roster, setup, phase, is_over, parse_orders, validate, defaults, resolve, report,
    results) are the contract every game writes: a game that forgets one fails loudly
    instead of accepting everything or reporting nothing.  The others are hooks with a
    default that is right for a game that has nothing to say; what a game may offer
    besides (treaties, maps, bots ...) it declares as a capability among its bases
    (:mod:`pbem.kit.capabilities`)."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    #: the version of the rules' code, raised when a change may resolve a stored phase
    #: differently; "" (the default) takes pbem's own version.  Every snapshot records
    #: it, so `pbem verify` can tell a changed rule from a damaged record.
    rules_version: str = ""
    #: what the game calls one turn of its sequence of play (PhaseInfo.turn counts them): the
    #: archive groups its phases and labels its charts by it ("Round 2" in a game of rounds)
    turn_word: str = "Turn"
    #: whether ``parse_orders``, ``validate`` and ``order_summary`` are pure functions of their
    #: arguments (the state among them), as the contract asks: the moderator then asks them
    #: ahead and reuses an answer for the same question of the same state.  A game that cannot
    #: promise it says False, and is asked each time.  The conformance tests check the promise.
    pure_orders: bool = True

    # -- required: names and the life cycle ---------------------------------
    def roster(self, options: Mapping[str, Any], state: State | None = None) -> Roster:
        """Every power that may be seated, with its aliases."""
        raise NotImplementedError

    def setup(self, players: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
        """The state a new game starts in, for these players (powers) and options."""
        raise NotImplementedError

    def phase(self, state: State) -> PhaseInfo:
        """The phase being played: who owes orders, who may send them, its window."""
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    # -- required: orders ----------------------------------------------------
    def parse_orders(self, state: State, power: str,
                     lines: Sequence[tuple[int, str]]) -> ParseResult:
        """Parse numbered lines of an ORDERS block.  Never raises on bad input."""
        raise NotImplementedError

    def validate(self, state: State, power: str, orders: Sequence[Order]) -> list[Problem]:
        """Read-only legality check against the current phase.  A power's
        orders take effect in the order written."""
        raise NotImplementedError

    def defaults(self, state: State, power: str) -> list[Order]:
        """Orders that apply when an owing power sent none (civil disorder)."""
        raise NotImplementedError

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
        """Resolve exactly one phase.  Must not mutate ``state``."""
        raise NotImplementedError

    # -- required: what people are told ------------------------------------
    def report(self, state: State, events: Sequence[Event], power: str | None) -> Report:
        """The report for one reader after phases resolved (None: the public)."""
        raise NotImplementedError

    def results(self, state: State) -> list[dict[str, Any]]:
        """Final standings, best first: [{"power":..., "score":..., "rank":...}]."""
        raise NotImplementedError

    # -- hooks with a default ----------------------------------------------
    @staticmethod
    def mail_name(power: str) -> str:
        """How a power is written in a mail command (one word)."""
        return power.replace(" ", "-")

    def options(self) -> Mapping[str, tuple[Any, str]]:
        """Game options: name -> (default, help).  The option ``data`` (a GM
        data file) is read by the moderator once, when the game is created,
        and reaches the game as ``{"name", "sha256", "text"}``."""
        return {}

    def windows(self) -> Mapping[str, str]:
        """Deadline classes this game's phases use besides ``turn``, with
        their default durations (``{"reaction": "24h"}``).  A game option or
        the site's ``[deadlines.windows]`` setting may change each."""
        return {}

    def assumptions(self, options: Mapping[str, Any]) -> list[str]:
        """Values the game had to assume (shown to the GM at creation)."""
        return []

    def check_data(self, text: str) -> list[Problem]:
        """Every problem of a GM data file (``OPTION data=``, ``pbem scenario check``),
        each with the file's line; a game is neither created nor started on a file with
        any.  The default: a game that reads no data file finds none."""
        return []

    def describe_defaults(self, state: State, power: str) -> str:
        orders = self.defaults(state, power)
        return "; ".join(o.canonical for o in orders) or "no orders (nothing happens)"

    def nothing_due(self, state: State, power: str) -> str | None:
        """Why the phase being played asks nothing of ``power`` (it neither owes nor may send
        orders), in words for its player ("you hold no Casus Belli, so you declare no War this
        turn"), or None.  The moderator adds it where it refuses orders or DONE from that power
        (``no-orders-due``), and to the report of such a phase, so the player learns the game's
        reason, not only that nothing is due.  The default: None (the refusal names the phase
        and no reason)."""
        return None

    def apply(self, state: State, inp: Input, dice: Dice) -> tuple[State, list[Event]]:
        """Apply one typed input; must not mutate ``state``.  Raises
        :class:`Refused` (with a reason for a human) when the game will not,
        or when it has not the capability the input needs."""
        if isinstance(inp, Edit):
            if not supports(self, "gm_commands"):
                raise Refused(f"{self.title} takes no game-specific GM commands; "
                              "HELP GM lists the moderator's", "no-gm-commands")
            return self.gm_command(state, inp.text, dice)  # type: ignore[attr-defined]
        if isinstance(inp, Ruling):
            if not supports(self, "rulings"):
                raise Refused(f"{self.title} asks the GM no questions to rule on", "no-rulings")
            return self.rule(state, inp, dice)  # type: ignore[attr-defined]
        if isinstance(inp, TreatyAction):
            if not supports(self, "treaties"):
                raise Refused(f"{self.title} has no treaties", "no-treaties")
            return self.treaty(state, inp, dice)  # type: ignore[attr-defined]
        raise TypeError(f"not an input: {inp!r}")

    def stamp(self, state: State, events: list[Event]) -> list[Event]:
        """Give each event made without an audience (:mod:`pbem.kit.audience`) the one its kind has,
        as the game declares them (``state``: the state after the events).  The engine calls
        this on everything :meth:`resolve` and :meth:`apply` return, so a game tags an event
        where it makes it only when its audience depends on more than its kind (a secret
        treaty's).  The default gives an event left without one the GM alone: nothing is
        shown to a player that the game did not say a player may see."""
        return [e if audience.KEY in e else audience.tag(dict(e), audience.gm()) for e in events]

    def view(self, state: State, power: str | None) -> dict[str, Any]:
        """What ``power`` may see (None: the public view), JSON-serialisable; the
        archive shows its plain values at a glance.  The default shows nothing."""
        return {}

    def concerns(self, state: State, events: Sequence[Event], power: str) -> bool:
        """Whether the phases just resolved, of which ``power`` may see ``events``, are worth a
        report mail to it now, when the next phase asks nothing of it (``state``: the game
        after them).  When they are not, the report is held and its phases go out with the
        power's next report (a digest: nothing is lost).  The default mails each power a
        report of every phase it may see."""
        return True

    def map_layout(self, scenario: dict[str, Any]) -> dict[str, dict[str, list[float]]] | None:
        """Where a scenario's places stand on the map (``scenario``: the game's scenario data,
        as read from its TOML), as ``{table: {place: [x, y]}}``: the coordinates
        ``pbem scenario layout FILE`` writes back as ``xy = [x, y]`` under ``[<table>.<place>]``
        for a GM to adjust; None (the default) for a game whose map is not laid out from data."""
        return None

    def gm_status(self, state: State) -> list[str]:
        """What the GM's ``STATUS`` and ``pbem game status`` show of the game, in lines: the
        board everyone sees and what only the GM may see ([] by default: phase and players
        alone).  Only the GM reads it."""
        return []

    def as_written(self, orders: Sequence[Order], power: str) -> list[str]:
        """A power's stored orders as lines its player could send again (the reply to
        orders and the handover dossier show them): each order's canonical form unless
        the game writes more (orders for another power the player runs, under a line
        of the game's own).  An order of several lines (a block) gives one line each, so
        the reply indents every line of it alike."""
        return [line for o in orders for line in o.canonical.splitlines()]

    def obligations(self, state: State, power: str) -> list[Obligation]:
        """What the rules oblige, forbid or give ``power`` in the current phase, before it
        writes its orders: forced expenditures, spending caps, decisions owed, the effects
        of events on it with their dice (:class:`Obligation`, each with its audience and rule
        section).  A power's report opens with those its reader may see, under "What you
        must do this phase"; STATUS and the reply to its orders show them; the GM's report
        lists every power's.  A game that validates an obligation should read it from the
        same facts, so that the report and the refusal never disagree.  The default: none."""
        return []

    def order_summary(self, state: State, power: str, orders: Sequence[Order]) -> list[str]:
        """Lines the reply adds below a power's accepted orders: what they
        cost and what is left (``Cost £9 of £24; £15 left``), or []."""
        return []

    def charts(self, state: State, final: bool = False) -> dict[str, dict[str, float]]:
        """Public figures of this state worth following over the game, for the
        archive's charts: ``{chart title: {series name: value}}``, e.g.
        ``{"Victory Points": {"Britain": 12, ...}}``.  ``final``: the game is over,
        so figures kept secret only while it is played (a treasury) may be
        included.  The archive calls this on the state after every resolved phase."""
        return {}
