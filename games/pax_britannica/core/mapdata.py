"""The Pax Britannica map and tables, loaded from ``data/*.toml`` into read-only objects
(``mapclasses.py``).

Rules: THE MAP, and the tables the rules refer to.  Every table carries a ``source`` note;
values no public source gives are marked ``assumed = true`` and listed in
:attr:`Data.assumptions`, which a GM sees when a game is created.

A GM may override any table: ``load(override=path)`` deep-merges that TOML file over the shipped
data (tables merge key by key, other values replace).  See ``data/DATA.md``.
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from pbem.kit.names import key

from .mapclasses import (AREA_KINDS, Area, CRT_COLUMNS, CRT_RESULTS, Cape, Data, DataError, Home, MarkerType,
                         MinorTable, NameIndex, PowerInfo, RandomEvent, STATUSES, Sea, TurnTrack, UnrestTable)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the project runs on 3.11, the fallback keeps 3.10 working
    import tomli as tomllib

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


# -- loading -------------------------------------------------------------------------------

def deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` merged onto ``base``: tables merge key by key, any other value replaces."""
    out = dict(base)
    for name, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(name), Mapping):
            out[name] = deep_merge(out[name], value)
        else:
            out[name] = value
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
    for name, value in doc.items():
        if not isinstance(value, Mapping):
            continue
        where = f"{path}.{name}" if path else name
        if value.get("assumed"):
            found.append(f"{where}: {value.get('reason', 'assumed value')}")
        found.extend(_assumptions(value, where))
    return found


def _name_index(doc, areas, homes, seas, capes, powers) -> NameIndex:
    places: dict[str, str] = {}
    for name in [*areas, *seas, *capes, *(h.name for h in homes.values())]:
        places[key(name)] = name
    for sea in [*seas, *capes]:  # "North Atlantic", "Caribbean", "Horn"
        short = re.sub(r"^(cape of|cape)\s+|\s+(ocean|sea)$", "", sea.lower())
        places.setdefault(key(short), sea)
    canonical = set(places.values())
    for alias, name in doc.get("aliases", {}).items():
        if alias != "source":
            if name not in canonical:
                raise DataError(f"alias {alias!r}: unknown place {name!r}")
            places.setdefault(key(alias), name)
    names: dict[str, str] = {}
    for p in powers.values():
        for text in (p.name, p.adjective, *p.aliases):
            names.setdefault(key(text), p.name)
    natives: dict[str, str] = {}
    for name, table in _tables(doc.get("natives", {})).items():
        for text in (name, *table.get("aliases", ())):
            natives.setdefault(key(text), name)
    return NameIndex(places, names, natives)


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
