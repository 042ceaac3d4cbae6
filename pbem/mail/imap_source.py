"""IMAP intake (aioimaplib): the mailbox is the queue, processed mail is moved, never deleted.

A folder named "" keeps its mail in the mailbox, flagged \\Seen.  When either folder is "",
\\Seen therefore means "handled": the source only fetches mail not flagged \\Seen.  With both
folders set, the mailbox holds only unhandled mail and \\Seen means nothing to pbem (someone
may have read the mailbox with a mail client).

Keys are ``imap:<mailbox>:<uidvalidity>:<uid>``; when the server changes UIDVALIDITY every older
key is void and the same mail comes back under new keys (the caller's Message-ID dedupe catches
it).  The connection (timeouts, losing it, reconnecting after a back-off) is
:mod:`pbem.mail.imap_connection`; calls fail with TemporaryFailure while it is down, and
``wait`` sleeps out the back-off.

One task should drive a source (fetch, ack, wait in turn); a lock serialises calls anyway, and
a fetch or ack interrupts a running ``wait``.
"""
from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Callable

import aioimaplib

from pbem.mail.imap_connection import ImapConnection
from pbem.mail.imap_protocol import (multiappend, parse_exists, parse_fetch, parse_key, parse_search,
                                     parse_uidvalidity, quote_mailbox, uid_set)
from pbem.mail.source import PermanentFailure, RawMail, TemporaryFailure, check_outcome

log = logging.getLogger(__name__)


class ImapSource(ImapConnection):
    """MailSource on one IMAP mailbox; ``ack`` moves mail to the processed/rejected folder,
    or flags it \\Seen where that folder is ""."""

    def __init__(self, host: str, port: int, user: str, password: str | Callable[[], str], *,
                 ssl_context: ssl.SSLContext | None = None, mailbox: str = "INBOX",
                 processed: str = "Processed", rejected: str = "Rejected", idle: bool = True,
                 poll_interval: float = 60.0, timeout: float = 30.0, batch_size: int = 50,
                 backoff: tuple[float, float] = (1.0, 60.0)):
        for name in (mailbox, processed, rejected):
            if name or name == mailbox:
                quote_mailbox(name)
        super().__init__(host, port, user, password, ssl_context=ssl_context, timeout=timeout,
                         backoff=backoff)
        self.mailbox = mailbox
        self.folders = {"processed": processed, "rejected": rejected}
        self._flag_only = not (processed and rejected)  # \\Seen then marks handled mail
        self.idle = idle
        self.poll_interval = poll_interval
        self.batch_size = max(1, min(batch_size, 100))
        self._uidvalidity: int | None = None
        self._tidied = False    # deletions left unfinished by an earlier run are finished
        self._returned: set[int] = set()  # UIDs the last fetch handed out
        self._acked: set[int] = set()
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()

    def __repr__(self) -> str:  # never shows the password
        return f"ImapSource({self.host!r}, {self.port}, {self.user!r}, mailbox={self.mailbox!r})"

    # -- the MailSource protocol ------------------------------------------------------------
    async def fetch(self, limit: int = 100) -> list[RawMail]:
        self._wake.set()
        async with self._lock:
            self._wake.clear()
            await self._ensure_connected()
            if await self._select() == 0:
                self._returned = set()
                return []
            if not self._tidied:
                await self._finish_deletions()
            present = set(await self._search())
            self._acked &= present  # forget acknowledged mail once it has left the mailbox
            uids = sorted(present - self._acked)[:limit]
            mails = []
            for start in range(0, len(uids), self.batch_size):
                batch = uids[start:start + self.batch_size]
                answer = await self._call("UID FETCH", self._client.uid(
                    "fetch", uid_set(batch), "(UID BODY.PEEK[])"))
                bodies = parse_fetch(answer.lines)
                mails.extend(RawMail(self._key(uid), bodies[uid]) for uid in batch
                             if uid in bodies)  # a UID gone meanwhile was moved by someone else
            self._returned = set(uids)
            log.debug("fetched %d message(s) from %s", len(mails), self.mailbox)
            return mails

    async def ack(self, key: str, outcome: str, replacement: bytes | None = None) -> None:
        """Move the mail to its folder (or flag it \\Seen).  With ``replacement`` (the
        stored copy with its secrets masked), that copy is filed instead and the
        original is deleted from the intake mailbox."""
        await self.ack_many([(key, outcome, replacement)])

    async def ack_many(self, acks: list[tuple[str, str, bytes | None]]) -> None:
        """:meth:`ack` for several mails, with one command a folder for the moves and one
        flag and one expunge for the deletions: in a large intake mailbox each expunge
        costs the server more than the handling of a mail (bench/RESULTS.md)."""
        keys = [(parse_key(key), self.folders[check_outcome(outcome)], data) for key, outcome, data in acks]
        for (mailbox, _, _), _, _ in keys:
            if mailbox != self.mailbox:
                raise ValueError(f"a key of mailbox {mailbox!r} is not from mailbox {self.mailbox!r}")
        self._wake.set()
        async with self._lock:
            self._wake.clear()
            await self._ensure_selected()
            replaced: list[tuple[int, str, bytes]] = []
            moved: dict[str, list[int]] = {}
            for (_, validity, uid), folder, data in keys:
                if validity != self._uidvalidity:
                    log.warning("not moving UID %s: UIDVALIDITY is now %s, the key is void",
                                uid, self._uidvalidity)
                elif data is not None:
                    replaced.append((uid, folder, data))
                else:
                    moved.setdefault(folder, []).append(uid)
            deleted = [uid for uid, folder, data in replaced]
            filed: dict[str, list[bytes]] = {}
            for uid, folder, data in replaced:
                filed.setdefault(folder, []).append(data)
            for folder, copies in filed.items():
                await self._file(folder or self.mailbox, copies, None if folder else r"(\Seen)")
            for folder, uids in moved.items():
                if folder:
                    deleted += await self._move(uids, folder)
                else:
                    await self._call("UID STORE", self._client.uid(
                        "store", uid_set(uids), "+FLAGS.SILENT", r"(\Seen)"))
            if deleted:
                await self._call("UID STORE", self._client.uid(
                    "store", uid_set(sorted(deleted)), "+FLAGS.SILENT", r"(\Deleted \Seen)"))
                if "UIDPLUS" in self._capabilities:
                    await self._call("UID EXPUNGE", self._client.uid("expunge", uid_set(sorted(deleted))))
                # Without UIDPLUS the copies stay flagged \Deleted; UID SEARCH UNDELETED skips them.
            done = {uid for (_, validity, uid), _, _ in keys if validity == self._uidvalidity}
            self._acked |= done
            self._returned -= done

    async def wait(self, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        async with self._lock:
            if self._client is None and loop.time() < self._retry_at:
                await self._sleep_or_wake(min(self._retry_at, deadline) - loop.time())
                return
            try:
                await self._ensure_selected()
                if await self._has_new():
                    return
                if self.idle and "IDLE" in self._capabilities:
                    await self._idle_until(deadline)
                else:
                    await self._poll_until(deadline)
            except (TemporaryFailure, PermanentFailure) as exc:
                # Reported by the next fetch; waking early makes the caller find out soon.
                log.debug("wait ended early: %s", exc)

    async def close(self) -> None:
        self._closed = True
        self._wake.set()
        async with self._lock:
            client = self._client
            if client is not None and not self._lost.is_set():
                try:
                    await asyncio.wait_for(client.logout(), min(self.timeout, 5))
                except Exception:  # closing anyway
                    pass
            self._drop(None)

    async def _connected(self) -> None:
        self._tidied = False
        for folder in self.folders.values():
            if folder:
                await self._create(folder)

    async def _ensure_selected(self) -> None:
        await self._ensure_connected()
        if not self._selected:
            await self._select()

    async def _select(self) -> int:
        """SELECT the intake mailbox; return its message count; track UIDVALIDITY."""
        answer = await self._call("SELECT", self._client.select(quote_mailbox(self.mailbox)),
                                  must_succeed=False)
        if answer.result != "OK":
            await self._create(self.mailbox)
            answer = await self._call("SELECT", self._client.select(quote_mailbox(self.mailbox)))
        validity = parse_uidvalidity(answer.lines)
        if validity is None:
            self._fail("SELECT without UIDVALIDITY")
        if validity != self._uidvalidity:
            if self._uidvalidity is not None:
                log.warning("UIDVALIDITY of %s changed from %s to %s: every stored UID is void",
                            self.mailbox, self._uidvalidity, validity)
            self._uidvalidity = validity
            self._returned, self._acked = set(), set()
        self._selected = True
        return parse_exists(answer.lines)

    async def _finish_deletions(self) -> None:
        """Expunge the copies an earlier run flagged \\Deleted and was stopped (killed, or cut
        off) before expunging: each is filed in its folder already, and the search for new
        mail skips it, so it would stay in the intake mailbox for good.  Once a connection;
        only with UIDPLUS, which expunges those UIDs alone (as :meth:`_move` does)."""
        self._tidied = True
        if "UIDPLUS" not in self._capabilities:
            return
        answer = await self._call("UID SEARCH", self._client.uid_search("DELETED", charset=None))
        uids = parse_search(answer.lines)
        if uids:
            await self._call("UID EXPUNGE", self._client.uid("expunge", uid_set(uids)))
            log.info("finished moving %d handled mail(s) out of %s (an earlier run stopped "
                     "before it was done)", len(uids), self.mailbox)

    async def _search(self) -> list[int]:
        criteria = "UNSEEN UNDELETED" if self._flag_only else "UNDELETED"
        answer = await self._call("UID SEARCH", self._client.uid_search(criteria, charset=None))
        return parse_search(answer.lines)

    async def _has_new(self) -> bool:
        return bool(set(await self._search()) - self._returned - self._acked)

    async def _move(self, uids: list[int], folder: str) -> list[int]:
        """Move the mails to ``folder``; returns those still to be deleted (copied, where
        the server cannot MOVE)."""
        target, which = quote_mailbox(folder), uid_set(uids)
        command = "move" if "MOVE" in self._capabilities else "copy"
        answer = await self._call(f"UID {command.upper()}", self._client.uid(command, which, target),
                                  must_succeed=False)
        if answer.result != "OK":  # e.g. [TRYCREATE]: someone deleted the folder
            await self._create(folder)
            await self._call(f"UID {command.upper()}", self._client.uid(command, which, target))
        return [] if command == "move" else list(uids)

    async def _file(self, folder: str, copies: list[bytes], flags: str | None) -> None:
        """APPEND ``copies`` (mails' masked copies) to ``folder``, in one command where the
        server takes several messages in one (MULTIAPPEND with LITERAL+): a maildir server
        rescans the folder for each APPEND, so one by one the cost of filing a copy grows
        with the folder (bench/RESULTS.md)."""
        together = {"MULTIAPPEND", "LITERAL+"} <= self._capabilities
        for group in [copies] if together else [[data] for data in copies]:
            answer = await self._call("APPEND", self._append(group, folder, flags), must_succeed=False)
            if answer.result != "OK":  # e.g. [TRYCREATE]: nothing of it was filed (RFC 3502)
                await self._create(folder)
                await self._call("APPEND", self._append(group, folder, flags))

    def _append(self, group: list[bytes], folder: str, flags: str | None):
        """The APPEND of ``group``: aioimaplib's own for one message, else one MULTIAPPEND."""
        if len(group) == 1:
            return self._client.append(group[0], quote_mailbox(folder), flags)
        return self._append_many(group, quote_mailbox(folder), flags)

    async def _append_many(self, copies: list[bytes], mailbox: str, flags: str | None):
        """One MULTIAPPEND through aioimaplib's APPEND: its client sends the command, and
        what :func:`multiappend` made as the first literal once the server asks for it."""
        protocol = self._client.protocol
        size, payload = multiappend(copies, flags)
        args = [mailbox] + ([flags] if flags else []) + [size]
        protocol.literal_data = payload
        return await protocol.execute(aioimaplib.Command("APPEND", protocol.new_tag(), *args,
                                                         loop=protocol.loop, timeout=self.timeout))

    def _key(self, uid: int) -> str:
        return f"imap:{self.mailbox}:{self._uidvalidity}:{uid}"

    # -- waiting ---------------------------------------------------------------------------------
    async def _sleep_or_wake(self, seconds: float) -> bool:
        """Sleep up to seconds; True when a fetch/ack/close wants the source first."""
        if seconds <= 0:
            return self._wake.is_set()
        try:
            await asyncio.wait_for(self._wake.wait(), seconds)
            return True
        except asyncio.TimeoutError:
            return False

    async def _poll_until(self, deadline: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < deadline:
            if await self._sleep_or_wake(min(self.poll_interval, deadline - loop.time())):
                return
            if await self._has_new():
                return

    async def _idle_until(self, deadline: float) -> None:
        """IDLE until the server reports new mail, the deadline, a wake-up or a lost line."""
        loop = asyncio.get_running_loop()
        client, lost = self._client, self._lost
        # Servers may end an IDLE after 30 minutes; return before that, the caller waits again.
        deadline = min(deadline, loop.time() + 25 * 60)
        queue = client.protocol.idle_queue
        while not queue.empty():  # late pushes of an earlier IDLE would wake us for nothing
            queue.get_nowait()
        idle_cmd = await self._call("IDLE", client.idle_start(timeout=deadline - loop.time() + 60),
                                    must_succeed=False)
        try:
            while (remaining := deadline - loop.time()) > 0:
                push = asyncio.ensure_future(client.wait_server_push(timeout=remaining))
                others = [asyncio.ensure_future(lost.wait()),
                          asyncio.ensure_future(self._wake.wait())]
                done, _ = await asyncio.wait({push, *others}, timeout=remaining + 1,
                                             return_when=asyncio.FIRST_COMPLETED)
                for task in others:
                    task.cancel()
                if push not in done:
                    push.cancel()
                    break
                try:
                    lines = push.result()
                except asyncio.TimeoutError:
                    break
                if not isinstance(lines, list) or any(
                        b"EXISTS" in x or b"RECENT" in x for x in lines if isinstance(x, bytes)):
                    break  # new mail (a hint: the next fetch searches) or IDLE ended
                # "* OK Still here" and flag changes: keep idling
        finally:
            if self._client is client and not lost.is_set():
                client.idle_done()
                await self._call("DONE", idle_cmd, must_succeed=False)
            elif self._client is client:
                self._drop("connection lost during IDLE")
