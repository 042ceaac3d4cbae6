"""Scenario data: the TOML schema (data/DATA.md) read into a game state.

A scenario is game data, never code: the shipped sample (``data/sample.toml``,
invented) or a GM's file given with ``OPTION data=<file>``, which may also
replace the dice tables.  Everything read here is checked, and a file that
does not fit is refused with a line a GM can act on.
"""
from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any, Mapping

from pbem.kit.gameapi import GMError

from . import state as st
from .scenario_check import check

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = Path(__file__).parent / "data"
UNIT_KEYS = {"inf": "inf", "cav": "cav", "art": "art"}


def _toml(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def override(options: Mapping[str, Any]) -> dict:
    """The GM's data file frozen into the game (``{"name","sha256","text"}``), parsed."""
    frozen = (options or {}).get("data")
    if isinstance(frozen, Mapping) and "text" in frozen:
        try:
            return tomllib.loads(frozen["text"])
        except tomllib.TOMLDecodeError as exc:
            raise GMError(f"the data file {frozen.get('name')} is not TOML: {exc}", "bad-data-file") from None
    return {}


def refuse_broken(options: Mapping[str, Any]) -> None:
    """Refuse the GM's data file when it has any problem, listing them all with their lines
    (scenario_check.py): a game never starts on a file a typo broke."""
    frozen = (options or {}).get("data")
    if isinstance(frozen, Mapping) and "text" in frozen:
        found = check(frozen["text"])
        if found:
            more = [f"... and {len(found) - 20} more"] if len(found) > 20 else []
            raise GMError(f"the data file {frozen.get('name')} has {len(found)} problem(s):\n"
                          + "\n".join([p.render() for p in found[:20]] + more), "bad-data-file")


def dice_tables(options: Mapping[str, Any]) -> dict:
    base = _toml(DATA / "dice.toml")
    extra = override(options)
    tables = {"battle_die": dict(base["battle_die"]), "rebel_die": dict(base["rebel_die"])}
    for key in ("battle_die", "rebel_die"):
        tables[key].update(extra.get(key, {}))
    for die, faces in tables["battle_die"].items():
        if len(faces) != 6 or any(f not in ("blank", "f", "g", "h", "i") for f in faces):
            raise GMError(f"battle die {die}: six faces from blank, f, g, h, i", "bad-data-file")
    faces = tables["rebel_die"].get("faces", [])
    allowed = {"rebellion", "ducats", "monarch", "manpower", "calm", "none"}
    if len(faces) != 6 or any(f not in allowed for f in faces):
        raise GMError(f"rebel die: six faces from {', '.join(sorted(allowed))}", "bad-data-file")
    return tables


def assumptions(options: Mapping[str, Any]) -> list[str]:
    extra = override(options)
    notes = list(_toml(DATA / "dice.toml")["assumptions"]["notes"])
    if "battle_die" in extra or "rebel_die" in extra:
        notes.append("the GM's data file replaces some die faces: "
                     + ", ".join(sorted(set(extra.get("battle_die", {})) | set(extra.get("rebel_die", {})))))
    scen = scenario_data(options)
    if scen and scen.get("scenario", {}).get("invented"):
        notes.append(f"the scenario {scen['scenario'].get('name')!r} is invented: its map, realms and "
                     "numbers are not those of the published game")
    return notes


def scenario_data(options: Mapping[str, Any]) -> dict | None:
    """The scenario the options name: the GM's file when it holds one, the
    shipped sample, or None for an empty board (scenario files build their own)."""
    extra = override(options)
    if "scenario" in extra:
        return extra
    name = str((options or {}).get("setup", "sample") or "sample").lower()
    if name in ("empty", "none", ""):
        return None
    path = DATA / f"{name}.toml"
    if not path.is_file():
        raise GMError(f"there is no scenario {name!r} (shipped: sample; or empty)", "unknown-scenario")
    return _toml(path)


def realm_names(options: Mapping[str, Any]) -> list[str]:
    data = scenario_data(options)
    if not data:
        return []
    return [r for r, d in data.get("realms", {}).items() if d.get("kind", "NPR") == "PR"]


def load(state: dict, data: dict) -> dict:
    """Fill ``state`` from scenario data (a copy is taken)."""
    data = copy.deepcopy(data)
    for area, d in data.get("areas", {}).items():
        state["areas"][area] = {"seas": list(d.get("seas", [])), "distant": bool(d.get("distant")),
                                "hre": bool(d.get("hre")), "religion": d.get("religion")}
        state["adj"].setdefault(area, {})
    for sea, d in data.get("seas", {}).items():
        state["seas"].setdefault(sea, {"adj": []})
    coordinates(state, data)
    for sea, d in data.get("seas", {}).items():
        for other in d.get("adjacent", []):
            _link_seas(state, sea, other)
    for area, d in state["areas"].items():
        for sea in d["seas"]:
            _need(state["seas"], sea, "sea", f"area {area}")
    for b in data.get("borders", []):
        a, c = b["between"]
        _need(state["areas"], a, "area", "a border")
        _need(state["areas"], c, "area", "a border")
        kind = "mountain" if b.get("mountain") else "land"
        state["adj"][a][c] = kind
        state["adj"][c][a] = kind
    for prov, d in data.get("provinces", {}).items():
        _need(state["areas"], d["area"], "area", f"province {prov}")
        if d.get("port"):
            _need(state["seas"], d["port"], "sea", f"province {prov}")
        owner = d.get("owner")
        state["provinces"][prov] = {
            "area": d["area"], "tax": int(d.get("tax", 1)), "port": d.get("port"),
            "large": bool(d.get("large", int(d.get("tax", 1)) >= 2)), "owner": owner,
            "controller": d.get("controller", owner), "cores": list(d.get("core", [owner] if owner else [])),
            "unrest": int(d.get("unrest", 0)), "inactive": bool(d.get("inactive_port", False)),
            "island": bool(d.get("island", False))}
    sc = data.get("scenario", {})
    realms = data.get("realms", {})
    for name, d in realms.items():
        realm = st.new_realm(d.get("kind", "NPR").upper(), d.get("religion", "catholic"), d.get("capital"))
        for key in ("prestige", "stability", "ducats", "manpower", "exhausted"):
            realm[key] = int(d.get(key, 0))
        realm["ideas"] = [i.lower() for i in d.get("ideas", [])]
        realm["ruler"] = bool(d.get("ruler", True))
        realm["overlord"] = d.get("overlord") or None
        state["realms"][name] = realm
    for name, d in realms.items():
        _load_tokens(state, name, d)
    for prov, d in state["provinces"].items():
        for who in (d["owner"], d["controller"]):
            if who and who not in state["realms"] and who != st.REBELS:
                raise GMError(f"province {prov}: no realm {who!r}", "bad-data-file")
    state["order"] = [r for r in sc.get("turn_order", [r for r, d in realms.items() if d.get("kind") in ("PR", "BOT")])]
    state["emperor"] = sc.get("emperor") or None
    if "imperial_authority" in sc:
        state["imperial_authority"] = int(sc["imperial_authority"])
    for area, n in data.get("rebels", {}).items():
        _need(state["areas"], area, "area", "rebels")
        state["rebels"][area] = int(n)
    for t in data.get("truces", []):
        state["truces"].append(st.pair(*t))
    for w in data.get("wars", []):
        for a in w["sides"][0]:
            for b in w["sides"][1]:
                state["wars"].append({"pair": st.pair(a, b), "attacker": a, "since": 0})
    return state


#: the optional key of an Area's or Sea Zone's table placing it on the drawn map (maplayout.py)
XY = "xy"


def coordinates(state: dict, data: dict) -> None:
    """The places the scenario puts on the map itself (``xy = [x, y]``, pixels), kept in
    ``state["xy"]`` only when some are given; the rest are laid out from the adjacency."""
    for table in ("areas", "seas"):
        for name, d in data.get(table, {}).items():
            if XY not in d:
                continue
            xy = d[XY]
            if (not isinstance(xy, list) or len(xy) != 2
                    or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xy)):
                raise GMError(f"{table[:-1]} {name}: xy is two numbers, [x, y] (pixels of the map), not {xy!r}",
                              "bad-data-file")
            state.setdefault("xy", {})[name] = [float(xy[0]), float(xy[1])]


def _load_tokens(state: dict, name: str, d: dict) -> None:
    for area, n in d.get("influence", {}).items():
        _need(state["areas"], area, "area", f"{name}'s influence")
        st.set_influence(state, area, name, int(n))
    for area in d.get("claims", []):
        _need(state["areas"], area, "area", f"{name}'s claim")
        state["claims"].setdefault(area, []).append(name)
    for other, how in d.get("marriages", {}).items():
        state["marriages"][f"{name}|{other}"] = "disputed" if how == "disputed" else "yes"
    for other, how in d.get("alliances", {}).items():
        state["alliances"][st.pair(name, other)] = {"active": how == "active", "strength": 0}
    for target in d.get("cbs", []):
        state["cbs"].append({"holder": name, "target": target, "type": "token"})
    for u in d.get("units", []):
        cat = u.get("category", "regular")
        prefix = "" if cat == "regular" else f"{cat}_"
        for key in ("inf", "cav", "art"):
            st.add_units(state, u["at"], name, prefix + key, int(u.get(key, 0)))
    for u in d.get("ships", []):
        at = u["at"] if u["at"] in state["seas"] else st.PORT + u["at"]
        for key in ("light", "heavy"):
            st.add_units(state, at, name, key, int(u.get(key, 0)))
    for ld in d.get("leaders", []):
        state["leaders"].setdefault(name, []).append(
            {"name": ld["name"], "dice": [_die(x) for x in ld.get("dice", [])], "at": ld.get("at"),
             "wounds": 0, "ruler": bool(ld.get("ruler", False))})


def _die(text: str) -> str:
    t = text.lower()
    for full in ("infantry", "cavalry", "artillery"):
        if full.startswith(t[:3]):
            return full
    raise GMError(f"unknown battle die {text!r} (infantry, cavalry, artillery)", "bad-data-file")


def _need(table: dict, name: str, what: str, where: str) -> None:
    if name not in table:
        raise GMError(f"{where} names the {what} {name!r}, which the scenario does not define", "bad-data-file")


def _link_seas(state: dict, a: str, b: str) -> None:
    state["seas"].setdefault(a, {"adj": []})
    state["seas"].setdefault(b, {"adj": []})
    if b not in state["seas"][a]["adj"]:
        state["seas"][a]["adj"].append(b)
    if a not in state["seas"][b]["adj"]:
        state["seas"][b]["adj"].append(a)


def link_seas(state: dict, a: str, b: str) -> None:
    _link_seas(state, a, b)


die_name = _die
