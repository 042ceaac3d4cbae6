"""The scenario file's keys and the value each takes (data/SCENARIO.md explains them).

:mod:`.scenario_check` checks a GM's file against this table and
tests/games/eu_tpop/test_eu_scenario_check.py keeps the document in step with it.
A value's kind is a tuple:

- ``("str",)``, ``("bool",)``, ``("int", low, high)`` (``None``: no bound);
- ``("enum", a, b, ...)``: one of the words (any case);
- ``("ref", what)``: the name of an area, sea, province or realm the file defines;
  ``("ref", "realm", "")`` also takes the empty text;
- ``("list", kind)``, ``("pair", kind)`` (a list of exactly two), ``("map", what, kind)``
  (a table whose keys name a ``what`` and whose values have ``kind``);
- ``("table", section)``, ``("tables", section)`` (one table per name),
  ``("records", section)`` (an array of tables).
"""
from __future__ import annotations

from . import state as st

RELIGIONS = ("catholic", "protestant", "orthodox", "christian", "muslim", "revolutionary", "other")
FACES = ("blank", "f", "g", "h", "i")
REBEL_FACES = ("rebellion", "ducats", "monarch", "manpower", "calm", "none")
DICE = ("infantry", "cavalry", "artillery")
COUNT = ("int", 0, 99)

SCHEMA: dict[str, dict[str, tuple]] = {
    "": {
        "scenario": ("table", "scenario"), "areas": ("tables", "areas.<Area>"),
        "borders": ("records", "borders"), "seas": ("tables", "seas.<Sea>"),
        "provinces": ("tables", "provinces.<Province>"), "realms": ("tables", "realms.<Realm>"),
        "rebels": ("map", "area", ("int", 1, 99)), "truces": ("list", ("pair", ("ref", "realm"))),
        "wars": ("records", "wars"), "battle_die": ("table", "battle_die"),
        "rebel_die": ("table", "rebel_die"), "assumptions": ("table", "assumptions"),
    },
    "scenario": {
        "name": ("str",), "title": ("str",), "invented": ("bool",),
        "turn_order": ("list", ("ref", "realm")), "emperor": ("ref", "realm", ""),
        "imperial_authority": ("int", 0, 10),
    },
    "areas.<Area>": {
        "seas": ("list", ("ref", "sea")), "religion": ("enum",) + RELIGIONS, "hre": ("bool",),
        "distant": ("bool",), "xy": ("xy",),
    },
    "borders": {"between": ("pair", ("ref", "area")), "mountain": ("bool",)},
    "seas.<Sea>": {"adjacent": ("list", ("ref", "sea")), "xy": ("xy",)},
    "provinces.<Province>": {
        "area": ("ref", "area"), "tax": ("int", 1, 2), "port": ("ref", "sea"), "large": ("bool",),
        "owner": ("ref", "realm"), "controller": ("ref", "realm"), "core": ("list", ("ref", "realm")),
        "unrest": ("int", 0, 1), "inactive_port": ("bool",), "island": ("bool",),
    },
    "realms.<Realm>": {
        "kind": ("enum", "PR", "NPR", "BOT"), "religion": ("enum",) + RELIGIONS,
        "capital": ("ref", "province"), "overlord": ("ref", "realm"),
        "prestige": ("int", 0, 99), "stability": ("int", -3, 3), "ducats": ("int", 0, 999),
        "manpower": ("int", 0, st.MAX_MANPOWER), "exhausted": ("int", 0, st.MAX_MANPOWER),
        "ruler": ("bool",), "ideas": ("list", ("str",)),
        "influence": ("map", "area", ("int", 1, 9)), "claims": ("list", ("ref", "area")),
        "marriages": ("map", "realm", ("enum", "yes", "disputed")),
        "alliances": ("map", "realm", ("enum", "ally", "active")),
        "cbs": ("list", ("ref", "realm")), "units": ("records", "realms.<Realm>.units"),
        "ships": ("records", "realms.<Realm>.ships"), "leaders": ("records", "realms.<Realm>.leaders"),
    },
    "realms.<Realm>.units": {
        "at": ("ref", "area"), "inf": COUNT, "cav": COUNT, "art": COUNT,
        "category": ("enum", "regular", "merc", "allied"),
    },
    "realms.<Realm>.ships": {"at": ("ref", "sea or port"), "light": COUNT, "heavy": COUNT},
    "realms.<Realm>.leaders": {
        "name": ("str",), "dice": ("list", ("enum",) + DICE), "at": ("ref", "area or sea"), "ruler": ("bool",),
    },
    "wars": {"sides": ("pair", ("list", ("ref", "realm")))},
    "battle_die": {d: ("list", ("enum",) + FACES) for d in DICE},
    "rebel_die": {"faces": ("list", ("enum",) + REBEL_FACES)},
    "assumptions": {"notes": ("list", ("str",))},
}

#: keys a table must have
REQUIRED = {"provinces.<Province>": ("area",), "realms.<Realm>": ("kind",), "borders": ("between",),
            "realms.<Realm>.units": ("at",), "realms.<Realm>.ships": ("at",),
            "realms.<Realm>.leaders": ("name",), "wars": ("sides",)}


def documented_keys() -> set[str]:
    """Every key as data/SCENARIO.md names it: ``section.key`` (the top level: ``key``)."""
    return {f"{section}.{key}" if section else key for section, keys in SCHEMA.items() for key in keys}
