"""A site for tests: the example configuration with some lines replaced, the same set
for production mail (IMAP in, SMTP out) against the test servers, and a site on the
embedded default as a person runs one: ``pbem init`` in a folder, mail dropped in with
``pbem send``, ``pbem serve``, each a new process on the site's configuration, and the
delivered mail read back from its local mailboxes."""
from __future__ import annotations

import asyncio
import email.utils
import os
import re
import socket
import subprocess
import sys
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


class Site:
    def __init__(self, folder: Path, umask: int = 0o022):
        self.folder, self.umask = folder, umask
        self.env = {**os.environ, "PBEM_EXTRA_GAMES": "tests.beacon:GAME", "PYTHONPATH": str(ROOT)}
        for name in ("PBEM_CRASH_AT", "PBEM_CONFIG"):
            self.env.pop(name, None)
        self.sent = 0

    @property
    def config(self) -> Path:
        return self.folder / "pbem.toml"

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pbem", "-c", str(self.config), *args],
                              cwd=self.folder, env=self.env, capture_output=True, text=True, timeout=timeout,
                              preexec_fn=lambda: os.umask(self.umask))

    def pbem(self, *args: str) -> str:
        proc = self.run(*args)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def start(self, *args: str) -> subprocess.Popen:
        """A long-running ``pbem`` (the daemon), its log lines on stderr."""
        return subprocess.Popen([sys.executable, "-m", "pbem", "-c", str(self.config), *args],
                                cwd=self.folder, env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def send(self, sender: str, body: str, subject: str = "orders") -> None:
        """A mail from ``sender`` to the moderator, dropped into the intake with ``pbem send``."""
        self.sent += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", subject
        msg["Message-ID"] = f"<site-{self.sent}@players.test>"
        msg.set_content(body)
        path = self.folder / f"mail{self.sent}.eml"
        path.write_bytes(bytes(msg))
        self.pbem("send", str(path))

    def setting(self, section: str, key: str, value: str) -> None:
        """Set ``[section] key = value`` (value as TOML) in the site's pbem.toml."""
        text = self.config.read_text()
        head = text.index(f"[{section}]")
        line = re.compile(rf"^{key} = .*$", re.M).search(text, head)
        assert line, (section, key)
        self.config.write_text(text[:line.start()] + f"{key} = {value}" + text[line.end():])

    def mailbox(self, address: str) -> Path:
        return self.folder / "var" / "mail" / "out" / address


def hold_port(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening socket on host:port (0: a free one), as another program holding the port."""
    holder = socket.socket()
    holder.bind((host, port))
    holder.listen()
    return holder
