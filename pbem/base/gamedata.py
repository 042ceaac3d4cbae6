"""A GM's data override, frozen into the game when it is created.

``OPTION data=<file>`` names a TOML file in the site's ``server.game_data``
folder (or a ``.toml`` file attached to the GM's mail).  It is read once,
checked, and stored with the game's options as ``{"name", "sha256", "text"}``:
the game replays from that stored copy, so editing or deleting the file later
changes nothing, and every player can be shown which data the game uses.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

MAX_BYTES = 256_000


class DataFileError(ValueError):
    """The data file cannot be used (the message is for the GM)."""


def freeze(name: str, text: str) -> dict:
    """The stored form of a data file's text; raises DataFileError when it is not TOML."""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{name} is not valid TOML: {exc}") from None
    return {"name": name, "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "text": text}


def read(folder: Path, name: str) -> dict:
    """Read ``name`` from ``folder`` only: no absolute path, no ``..``, no
    link or device leading elsewhere, a regular file of at most MAX_BYTES."""
    if not name or "/" in name or "\\" in name or name.startswith(".") or "\x00" in name:
        raise DataFileError(f"{name!r}: give the name of a file in the game data folder, not a path")
    root = Path(folder).resolve()
    path = (root / name)
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):
        raise DataFileError(f"there is no data file {name!r} in the game data folder") from None
    if resolved.parent != root or not resolved.is_file():
        raise DataFileError(f"{name!r} is not a plain file in the game data folder")
    with open(resolved, "rb") as fh:
        raw = fh.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise DataFileError(f"{name} is larger than {MAX_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DataFileError(f"{name} is not UTF-8 text") from None
    return freeze(name, text)


def describe(frozen: dict | None) -> str | None:
    """One line players are shown about the data a game uses."""
    if not isinstance(frozen, dict):
        return None
    return f"data override {frozen.get('name')} (sha256 {str(frozen.get('sha256', ''))[:16]}...)"
