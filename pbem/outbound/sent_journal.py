"""Marks of mail the SMTP server has taken, kept in a file beside the database while the
worker process holds the database's write lock.

While the worker handles a batch of a backlog in one transaction, the daemon sends the
replies of the batch before it.  Marking each of them sent in the outbox would wait for the
worker's commit, so the two would take turns again; each mark is appended to this file
instead, and the daemon writes the marks into the outbox rows as soon as the worker's batch
is committed (:func:`pbem.outbound.outbox.settle_journal`).

A mark here is as safe as one in the database written without waiting for the disk
(:func:`pbem.storage.db.synced_later`): a kill of the process loses none, since the file's
data is with the system; a power cut can lose the last ones, and those mails go out again
under their own Message-ID.  Marks left by a killed daemon are read when the next one
starts, and written before it sends anything.  Each mark names its mail's Message-ID as
well as its row, so a mark never lands on another mail (a database restored from a backup
beside an old journal).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from pbem.base.private_files import create_private

log = logging.getLogger(__name__)


class SentJournal:
    """Outbox row -> (its Message-ID, when the server took it), for the marks not yet in
    the database."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.marks: dict[int, tuple[str, str]] = _read(self.path)
        self._fd: int | None = None

    @classmethod
    def beside(cls, database: Path | str) -> SentJournal | None:
        """The journal of the database at ``database`` (None for one in memory)."""
        return None if str(database) == ":memory:" else cls(Path(f"{database}.sent"))

    def __contains__(self, row_id: int) -> bool:
        return row_id in self.marks

    def __len__(self) -> int:
        return len(self.marks)

    def add(self, row_id: int, message_id: str, when: str) -> None:
        """Row ``row_id``, the mail ``message_id``, was taken by the server at ``when``:
        one line, in one write."""
        if self._fd is None:
            create_private(self.path)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        os.write(self._fd, f"{row_id} {message_id} {when}\n".encode("ascii", "replace"))
        self.marks[row_id] = (message_id, when)

    def clear(self) -> None:
        """Forget the marks: they are in the database now.  (The file stays open for
        appending: each write goes to its end, wherever that is.)"""
        if self.path.exists():
            os.truncate(self.path, 0)
        self.marks.clear()

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _read(path: Path) -> dict[int, tuple[str, str]]:
    """The marks in the file; a line cut short by a kill is left out (its mail goes out
    again under its own Message-ID)."""
    try:
        text = path.read_bytes().decode("ascii", "replace")
    except FileNotFoundError:
        return {}
    marks: dict[int, tuple[str, str]] = {}
    for line in text.split("\n")[:-1]:  # the part after the last newline is unfinished
        fields = line.split(" ")
        if len(fields) == 3 and fields[0].isdigit():
            marks[int(fields[0])] = (fields[1], fields[2])
        else:
            log.warning("a line of %s is not a mark and is left out", path.name)
    return marks
