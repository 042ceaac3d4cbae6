"""How values are stored: timestamps as ISO-8601 UTC strings, structured values
as JSON text (compact, keys sorted, so equal values are equal text)."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any


def utcnow_iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).isoformat(timespec="seconds")


def parse_iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def loads(text: str | None, default: Any = None) -> Any:
    return json.loads(text) if text else default
