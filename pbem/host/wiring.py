"""The daemon as the configuration describes it: which intake (Maildir or IMAP), which
sender (local Maildirs or SMTP), the SMTP listener, and where mail is handled.

Kept apart from :mod:`pbem.host.daemon` so that the daemon's passes can be read (and tested
with injected sources and senders) without the choices of transport.
"""
from __future__ import annotations

from pathlib import Path

from pbem.base import registry
from pbem.base.clock import Clock, SystemClock
from pbem.base.context import Context
from pbem.host.daemon import Daemon
from pbem.inbound.sandbox import handler_for
from pbem.mail.credentials import current_password, tls_context
from pbem.outbound.sent_journal import SentJournal
from pbem.storage import secret_checks
from pbem.storage.db import open_db


def build(cfg, *, clock: Clock | None = None, heartbeat=None, handler=None) -> Daemon:
    """A daemon wired from the configuration (embedded default or IMAP/SMTP).
    Raises ConfigError when what the configuration names cannot be used (a
    password it needs is missing, a CA file does not exist), one line each."""
    from pbem.base.config import ConfigError
    from pbem.base.configcheck import problems
    from pbem.mail.maildir_source import MaildirDelivery, MaildirSource

    found = problems(cfg)
    if found:
        raise ConfigError(found)
    registry.load_extras(cfg.server.games_extra)
    db = open_db(cfg.server.database)
    ctx = secret_checks.attach(Context.from_config(db, clock or SystemClock(), cfg), cfg.server.database)
    if cfg.intake.kind == "imap":
        from pbem.mail.imap_source import ImapSource

        source = ImapSource(cfg.imap.host, cfg.imap.port, cfg.imap.user, current_password(cfg, "imap"),
                            ssl_context=tls_context(cfg, "imap") if cfg.imap.ssl else None,
                            mailbox=cfg.imap.mailbox, processed=cfg.imap.processed_folder,
                            rejected=cfg.imap.rejected_folder, idle=cfg.imap.idle,
                            poll_interval=cfg.imap.poll_interval, timeout=cfg.imap.timeout)
        inbound = f"IMAP {cfg.imap.user}@{cfg.imap.host}:{cfg.imap.port}/{cfg.imap.mailbox}"
    else:
        source = MaildirSource(Path(cfg.intake.maildir), poll_interval=cfg.intake.poll_interval)
        inbound = f"Maildir {cfg.intake.maildir}"
    if cfg.outbound.kind == "smtp":
        from pbem.mail.sender import SmtpSender

        sender = SmtpSender(cfg.smtp.host, cfg.smtp.port, user=cfg.smtp.user or None,
                            password=current_password(cfg, "smtp") if cfg.smtp.user else None,
                            starttls=cfg.smtp.starttls, use_tls=cfg.smtp.tls, timeout=cfg.smtp.timeout,
                            sender_address=cfg.server.address,
                            tls_context=tls_context(cfg, "smtp") if cfg.smtp.tls or cfg.smtp.starttls
                            else None)
        outbound = f"SMTP {cfg.smtp.host}:{cfg.smtp.port}" + (f" as {cfg.smtp.user}" if cfg.smtp.user else "")
    else:
        sender = MaildirDelivery(Path(cfg.outbound.maildir))
        outbound = f"local Maildirs under {cfg.outbound.maildir}"
    listener = None
    if cfg.listener.enabled and cfg.intake.kind == "maildir":
        from pbem.mail.smtp_listener import SmtpListener

        listener = SmtpListener(cfg.listener.host, cfg.listener.port,
                                deliver_to_maildir=Path(cfg.intake.maildir),
                                max_bytes=cfg.server.max_message_bytes * 2,
                                max_sessions=cfg.listener.max_sessions, timeout=cfg.listener.idle_timeout)
        inbound += f" (fed by the SMTP listener on {cfg.listener.host}:{cfg.listener.port})"
    handler = handler or handler_for(cfg, clock=clock)
    return Daemon(ctx, source, sender, listener=listener, max_attempts=cfg.outbound.max_attempts,
                  retry_base=cfg.outbound.retry_base_seconds, poll_interval=cfg.intake.poll_interval,
                  handler=handler, keep_sent_days=cfg.outbound.keep_sent_days,
                  held_retry_max=cfg.outbound.held_retry_max_seconds, heartbeat=heartbeat,
                  description=f"config {cfg.path.resolve() if cfg.path else '(defaults)'}, database {cfg.server.database}, "
                              f"mail in from {inbound}, out through {outbound}",
                  listener_required=cfg.listener.required, config_name=str(cfg.path or "the configuration"),
                  sent_journal=SentJournal.beside(cfg.server.database))
