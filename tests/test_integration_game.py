"""A whole game played by mail through real Dovecot (IMAP) and a real SMTP
server on loopback: sign-on to the end, with acknowledgements, a reminder,
a missed deadline with default orders, GM pause/extend/rollback, press and a
two-party treaty signed by mail; then ``verify`` on the finished game."""
from __future__ import annotations

import asyncio
import email
import re
from email import policy
from email.message import EmailMessage

import pytest

from pbem.base import registry
from pbem.storage import store
from pbem.base.clock import FakeClock
from pbem.base.config import load_config
from pbem.base.context import Context
from pbem.host.daemon import Daemon
from pbem.storage.db import open_db
from pbem.base.identity import hash_secret
from pbem.mail.imap_source import ImapSource
from pbem.mail.sender import SmtpSender
from pbem.play.verify import verify

GM_SECRET = "integration-gm"

pytestmark = pytest.mark.mail


class Table:
    """The moderator and its players around real mail servers."""

    def __init__(self, servers, tmp_path):
        registry.load_extra("tests.testgame:GAME")
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


def _find(messages, needle):
    found = [m for m in messages if needle in m["Subject"]]
    assert found, f"no mail with {needle!r} in: {[m['Subject'] for m in messages]}"
    return found[-1]


def test_a_whole_game_by_mail(table):
    # The GM creates the game and seats two players.
    table.send("gm", f"SIGNON GM@duel {GM_SECRET}\nGM CREATE duel RULES testgame\n"
                     f"GM ADD PLAYER North {table.servers.address('alice')}\n"
                     f"GM ADD PLAYER South {table.servers.address('bob')}\nGM START\n")
    table.run()
    gm_reply = table.text(_find(table.new_mail("gm"), "received"))
    assert "Game created" in gm_reply and "Game started" in gm_reply
    secrets = {}
    for user, power in (("alice", "North"), ("bob", "South")):
        mails = table.new_mail(user)
        welcome = table.text(_find(mails, "you play"))
        secrets[power] = re.search(r"Your secret is:\s+(\S+)", welcome).group(1)
        assert "has started" in " ".join(m["Subject"] for m in mails)

    # Round 1: North orders (echoed, with the deadline and who is missing).
    table.send("alice", f"Hello!\nSIGNON North@duel {secrets['North']}\nORDERS\nbid 3\nEND\n")
    table.run()
    ack = _find(table.new_mail("alice"), "received")
    assert "BID 3" in table.text(ack) and "Still waiting for orders from: South" in table.text(ack)
    assert ack["Auto-Submitted"] == "auto-replied" and ack["In-Reply-To"]

    # Press and a treaty, signed by both by mail.
    table.send("alice", f"SIGNON North@duel {secrets['North']}\nPRESS TO South\nShall we share the beacon?\n"
                        "ENDPRESS\nTREATY PROPOSE T1 WITH South\nNorth and South bid low.\nENDTREATY\n")
    table.run()
    bob_mail = table.new_mail("bob")
    assert "Shall we share the beacon?" in table.text(_find(bob_mail, "press from North"))
    assert "proposed" in _find(bob_mail, "treaty T1")["Subject"]
    table.send("bob", f"SIGNON South@duel {secrets['South']}\nTREATY SIGN T1\n")
    table.run()
    record = table.text(_find(table.new_mail("alice"), "treaty T1"))
    assert "Status:     in force" in record and "South:" in record

    # A reminder before the deadline, then the deadline passes: South gets the default.
    table.clock.advance(hours=30)
    table.run()
    assert _find(table.new_mail("bob"), "reminder")
    table.clock.advance(hours=43)
    table.run()
    report = table.text(_find(table.new_mail("bob"), "turn report"))
    assert "beacon won by North" in report
    assert store.player(table.ctx, "duel", "South")["missed"] == 1

    # The GM extends, pauses, resumes; every player hears of it.
    table.send("gm", f"SIGNON GM@duel {GM_SECRET}\nGM EXTEND 24h\nGM PAUSE\nGM RESUME\n")
    table.run()
    subjects = [m["Subject"] for m in table.new_mail("alice")]
    assert any("deadline changed" in s for s in subjects) and any("paused" in s for s in subjects)

    # Round 2 by both, then the GM rolls it back and it is played again.
    for user, power, bid in (("alice", "North", 1), ("bob", "South", 4)):
        table.send(user, f"SIGNON {power}@duel {secrets[power]}\nORDERS\nBID {bid}\n")
    table.run()
    assert store.get_game(table.ctx, "duel").state["round"] == 3
    table.send("gm", f"SIGNON GM@duel {GM_SECRET}\nGM ROLLBACK 2/orders\n")
    table.run()
    assert store.get_game(table.ctx, "duel").state["round"] == 2
    for round_no in (2, 3):
        for user, power in (("alice", "North"), ("bob", "South")):
            table.send(user, f"SIGNON {power}@duel {secrets[power]}\nORDERS\nBID 1\n")
        table.run()
    rec = store.get_game(table.ctx, "duel")
    assert rec.status == "over"
    final = table.text(_find(table.new_mail("alice"), "turn report"))
    assert "THE GAME IS OVER" in final and rec.row["seed"] in final

    # Every mail was acknowledged once; processed mail left the inbox.
    assert table.servers.messages("moderator") == []
    assert len(table.servers.messages("moderator", "Processed")) >= 9

    report = verify(table.ctx, "duel")
    assert report.ok, report.problems
    snap = next(table.ctx.db["snapshots"].rows_where("game = 'duel'", order_by="seq"))
    table.ctx.db["snapshots"].update(snap["id"], {"after": snap["after"].replace('"score"', '"scorE"')})
    assert not verify(table.ctx, "duel").ok
