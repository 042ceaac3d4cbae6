"""How values are stored: timestamps as ISO-8601 UTC strings, structured values
as JSON text (compact, keys sorted, so equal values are equal text); large ones (a game's
state in a snapshot) as that text compressed with zlib (:func:`pack_text`)."""
from __future__ import annotations

import json
import zlib
from datetime import datetime, timezone
from typing import Any


def utcnow_iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).isoformat(timespec="seconds")


def parse_iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def loads(text: str | bytes | None, default: Any = None) -> Any:
    return json.loads(unpack_text(text)) if text else default


def pack_text(text: str) -> bytes:
    """``text`` compressed, as it is stored (a game's state: about a tenth of its size)."""
    return zlib.compress(text.encode("utf-8"), 6)


def unpack_text(value: str | bytes | None) -> str | None:
    """The text of a stored value, packed or not (JSON text never starts with zlib's "x")."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        value = bytes(value)
        return zlib.decompress(value).decode("utf-8") if value[:1] == b"x" else value.decode("utf-8")
    return value
