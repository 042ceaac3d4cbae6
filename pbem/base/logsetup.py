"""How pbem logs: set up once by the entry point (library modules only ever
``logging.getLogger(__name__)``).

- The daemon's lines carry a timestamp and a level; under systemd (standard
  error is the journal, ``$JOURNAL_STREAM``) they carry neither, since the
  journal adds its own time, but a ``<N>`` syslog priority the journal reads.
- ``server.log_file`` writes to a file instead; SIGHUP (what log rotation
  sends) reopens it, and a file renamed away is noticed on the next line.
- Other libraries' chatter stays below INFO, and raw mail never reaches the
  log at any level: the IMAP library's own lines below WARNING carry raw
  protocol data (fetched mail, sign-on secrets in it), so they are never
  shown; the SMTP listener library's INFO lines (connections, envelope
  addresses) show only at DEBUG, and its DEBUG lines (the mail's lines) never.
"""
from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import time
from pathlib import Path

from pbem.base.private_files import create_private

#: their lines below WARNING carry raw protocol data, mail and secrets included
SILENCED = ("aioimaplib",)
#: INFO lines shown only at DEBUG; their own DEBUG lines (mail data) never
DEMOTED = ("mail.log", "mail.debug")

_SYSLOG_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3,
                    logging.CRITICAL: 2}


class _Timestamped(logging.Formatter):
    """``2026-11-24T18:05:01.123+0000 INFO pbem.host.daemon: ...``"""

    def formatTime(self, record, datefmt=None):  # noqa: N802 (logging's name)
        local = time.localtime(record.created)
        return (time.strftime("%Y-%m-%dT%H:%M:%S", local) + f".{int(record.msecs):03d}"
                + time.strftime("%z", local))


class _Journal(logging.Formatter):
    """``<6>pbem.host.daemon: ...``: the journal keeps the time and reads the priority."""

    def format(self, record):
        prefix = f"<{_SYSLOG_PRIORITY.get(record.levelno, 6)}>"
        return prefix + super().format(record)


class _Demote(logging.Filter):
    """A library's INFO line shown as DEBUG."""

    def filter(self, record):
        if record.levelno == logging.INFO:
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


class _PrivateFile(logging.handlers.WatchedFileHandler):
    """A log file only pbem's user may read (it names players' powers and games),
    made again so when log rotation moved it away."""

    def _open(self):
        create_private(self.baseFilename)
        return super()._open()


_current: dict = {"handler": None, "file": None, "formatter": None}


def under_journald(stream=None) -> bool:
    """Whether ``stream`` (standard error) is connected to the systemd journal."""
    stream = stream or sys.stderr
    marker = os.environ.get("JOURNAL_STREAM", "")
    try:
        device, inode = (int(x) for x in marker.split(":"))
        info = os.fstat(stream.fileno())
    except (ValueError, OSError, AttributeError):
        return False
    return (info.st_dev, info.st_ino) == (device, inode)


def formatter(role: str = "daemon", *, journal: bool | None = None) -> logging.Formatter:
    """The daemon's format; ``role`` "worker" marks the mail-handling process's lines."""
    who = "%(name)s (worker)" if role == "worker" else "%(name)s"
    if journal if journal is not None else under_journald():
        return _Journal(f"{who}: %(message)s")
    return _Timestamped(f"%(asctime)s %(levelname)s {who}: %(message)s")


def configure(level: str | int = "INFO", *, log_file: str | Path | None = None,
              role: str = "daemon") -> None:
    """Log at ``level`` to ``log_file`` (appended, mode 0600 when new) or to
    standard error, in the daemon's format; replaces an earlier set-up."""
    root = logging.getLogger()
    fmt = formatter(role, journal=False if log_file else None)
    handler = _handler(log_file)
    handler.setFormatter(fmt)
    old = _current["handler"]
    for existing in list(root.handlers):  # basicConfig's, or ours from before
        root.removeHandler(existing)
        if existing is old:
            existing.close()
    root.addHandler(handler)
    root.setLevel(level)
    _current.update(handler=handler, file=Path(log_file) if log_file else None, formatter=fmt)
    quiet_libraries(level)


def _handler(log_file) -> logging.Handler:
    if not log_file:
        return logging.StreamHandler(sys.stderr)
    return _PrivateFile(log_file, encoding="utf-8")


def quiet_libraries(level: str | int) -> None:
    numeric = logging.getLevelName(level.upper()) if isinstance(level, str) else level
    debug = isinstance(numeric, int) and numeric <= logging.DEBUG
    for name in SILENCED:
        logging.getLogger(name).setLevel(logging.WARNING)
    for name in DEMOTED:
        lib = logging.getLogger(name)
        lib.setLevel(logging.INFO if debug else logging.WARNING)
        if not any(isinstance(f, _Demote) for f in lib.filters):
            lib.addFilter(_Demote())


def reopen() -> str:
    """SIGHUP: reopen the log file (after rotation); says what it did."""
    path = _current["file"]
    if path is None:
        return "SIGHUP: logging to standard error, nothing to reopen"
    root = logging.getLogger()
    old = _current["handler"]
    handler = _handler(path)
    handler.setFormatter(_current["formatter"])
    root.addHandler(handler)
    if old is not None:
        root.removeHandler(old)
        old.close()
    _current["handler"] = handler
    return f"SIGHUP: log file {path} reopened"
