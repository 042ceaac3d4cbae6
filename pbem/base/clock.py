"""The injected clock.  Nothing in pbem calls ``datetime.now()`` directly:
the daemon gets a :class:`SystemClock`, tests a :class:`FakeClock`."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone


class Clock:
    def now(self) -> datetime:  # pragma: no cover - interface
        raise NotImplementedError


class SystemClock(Clock):
    def now(self) -> datetime:
        return datetime.now(timezone.utc)


@dataclass
class FakeClock(Clock):
    current: datetime = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)

    def now(self) -> datetime:
        return self.current

    def advance(self, **kw) -> datetime:
        self.current = self.current + timedelta(**kw)
        return self.current

    def set(self, when: datetime) -> None:
        self.current = when
