"""The contract between the moderator and a game's rules (second edition).

A game is one declared object (a subclass of :class:`Game`) living under
``games/<name>/`` and registered by name (see :mod:`pbem.base.registry`).  The
moderator never looks inside a game's state: it only calls the methods below.
docs/contract.md explains the contract with examples; this module is its
reference.

Everything here is pure: rules never read the clock, the database, the network
or a global random source.  They get a state (plain JSON-serialisable data),
the orders or another typed input, and a :class:`pbem.kit.dice.Dice`, and return a
new state and events.

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
# The contract's data, declared in gametypes.py, is part of this module's interface.
from pbem.kit.gametypes import (  # noqa: F401
    DONE_EXPLICIT, DONE_ON_ORDERS, NOT_AN_ORDER, Edit, Event, GMError, Input, Order, OrderOption, ParseResult,
    PhaseInfo, Problem, Refused, Report, Roster, Ruling, State, TreatyAction, input_from_json, input_to_json
)
from pbem.kit.state_copy import copy_state  # noqa: F401  (for games: a fast deep copy of a state)

if TYPE_CHECKING:  # pragma: no cover
    from pbem.kit.dice import Dice

# -- the game -------------------------------------------------------------------------

class Game:
    """Base class of every game.  Methods that raise NotImplementedError here
    must be implemented by every game: a game that forgets one fails loudly
    instead of accepting everything or reporting nothing."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    #: whether the game knows treaties; without, TREATY commands are refused
    treaties: bool = False
    #: whether the game's own report lists the treaties its reader may see (then
    #: the moderator adds no list of its own to the report mail)
    report_lists_treaties: bool = False
    #: the version of the rules' code, raised when a change may resolve a stored phase
    #: differently; "" (the default) takes pbem's own version.  Every snapshot records
    #: it, so `pbem verify` can tell a changed rule from a damaged record.
    rules_version: str = ""

    # -- names -------------------------------------------------------------
    def roster(self, options: Mapping[str, Any], state: State | None = None) -> Roster:
        """Every power that may be seated, with its aliases."""
        raise NotImplementedError

    @staticmethod
    def mail_name(power: str) -> str:
        """How a power is written in a mail command (one word)."""
        return power.replace(" ", "-")

    # -- life cycle --------------------------------------------------------
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

    def setup(self, players: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
        raise NotImplementedError

    def assumptions(self, options: Mapping[str, Any]) -> list[str]:
        """Values the game had to assume (shown to the GM at creation)."""
        return []

    def phase(self, state: State) -> PhaseInfo:
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    # -- orders ------------------------------------------------------------
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

    def describe_defaults(self, state: State, power: str) -> str:
        orders = self.defaults(state, power)
        return "; ".join(o.canonical for o in orders) or "no orders (nothing happens)"

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice: Dice) -> tuple[State, list[Event]]:
        """Resolve exactly one phase.  Must not mutate ``state``."""
        raise NotImplementedError

    # -- typed inputs ------------------------------------------------------
    def apply(self, state: State, inp: Input, dice: Dice) -> tuple[State, list[Event]]:
        """Apply one typed input; must not mutate ``state``.  Raises
        :class:`Refused` (with a reason for a human) when the game will not."""
        if isinstance(inp, Edit):
            return self.gm_command(state, inp.text, dice)
        if isinstance(inp, Ruling):
            return self.rule(state, inp, dice)
        if isinstance(inp, TreatyAction):
            if not self.treaties:
                raise Refused(f"{self.title} has no treaties", "no-treaties")
            return self.treaty(state, inp, dice)
        raise TypeError(f"not an input: {inp!r}")

    def stamp(self, state: State, events: list[Event]) -> list[Event]:
        """Give each event made without an audience (:mod:`pbem.kit.audience`) the one its kind has,
        as the game declares them (``state``: the state after the events).  The engine calls
        this on everything :meth:`resolve` and :meth:`apply` return, so a game tags an event
        where it makes it only when its audience depends on more than its kind (a secret
        treaty's).  An event left without one is shown to the GM alone.  The default leaves
        every event as it is."""
        return events

    def gm_command(self, state: State, text: str, dice: Dice) -> tuple[State, list[Event]]:
        """Apply one GM state edit (the scenario vocabulary).  Raises GMError."""
        raise NotImplementedError

    def rule(self, state: State, ruling: Ruling, dice: Dice) -> tuple[State, list[Event]]:
        """Apply a GM ruling.  Raises Refused for a question the game does not know."""
        raise NotImplementedError

    def treaty(self, state: State, action: TreatyAction, dice: Dice) -> tuple[State, list[Event]]:
        """Apply a treaty action (games with ``treaties = True``).  The game
        keeps its treaties in its state; :mod:`pbem.kit.treatybook` has the
        common life cycle.  Emit ``{"kind": "treaty", "id": ...}`` for every
        treaty whose record changed, so its parties receive the record."""
        raise NotImplementedError

    def treaty_records(self, state: State, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
        """The treaties ``power`` may see (None: the public; ``gm``: every one), as records:
        ``id, proposer, parties, text, secret, status, signatures, refusals,
        history``, plus whatever the game adds (clauses, breaches; ``answer_with``: how a
        party answers a proposal when it is not with TREATY SIGN/REFUSE; ``concluded``: the
        game concluded the record itself, nobody signs it and TREATY commands are refused,
        see :func:`pbem.kit.treatybook.concluded_record`)."""
        return []

    # -- what people see ---------------------------------------------------
    def view(self, state: State, power: str | None) -> dict[str, Any]:
        """What ``power`` may see (None: the public view), JSON-serialisable."""
        raise NotImplementedError

    def report(self, state: State, events: Sequence[Event], power: str | None) -> Report:
        """The report for one reader after phases resolved (None: the public)."""
        raise NotImplementedError

    def concerns(self, state: State, events: Sequence[Event], power: str) -> bool:
        """Whether the phases just resolved, of which ``power`` may see ``events``, are worth a
        report mail to it now, when the next phase asks nothing of it (``state``: the game
        after them).  When they are not, the report is held and its phases go out with the
        power's next report (a digest: nothing is lost).  The default mails each power a
        report of every phase it may see."""
        return True

    def map_svg(self, state: State, power: str | None) -> str | None:
        """The board as ``power`` may see it (None: the public), drawn as one
        standalone SVG document, or None for a game without a map.  Drawn from
        the same facts as ``view(state, power)``, never more; pure, like
        every method here.  The SVG names itself (``<title>``, ``<desc>``),
        and :meth:`map_text` says the same in words.  The moderator embeds
        it in the HTML report and puts it on the archive's phase pages."""
        return None

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

    def map_text(self, state: State, power: str | None) -> list[str]:
        """The text equivalent of :meth:`map_svg`, one line per place worth
        naming (shown beside the map for readers who cannot see it)."""
        return []

    def charts(self, state: State, final: bool = False) -> dict[str, dict[str, float]]:
        """Public figures of this state worth following over the game, for the
        archive's charts: ``{chart title: {series name: value}}``, e.g.
        ``{"Victory Points": {"Britain": 12, ...}, "European Tensions": {...}}``.
        ``final``: the game is over, so figures kept secret only while it is
        played (a treasury) may be included.  The archive calls this on the
        state after every resolved phase."""
        return {}

    def results(self, state: State) -> list[dict[str, Any]]:
        """Final standings, best first: [{"power":..., "score":..., "rank":...}]."""
        raise NotImplementedError

    def help_text(self, topic: str | None = None) -> str:
        """The game's list of orders, one form a line, and how they are written
        (``topic`` None): shown with ``HELP`` and ``HELP ORDERS``.  Given a
        ``topic``, the game's answer on one of its own topics (``HELP
        NEGOTIATION``) or "" when it has nothing on it; the default
        :meth:`help_on` asks this, so a game may answer its topics here alone."""
        raise NotImplementedError

    def help_topics(self, state: State | None) -> list[str]:
        """Topics ``HELP <topic>`` answers for this game besides the mail
        commands (order verbs, tables, ``MAP``...), for the help index and
        for suggestions when a topic is misspelt.  ``state`` is None before
        the game starts."""
        return []

    def help_on(self, state: State | None, power: str | None, topic: str) -> str | None:
        """The answer to ``HELP <topic>`` (plain text), or None when the game
        has nothing on it: an order (``BUY``), a table (``PRICES``), the map,
        a place by name.  ``power`` is the asker when signed on; the answer
        shows only what that power may see.  The default is
        ``help_text(topic)`` (None when that is empty)."""
        return self.help_text(topic) or None

    def options_now(self, state: State, power: str) -> list[OrderOption]:
        """What ``power`` may order in the current phase, with real names and
        prices (the reports' "what you may do now"), or [] when the phase
        asks nothing of it or the game cannot say; the moderator then shows
        the order forms alone.  Read-only, like :meth:`validate`."""
        return []

    def as_written(self, orders: Sequence[Order], power: str) -> list[str]:
        """A power's stored orders as lines its player could send again (the reply to
        orders and the handover dossier show them): each order's canonical form unless
        the game writes more (orders for another power the player runs, under a line
        of the game's own)."""
        return [o.canonical for o in orders]

    def order_summary(self, state: State, power: str, orders: Sequence[Order]) -> list[str]:
        """Lines the reply adds below a power's accepted orders: what they
        cost and what is left (``Cost £9 of £24; £15 left``), or []."""
        return []

    def order_forms(self) -> list[str]:
        """Every order form players may write, one canonical pattern each
        (``BUY <marker> <area>``); the README must list them (a test checks)."""
        raise NotImplementedError

    # -- scenarios ---------------------------------------------------------
    def query(self, state: State, text: str) -> Any:
        """Answer one scenario query (``treasury France``).  Raises GMError."""
        raise NotImplementedError

    def set_phase(self, state: State, phase: str, turn: int | None, step: str | None = None) -> State:
        """Put the game at a phase (scenario ``PHASE <phase> [TURN <n>] [STEP <step>]``
        statement); ``step``, where the phase has steps, is named as the game names them."""
        raise NotImplementedError

    # -- bots --------------------------------------------------------------
    def bot_orders(self, state: State, power: str, rng) -> list[str]:
        """Order lines a simple bot would send now (``rng`` is a random.Random).
        Games without bots leave this; ``pbem demo`` needs it."""
        raise NotImplementedError

    def demo_setup(self, turns: int | None = None) -> tuple[list[str], dict[str, Any]]:
        """The powers and options ``pbem demo`` plays with (all bots); with
        ``turns``, options under which the game ends after that many turns
        (a game that cannot end early raises NotImplementedError)."""
        if turns is not None:
            raise NotImplementedError(f"{self.title} cannot end after a given number of turns")
        roster = self.roster({})
        return list(roster.powers[:self.max_players]), {}

    def turns(self, options: Mapping[str, Any]) -> list[int] | None:
        """The game turns (the ``turn`` of :class:`PhaseInfo`, in order) a game under these
        options plays when nothing ends it early, or None when that is not known in advance.
        Optional: ``pbem demo`` shows "turn 3 of 10" with it, "turn 3" without."""
        return None
