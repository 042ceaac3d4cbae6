"""A site's configuration for tests: the example file with some lines replaced,
and the same set for production mail (IMAP in, SMTP out) against the test servers."""
from __future__ import annotations

import asyncio
import email.utils
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def site_config(tmp_path: Path, replacements: dict[str, str], name: str = "pbem.toml") -> Path:
    text = (ROOT / "config.example.toml").read_text()
    for old, new in replacements.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text)
    return path


def production_config(mail_servers, tmp_path: Path, **extra: str) -> Path:
    """The example configuration set for IMAP in and SMTP out against the test servers."""
    moderator = mail_servers.address("moderator")
    return site_config(tmp_path, {
        'address = "pbem@localhost"': f'address = "{moderator}"',
        'kind = "maildir"                    # production: "imap"': 'kind = "imap"',
        'enabled = true ': 'enabled = false',
        'host = ""                           # e.g. "imap.example.org"': 'host = "127.0.0.1"',
        "port = 993": f"port = {mail_servers.imap_port}",
        'user = ""                           # e.g. "pbem@example.org"': 'user = "moderator"',
        'password = ""': f'password = "{mail_servers.password("moderator")}"',
        "ssl = true": "ssl = false",
        'kind = "maildir"                    # production: "smtp"': 'kind = "smtp"',
        'host = ""                           # e.g. "smtp.example.org"': 'host = "127.0.0.1"',
        "port = 587": f"port = {mail_servers.smtp_port}",
        "starttls = true": "starttls = false",
        **extra,
    })


def help_mail(sender: str, to: str, body: str = "HELP\n", subject: str = "help") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = email.utils.make_msgid(domain="players.test")
    msg.set_content(body)
    return msg


def one_pass(daemon):
    """One pass of a built daemon, then what it holds open closed, as `pbem serve` does when
    it stops: the IMAP connection, the mail-handling process and the SMTP connection."""
    async def run():
        try:
            return await daemon.run_pass()
        finally:
            await daemon.source.close()
            await daemon.handler.close()
            await daemon.sender.close()
    return asyncio.run(run())
