"""The contract between the moderator and a game's rules.

A game is one declared object (a subclass of :class:`Game`) living under
``games/<name>/`` and registered by name (see :mod:`pbem.registry`).  The
moderator never looks inside a game's state: it only calls the methods below.

Everything here is pure: rules never read the clock, the database, the network
or a global random source.  They get a state (plain JSON-serialisable data),
the orders, and a :class:`pbem.dice.Dice`, and return a new state and events.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

State = dict[str, Any]
Event = dict[str, Any]  # {"kind": "...", ...fields}; see SCENARIOS-style event names


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one line of a player's mail.

    ``code`` is stable (players and tests may rely on it); ``kind`` tells an
    order that was not understood ("invalid") from one that was understood
    but is not allowed ("illegal").
    """

    code: str
    message: str
    line: int | None = None
    suggestion: str | None = None
    kind: str = "illegal"  # "invalid" | "illegal" | "warning"

    def render(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        hint = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        return f"{where}[{self.code}] {self.message}{hint}"


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


@dataclass(frozen=True)
class PhaseInfo:
    """What the moderator needs to know about the current phase."""

    key: str            # unique within a game, e.g. "1884/movement"
    name: str           # e.g. "movement"
    turn: int | None    # game turn number or year
    owes: tuple[str, ...]  # powers that owe orders now (empty: resolves by itself)
    label: str = ""     # human label, e.g. "1884 Movement/Status Change"


class GMError(ValueError):
    """A GM command or scenario edit that cannot be applied (message is for a human)."""


class Game:
    """Base class of every game.  Subclasses override what they need."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    #: every power of the game, canonical names, in the game's usual order
    powers: tuple[str, ...] = ()

    # -- names -------------------------------------------------------------
    def power_aliases(self) -> Mapping[str, str]:
        """lower-case alias (name, adjective, short forms) -> canonical power."""
        return {p.lower(): p for p in self.powers}

    def resolve_power(self, text: str) -> str | None:
        """Names in mail commands are single words, so a multi-word power is
        written with hyphens or underscores ("United-States"): try as written,
        then with those read as spaces."""
        aliases = self.power_aliases()
        key = " ".join(text.lower().split())
        spaced = " ".join(key.replace("-", " ").replace("_", " ").split())
        return aliases.get(key) or aliases.get(spaced)

    @staticmethod
    def mail_name(power: str) -> str:
        """How a power is written in a mail command (one word)."""
        return power.replace(" ", "-")

    # -- life cycle --------------------------------------------------------
    def options(self) -> Mapping[str, tuple[Any, str]]:
        """Game options: name -> (default, help)."""
        return {}

    def setup(self, players: Sequence[str], options: Mapping[str, Any], dice) -> State:
        raise NotImplementedError

    def assumptions(self, state: State) -> list[str]:
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
        """Read-only legality check against the current phase."""
        return []

    def defaults(self, state: State, power: str) -> list[Order]:
        """Orders that apply when a power sent none (civil disorder)."""
        return []

    def describe_defaults(self, state: State, power: str) -> str:
        orders = self.defaults(state, power)
        return "; ".join(o.canonical for o in orders) or "no orders (nothing happens)"

    def resolve(self, state: State, orders: Mapping[str, Sequence[Order]], dice) -> tuple[State, list[Event]]:
        """Resolve exactly one phase.  Must not mutate ``state``."""
        raise NotImplementedError

    # -- what people see ---------------------------------------------------
    def view(self, state: State, power: str | None) -> dict[str, Any]:
        """What ``power`` may see (None: the public view)."""
        return {}

    def report_text(self, state: State, events: Sequence[Event], power: str | None) -> str:
        """Plain-text turn report for one power (None: the public report)."""
        return ""

    def results(self, state: State) -> list[dict[str, Any]]:
        """Final standings, best first: [{"power":..., "score":..., "rank":...}]."""
        return []

    def help_text(self, topic: str | None = None) -> str:
        return ""

    # -- GM and scenarios --------------------------------------------------
    def gm_command(self, state: State, text: str, dice) -> tuple[State, list[Event]]:
        """Apply one GM state edit (the scenario vocabulary).  Raises GMError."""
        raise GMError(f"unknown GM command: {text}")

    def query(self, state: State, text: str) -> Any:
        """Answer one scenario query (``treasury France``).  Raises GMError."""
        raise GMError(f"unknown query: {text}")

    def set_phase(self, state: State, phase: str, turn: int | None) -> State:
        """Put the game at a phase (scenario ``PHASE`` statement)."""
        raise GMError("this game cannot jump to a phase")

    def bot_orders(self, state: State, power: str, rng) -> list[str]:
        """Order lines a simple bot would send (``rng`` is a random.Random)."""
        return []
