"""Maildir intake and local delivery: the mail transport of the embedded default.

A Maildir is three folders, ``tmp``, ``new`` and ``cur``.  A message is written to ``tmp`` and
renamed into ``new``, so a reader never sees half a file.  Processed mail is moved into the
Maildir++ sub-folders ``.Processed`` and ``.Rejected`` and never deleted, like the IMAP source
moves mail into folders of those names.  Messages are stored with LF line endings, as Maildir
readers expect.
"""
from __future__ import annotations

import asyncio
import itertools
import logging
import os
import re
import socket
import time
from pathlib import Path

from pbem.base.private_files import PRIVATE_DIR, create_private, make_dirs, open_private
from pbem.mail.source import PermanentFailure, RawMail, TemporaryFailure, check_outcome

log = logging.getLogger(__name__)

FOLDERS = {"processed": ".Processed", "rejected": ".Rejected"}
_counter = itertools.count()
_ADDRESS = re.compile(r"^[^\s/\\@]+@[^\s/\\@]+$")


def ensure_maildir(path: Path) -> Path:
    """Create path/{tmp,new,cur} if missing (folders 0700: mail is private); return path."""
    path = Path(path)
    for sub in ("tmp", "new", "cur"):
        make_dirs(path / sub, PRIVATE_DIR)
    return path


def unique_name() -> str:
    """A Maildir file name: time, microseconds, process, counter and host make it unique."""
    now = time.time()
    host = socket.gethostname().replace("/", r"\057").replace(":", r"\072")
    return f"{int(now)}.M{int(now % 1 * 1e6):06d}P{os.getpid()}Q{next(_counter)}.{host}"


def deliver_to_maildir(maildir: Path, data: bytes, *, fsync: bool = True) -> str:
    """Store data atomically in maildir/new (tmp, then rename); return the file name."""
    maildir = ensure_maildir(maildir)
    name = unique_name()
    tmp = maildir / "tmp" / name
    with open_private(tmp, "xb") as f:
        f.write(data)
        if fsync:
            f.flush()
            os.fsync(f.fileno())
    os.rename(tmp, maildir / "new" / name)
    return name


def unix_lines(data: bytes) -> bytes:
    """Maildir files use LF line endings; SMTP uses CRLF."""
    return data.replace(b"\r\n", b"\n")


def base_name(filename: str) -> str:
    """The file name without the ``:2,FLAGS`` info part."""
    return filename.split(":", 1)[0]


def _entries(maildir: Path) -> list[tuple[int, str, Path]]:
    """(delivery time ns, base name, path) of the messages in new/ and cur/, oldest first."""
    found = []
    for sub in ("new", "cur"):
        try:
            names = os.listdir(maildir / sub)
        except FileNotFoundError:
            continue
        for name in names:
            if name.startswith("."):
                continue
            if sub == "cur" and "T" in name.partition(":2,")[2]:
                continue  # flagged as trashed by a mail reader
            path = maildir / sub / name
            try:
                mtime = path.stat().st_mtime_ns
            except FileNotFoundError:
                continue  # moved away by a concurrent ack
            found.append((mtime, base_name(name), path))
    found.sort(key=lambda e: (e[0], e[1]))
    return found


def read_maildir(path: Path) -> list[bytes]:
    """Every message in the Maildir at path (new/ and cur/), oldest first."""
    messages = []
    for _, _, file in _entries(Path(path)):
        try:
            messages.append(file.read_bytes())
        except FileNotFoundError:
            continue
    return messages


def _write_in_place_of(original: Path, target: Path, data: bytes) -> None:
    """Put ``data`` at ``target`` (written whole, then renamed) and remove ``original``."""
    tmp = target.parent.parent / "tmp" / target.name.split(":", 1)[0]
    with open_private(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    original.stat()  # FileNotFoundError when someone moved it meanwhile
    os.rename(tmp, target)
    os.unlink(original)


class MaildirSource:
    """MailSource reading a Maildir; ``ack`` moves a message into a Maildir++ sub-folder."""

    def __init__(self, path: Path, *, poll_interval: float = 0.5):
        self.path = ensure_maildir(Path(path))
        self.poll_interval = poll_interval
        self._returned: set[str] = set()

    def __repr__(self) -> str:
        return f"MaildirSource({str(self.path)!r})"

    async def fetch(self, limit: int = 100) -> list[RawMail]:
        mails = await asyncio.to_thread(self._fetch, limit)
        self._returned = {m.key for m in mails}
        return mails

    def _fetch(self, limit: int) -> list[RawMail]:
        mails = []
        for _, base, path in _entries(self.path):
            if len(mails) >= limit:
                break
            try:
                mails.append(RawMail(key="maildir:" + base, data=path.read_bytes()))
            except FileNotFoundError:
                continue
        return mails

    async def ack(self, key: str, outcome: str, replacement: bytes | None = None) -> None:
        """Move the mail into its folder; with ``replacement`` (the stored copy with
        its secrets masked) that copy is filed there instead of the original."""
        folder = FOLDERS[check_outcome(outcome)]
        if not key.startswith("maildir:"):
            raise ValueError(f"not a Maildir key: {key!r}")
        await asyncio.to_thread(self._move, key[len("maildir:"):], folder, replacement)

    async def ack_many(self, acks: list[tuple[str, str, bytes | None]]) -> None:
        """:meth:`ack` for each of several mails (a file each: nothing to gain together)."""
        for key, outcome, replacement in acks:
            await self.ack(key, outcome, replacement)

    def _move(self, base: str, folder: str, replacement: bytes | None = None) -> None:
        if "/" in base or base.startswith("."):
            raise ValueError(f"not a Maildir file name: {base!r}")
        target = ensure_maildir(self.path / folder)
        create_private(target / "maildirfolder")
        for sub in ("new", "cur"):
            for name in os.listdir(self.path / sub):
                if base_name(name) != base:
                    continue
                flags = name.partition(":2,")[2]
                if "S" not in flags:
                    flags = "".join(sorted(flags + "S"))
                try:
                    if replacement is not None:
                        _write_in_place_of(self.path / sub / name, target / "cur" / f"{base}:2,{flags}",
                                           unix_lines(replacement))
                    else:
                        os.rename(self.path / sub / name, target / "cur" / f"{base}:2,{flags}")
                except FileNotFoundError:
                    continue
                return
        log.info("ack of %s: no such message (acknowledged before?)", base)

    async def wait(self, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            keys = {"maildir:" + base for _, base, _ in _entries(self.path)}
            remaining = deadline - loop.time()
            if keys - self._returned or remaining <= 0:
                return
            await asyncio.sleep(min(self.poll_interval, remaining))

    async def close(self) -> None:
        self._returned = set()


class MaildirDelivery:
    """MailSender for one host: each recipient gets a Maildir at root/<address>/."""

    def __init__(self, root: Path, *, fsync: bool = True):
        self.root = Path(root)
        self.fsync = fsync

    def maildir_for(self, address: str) -> Path:
        address = address.strip().lower()
        if not _ADDRESS.match(address) or address.startswith("."):
            raise PermanentFailure(f"cannot deliver locally to {address!r}",
                                   refused={address: (553, "bad address")})
        return self.root / address

    async def send(self, raw: bytes, recipients: list[str]) -> None:
        if not recipients:
            raise PermanentFailure("no recipients")
        folders = [self.maildir_for(r) for r in recipients]
        data = raw.replace(b"\r\n", b"\n")  # a Maildir file ends its lines as the host does
        try:
            await asyncio.to_thread(self._deliver_all, folders, data)
        except OSError as exc:
            raise TemporaryFailure(f"local delivery failed: {exc}") from exc

    def _deliver_all(self, folders: list[Path], data: bytes) -> None:
        for folder in folders:
            name = deliver_to_maildir(folder, data, fsync=self.fsync)
            log.debug("delivered %s to %s", name, folder)
