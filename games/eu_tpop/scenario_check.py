"""Check a GM's data file (a scenario and/or dice tables) before a game is made of it.

Every key must be one the schema knows (:mod:`.scenario_schema`), every name
must name something the file defines, every value must have its type and range,
and the file must hold together: units stand at areas, the turn order names the
player realms, capitals are the realm's own provinces, a port lies on a sea of
its area.  Every problem is listed at once, each with the file's line, so the GM
fixes the file in one go; a file with any problem makes no game
(``GM CREATE`` and ``pbem game new`` refuse it, and setup refuses it again).
"""
from __future__ import annotations

import re
import sys

from pbem.kit.gametypes import Problem
from pbem.kit.names import nearest

from . import state as st
from .scenario_schema import REQUIRED, SCHEMA
from .toml_lines import Lines

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_KINDS = {"str": "a text in quotes", "bool": "true or false"}


def check(text: str) -> list[Problem]:
    """Every problem of the data file ``text``, in the order of its lines."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        return [Problem("not-toml", f"this is not TOML: {exc}", int(m.group(1)) if m else None, kind="invalid")]
    checker = _Checker(data, Lines(text))
    checker.run()
    return sorted(checker.problems, key=lambda p: (p.line or 0, p.message))


def where(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else f'"{part}"'
            out += f".{part}" if out else part
    return out


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


class _Checker:
    def __init__(self, data: dict, lines: Lines):
        self.data, self.lines, self.problems = data, lines, []
        self.realms = _dict(data.get("realms"))
        self.provinces = _dict(data.get("provinces"))
        self.names = {"area": set(_dict(data.get("areas"))), "sea": set(_dict(data.get("seas"))),
                      "province": set(self.provinces), "realm": set(self.realms)}

    def problem(self, path: tuple, code: str, message: str, suggestion: str | None = None) -> None:
        self.problems.append(Problem(code, f"{where(path)}: {message}", self.lines.line(path), suggestion,
                                     "invalid" if code in ("unknown-key", "bad-type") else "illegal"))

    def run(self) -> None:
        self.table("", self.data, ())
        if self.problems:
            return   # the whole-file checks below rely on well-typed values
        self.turn_order()
        self.realm_links()
        self.map_links()
        self.dice()

    # -- every key, type, range and name ---------------------------------------------------
    def table(self, section: str, value, path: tuple) -> None:
        if not isinstance(value, dict):
            self.problem(path, "bad-type", "must be a table ([...] or { ... })")
            return
        known = SCHEMA[section]
        for key, v in value.items():
            if key in known:
                self.value(known[key], v, path + (key,))
            else:
                self.problem(path + (key,), "unknown-key", f"no such key here (known: {', '.join(known)})",
                             nearest(key, known))
        for key in REQUIRED.get(section, ()):
            if key not in value:
                self.problem(path, "missing-key", f"needs the key {key!r}")

    def value(self, spec: tuple, v, path: tuple) -> None:
        kind = spec[0]
        if kind in _KINDS:
            if not isinstance(v, str if kind == "str" else bool):
                self.problem(path, "bad-type", f"must be {_KINDS[kind]}, not {v!r}")
        elif kind == "int":
            low, high = spec[1], spec[2]
            if not isinstance(v, int) or isinstance(v, bool):
                self.problem(path, "bad-type", f"must be a whole number from {low} to {high}, not {v!r}")
            elif not low <= v <= high:
                self.problem(path, "out-of-range", f"{v} is out of range: from {low} to {high}")
        elif kind == "xy":  # where a card stands on the map (scenario.coordinates reads it)
            if not (isinstance(v, list) and len(v) == 2
                    and all(isinstance(n, (int, float)) and not isinstance(n, bool) and n >= 0 for n in v)):
                self.problem(path, "bad-type", f"must be [x, y], two numbers of 0 or more, not {v!r}")
        elif kind == "enum":
            if not isinstance(v, str) or v.lower() not in [w.lower() for w in spec[1:]]:
                self.problem(path, "bad-value", f"{v!r} is not one of {', '.join(spec[1:])}",
                             nearest(str(v), spec[1:]))
        elif kind == "ref":
            self.ref(spec, v, path)
        elif kind in ("list", "pair"):
            if not isinstance(v, list):
                self.problem(path, "bad-type", "must be a list [ ... ]")
                return
            if kind == "pair" and len(v) != 2:
                self.problem(path, "bad-value", f"must name exactly two, not {len(v)}")
            for i, item in enumerate(v):
                self.value(spec[1], item, path + (i,))
        elif kind == "map":
            if not isinstance(v, dict):
                self.problem(path, "bad-type", "must be a table { name = value, ... }")
                return
            for key, item in v.items():
                self.ref(("ref", spec[1]), key, path + (key,))
                self.value(spec[2], item, path + (key,))
        elif kind == "table":
            self.table(spec[1], v, path)
        elif kind == "tables":
            if not isinstance(v, dict):
                self.problem(path, "bad-type", "must hold one table per name")
                return
            for name, t in v.items():
                self.table(spec[1], t, path + (name,))
        elif kind == "records":
            if not isinstance(v, list):
                self.problem(path, "bad-type", "must be a list of tables [ { ... }, ... ]")
                return
            for i, t in enumerate(v):
                self.table(spec[1], t, path + (i,))

    def ref(self, spec: tuple, v, path: tuple) -> None:
        what = spec[1]
        if not isinstance(v, str):
            self.problem(path, "bad-type", f"must name a {what} in quotes, not {v!r}")
            return
        if v in spec[2:] or (what == "realm" and v == st.REBELS and path[-1] in ("owner", "controller")):
            return
        if what in ("area", "area or sea") and v in self.provinces and v not in self.names["area"]:
            area = _dict(self.provinces[v]).get("area")
            rule = next((f"{w} stand at areas" for w in ("units", "leaders") if w in path), "this names an area")
            self.problem(path, "not-an-area", f"{v!r} is a province; {rule}"
                         + (f" (its area is {area!r})" if isinstance(area, str) else ""),
                         area if isinstance(area, str) else None)
            return
        kinds = {"sea or port": ("sea",), "area or sea": ("area", "sea")}.get(what, (what,))
        if any(v in self.names[k] for k in kinds):
            return
        if what == "sea or port" and v in self.provinces:
            if not _dict(self.provinces[v]).get("port"):
                self.problem(path, "no-port", f"the province {v!r} has no port")
            return
        choices = set().union(*(self.names[k] for k in kinds))
        if what == "sea or port":
            choices |= {p for p, d in self.provinces.items() if _dict(d).get("port")}
        self.problem(path, "unknown-name", f"there is no {what} {v!r} in this file", nearest(v, sorted(choices)))

    # -- the file holds together --------------------------------------------------------------
    def turn_order(self) -> None:
        kinds = {r: str(d.get("kind", "")).upper() for r, d in self.realms.items()}
        players = [r for r, k in kinds.items() if k == "PR"]
        if self.realms and not players:
            self.problem(("realms",), "no-players", "no realm has kind = \"PR\": there is no seat for a player")
        order = _dict(self.data.get("scenario")).get("turn_order")
        if order is None:
            return
        path = ("scenario", "turn_order")
        for i, realm in enumerate(order):
            if realm in order[:i]:
                self.problem(path + (i,), "bad-value", f"{realm} is in the turn order twice")
            elif kinds.get(realm) not in ("PR", "BOT"):
                self.problem(path + (i,), "bad-value",
                             f"{realm} is of kind {kinds.get(realm)}: the turn order lists PR and BOT realms")
        for realm in players:
            if realm not in order:
                self.problem(path, "bad-value", f"the player realm {realm} is missing from the turn order")

    def realm_links(self) -> None:
        for realm, d in self.realms.items():
            path = ("realms", realm)
            cap = d.get("capital")
            if cap is not None and _dict(self.provinces.get(cap)).get("owner") != realm:
                self.problem(path + ("capital",), "bad-value",
                             f"the capital {cap} is not {realm}'s own province (owner: "
                             f"{_dict(self.provinces.get(cap)).get('owner')})")
            if d.get("overlord") == realm:
                self.problem(path + ("overlord",), "bad-value", f"{realm} cannot be its own overlord")
            for key in ("marriages", "alliances"):
                if realm in d.get(key, {}):
                    self.problem(path + (key, realm), "bad-value", f"{realm} names itself")
            if realm in d.get("cbs", []):
                self.problem(path + ("cbs",), "bad-value", f"{realm} names itself")
            for i, unit in enumerate(d.get("units", [])):
                if not any(unit.get(k, 0) for k in ("inf", "cav", "art")):
                    self.problem(path + ("units", i), "bad-value", "counts no unit (inf, cav, art)")
            for i, ships in enumerate(d.get("ships", [])):
                if not any(ships.get(k, 0) for k in ("light", "heavy")):
                    self.problem(path + ("ships", i), "bad-value", "counts no ship (light, heavy)")
        for i, pair in enumerate(self.data.get("truces", [])):
            if len(set(pair)) == 1:
                self.problem(("truces", i), "bad-value", "a truce needs two different realms")
        for i, war in enumerate(self.data.get("wars", [])):
            sides = war.get("sides", [])
            if len(sides) == 2 and (not sides[0] or not sides[1] or set(sides[0]) & set(sides[1])):
                self.problem(("wars", i, "sides"), "bad-value", "two sides, each with a realm, none on both")

    def map_links(self) -> None:
        areas = _dict(self.data.get("areas"))
        for i, border in enumerate(self.data.get("borders", [])):
            pair = border.get("between", [])
            if len(pair) == 2 and pair[0] == pair[1]:
                self.problem(("borders", i, "between"), "bad-value", "a border joins two different areas")
        for sea, d in _dict(self.data.get("seas")).items():
            if sea in d.get("adjacent", []):
                self.problem(("seas", sea, "adjacent"), "bad-value", f"{sea} cannot be adjacent to itself")
        for prov, d in self.provinces.items():
            port, area = d.get("port"), d.get("area")
            if port and port not in areas.get(area, {}).get("seas", []):
                self.problem(("provinces", prov, "port"), "bad-value",
                             f"the port is on {port}, which is not a sea of its area {area} "
                             f"(seas of {area}: {', '.join(areas.get(area, {}).get('seas', [])) or 'none'})")

    def dice(self) -> None:
        for key, faces in self.data.get("battle_die", {}).items():
            if len(faces) != 6:
                self.problem(("battle_die", key), "bad-value", f"a die has six faces, not {len(faces)}")
        faces = self.data.get("rebel_die", {}).get("faces")
        if faces is not None and len(faces) != 6:
            self.problem(("rebel_die", "faces"), "bad-value", f"a die has six faces, not {len(faces)}")
