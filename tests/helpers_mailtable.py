"""The moderator and its players around the real mail servers (Dovecot IMAP and an
SMTP server on loopback, started by the fixtures): the table whole-game mail tests
play at."""
from __future__ import annotations

import asyncio
import email
from email import policy
from email.message import EmailMessage

import pytest

from pbem.base import registry
from pbem.base.clock import FakeClock
from pbem.base.config import load_config
from pbem.base.context import Context
from pbem.base.identity import hash_secret
from pbem.host.daemon import Daemon
from pbem.mail.imap_source import ImapSource
from pbem.mail.sender import SmtpSender
from pbem.storage.db import open_db

from helpers_loop import subjects

GM_SECRET = "integration-gm"


class Table:
    """The moderator and its players around real mail servers."""

    def __init__(self, servers, tmp_path):
        registry.load_extra("tests.beacon:GAME")
        self.servers = servers
        self.clock = FakeClock()
        self.ctx = Context(db=open_db(tmp_path / "pbem.sqlite"), clock=self.clock,
                           address=servers.address("moderator"), domain="example.test",
                           gm_secret_hash=hash_secret(GM_SECRET),
                           deadline_defaults=dict(load_config(None).deadlines), reply_rate_per_hour=0)
        source = ImapSource("127.0.0.1", servers.imap_port, "moderator", servers.password("moderator"),
                            idle=False, poll_interval=0.2, timeout=10)
        sender = SmtpSender("127.0.0.1", servers.smtp_port, timeout=10)
        self.daemon = Daemon(self.ctx, source, sender, retry_base=0.01)
        self.seen: dict[str, int] = {}
        self.sent = 0
        # One loop for the whole game: the IMAP connection lives on it.
        self.loop = asyncio.new_event_loop()

    def send(self, user: str, body: str, subject: str = "orders") -> None:
        msg = EmailMessage()
        msg["From"] = self.servers.address(user)
        msg["To"] = self.ctx.address
        msg["Subject"] = subject
        self.sent += 1
        msg["Message-ID"] = f"<{user}-{self.sent}@players.test>"
        msg.set_content(body)
        self.servers.send(msg, msg["From"], [self.ctx.address])

    def run(self) -> None:
        """Passes until the moderator has nothing left to do."""
        async def drain():
            for _ in range(20):
                result = await self.daemon.run_pass()
                if not (result.fetched or result.resolved or result.sent):
                    return
            raise AssertionError("the moderator never settled")
        self.loop.run_until_complete(drain())

    def new_mail(self, user: str) -> list[EmailMessage]:
        raw = self.servers.messages(user)
        start = self.seen.get(user, 0)
        self.seen[user] = len(raw)
        return [email.message_from_bytes(r, policy=policy.default) for r in raw[start:]]

    @staticmethod
    def text(msg: EmailMessage) -> str:
        return msg.get_body(("plain",)).get_content()

    def close(self) -> None:
        self.loop.run_until_complete(self.daemon.source.close())
        self.loop.close()


@pytest.fixture
def table(mail_servers, clean_mailboxes, tmp_path):
    t = Table(mail_servers, tmp_path)
    yield t
    t.close()


def find(messages, needle):
    """The newest of ``messages`` whose subject, or the subject of a part merged into it
    (pbem.outbound.batch), holds ``needle`` (one must)."""
    found = [m for m in messages if any(needle in s for s in subjects(m))]
    assert found, f"no mail with {needle!r} in: {[m['Subject'] for m in messages]}"
    return found[-1]
