"""A whole moderator on a temporary SQLite file with a fake clock: mail in
as bytes, replies out as parsed messages.  Used by the loop tests (no mail
servers: those are the integration tests' business)."""
from __future__ import annotations

import email
import re
from email import policy
from email.message import EmailMessage
from pathlib import Path

from pbem.base import registry
from pbem.base.clock import FakeClock
from pbem.base.config import load_config
from pbem.base.context import Context
from pbem.base.identity import hash_secret
from pbem.inbound import intake
from pbem.mail.source import RawMail
from pbem.outbound import outbox
from pbem.play import scheduler
from pbem.storage.db import open_db

GM_SECRET = "gm-secret-1"


def subjects(msg: EmailMessage) -> list[str]:
    """A mail's subject and those of the parts merged into it, each between two rules."""
    from pbem.outbound.batch import RULE

    text = msg.get_body(("plain",)).get_content().replace("\r\n", "\n")
    return [str(msg["Subject"])] + re.findall(rf"^{RULE}\n(.+)\n{RULE}$", text, re.M)


def secret_in(text: str) -> str:
    """The secret a welcome mail gives."""
    import re

    return re.search(r"Your secret is:\s+(\S+)", text).group(1)


class Recorder:
    """A MailSender that keeps what it sends."""

    def __init__(self):
        self.sent: list[tuple[list[str], EmailMessage]] = []

    async def send(self, raw, recipients):
        self.sent.append((list(recipients), email.message_from_bytes(raw, policy=policy.default)))


class Loop:
    def __init__(self, tmp: Path, **ctx_args):
        registry.load_extra("tests.beacon:GAME")
        registry.load_extra("tests.testgame:GAME")  # the minimal Beacon: no optional capability
        self.clock = FakeClock()
        self.db = open_db(tmp / "pbem.sqlite")
        defaults = dict(load_config(None).deadlines)
        self.ctx = Context(db=self.db, clock=self.clock, address="pbem@example.test", domain="example.test",
                           gm_secret_hash=hash_secret(GM_SECRET), deadline_defaults=defaults,
                           reply_rate_per_hour=0, **ctx_args)
        self.sender = Recorder()
        self.counter = 0

    def mail(self, sender: str, body: str, subject: str = "orders", headers: dict | None = None,
             message_id: str | None = None) -> str:
        """Deliver one mail and handle it; returns its final status."""
        self.counter += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.ctx.address
        msg["Subject"] = subject
        msg["Message-ID"] = message_id or f"<m{self.counter}@players.test>"
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(body)
        row = intake.store_raw(self.ctx, RawMail(f"test:{self.counter}", bytes(msg)))
        return intake.process(self.ctx, row) if row else "duplicate-copy"

    def join(self, address: str, game: str, power: str, secret: str) -> str:
        """JOIN from ``address`` and answer the token mailed to it (a seat is
        taken only then); returns the CONFIRM mail's status."""
        import re

        self.mail(address, f"JOIN {game} {power} {secret}\n")
        self.flush()
        token = re.findall(r"CONFIRM (\S+)", self.last_text(address))[-1]
        return self.mail(address, f"CONFIRM {token}\n")

    def tick(self) -> list[str]:
        return scheduler.tick(self.ctx)

    def flush(self) -> list[tuple[list[str], EmailMessage]]:
        import asyncio

        start = len(self.sender.sent)
        asyncio.run(outbox.deliver_due(self.ctx, self.sender))
        return self.sender.sent[start:]

    def inbox(self, address: str) -> list[EmailMessage]:
        return [m for to, m in self.sender.sent if address in to]

    def about(self, address: str, words: str) -> list[EmailMessage]:
        """The mails to ``address`` with ``words`` in their subject or in the subject of a part
        merged into them (pbem.outbound.batch: a subject names the first part in full)."""
        return [m for m in self.inbox(address) if any(words in s for s in subjects(m))]

    def last_text(self, address: str) -> str:
        return self.inbox(address)[-1].get_body(("plain",)).get_content()

    def start_beacon(self, name: str = "g1", addresses: dict[str, str] | None = None,
                     rules: str = "beacon") -> dict[str, str]:
        """A running two-player Beacon game created by GM mail; the players'
        secrets are read from their welcome mails (kept in ``self.secrets``).
        ``addresses`` maps North and South to their players' addresses
        (default north@ and south@example.test); ``rules`` "testgame" plays the
        minimal Beacon, which has none of the optional capabilities."""
        addresses = addresses or {p: f"{p.lower()}@example.test" for p in ("North", "South")}
        status = self.mail("gm@example.test", f"SIGNON GM@{name} {GM_SECRET}\nGM CREATE {name} RULES {rules}\n"
                           f"GM ADD PLAYER North {addresses['North']}\n"
                           f"GM ADD PLAYER South {addresses['South']}\nGM START\n")
        assert status == "done", self.db["messages"].get(1)
        self.flush()
        self.secrets = {}
        for power in ("North", "South"):
            welcome = [m for m in self.inbox(addresses[power]) if "you play" in m["Subject"]]
            text = welcome[0].get_body(("plain",)).get_content()
            self.secrets[power] = secret_in(text)
        return self.secrets
