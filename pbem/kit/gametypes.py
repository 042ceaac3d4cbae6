"""The data a game and the moderator exchange: problems, orders, phases, the
roster of powers, typed inputs (treaty actions, rulings, edits), reports and
the choices a report offers.  Games import them from :mod:`pbem.kit.gameapi`,
the contract, which re-exports them beside :class:`~pbem.kit.gameapi.Game`."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping, Sequence, Union

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
    """What a game read of an orders block.  Every line it was given is accounted for: the
    line of an order, the line of a problem, or in ``part_lines``, the lines read as part
    of another line's order or problem (a block's body and its end line, a ``FOR`` line
    that says whose orders follow).  The moderator names any other line in its reply as
    read by no rule (``unread-line``), so no line a player wrote is lost in silence."""

    orders: list[Order] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    part_lines: set[int] = field(default_factory=set)

    def unaccounted(self, lines: "Sequence[tuple[int, str]]") -> list[int]:
        """The numbers of ``lines`` (those with text) that no order, problem or part holds."""
        held = {o.line for o in self.orders} | {p.line for p in self.problems} | self.part_lines
        return [n for n, text in lines if text.strip() and n not in held]


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
    short: str = ""     # the label in a subject line, e.g. "1884 War 1" (default: the label to its first colon)

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
        """The power ``text`` names, as names compare (:func:`pbem.kit.names.key`: a
        multi-word power written with hyphens, underscores or a dash a phone typed,
        "United-States", names it; so does an alias), or None."""
        from pbem.kit.names import key

        table = {key(p): p for p in self.powers}
        table.update({key(alias): p for alias, p in self.aliases.items()})
        return table.get(key(text))

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
    is for a human; ``code`` is a stable problem code; ``suggestion`` what the
    sender most likely meant (a misspelt id), shown as "did you mean ...?"."""

    code = "refused"
    suggestion: str | None = None

    def __init__(self, message: str, code: str | None = None, suggestion: str | None = None):
        super().__init__(message)
        if code:
            self.code = code
        if suggestion:
            self.suggestion = suggestion

    def problem(self, line: int | None = None) -> Problem:
        return Problem(self.code, str(self), line, self.suggestion)


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


#: ``Obligation.kind`` values: something the power must do this phase, a limit on what it may
#: do, and an effect on it it should know before it writes its orders
MUST, LIMIT, EFFECT = "must", "limit", "effect"


@dataclass(frozen=True)
class Obligation:
    """One thing the rules oblige, forbid or give one power in the current phase, said before
    its orders are written (a report opens with them, STATUS and the reply to orders show them).

    ``text`` says it in words for the player (``Pan-Slav Agitation in Russia: spend at least £30
    building units this turn``); ``kind`` is
    :data:`MUST`, :data:`LIMIT` or :data:`EFFECT`; ``rule`` names the rule section it comes from;
    ``dice`` are the dice that decided it, as numbers, in the order rolled (``(2, 6)`` for a
    random event read "2-6"); ``audience`` says who may see it (a :mod:`pbem.kit.audience`
    audience or its JSON), most often the power alone: the moderator shows a reader only the
    obligations the gate admits; ``power`` is whose obligation it is (the GM's lists name it).
    """

    power: str
    text: str
    audience: Any
    kind: str = MUST
    rule: str = ""
    dice: tuple[int, ...] = ()

    def render(self) -> str:
        """The obligation in one line: its text, the dice that decided it, its rule."""
        dice = ""
        if self.dice:
            dice = f" (die {self.dice[0]})" if len(self.dice) == 1 else \
                f" (dice {', '.join(str(d) for d in self.dice[:-1])} and {self.dice[-1]})"
        rule = f" [rules: {self.rule}]" if self.rule else ""
        return f"{self.text}{dice}{rule}"

    def to_json(self) -> dict[str, Any]:
        to_json = getattr(self.audience, "to_json", None)  # an Audience, or already its JSON
        seen = to_json() if callable(to_json) else self.audience
        return {"power": self.power, "text": self.text, "kind": self.kind, "rule": self.rule,
                "dice": list(self.dice), "audience": seen, "line": self.render()}
