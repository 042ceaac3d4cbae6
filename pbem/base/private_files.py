"""Files that hold mail, secrets or the database are readable by pbem's own
user only; the public archive is readable by everyone.

Whatever the process umask says, a folder pbem creates for its own data is
0700 and a file 0600 (the database, every Maildir and the mail in it,
``pbem.toml``); archive pages are 0644 in 0755 folders so a web server
running as another user can serve them.  Files that exist already keep the
mode their owner gave them.
"""
from __future__ import annotations

import os
from pathlib import Path

PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600
PUBLIC_DIR, PUBLIC_FILE = 0o755, 0o644


def make_dirs(path: Path | str, mode: int = PRIVATE_DIR) -> Path:
    """``mkdir -p`` where every folder created gets ``mode`` exactly."""
    path = Path(path)
    missing = []
    probe = path
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir()
        except FileExistsError:
            continue  # made meanwhile by another process: its mode is its maker's
        os.chmod(folder, mode)
    return path


def create_private(path: Path | str) -> bool:
    """Create an empty file with mode 0600 unless it exists; True when created."""
    path = Path(path)
    make_dirs(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return False
    os.fchmod(fd, PRIVATE_FILE)
    os.close(fd)
    return True


def open_private(path: Path | str, mode: str = "xb"):
    """``open(path, mode)`` for a new file that only its owner may read."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if "x" in mode else os.O_TRUNC)
    fd = os.open(path, flags, PRIVATE_FILE)
    os.fchmod(fd, PRIVATE_FILE)
    mode = mode.replace("x", "w")
    return os.fdopen(fd, mode) if "b" in mode else os.fdopen(fd, mode, encoding="utf-8")


def write_private(path: Path | str, text: str) -> None:
    """Write a new text file (``pbem.toml``) that only its owner may read."""
    with open_private(path, "x") as fh:
        fh.write(text)
