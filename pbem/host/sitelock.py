"""One daemon per site: a lock held for the daemon's whole life.

Two daemons on one database would each send the same replies (both read the
same intake and the same outbox).  ``pbem serve`` (and ``serve --once``)
takes an exclusive ``flock`` on ``<database>.lock`` and keeps it until it
exits; the file says who holds it.  The kernel drops the lock when its
process dies, however it dies, so a lock file left by a killed daemon never
blocks a restart: only a living holder does.
"""
from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from pbem.base.private_files import PRIVATE_FILE, make_dirs


class AlreadyRunning(RuntimeError):
    """Another living process holds the site's lock; the message says which."""


def lock_path(database: Path | str) -> Path:
    return Path(f"{database}.lock")


@dataclass(frozen=True)
class Holder:
    pid: int | None
    since: str
    command: str
    host: str

    def describe(self) -> str:
        where = f" on {self.host}" if self.host and self.host != socket.gethostname() else ""
        return f"pid {self.pid}{where}, `{self.command}` since {self.since}"


class SiteLock:
    """The lock of the site whose database is ``database``."""

    def __init__(self, database: Path | str):
        self.path = lock_path(database)
        self._fd: int | None = None

    def acquire(self, command: str = "pbem serve") -> None:
        """Take the lock, or raise AlreadyRunning naming its holder."""
        make_dirs(self.path.parent)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
        if not _try_lock(fd):
            os.close(fd)
            holder = read_holder(self.path)
            who = holder.describe() if holder else "another process"
            raise AlreadyRunning(f"pbem is already serving this site ({who}; lock {self.path}): "
                                 "stop it first, or use its configuration") from None
        info = {"pid": os.getpid(), "since": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "command": command, "host": socket.gethostname()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.ftruncate(fd, 0)  # nobody holds it now; the file itself may stay
            os.close(fd)

    def __enter__(self) -> "SiteLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def _try_lock(fd: int, tries: int = 5) -> bool:
    """Take the exclusive lock; a few short tries, as `pbem status` holds a shared
    lock for an instant when it looks whether the daemon runs."""
    for attempt in range(tries):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if attempt + 1 < tries:
                time.sleep(0.1)
    return False


def read_holder(path: Path | str) -> Holder | None:
    """Who the file names as holder (None when it is empty or unreadable)."""
    try:
        info = json.loads(Path(path).read_text(encoding="utf-8") or "null")
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict):
        return None
    return Holder(info.get("pid"), str(info.get("since", "?")), str(info.get("command", "?")),
                  str(info.get("host", "")))


def holder(database: Path | str) -> Holder | None:
    """The living process that holds the site's lock, or None when none does
    (no lock file, or one left by a process that has died)."""
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return read_holder(path) or Holder(None, "?", "?", "")
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
