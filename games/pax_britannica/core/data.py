"""The map data a game plays with (Rules: THE MAP and the tables of data/)."""
from __future__ import annotations

from typing import Any, Mapping

from . import mapdata


def load_data(state_or_options: Mapping[str, Any] | None = None):
    """The map data, with the GM's data override when the game has one: the
    ``data`` option holds the copy frozen into the game when it was created
    (``OPTION data=<file>``), never a path."""
    options = (state_or_options or {}).get("options", state_or_options or {})
    override = options.get("data") if isinstance(options, Mapping) else None
    return mapdata.load(override if isinstance(override, Mapping) else None)
