"""The Pax Britannica map and tables, loaded from ``data/*.toml`` into read-only objects.

Rules: THE MAP, and the tables the rules refer to.  Every table carries a ``source`` note;
values no public source gives are marked ``assumed = true`` and listed in
:attr:`Data.assumptions`, which a GM sees when a game is created.

A GM may override any table: ``load(override=path)`` deep-merges that TOML file over the shipped
data (tables merge key by key, other values replace).  See ``data/DATA.md``.
"""
from __future__ import annotations

import copy
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from pbem.names import nearest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the project runs on 3.11, the fallback keeps 3.10 working
    import tomli as tomllib

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

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

    # -- names -----------------------------------------------------------------------------
    def resolve_area(self, text: str) -> str | None:
        name = self._names.places.get(_key(text))
        return name if name in self.areas else None

    def resolve_place(self, text: str, home_power: str | None = None) -> str | None:
        """An Area, Home Country, Sea Zone or Cape Zone name; "HOME" is ``home_power``'s home."""
        if _key(text) == "home":
            return self.homes[home_power].name if home_power in self.homes else None
        return self._names.places.get(_key(text))

    def resolve_power(self, text: str) -> str | None:
        return self._names.powers.get(_key(text))

    def names_of(self, kind: str | None = None) -> list[str]:
        """The names of one kind: ``area``, ``sea`` (Sea and Cape Zones), ``place``
        (Areas, Home Countries, Sea Zones), ``power``; None: every place and power."""
        homes = [h.name for h in self.homes.values()]
        kinds = {"area": list(self.areas), "sea": [*self.seas, *self.capes],
                 "place": [*self.areas, *homes, *self.seas, *self.capes],
                 "power": list(self.powers)}
        if kind is None:
            return kinds["place"] + kinds["power"]
        return kinds[kind]

    def suggest(self, text: str, kind: str | None = None) -> str | None:
        """The name of that kind a misspelling most likely means (by edit
        distance, aliases included), or None if none is close enough."""
        wanted = set(self.names_of(kind))
        pool = {**self._names.places, **self._names.powers}
        near = nearest(text, [k for k, name in pool.items() if name in wanted], normalise=_key)
        return pool[near] if near else None


_CANAL_SEAS = frozenset({"Caribbean Sea", "South Pacific Ocean"})


def _key(text: str) -> str:
    """Names compare without case, spaces, apostrophes, hyphens or dots."""
    return re.sub(r"[^0-9a-z]", "", str(text).lower().replace("&", "and"))


@dataclass(frozen=True)
class NameIndex:
    places: Mapping[str, str]
    powers: Mapping[str, str]


# -- loading -------------------------------------------------------------------------------

def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` merged onto ``base``: tables merge key by key, any other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def read_shipped(data_dir: Path = DATA_DIR) -> dict[str, Any]:
    """All ``*.toml`` files of the data folder as one document (top-level keys must not clash)."""
    doc: dict[str, Any] = {}
    for path in sorted(data_dir.glob("*.toml")):
        with path.open("rb") as fh:
            part = tomllib.load(fh)
        clash = set(part) & set(doc)
        if clash:
            raise DataError(f"{path.name}: tables {sorted(clash)} are defined twice")
        doc.update(part)
    return doc


def load(override: Mapping[str, Any] | None = None) -> Data:
    """The shipped data, with a GM's override merged over it.  ``override`` is
    the frozen copy the moderator stored with the game (``{"name", "sha256",
    "text"}``): the game never reads a server file again.  Cached by hash."""
    if not override:
        return _load_cached(None, None)
    return _load_cached(str(override.get("sha256") or ""), str(override.get("text") or ""))


@lru_cache(maxsize=8)
def _load_cached(_sha256: str | None, text: str | None) -> Data:
    doc = read_shipped()
    if text is not None:
        doc = deep_merge(doc, tomllib.loads(text))
    return build(doc)


# -- building the objects ------------------------------------------------------------------

def _tables(section: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The named sub-tables of a section, skipping its notes (source, decision, ...)."""
    return {k: v for k, v in section.items() if isinstance(v, Mapping)}


def _fs(values: Iterable[str] | None) -> frozenset[str]:
    return frozenset(values or ())


def build(doc: Mapping[str, Any]) -> Data:
    """Turn the merged TOML document into a checked :class:`Data`."""
    areas = {n: Area(n, t["kind"], int(t["ev"]), int(t["cs"]), t.get("may_become"),
                     _fs(t.get("neighbours")), _fs(t.get("seas")))
             for n, t in _tables(doc["areas"]).items()}
    homes = {p: Home(p, t.get("name", p), _fs(t.get("seas")), _fs(t.get("neighbours")))
             for p, t in _tables(doc["homes"]).items()}
    seas = {n: Sea(n, int(t.get("number", 0)), _fs(t.get("adjacent")))
            for n, t in _tables(doc["seas"]).items()}
    capes = {n: Cape(n, _fs(t["between"])) for n, t in _tables(doc.get("capes", {})).items()}
    powers = {n: PowerInfo(n, t["adjective"], tuple(t.get("aliases", ())), t.get("home", n),
                           int(t["co_level"]), float(t["vp_divisor"]), t.get("minor_threshold"),
                           bool(t.get("always_great")), bool(t.get("always_minor")))
              for n, t in _tables(doc["powers"]).items()}
    markers = {s: MarkerType(s, int(t["buy"]), int(t["maint"]), int(t["income_mult"]),
                             bool(t["garrison"]), int(t.get("cri_place_empire", 0)),
                             int(t.get("cri_place_vassal", 0)), int(t.get("cri_per_turn", 0)))
               for s, t in _tables(doc.get("markers", {})).items()}
    co = {int(k): tuple(int(x) for x in v)
          for k, v in doc.get("colonial_office", {}).get("levels", {}).items()}
    events = {r: _event(r, t) for r, t in _tables(doc.get("random_events", {})).items()}
    unrest_doc = doc.get("unrest_tables", {})
    unrest = {k: UnrestTable(k, t["dice"], dict(t["entries"]))
              for k, t in _tables(unrest_doc).items() if k != "letters"}
    # A GM may say which stored table each letter of the Random Events Table means.
    letters = unrest_doc.get("letters") or {k: k for k in unrest}
    unrest = {k: UnrestTable(k, unrest[v].dice, unrest[v].entries) for k, v in letters.items()}
    minors = {p: MinorTable(p, int(powers[p].minor_threshold or 0),
                            {int(k): v for k, v in t["targets"].items()})
              for p, t in _tables(doc.get("minor_activity", {})).items()}
    crt_doc = doc.get("crt", {})
    columns = tuple(crt_doc.get("columns", CRT_COLUMNS))
    crt = {int(k.removeprefix("table")): {c: tuple(t[c]) for c in columns}
           for k, t in _tables(crt_doc).items() if k.startswith("table")}
    track = {int(y): TurnTrack(int(y), {p: int(n) for p, n in t.get("merchants", {}).items()},
                               int(t.get("great_war_penalty", 0)))
             for y, t in _tables(doc.get("turn_track", {})).items() if y.isdecimal()}
    regions = {k: tuple(t["areas"]) for k, t in _tables(doc.get("regions", {})).items()}
    straits = {k: _fs(t["seas"]) for k, t in _tables(doc.get("straits", {})).items()}
    costs = {kind: {int(s): int(c) for s, c in t.items() if s.isdecimal()}
             for kind, t in _tables(doc.get("unit_costs", {})).items()}
    data = Data(areas=areas, homes=homes, seas=seas, capes=capes, powers=powers, markers=markers,
                colonial_office=co, random_events=events, unrest_tables=unrest,
                minor_activity=minors, crt=crt, crt_columns=columns, straits=straits,
                setup_1880=doc.get("setup_1880", {}), turn_track=track,
                chinese_army_placement=doc.get("chinese_army_placement", {}),
                counter_limits=_counter_limits(doc.get("counter_limits", {}), powers),
                regions=regions,
                unit_costs=costs, assumptions=tuple(_assumptions(doc)), raw=doc,
                _names=_name_index(doc, areas, homes, seas, capes, powers))
    _check(data)
    return data


def _counter_limits(doc: Mapping[str, Any], powers: Mapping[str, PowerInfo]) -> dict[str, Any]:
    """Each power's full piece counts (its own entry over the great/minor default), plus the
    shared Chinese/Ottoman army pieces."""
    out: dict[str, Any] = {k: v for k, v in doc.items() if not isinstance(v, Mapping)}
    for p, info in powers.items():
        base = doc.get("default_minor" if info.always_minor else "default_great", {})
        out[p] = {k: int(v) for k, v in {**base, **doc.get(p, {})}.items()}
    return out


def _event(roll: str, t: Mapping[str, Any]) -> RandomEvent:
    mult = t.get("co_mult")
    return RandomEvent(
        roll=roll, name=t["name"], kind=t.get("kind", "headline"), table=t.get("table"),
        power=t.get("power"), co_mult=float(mult) if mult is not None else None,
        eti=int(t.get("eti", 0)), cri=int(t.get("cri", 0)), text=t.get("text", ""),
        forced_spend=int(t.get("forced_spend", 0)),
        forced_naval_only=bool(t.get("forced_naval_only", False)),
        forced_excludes=t.get("forced_excludes"), spend_cap=t.get("spend_cap"),
        cb_against=t.get("cb_against"), permission=t.get("permission"),
        pressure=t.get("pressure"), excludes=tuple(t.get("excludes", ())))


def _assumptions(doc: Mapping[str, Any], path: str = "") -> list[str]:
    """Plain-words notes of every table marked ``assumed = true`` (its ``reason``)."""
    found: list[str] = []
    for key, value in doc.items():
        if not isinstance(value, Mapping):
            continue
        where = f"{path}.{key}" if path else key
        if value.get("assumed"):
            found.append(f"{where}: {value.get('reason', 'assumed value')}")
        found.extend(_assumptions(value, where))
    return found


def _name_index(doc, areas, homes, seas, capes, powers) -> NameIndex:
    places: dict[str, str] = {}
    for name in [*areas, *seas, *capes, *(h.name for h in homes.values())]:
        places[_key(name)] = name
    for sea in [*seas, *capes]:  # "North Atlantic", "Caribbean", "Horn"
        short = re.sub(r"^(cape of|cape)\s+|\s+(ocean|sea)$", "", sea.lower())
        places.setdefault(_key(short), sea)
    canonical = set(places.values())
    for alias, name in doc.get("aliases", {}).items():
        if alias != "source":
            if name not in canonical:
                raise DataError(f"alias {alias!r}: unknown place {name!r}")
            places.setdefault(_key(alias), name)
    names: dict[str, str] = {}
    for p in powers.values():
        for text in (p.name, p.adjective, *p.aliases):
            names.setdefault(_key(text), p.name)
    return NameIndex(places, names)


def _check(data: Data) -> None:
    """References between tables must name real things; a typo in an override fails loudly."""
    land = set(data.areas) | {h.name for h in data.homes.values()}
    seas, areas, powers = set(data.seas), set(data.areas), set(data.powers)
    chinese = {a.name for a in data.areas.values() if a.kind.startswith("chinese")}
    refs: list[tuple[str, Iterable[Any], set]] = [
        ("area kind", [a.kind for a in data.areas.values()], set(AREA_KINDS)),
        ("unrest table letter", [e.table for e in data.random_events.values() if e.table],
         set(data.unrest_tables)),
        ("crt result", [r for cols in data.crt.values() for rs in cols.values() for r in rs],
         set(CRT_RESULTS)),
        ("chinese army placement area",
         data.chinese_army_placement.get("targets", {}).values(), chinese)]
    for a in [*data.areas.values(), *data.homes.values()]:
        refs += [(f"{a.name} neighbour", a.neighbours, land), (f"{a.name} sea", a.seas, seas)]
    refs += [(f"{s.name} adjacent sea", s.adjacent, seas) for s in data.seas.values()]
    refs += [(f"{c.name} sea", c.between, seas) for c in data.capes.values()]
    refs += [(f"unrest table {t.letter} area", t.entries.values(), areas)
             for t in data.unrest_tables.values()]
    refs += [(f"minor table {m.power} area", m.targets.values(), areas)
             for m in data.minor_activity.values()]
    refs += [(f"region {n} place", r, land) for n, r in data.regions.items()]
    refs += [(f"turn track {y} power", t.merchants, powers) for y, t in data.turn_track.items()]
    setup = data.setup_1880
    for part, fields in (("markers", {"area": areas, "power": powers, "status": set(STATUSES)}),
                         ("units", {"where": land, "power": powers, "type": {"army", "navy"},
                                    "strength": {1, 3, 10}}),
                         ("merchants", {"sea": seas, "power": powers}),
                         ("merchants_if_minor", {"sea": seas, "power": powers})):
        refs += [(f"setup {part} {key}", [x[key] for x in setup.get(part, [])], known)
                 for key, known in fields.items()]
    refs += [(f"setup navy at {u['where']} sea", [u["sea"]], set(data.coasts(u["where"])))
             for u in setup.get("units", []) if u.get("sea")]
    problems = [f"{label}: unknown {v!r}" for label, values, known in refs
                for v in values if v not in known]
    if problems:
        raise DataError("; ".join(problems))
