"""The read-only objects the map and tables are loaded into (``mapdata.py`` loads them): Areas,
Home Countries, Sea Zones, capes, powers, markers, the event and unrest tables, the Game Turn
Track, and the names that resolve to each.

Rules: THE MAP, and the tables the rules refer to.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from pbem.kit.names import key, nearest

AREA_KINDS = ("unorganized", "chinese_vassal", "chinese_empire", "ottoman", "independent")
STATUSES = ("interest", "influence", "protectorate", "possession", "dominion", "state")
CRT_RESULTS = ("E", "AR", "EX", "HALF_EX", "DR", "DE")
CRT_COLUMNS = ("1:10", "1:3", "1:2", "2:3", "1:1", "3:2", "2:1", "3:1", "10:1")


class DataError(ValueError):
    """The data files (or a GM override file) are inconsistent; the message names the table."""


@dataclass(frozen=True)
class Area:
    name: str
    kind: str
    ev: int
    cs: int
    may_become: str | None
    neighbours: frozenset[str]
    seas: frozenset[str]


@dataclass(frozen=True)
class Home:
    power: str
    name: str
    seas: frozenset[str]
    neighbours: frozenset[str]


@dataclass(frozen=True)
class Sea:
    name: str
    number: int
    adjacent: frozenset[str]


@dataclass(frozen=True)
class Cape:
    """A Cape Zone: a sea space that exists only during a War, between two Sea Zones whose
    direct link it replaces (Rules: MOVEMENT DURING AN ALLIANCE MANEUVER PHASE - Cape Zones)."""
    name: str
    between: frozenset[str]


@dataclass(frozen=True)
class PowerInfo:
    name: str
    adjective: str
    aliases: tuple[str, ...]
    home: str
    co_level: int
    vp_divisor: float
    minor_threshold: int | None
    always_great: bool
    always_minor: bool


@dataclass(frozen=True)
class MarkerType:
    status: str
    buy: int
    maint: int
    income_mult: int
    garrison: bool
    cri_place_empire: int
    cri_place_vassal: int
    cri_per_turn: int


@dataclass(frozen=True)
class RandomEvent:
    """One line of the Random Events Table (two dice read in order, key "d1-d2").  The effect
    fields are described in data/events.toml; absent effects are None, 0 or empty."""
    roll: str
    name: str
    kind: str
    table: str | None
    power: str | None
    co_mult: float | None
    eti: int
    cri: int
    text: str
    forced_spend: int = 0
    forced_naval_only: bool = False
    forced_excludes: str | None = None
    spend_cap: int | None = None
    cb_against: str | None = None
    permission: Mapping[str, Any] | None = None
    pressure: Mapping[str, Any] | None = None
    excludes: tuple[str, ...] = ()


@dataclass(frozen=True)
class UnrestTable:
    """Rules: UNREST.  ``dice`` is "two" (two dice read in order, key "d1-d2") or "first"
    (the first die only, key "d1")."""
    letter: str
    dice: str
    entries: Mapping[str, str]

    def dice_needed(self) -> int:
        return 1 if self.dice == "first" else 2

    def pick(self, dice: Iterable[int]) -> str:
        rolled = list(dice)
        key = str(rolled[0]) if self.dice == "first" else f"{rolled[0]}-{rolled[1]}"
        return self.entries[key]


@dataclass(frozen=True)
class MinorTable:
    power: str
    threshold: int
    targets: Mapping[int, str]


@dataclass(frozen=True)
class TurnTrack:
    year: int
    merchants: Mapping[str, int]
    great_war_penalty: int


@dataclass(frozen=True, eq=False)
class Data:
    areas: Mapping[str, Area]
    homes: Mapping[str, Home]
    seas: Mapping[str, Sea]
    capes: Mapping[str, Cape]
    powers: Mapping[str, PowerInfo]
    markers: Mapping[str, MarkerType]
    colonial_office: Mapping[int, tuple[int, ...]]
    random_events: Mapping[str, RandomEvent]
    unrest_tables: Mapping[str, UnrestTable]
    minor_activity: Mapping[str, MinorTable]
    crt: Mapping[int, Mapping[str, tuple[str, ...]]]
    crt_columns: tuple[str, ...]
    setup_1880: Mapping[str, Any]
    turn_track: Mapping[int, TurnTrack]
    chinese_army_placement: Mapping[str, Any]
    counter_limits: Mapping[str, Any]
    regions: Mapping[str, tuple[str, ...]]
    straits: Mapping[str, frozenset[str]]
    unit_costs: Mapping[str, Mapping[int, int]]
    assumptions: tuple[str, ...]
    raw: Mapping[str, Any] = field(repr=False, compare=False)
    _names: "NameIndex" = field(repr=False, compare=False, default=None)  # type: ignore[assignment]

    # -- lookups ---------------------------------------------------------------------------
    def home_of(self, name: str) -> str | None:
        """The power whose Home Country is called ``name`` (canonical spelling), else None."""
        for power, home in self.homes.items():
            if home.name == name:
                return power
        return None

    def unit_cost(self, kind: str, strength: int) -> int:
        """Purchase price of a new Army ("army") or Naval ("navy") Unit of that strength."""
        try:
            return self.unit_costs[kind][strength]
        except KeyError:
            raise DataError(f"no purchase cost for a {kind} unit of strength {strength}") from None

    def fresh_setup_1880(self) -> dict[str, Any]:
        """A private deep copy of the 1880 set-up, safe to edit (the loaded data is shared)."""
        return copy.deepcopy(dict(self.setup_1880))

    def counter_limit(self, power: str, piece: str) -> int:
        """Pieces of a kind a power owns (Rules: PLAYING PIECES); kinds in data/tracks.toml."""
        return int(self.counter_limits.get(power, {}).get(piece, 0))

    def is_place(self, name: str) -> bool:
        return name in self.areas or name in self.seas or self.home_of(name) is not None

    def overland(self, place: str) -> frozenset[str]:
        """Places one Overland Route away from an Area or Home Country."""
        if place in self.areas:
            return self.areas[place].neighbours
        power = self.home_of(place)
        return self.homes[power].neighbours if power else frozenset()

    def coasts(self, place: str) -> frozenset[str]:
        """Sea Zones an Area or Home Country touches."""
        if place in self.areas:
            return self.areas[place].seas
        power = self.home_of(place)
        return self.homes[power].seas if power else frozenset()

    def sea_neighbours(self, sea: str, war: bool = False, canal: bool = False) -> frozenset[str]:
        """Sea spaces next to ``sea``.  In War the Cape Zones replace the direct links they lie
        between; ``canal`` adds the Caribbean-South Pacific link a built canal gives.
        Rules: THE MAP (Sea Zones); Cape Zones; CANALS AND STRAITS."""
        if sea in self.capes:
            return self.capes[sea].between if war else frozenset()
        links = set(self.seas[sea].adjacent)
        if canal and sea in _CANAL_SEAS:
            links |= _CANAL_SEAS - {sea}
        if war:
            for cape in self.capes.values():
                if sea in cape.between:
                    links -= cape.between
                    links.add(cape.name)
        return frozenset(links)

    def coastal_places(self, sea: str) -> frozenset[str]:
        """Areas and Home Countries touching a Sea Zone."""
        found = {a.name for a in self.areas.values() if sea in a.seas}
        found |= {h.name for h in self.homes.values() if sea in h.seas}
        return frozenset(found)

    # -- names ---------------------------------------------------------------------------
    def resolve_area(self, text: str) -> str | None:
        name = self._names.places.get(key(text))
        return name if name in self.areas else None

    def resolve_place(self, text: str, home_power: str | None = None) -> str | None:
        """An Area, Home Country, Sea Zone or Cape Zone name; "HOME" is ``home_power``'s home."""
        if key(text) == "home":
            return self.homes[home_power].name if home_power in self.homes else None
        return self._names.places.get(key(text))

    def resolve_power(self, text: str, natives: bool = False) -> str | None:
        """One of the twelve powers; with ``natives``, China or the Ottoman Empire too (where
        a war's orders or a GM command may name their armies)."""
        found = self._names.powers.get(key(text))
        return found if found or not natives else self._names.natives.get(key(text))

    def names_of(self, *kinds: str) -> list[str]:
        """The names of the kinds asked for: ``area``, ``sea`` (Sea and Cape Zones), ``place``
        (Areas, Home Countries, Sea Zones), ``power`` (the twelve), ``native`` (China, the
        Ottoman Empire); none asked: every one."""
        homes = [h.name for h in self.homes.values()]
        table = {"area": list(self.areas), "sea": [*self.seas, *self.capes],
                 "place": [*self.areas, *homes, *self.seas, *self.capes],
                 "power": list(self.powers), "native": sorted(set(self._names.natives.values()))}
        return [name for kind in (kinds or ("place", "power", "native")) for name in table[kind]]

    def suggest(self, text: str, *kinds: str) -> str | None:
        """The name of the kinds asked for (none: any) a misspelling most likely means, by
        edit distance, aliases included; None when none is close enough, or when the word is
        (or is nearer to) a name of another kind ("Turkey" where a power is asked for is the
        Ottoman Empire's, or Anatolia's, never a typo of a power)."""
        wanted = set(self.names_of(*kinds))
        mine: dict[str, str] = {}
        theirs: set[str] = set()
        for table in (self._names.places, self._names.powers, self._names.natives):
            for written, name in table.items():
                if name in wanted:
                    mine.setdefault(written, name)
                else:
                    theirs.add(written)
        near = nearest(text, mine, others=theirs - set(mine))
        if near:
            return mine[near]
        return _started(text, mine, theirs - set(mine))


def _started(text: str, mine: Mapping[str, str], theirs: set[str]) -> str | None:
    """The one name a word of four letters or more begins, when no name is a near typo of it
    ("Togo": Togoland); None when it begins several, or a name of another kind."""
    word = key(text)
    if len(word) < 4:
        return None
    found = {name for written, name in mine.items() if written.startswith(word)}
    if len(found) != 1 or any(written.startswith(word) for written in theirs):
        return None
    return found.pop()


_CANAL_SEAS = frozenset({"Caribbean Sea", "South Pacific Ocean"})


@dataclass(frozen=True)
class NameIndex:
    """Every way of writing a name (its ``pbem.kit.names.key``) -> the canonical name."""
    places: Mapping[str, str]
    powers: Mapping[str, str]
    natives: Mapping[str, str] = field(default_factory=dict)
