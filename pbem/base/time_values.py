"""Time values as people write them in the settings and in mail: durations ("1d12h"),
days of the week, hours of the day, time zones.

One reader and one writer for each, so the configuration, GM commands and replies agree on
what "48h" or "Tuesday" means, and every error names the value and the form expected.
"""
from __future__ import annotations

import re
from datetime import time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
ALL_DAYS = frozenset(range(7))
_FULL_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_ALIASES = {**{d: d for d in DAY_NAMES}, **dict(zip(_FULL_DAYS, DAY_NAMES))}

_UNITS = {"w": timedelta(weeks=1), "d": timedelta(days=1), "h": timedelta(hours=1),
          "m": timedelta(minutes=1), "s": timedelta(seconds=1)}
# Units from largest to smallest, each at most once and at most six digits
# ("1d12h", not "12h1d" or "9999999w"): one reader for the config and mail.
_WHOLE = re.compile(r"".join(rf"(?:(\d{{1,6}})\s*{u}\s*)?" for u in "wdhms"))
_HOUR = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")


def parse_duration(text: str) -> timedelta:
    """``"48h"``, ``"2d"``, ``"1d12h"``, ``"90m"``, ``"1w"``, ``"0h"`` -> timedelta."""
    if isinstance(text, timedelta):
        return text
    if not isinstance(text, str):
        raise ValueError(f"not a duration: {text!r} (write it as a string such as \"48h\")")
    cleaned = text.strip().lower()
    if cleaned == "0":
        return timedelta(0)
    found = _WHOLE.fullmatch(cleaned)
    if not cleaned or not found:
        raise ValueError(
            f'not a duration: "{text}" (use a number and a unit w, d, h, m or s, largest first, '
            f'e.g. "48h", "2d", "1d12h", "90m")')
    return sum((int(n) * _UNITS[u] for n, u in zip(found.groups(), "wdhms") if n), timedelta(0))


def format_duration(td: timedelta) -> str:
    """The inverse of :func:`parse_duration`, the way people write it.

    Below three days a duration is counted in hours ("48h", "12h", "1h30m");
    from three days on in days ("3d", "7d", "3d12h").
    """
    if td < timedelta(0):
        return "-" + format_duration(-td)
    seconds = int(td.total_seconds())
    if seconds == 0:
        return "0h"
    parts = []
    if td >= timedelta(days=3):
        days, seconds = divmod(seconds, 86400)
        parts.append(f"{days}d")
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    for value, unit in ((hours, "h"), (minutes, "m"), (seconds, "s")):
        if value:
            parts.append(f"{value}{unit}")
    return "".join(parts)


def parse_days(names) -> frozenset[int]:
    """``["mon", "Tuesday", 4]`` -> ``frozenset({0, 1, 4})`` (0 = Monday)."""
    if isinstance(names, str):
        raise ValueError(f'allowed days must be a list such as ["mon", "tue"], not "{names}"')
    days = set()
    for name in names:
        if isinstance(name, int) and not isinstance(name, bool) and 0 <= name <= 6:
            days.add(name)
            continue
        key = _DAY_ALIASES.get(str(name).strip().lower()) if isinstance(name, str) else None
        if key is None:
            raise ValueError(f'not a day: "{name}" (use mon, tue, wed, thu, fri, sat, sun)')
        days.add(DAY_NAMES.index(key))
    if not days:
        raise ValueError("allowed days must name at least one day")
    return frozenset(days)


def parse_hour(text) -> time | None:
    """``""`` / None -> None (no fixed hour); ``"18:00"`` -> ``time(18, 0)``."""
    if text is None or isinstance(text, time):
        return text
    if not isinstance(text, str):
        raise ValueError(f'not a time of day: {text!r} (use "HH:MM", or "" for none)')
    if not text.strip():
        return None
    match = _HOUR.fullmatch(text.strip())
    if not match:
        raise ValueError(f'not a time of day: "{text}" (use "HH:MM" from "00:00" to "23:59")')
    return time(int(match.group(1)), int(match.group(2)))


def parse_zone(name) -> ZoneInfo:
    """A time zone by IANA name; ValueError naming the zone when unknown."""
    if isinstance(name, ZoneInfo):
        return name
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f'unknown time zone "{name}" (use an IANA name such as '
                         f'"Europe/London" or "UTC")') from None
