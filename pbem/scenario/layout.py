"""``pbem scenario layout FILE``: a game's scenario file with where each place stands on the map.

The game says where (:meth:`pbem.kit.gameapi.Game.map_layout`); this writes those places into
a copy of the file, ``xy = [x, y]`` under each ``[<table>.<place>]`` header, the rest of the
text (the GM's comments, the order of things) kept as it was, so the GM can move a place
and give the file back with ``OPTION data=``.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

XY = "xy"


class LayoutError(Exception):
    """The file cannot be laid out: said in a line the GM can act on."""


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _header(table: str, name: str) -> re.Pattern:
    quoted = re.escape(name.replace("\\", "\\\\").replace('"', '\\"'))
    bare = re.escape(name) if re.fullmatch(r"[A-Za-z0-9_-]+", name) else None
    names = f'"{quoted}"' + (f"|{bare}" if bare else "") + f"|'{re.escape(name)}'"
    return re.compile(rf"^\s*\[\s*{re.escape(table)}\s*\.\s*(?:{names})\s*\]\s*(#.*)?$")


def with_coordinates(text: str, places: dict[str, dict[str, list[float]]]) -> str:
    """``text`` (a TOML scenario) with ``xy = [x, y]`` set in each place's table: an ``xy``
    line already there is replaced, else one is put right under the header; a place whose
    table has no header of its own gets one at the end."""
    lines = text.splitlines()
    tail: list[str] = []
    for table, where in places.items():
        for name, (x, y) in where.items():
            line = f"{XY} = [{x:g}, {y:g}]"
            head = _header(table, name)
            at = next((i for i, ln in enumerate(lines) if head.match(ln)), None)
            if at is None:
                tail += ["", f"[{table}.{_key(name)}]", line]
                continue
            end = next((i for i in range(at + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
            old = next((i for i in range(at + 1, end) if re.match(rf"^\s*{XY}\s*=", lines[i])), None)
            if old is None:
                lines.insert(at + 1, line)
            else:
                lines[old] = line
    return "\n".join(lines + tail) + "\n"


def lay_out(path: Path, game: Any, out: Path | None = None) -> Path:
    """Write ``path`` with the game's coordinates to ``out`` (default: ``<path>.layout.toml``
    beside it); the original is not touched.  Returns where it was written."""
    text = path.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LayoutError(f"{path} is not TOML: {exc}") from None
    places = game.map_layout(data)
    if places is None:
        raise LayoutError(f"{game.name} does not lay out its map from a scenario")
    result = with_coordinates(text, places)
    try:
        back = tomllib.loads(result)
    except tomllib.TOMLDecodeError as exc:  # a table defined in a way this cannot add to
        raise LayoutError(f"the coordinates cannot be written into {path} as it is written ({exc}); "
                          "give each place its own [table.place] header") from None
    for table, where in places.items():
        for name, xy in where.items():
            if back.get(table, {}).get(name, {}).get(XY) != xy:
                raise LayoutError(f"the coordinates of {table}.{name} did not land in the copy")
    out = out or path.with_name(path.stem + ".layout.toml")
    if out.resolve() == path.resolve():
        raise LayoutError("the copy would overwrite the scenario itself: name another --out")
    out.write_text(result, encoding="utf-8")
    return out
