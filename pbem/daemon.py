"""The daemon: the only impure part.  It reads the intake, hands each mail to
the intake module, ticks the clock, delivers the outbox and keeps the archive
up to date.

Order of one pass: fetch -> store each mail verbatim (commit) -> handle
every stored, unhandled mail (one transaction each) -> acknowledge the
intake copies (move to Processed/Rejected) -> reminders and due phases ->
deliver queued mail -> rebuild the archive pages of games that changed.  A crash anywhere repeats at most the last step of the
last mail, which every step tolerates (dedupe by source key and Message-ID;
fixed Message-IDs on queued mail).
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path

from . import archive, intake, outbox, registry, scheduler
from .clock import Clock, SystemClock
from .context import Context
from .crashpoints import reached
from .db import open_db

log = logging.getLogger(__name__)


@dataclass
class PassResult:
    fetched: int = 0
    handled: int = 0
    resolved: int = 0
    sent: int = 0


class Daemon:
    def __init__(self, ctx: Context, source, sender, *, listener=None, max_attempts: int = 8,
                 retry_base: float = 30.0, poll_interval: float = 5.0):
        self.ctx, self.source, self.sender, self.listener = ctx, source, sender, listener
        self.max_attempts, self.retry_base, self.poll_interval = max_attempts, retry_base, poll_interval

    async def run_pass(self) -> PassResult:
        result = PassResult()
        batch = await self.source.fetch(100)
        result.fetched = len(batch)
        for raw in batch:
            intake.store_raw(self.ctx, raw)
        result.handled = len(intake.process_pending(self.ctx))
        if batch:
            reached("daemon.before_ack")
        for raw in batch:
            row = next(self.ctx.db["messages"].rows_where("source_key = ?", [raw.key]), None)
            outcome = "rejected" if row and row["status"] in ("rejected", "error") else "processed"
            await self.source.ack(raw.key, outcome)
        if batch:
            reached("daemon.after_ack")
        result.resolved = len(scheduler.tick(self.ctx))
        result.sent = await outbox.deliver_due(self.ctx, self.sender, max_attempts=self.max_attempts,
                                               retry_base=self.retry_base)
        # Last, after the mail is out: the public site follows the games it shows.
        archive.refresh(self.ctx)
        return result

    async def serve(self, stop: asyncio.Event | None = None, once: bool = False) -> None:
        stop = stop or asyncio.Event()
        if self.listener is not None:
            await self.listener.start()
        try:
            while not stop.is_set():
                try:
                    result = await self.run_pass()
                except Exception:  # the loop survives anything one pass throws
                    log.exception("pass failed; retrying after the poll interval")
                    result = PassResult()
                if once:
                    if result.fetched or result.resolved or result.sent:
                        continue  # drain: replies of this pass, phases they made due
                    break
                if result.fetched:
                    continue
                timeout = self.poll_interval
                wake = scheduler.next_wakeup(self.ctx)
                if wake is not None:
                    timeout = max(0.05, min(timeout, wake.total_seconds()))
                waiter = asyncio.ensure_future(self.source.wait(timeout))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in (waiter, stopper):
                    task.cancel()
        finally:
            if self.listener is not None:
                await self.listener.stop()
            await self.source.close()


def build(cfg, *, clock: Clock | None = None) -> Daemon:
    """A daemon wired from the configuration (embedded default or IMAP/SMTP)."""
    from .mail.maildir_source import MaildirDelivery, MaildirSource

    registry.load_extras(cfg.server.games_extra)
    db = open_db(cfg.server.database)
    ctx = Context.from_config(db, clock or SystemClock(), cfg)
    if cfg.intake.kind == "imap":
        from .mail.imap_source import ImapSource

        source = ImapSource(cfg.imap.host, cfg.imap.port, cfg.imap.user, cfg.imap.password,
                            ssl_context=_ssl() if cfg.imap.ssl else None, mailbox=cfg.imap.mailbox,
                            processed=cfg.imap.processed_folder, rejected=cfg.imap.rejected_folder,
                            idle=cfg.imap.idle, poll_interval=cfg.imap.poll_interval,
                            timeout=cfg.imap.timeout)
    else:
        source = MaildirSource(Path(cfg.intake.maildir), poll_interval=cfg.intake.poll_interval)
    if cfg.outbound.kind == "smtp":
        from .mail.sender import SmtpSender

        sender = SmtpSender(cfg.smtp.host, cfg.smtp.port, user=cfg.smtp.user or None,
                            password=cfg.smtp.password or None, starttls=cfg.smtp.starttls,
                            use_tls=cfg.smtp.tls, timeout=cfg.smtp.timeout)
    else:
        sender = MaildirDelivery(Path(cfg.outbound.maildir))
    listener = None
    if cfg.listener.enabled and cfg.intake.kind == "maildir":
        from .mail.smtp_listener import SmtpListener

        listener = SmtpListener(cfg.listener.host, cfg.listener.port,
                                deliver_to_maildir=Path(cfg.intake.maildir),
                                max_bytes=cfg.server.max_message_bytes * 2)
    return Daemon(ctx, source, sender, listener=listener, max_attempts=cfg.outbound.max_attempts,
                  retry_base=cfg.outbound.retry_base_seconds, poll_interval=cfg.intake.poll_interval)


def _ssl():
    import ssl

    return ssl.create_default_context()
