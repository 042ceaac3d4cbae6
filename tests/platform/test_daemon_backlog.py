"""A backlog of mail is answered mail by mail, the outbox is drained whole and
pruned, and an idle pass over the games decodes no state."""
from __future__ import annotations

import asyncio
from datetime import timedelta
from email.message import EmailMessage

from helpers_loop import Loop
from pbem.base import registry
from pbem.outbound import outbox
from pbem.play import scheduler
from pbem.storage import store
from pbem.host.daemon import Daemon
from pbem.mail.maildir_source import MaildirSource, deliver_to_maildir
from pbem.inbound.sandbox import InProcessHandler


class Watching(InProcessHandler):
    """Handles mail as the daemon does, noting what had been sent before each mail."""

    def __init__(self, sender):
        self.sender, self.sent_before = sender, []

    async def process(self, ctx, msg_id):
        self.sent_before.append(len(self.sender.sent))
        return await super().process(ctx, msg_id)


def test_each_mail_of_a_backlog_is_answered_before_the_next_is_handled(tmp_path):
    loop = Loop(tmp_path)
    loop.start_beacon()
    loop.flush()
    inbox = tmp_path / "inbox"
    for i in range(5):
        power = ("North", "South")[i % 2]
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{power.lower()}@example.test", loop.ctx.address, "orders"
        msg["Message-ID"] = f"<backlog{i}@players.test>"
        msg.set_content(f"SIGNON {power}@g1 {loop.secrets[power]}\nORDERS\nBID {i % 3}\n")
        deliver_to_maildir(inbox, bytes(msg))
    already = len(loop.sender.sent)
    source = MaildirSource(inbox)
    handler = Watching(loop.sender)
    daemon = Daemon(loop.ctx, source, loop.sender, handler=handler)
    asyncio.run(daemon.run_pass())
    assert [n - already for n in handler.sent_before] == [0, 1, 2, 3, 4]
    replies = [m for _, m in loop.sender.sent[already:] if m["In-Reply-To"]]
    assert [m["In-Reply-To"] for m in replies] == [f"<backlog{i}@players.test>" for i in range(5)]
    assert not list((inbox / "new").iterdir()) and not list((inbox / "cur").iterdir())


def test_the_outbox_is_drained_whole_and_forgets_old_mail(tmp_path):
    loop = Loop(tmp_path)
    for i in range(120):
        outbox.queue(loop.ctx, key=f"bulk:{i}", to=[f"p{i}@example.test"], subject="s", text="t")
    assert len(loop.flush()) == 120 and outbox.pending_count(loop.ctx) == 0
    outbox.queue(loop.ctx, key="waiting", to=["w@example.test"], subject="s", text="t")
    loop.clock.advance(days=31)
    outbox.queue(loop.ctx, key="recent", to=["r@example.test"], subject="s", text="t")
    loop.flush()
    assert outbox.prune(loop.ctx, keep_days=30) == 121   # the 120 and "waiting", sent 31 days ago
    left = [r["message_id"] for r in loop.db["outbox"].rows]
    assert len(left) == 1
    assert outbox.prune(loop.ctx, keep_days=0) == 0


def test_a_pass_over_unchanged_games_decodes_no_state(tmp_path, monkeypatch):
    loop = Loop(tmp_path)
    loop.start_beacon()
    loop.start_beacon("g2")
    loop.tick()
    scheduler.next_wakeup(loop.ctx)
    game = registry.get("beacon")
    calls = []
    real_phase, real_state = game.phase, store.GameRecord.state
    monkeypatch.setattr(game, "phase", lambda state: calls.append("phase") or real_phase(state))
    monkeypatch.setattr(store.GameRecord, "state",
                        property(lambda rec: calls.append("decode") or real_state.fget(rec)))
    for _ in range(3):
        assert loop.tick() == []
        assert scheduler.next_wakeup(loop.ctx) > timedelta(0)
    assert calls == []
    # A change is seen at once: the state changed, so it is decoded again.
    loop.mail("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 1\n")
    loop.mail("south@example.test", f"SIGNON South@g1 {loop.secrets['South']}\nORDERS\nBID 2\n")
    calls.clear()
    assert loop.tick() != []
    assert "decode" in calls
