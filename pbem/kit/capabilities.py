"""What a game may offer beyond the required contract, each declared as a base class.

A game is a :class:`pbem.kit.gameapi.Game` (the ten required methods) plus whichever
capabilities it has, named among its bases::

    class Beacon(Game, Treaties, Maps, Guide): ...

The moderator asks :func:`supports` before it calls a capability's method, and a game
without one gets what docs/contract.md says for it (TREATY commands are refused, the
report has no map, HELP shows the commands alone ...).  A capability's methods that
raise NotImplementedError here are the ones a game declaring it must write.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from pbem.kit.gametypes import OrderOption, Ruling, State, TreatyAction

if TYPE_CHECKING:  # pragma: no cover
    from pbem.kit.dice import Dice
    from pbem.kit.gametypes import Event


class Treaties:
    """Treaties kept in the game's state; without: TREATY commands are refused (``no-treaties``)."""

    #: whether the game's own report lists the treaties its reader may see (then the
    #: moderator adds no list of its own to the report mail)
    report_lists_treaties: bool = False

    def treaty(self, state: State, action: TreatyAction, dice: Dice) -> tuple[State, list[Event]]:
        """Apply a treaty action.  :mod:`pbem.kit.treatybook` has the common life cycle.
        Emit ``{"kind": "treaty", "id": ...}`` for every treaty whose record changed, so
        its parties receive the record."""
        raise NotImplementedError

    def treaty_records(self, state: State, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
        """The treaties ``power`` may see (None: the public; ``gm``: every one), as records:
        ``id, proposer, parties, text, secret, status, signatures, refusals, history``,
        plus whatever the game adds (``clauses``, ``breaches``, ``answer_with``,
        ``concluded``: see docs/contract.md)."""
        raise NotImplementedError

    def treaty_seats(self, state: State) -> Mapping[str, str]:
        """Powers no player holds that may still be a treaty's party, each with the seated
        power whose player writes for it (its signature, refusal and withdrawal are that
        player's; it reads the treaty through that player).  Default: none."""
        return {}


class GMCommands:
    """GM state edits (``GM SET TREASURY France 20``); without: ``GM <anything else>`` is
    refused (``no-gm-commands``)."""

    def gm_command(self, state: State, text: str, dice: Dice) -> tuple[State, list[Event]]:
        """Apply one GM state edit.  Raises GMError."""
        raise NotImplementedError


class Rulings:
    """Questions for the GM (``GM RULE <question> <ruling>``); without: refused (``no-rulings``)."""

    def rule(self, state: State, ruling: Ruling, dice: Dice) -> tuple[State, list[Event]]:
        """Apply a GM ruling.  Raises Refused for a question the game does not know."""
        raise NotImplementedError


class Maps:
    """A board drawn for each reader; without: reports and the archive show no map."""

    def map_svg(self, state: State, power: str | None) -> str | None:
        """The board as ``power`` may see it (None: the public), one standalone SVG
        document naming itself (``<title>``, ``<desc>``), drawn from the same facts as
        ``view(state, power)``, never more; or None when there is nothing to draw."""
        raise NotImplementedError

    def map_text(self, state: State, power: str | None) -> list[str]:
        """The map in words, one line per place worth naming (beside the map)."""
        raise NotImplementedError


class Scenarios:
    """Scenario files (``pbem scenario run``); without: the runner refuses the game's cases."""

    def query(self, state: State, text: str) -> Any:
        """Answer one scenario query (``treasury France``).  Raises GMError."""
        raise NotImplementedError

    def set_phase(self, state: State, phase: str, turn: int | None, step: str | None = None) -> State:
        """Put the game at a phase (``PHASE <phase> [TURN <n>] [STEP <step>]``); ``step``,
        where the phase has steps, is named as the game names them."""
        raise NotImplementedError


class Bots:
    """Simple bots (``pbem demo``, the conformance test's random legal orders); without:
    ``pbem demo`` refuses the game and the conformance test plays its defaults."""

    def bot_orders(self, state: State, power: str, rng) -> list[str]:
        """Order lines a simple bot would send now (``rng`` is a random.Random)."""
        raise NotImplementedError

    def demo_setup(self, turns: int | None = None) -> tuple[list[str], dict[str, Any]]:
        """The powers and options ``pbem demo`` plays with; with ``turns``, options under
        which the game ends after that many turns (raise NotImplementedError if it cannot)."""
        if turns is not None:
            title = self.title  # type: ignore[attr-defined]
            raise NotImplementedError(f"{title} cannot end after a given number of turns")
        roster = self.roster({})  # type: ignore[attr-defined]  (a capability is declared by a Game)
        return list(roster.powers[:self.max_players]), {}  # type: ignore[attr-defined]

    def turns(self, options: Mapping[str, Any]) -> list[int] | None:
        """The game turns a game under these options plays, or None when not known in
        advance (the demo then says "turn 3", not "turn 3 of 10")."""
        return None


class Guide:
    """Help for players: the game's orders under HELP, its own topics, "what you may do
    now" in reports and the hint for a line that is no order.  Without: HELP lists the
    moderator's commands alone and the reports no choices."""

    def help_text(self, topic: str | None = None) -> str:
        """The game's list of orders, one form a line (``topic`` None: ``HELP``, ``HELP
        ORDERS``); given a ``topic``, the answer on one of its topics, or ""."""
        raise NotImplementedError

    def order_forms(self) -> list[str]:
        """Every order form players may write, one canonical pattern each (``BUY <marker>
        <area>``); the README must list them (a test checks)."""
        raise NotImplementedError

    def help_topics(self, state: State | None) -> list[str]:
        """Topics ``HELP <topic>`` answers besides the commands (None: before the start)."""
        return []

    def help_on(self, state: State | None, power: str | None, topic: str) -> str | None:
        """The answer to ``HELP <topic>``, showing only what ``power`` may see, or None.
        The default asks :meth:`help_text`."""
        return self.help_text(topic) or None

    def options_now(self, state: State, power: str) -> list[OrderOption]:
        """What ``power`` may order now, with real names and prices, or []."""
        return []


#: every capability by the name :func:`supports` takes
CAPABILITIES: dict[str, type] = {
    "treaties": Treaties, "gm_commands": GMCommands, "rulings": Rulings, "maps": Maps,
    "scenarios": Scenarios, "bots": Bots, "guide": Guide,
}


#: the methods a game declaring each capability must write (the others have defaults)
MUST_WRITE: dict[str, tuple[str, ...]] = {
    "treaties": ("treaty", "treaty_records"), "gm_commands": ("gm_command",), "rulings": ("rule",),
    "maps": ("map_svg", "map_text"), "scenarios": ("query", "set_phase"), "bots": ("bot_orders",),
    "guide": ("help_text", "order_forms"),
}


def supports(game: object, capability: str) -> bool:
    """Whether ``game`` declares ``capability`` (a name of :data:`CAPABILITIES`; any
    other name is a mistake in the caller and raises KeyError)."""
    return isinstance(game, CAPABILITIES[capability])


def capabilities(game: object) -> list[str]:
    """The names of every capability ``game`` declares."""
    return [name for name, base in CAPABILITIES.items() if isinstance(game, base)]
