"""What the running daemon last did, for `pbem status`: a small JSON file
beside the database (``<database>.status``), replaced whole (never half
written) after a pass, at most every few seconds unless something changed.

Whether the daemon is alive at all is the site lock's business
(:mod:`pbem.host.sitelock`); this file says how recently it finished a pass and
which of its steps are failing.
"""
from __future__ import annotations

import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path

from pbem.base.private_files import create_private

EVERY_SECONDS = 10.0


def path_for(database: Path | str) -> Path:
    return Path(f"{database}.status")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Heartbeat:
    def __init__(self, database: Path | str, *, every: float = EVERY_SECONDS):
        self.path = path_for(database)
        self.every = every
        self.info: dict = {}
        self._written = 0.0
        self._last_failing: dict = {}

    def started(self, **info) -> None:
        self.info = {"pid": os.getpid(), "started": _now(), "last_pass": None, "passes": 0,
                     "failing": {}, "stopped": None, **info}
        self._write()

    def beat(self, failing: dict, **last) -> None:
        """One pass is over; ``failing`` maps a failing step to what is known of it."""
        first = not self.info.get("last_pass")
        self.info["passes"] = self.info.get("passes", 0) + 1
        self.info["last_pass"] = self.info["last_activity"] = _now()
        self.info["failing"] = failing
        self.info["last_result"] = last
        if first or failing != self._last_failing or time.monotonic() - self._written >= self.every:
            self._last_failing = dict(failing)
            self._write()

    def busy(self) -> None:
        """Within a long pass (a backlog of mail): the daemon is working, not stuck."""
        self.info["last_activity"] = _now()
        if time.monotonic() - self._written >= self.every:
            self._write()

    def stopped(self, reason: str) -> None:
        self.info["stopped"] = f"{_now()}: {reason}"
        self._write()

    def _write(self) -> None:
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}")
        try:
            temp.unlink(missing_ok=True)
            create_private(temp)
            temp.write_text(json.dumps(self.info, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(temp, self.path)
        except OSError:
            return  # a full disk is reported by the steps; the status file is a convenience
        self._written = time.monotonic()


def read(database: Path | str) -> dict | None:
    try:
        return json.loads(path_for(database).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
