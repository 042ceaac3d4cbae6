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

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence, Union

from pbem.kit import (  # noqa: F401  (for games: who may see each event, pbem.kit.gameapi.audience.public() ...)
    audience
)
from pbem.kit.state_copy import copy_state  # noqa: F401  (for games: a fast deep copy of a state)

if TYPE_CHECKING:  # pragma: no cover
    from pbem.kit.dice import Dice

State = dict[str, Any]
#: {"kind": "...", "audience": ..., ...fields}: every event says who may see it (pbem.kit.audience)
Event = dict[str, Any]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one line of a player's mail.

    ``code`` is stable (players and tests may rely on it); ``kind`` tells an
    order that was not understood ("invalid") from one that was understood
    but is not allowed ("illegal"), and both from a "warning" about an order
    that is kept.  The code :data:`NOT_AN_ORDER` says a line is no order of
    the game at all (a greeting, a signature): the moderator answers it with
    one line naming the nearest command or order form, whatever the message.
    """

    code: str
    message: str
    line: int | None = None
    suggestion: str | None = None
    kind: str = "illegal"  # "invalid" | "illegal" | "warning"

    def render(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.explain()}"

    def explain(self) -> str:
        """The code, the message and the suggestion, without the line."""
        hint = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        return f"[{self.code}] {self.message}{hint}"


#: the problem code of a line that is no order of the game at all
NOT_AN_ORDER = "not-an-order"


@dataclass(frozen=True)
class Order:
    """One understood order.  ``args`` is plain JSON data; ``canonical`` is
    the order written the one way the game echoes it back (parsing the
    canonical text gives the same order)."""

    power: str
    kind: str
    args: Mapping[str, Any]
    canonical: str
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"power": self.power, "kind": self.kind, "args": dict(self.args),
                "canonical": self.canonical, "line": self.line}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Order":
        return cls(d["power"], d["kind"], d.get("args", {}), d["canonical"], d.get("line"))


@dataclass
class ParseResult:
    orders: list[Order] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


# -- phases and their order windows -----------------------------------------------

#: ``PhaseInfo.done`` values: a power is done once it has accepted orders
#: stored, or only once it has sent ``DONE`` (phases where players may write
#: several mails, such as a negotiation).
DONE_ON_ORDERS = "orders"
DONE_EXPLICIT = "explicit"


@dataclass(frozen=True)
class PhaseInfo:
    """The current phase and its order window.

    ``owes`` must answer before the phase may end early; ``may`` may answer
    but need not (optional responders: their orders are taken and passed to
    :meth:`Game.resolve`, and nobody waits for them).  ``window`` names the
    deadline class (``turn``, ``negotiation``, ``reaction``...): each class
    has its own duration, reminders and grace in the game's deadline policy
    (see :meth:`Game.windows`).  ``early`` says whether the phase may be
    resolved before its deadline once every owing power is done (the game's
    ``process_early`` setting must allow it too).  ``audience`` says who is
    told the result when this phase resolves: ``None`` is every player, else
    the named powers only (the GM always gets the public report).
    A phase that owes nothing and allows nothing resolves by itself.
    """

    key: str            # unique within a game, e.g. "1884/movement"
    name: str           # e.g. "movement"
    turn: int | None    # game turn number or year
    owes: tuple[str, ...] = ()   # powers that must answer now
    label: str = ""     # human label, e.g. "1884 Movement/Status Change"
    may: tuple[str, ...] = ()    # powers that may answer, need not
    window: str = "turn"
    done: str = DONE_ON_ORDERS
    early: bool = True
    audience: tuple[str, ...] | None = None

    @property
    def open(self) -> bool:
        """Whether this phase takes orders at all (else it resolves by itself)."""
        return bool(self.owes or self.may)

    def takes_orders_from(self, power: str) -> bool:
        return power in self.owes or power in self.may

    def told(self, power: str) -> bool:
        return self.audience is None or power in self.audience


# -- the powers of a game -----------------------------------------------------------

@dataclass(frozen=True)
class Roster:
    """The powers a game may seat, with the names players may write for them.

    It comes from the game's options (a scenario may name its realms), so it is
    known before the game starts; once it has started, from its state too.
    """

    powers: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)  # lower-case alias -> power

    def resolve(self, text: str) -> str | None:
        """Names in mail commands are single words, so a multi-word power is
        written with hyphens or underscores ("United-States"): try as written,
        then with those read as spaces."""
        table = {p.lower(): p for p in self.powers}
        table.update(self.aliases)
        key = " ".join(text.lower().split())
        spaced = " ".join(key.replace("-", " ").replace("_", " ").split())
        return table.get(key) or table.get(spaced)

    def nearest(self, text: str) -> str | None:
        """The power a misspelt name most likely means (by edit distance), or None."""
        from pbem.kit.names import nearest
        return nearest(text, self.powers)


# -- typed inputs besides orders --------------------------------------------------------

@dataclass(frozen=True)
class TreatyAction:
    """A treaty command of a power, as the moderator read it from a mail.

    ``action`` is one of ``propose sign refuse withdraw reveal breach``;
    ``at`` is the moment the moderator received it (ISO-8601 UTC), so that
    treaty records can carry dates while the rules never read a clock.  For
    ``propose``: ``parties`` (the proposer first), ``text`` and ``secret``;
    for ``breach`` (a party claims another broke the treaty): ``against`` and
    ``text``.
    """

    action: str
    power: str
    treaty: str
    at: str = ""
    parties: tuple[str, ...] = ()
    text: str = ""
    secret: bool = False
    against: str | None = None


@dataclass(frozen=True)
class Ruling:
    """A GM ruling on a question: one the engine asked (an id it gave in a
    ``question`` event) or one a player raised (a treaty breach claim)."""

    question: str
    ruling: str


@dataclass(frozen=True)
class Edit:
    """A GM state edit, in the game's edit vocabulary (the scenario files'
    ``GM`` statements): ``SET TREASURY France 20``."""

    text: str


Input = Union[TreatyAction, Ruling, Edit]
_INPUTS = {"treaty": TreatyAction, "ruling": Ruling, "edit": Edit}


def input_to_json(inp: Input) -> dict[str, Any]:
    kind = next(k for k, cls in _INPUTS.items() if isinstance(inp, cls))
    data = asdict(inp)
    if "parties" in data:
        data["parties"] = list(data["parties"])
    return {"type": kind, **data}


def input_from_json(data: Mapping[str, Any]) -> Input:
    fields = {k: v for k, v in data.items() if k != "type"}
    if "parties" in fields:
        fields["parties"] = tuple(fields["parties"])
    return _INPUTS[data["type"]](**fields)


class Refused(ValueError):
    """A game refuses an input (or a GM edit cannot be applied).  The message
    is for a human; ``code`` is a stable problem code."""

    code = "refused"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code

    def problem(self, line: int | None = None) -> Problem:
        return Problem(self.code, str(self), line)


class GMError(Refused):
    """A GM command or scenario edit that cannot be applied (message is for a human)."""

    code = "gm-edit"


# -- what a resolved phase tells each audience ----------------------------------------

@dataclass
class Report:
    """What one reader (a power, or ``None``: the public) is told.

    ``text`` is the plain-text body every email-only player reads; ``data`` is
    the same as a structured record (JSON-serialisable), from which templates
    draw HTML mail, archive pages, tables and maps.  ``template`` names the
    game's own HTML body template under ``games/<name>/templates/`` (``None``:
    the platform shows the text).
    """

    text: str
    data: dict[str, Any] = field(default_factory=dict)
    template: str | None = None


@dataclass(frozen=True)
class OrderOption:
    """One order a power may give now, with the values it may take now.

    ``form`` is the order as a player writes it, as in :meth:`Game.order_forms`
    or narrower (``BUY PROTECTORATE <area>``); ``note`` says in a few words
    what it does or what it costs; ``choices`` are the real values legal for
    this power now, each with its price where there is one (``Tunis £6``),
    best first; empty when the form takes any value of its kind.
    """

    form: str
    note: str = ""
    choices: tuple[str, ...] = ()


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

    def map_svg(self, state: State, power: str | None) -> str | None:
        """The board as ``power`` may see it (None: the public), drawn as one
        standalone SVG document, or None for a game without a map.  Drawn from
        the same facts as ``view(state, power)``, never more; pure, like
        every method here.  The SVG names itself (``<title>``, ``<desc>``),
        and :meth:`map_text` says the same in words.  The moderator embeds
        it in the HTML report and puts it on the archive's phase pages."""
        return None

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

    def set_phase(self, state: State, phase: str, turn: int | None) -> State:
        """Put the game at a phase (scenario ``PHASE`` statement)."""
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
