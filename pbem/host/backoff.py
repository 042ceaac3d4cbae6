"""The pause of a daemon step after failures."""
from __future__ import annotations

import time


class Backoff:
    """The pause of one step after failures: ``first`` seconds, doubling up to ``cap``;
    a success resets it.  ``now`` is a monotonic clock in seconds."""

    def __init__(self, first: float = 1.0, cap: float = 60.0, now=time.monotonic):
        self.first, self.cap, self._now = first, cap, now
        self.failures = 0
        self.retry_at: float | None = None

    def ready(self) -> bool:
        return self.retry_at is None or self._now() >= self.retry_at

    def remaining(self) -> float | None:
        """Seconds until the step may run again; None when it is not paused."""
        return None if self.retry_at is None else max(0.0, self.retry_at - self._now())

    def failed(self) -> float:
        """Count one failure; returns the pause before the next try."""
        self.failures += 1
        delay = min(self.cap, self.first * 2 ** (self.failures - 1))
        self.retry_at = self._now() + delay
        return delay

    def succeeded(self) -> None:
        self.failures, self.retry_at = 0, None
