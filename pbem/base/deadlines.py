"""Deadlines as data, computed without reading the clock.

A game's :class:`DeadlinePolicy` is stored with the game as JSON.  Every
function here is pure: the current time is always an argument.

Deadlines are computed on the wall clock of the game's time zone, because
that is how players read them: a 72h phase that starts on Friday 18:00 in
London ends on Monday 18:00 London time, even when the clocks change over
the weekend (so that phase really lasts 71 or 73 hours).  A wall time that
does not exist (the spring-forward gap) moves forward to the first instant
that does; an ambiguous wall time (the autumn repeat) takes its first
occurrence.

How durations, days, hours and zones are written is :mod:`pbem.base.time_values`.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sized
from dataclasses import dataclass
from dataclasses import field as dc_field
from dataclasses import replace
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

from pbem.base.time_values import (ALL_DAYS, DAY_NAMES, format_duration, parse_days, parse_duration,
                                   parse_hour, parse_zone)


class DeadlineError(ValueError):
    """A deadline change the policy does not allow (caps on extensions)."""


DEFAULTS = {
    "timezone": "UTC", "phase_duration": "72h", "allowed_days": list(DAY_NAMES), "hour": "",
    "warnings": ["48h", "12h"], "grace": "0h", "process_early": True, "max_extensions": 3,
    "max_extension_total": "7d", "max_pauses": 3, "missed_before_replacement": 3,
    "windows": {},
}


def parse_windows(table) -> dict[str, timedelta]:
    """``{"reaction": "24h"}`` -> durations by window class (each above zero)."""
    if not isinstance(table, Mapping):
        raise ValueError(f'expected a table such as {{ reaction = "24h" }}, not {table!r}')
    out = {}
    for name, text in table.items():
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
            raise ValueError(f"{name!r} is not a window name (lower-case letters, digits, _)")
        duration = parse_duration(text)
        if duration <= timedelta(0):
            raise ValueError(f"{name}: must be longer than zero")
        out[name] = duration
    return out


def _count(mapping: Mapping, key: str) -> int:
    value = mapping.get(key, DEFAULTS[key])
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{key}: expected a whole number >= 0, got {value!r}")
    return value


@dataclass(frozen=True)
class DeadlinePolicy:
    duration: timedelta = timedelta(hours=72)
    timezone: str = "UTC"
    allowed_days: frozenset[int] = ALL_DAYS
    hour: time | None = None
    warnings: tuple[timedelta, ...] = (timedelta(hours=48), timedelta(hours=12))
    grace: timedelta = timedelta(0)
    process_early: bool = True
    max_extensions: int = 3
    max_extension_total: timedelta = timedelta(days=7)
    max_pauses: int = 3
    missed_before_replacement: int = 3
    #: durations of the order windows other than "turn" (e.g. "reaction": 24h)
    windows: Mapping[str, timedelta] = dc_field(default_factory=dict, hash=False)

    def for_window(self, window: str) -> DeadlinePolicy:
        """The policy of one order window: its own duration, and only the
        reminders that fit inside it (a 24h reaction window is not reminded
        "48h left").  ``turn`` and unknown classes use the phase duration."""
        duration = self.windows.get(window)
        if duration is None or window == "turn":
            return self
        # A short window ignores the fixed hour of day: it would stretch a
        # 24h reaction window to nearly two days.
        return replace(self, duration=duration, windows={}, hour=None,
                       warnings=tuple(w for w in self.warnings if w < duration))

    @classmethod
    def from_settings(cls, mapping: Mapping) -> DeadlinePolicy:
        """From the ``[deadlines]`` settings (strings as written in the config).

        Missing keys take the defaults; a bad value raises ValueError naming the key.
        """
        def field(key, parse):
            try:
                return parse(mapping.get(key, DEFAULTS[key]))
            except ValueError as exc:
                raise ValueError(f"{key}: {exc}") from None

        duration = field("phase_duration", parse_duration)
        if duration <= timedelta(0):
            raise ValueError("phase_duration: must be longer than zero")
        zone = field("timezone", parse_zone)
        warnings = field("warnings", lambda items: tuple(sorted(
            {parse_duration(item) for item in items}, reverse=True)))
        process_early = mapping.get("process_early", DEFAULTS["process_early"])
        if not isinstance(process_early, bool):
            raise ValueError(f"process_early: expected true or false, got {process_early!r}")
        return cls(
            duration=duration, timezone=zone.key,
            allowed_days=field("allowed_days", parse_days),
            hour=field("hour", parse_hour), warnings=warnings,
            grace=field("grace", parse_duration), process_early=process_early,
            max_extensions=_count(mapping, "max_extensions"),
            max_extension_total=field("max_extension_total", parse_duration),
            max_pauses=_count(mapping, "max_pauses"),
            missed_before_replacement=_count(mapping, "missed_before_replacement"),
            windows=field("windows", parse_windows),
        )

    def to_settings(self) -> dict:
        """The policy in the config's own notation (what :meth:`from_settings` reads)."""
        return {
            "timezone": self.timezone,
            "phase_duration": format_duration(self.duration),
            "allowed_days": [DAY_NAMES[d] for d in sorted(self.allowed_days)],
            "hour": self.hour.strftime("%H:%M") if self.hour else "",
            "warnings": [format_duration(w) for w in self.warnings],
            "grace": format_duration(self.grace),
            "process_early": self.process_early,
            "max_extensions": self.max_extensions,
            "max_extension_total": format_duration(self.max_extension_total),
            "max_pauses": self.max_pauses,
            "missed_before_replacement": self.missed_before_replacement,
            "windows": {k: format_duration(v) for k, v in sorted(self.windows.items())},
        }

    def to_json(self) -> str:
        return json.dumps(self.to_settings(), sort_keys=True)

    @classmethod
    def from_json(cls, data: str | Mapping) -> DeadlinePolicy:
        return cls.from_settings(json.loads(data) if isinstance(data, str) else data)

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def _require_aware(dt: datetime, name: str) -> None:
    if dt.tzinfo is None or dt.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware (UTC), got {dt!r}")


def to_instant(wall: datetime, zone: tzinfo) -> datetime:
    """A naive wall time in *zone* -> aware UTC.

    Ambiguous wall times take their first occurrence; nonexistent ones (in a
    spring-forward gap) move forward to the first instant after the gap.
    """
    first = wall.replace(tzinfo=zone, fold=0).astimezone(timezone.utc)
    if first.astimezone(zone).replace(tzinfo=None) == wall:
        return first
    # In a gap: the two folds give instants on either side of the transition;
    # find the first whole second whose wall time is not before the wanted one.
    second = wall.replace(tzinfo=zone, fold=1).astimezone(timezone.utc)
    low, high = sorted((int(first.timestamp()), int(second.timestamp()) + 1))
    while high - low > 1:
        middle = (low + high) // 2
        if _wall_at(middle, zone) >= wall:
            high = middle
        else:
            low = middle
    return datetime.fromtimestamp(high, timezone.utc)


def _wall_at(timestamp: int, zone: tzinfo) -> datetime:
    return datetime.fromtimestamp(timestamp, timezone.utc).astimezone(zone).replace(tzinfo=None)


def add_wall(instant: datetime, by: timedelta, zone: tzinfo) -> datetime:
    """*instant* plus *by* on the wall clock of *zone*; aware UTC out."""
    _require_aware(instant, "instant")
    wall = instant.astimezone(zone).replace(tzinfo=None) + by
    return to_instant(wall, zone)


def next_deadline(policy: DeadlinePolicy, start: datetime) -> datetime:
    """The deadline of a phase starting at *start* (aware) -> aware UTC.

    The earliest wall time at or after start + duration that falls on an
    allowed day (and, when the policy has an hour, is at that hour).
    """
    _require_aware(start, "start")
    zone = policy.zone
    earliest = start.astimezone(zone).replace(tzinfo=None) + policy.duration
    day: date = earliest.date()
    for _ in range(15):
        candidate = datetime.combine(day, policy.hour or earliest.time())
        if candidate >= earliest and day.weekday() in policy.allowed_days:
            return to_instant(candidate, zone)
        day += timedelta(days=1)
    raise ValueError("the policy allows no day of the week")  # pragma: no cover


def warnings_due(policy: DeadlinePolicy, deadline: datetime, now: datetime,
                 already_sent: set[str]) -> list[str]:
    """Labels of the warnings ("48h", "12h") whose moment has come and that
    were not sent yet, earliest first; none once the deadline has passed.

    After an outage several may be due at once; the caller may send only the
    last one and record them all as sent.
    """
    _require_aware(deadline, "deadline")
    _require_aware(now, "now")
    if now >= deadline:
        return []
    due = []
    for offset in sorted(policy.warnings, reverse=True):
        label = format_duration(offset)
        if now >= deadline - offset and label not in already_sent:
            due.append(label)
    return due


def is_due(deadline: datetime, now: datetime, *, grace: timedelta, all_orders_in: bool,
           process_early: bool, paused: bool) -> bool:
    """Whether the phase should be resolved now.

    A paused game never is.  With every order in it is due at once when the
    game processes early, else at the deadline; otherwise at deadline + grace.
    """
    _require_aware(deadline, "deadline")
    _require_aware(now, "now")
    if paused:
        return False
    if all_orders_in:
        return process_early or now >= deadline
    return now >= deadline + grace


def extend(deadline: datetime, by: timedelta, policy: DeadlinePolicy,
           extensions_so_far: list[timedelta]) -> datetime:
    """The deadline moved later by *by* (on the game's wall clock).

    Raises DeadlineError when the number of extensions or their total would
    exceed the policy's caps.
    """
    _require_aware(deadline, "deadline")
    if by <= timedelta(0):
        raise DeadlineError(f"an extension must be longer than zero, not {format_duration(by)}")
    used = len(extensions_so_far)
    if used >= policy.max_extensions:
        raise DeadlineError(
            f"no extension left: {used} of {policy.max_extensions} already granted")
    total = sum(extensions_so_far, timedelta(0)) + by
    if total > policy.max_extension_total:
        left = policy.max_extension_total - sum(extensions_so_far, timedelta(0))
        raise DeadlineError(
            f"an extension of {format_duration(by)} would bring the total to "
            f"{format_duration(total)}, over the cap of "
            f"{format_duration(policy.max_extension_total)} "
            f"({format_duration(max(left, timedelta(0)))} left)")
    return add_wall(deadline, by, policy.zone)


def pause_allowed(policy: DeadlinePolicy, pauses_so_far: int | Sized) -> bool:
    used = len(pauses_so_far) if isinstance(pauses_so_far, Sized) else pauses_so_far
    return used < policy.max_pauses


def format_deadline(dt: datetime, zone: str | tzinfo, reader: str | tzinfo | None = None) -> str:
    """``"Mon 5 Jan 2026 18:00 GMT (18:00 UTC)"``; the UTC part names its own
    day when that differs; a game in UTC gets ``"Mon 5 Jan 2026 18:00 UTC"``.
    With ``reader`` (the zone a player set with SET ZONE) the same moment in
    that zone follows: ``"(18:00 UTC; 13:00 your time, America/New_York)"``."""
    _require_aware(dt, "dt")
    tz = parse_zone(zone) if isinstance(zone, str) else zone
    local = dt.astimezone(tz)
    utc = dt.astimezone(timezone.utc)
    text = f"{_day(local)} {local:%H:%M} {local.tzname()}"
    extra = []
    if local.tzname() != "UTC":
        extra.append(_clock(utc, local, "UTC"))
    if reader is not None:
        rz = parse_zone(reader) if isinstance(reader, str) else reader
        mine = dt.astimezone(rz)
        if str(rz) not in (str(tz), "UTC") and mine.utcoffset() != local.utcoffset():
            extra.append(_clock(mine, local, f"your time, {rz}"))
    return f"{text} ({'; '.join(extra)})" if extra else text


def _clock(dt: datetime, beside: datetime, name: str) -> str:
    day = "" if dt.date() == beside.date() else f"{_day(dt, year=False)} "
    return f"{day}{dt:%H:%M} {name}"


def format_moment(dt: datetime | str | None, zone: str | tzinfo = "UTC") -> str:
    """A recorded moment (aware, or ISO-8601 text) in words, in ``zone``:
    ``"Mon 5 Jan 2026 18:00 GMT"``; "" for none.  Other text is a game's own
    label for a moment (a treaty signed at "1884 Congress") and stays as it is."""
    if not dt:
        return ""
    if isinstance(dt, str):
        try:
            dt = datetime.fromisoformat(dt)
        except ValueError:
            return dt
    _require_aware(dt, "dt")
    tz = parse_zone(zone) if isinstance(zone, str) else zone
    local = dt.astimezone(tz)
    return f"{_day(local)} {local:%H:%M} {local.tzname()}"


def format_left(left: timedelta) -> str:
    """Time left before a deadline as a reminder says it, never more than is
    left: whole minutes under two hours ("5m", "1h40m"), whole hours below
    three days ("11h"), then days and hours ("3d4h")."""
    seconds = max(0, int(left.total_seconds()))
    if seconds < 2 * 3600:
        return format_duration(timedelta(minutes=max(1, seconds // 60)))
    return format_duration(timedelta(hours=seconds // 3600))


def _day(dt: datetime, year: bool = True) -> str:
    text = f"{dt:%a} {dt.day} {dt:%b}"
    return f"{text} {dt.year}" if year else text
