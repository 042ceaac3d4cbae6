"""The mail side of the benchmarks: the test suite's real Dovecot (IMAP) and
SMTP relay (tests/fixtures_mail.py), an SMTP sink that notes when each mail
was accepted, order mails for seats of a games database, and ``pbem serve``
run as its own process against them.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path

from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fixtures_mail import MailServers, free_port  # noqa: E402

from games_db import Seat  # noqa: E402

MODERATOR = "moderator@example.test"
_SHORT = {"United States": "USA"}


class Sink:
    """An SMTP server that accepts everything and keeps, for each mail, when it
    was accepted, its Message-ID, the Message-ID it answers and its size."""

    def __init__(self):
        self.port = free_port()
        self.lock = threading.Lock()
        self.accepted: list[tuple[float, str, str, int]] = []
        self.connections = 0
        sink = self

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                headers = BytesHeaderParser().parsebytes(envelope.content)
                with sink.lock:
                    sink.accepted.append((time.monotonic(), headers.get("Message-ID", ""),
                                          headers.get("In-Reply-To", "") or "", len(envelope.content)))
                return "250 OK"

        class Counting(Controller):
            def factory(self):
                sink.connections += 1
                return super().factory()

        self._controller = Counting(Handler(), hostname="127.0.0.1", port=self.port)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()

    def reset(self) -> None:
        with self.lock:
            self.accepted.clear()
            self.connections = 0

    def answers(self, wanted: set[str]) -> dict[str, list[tuple[float, str]]]:
        """For each wanted Message-ID answered so far: (time, reply's Message-ID) of every copy."""
        found: dict[str, list[tuple[float, str]]] = {}
        with self.lock:
            for at, mid, reply_to, _ in self.accepted:
                if reply_to in wanted:
                    found.setdefault(reply_to, []).append((at, mid))
        return found

    def wait_for(self, wanted: set[str], timeout: float, alive=lambda: True) -> float | None:
        """When the last wanted mail was first answered, or None after ``timeout`` seconds.
        Each poll reads only the mails accepted since the last one: a scan of every mail
        accepted, a hundred times a second, took a third of a core from the run it times
        at 10,000 mails."""
        deadline = time.monotonic() + timeout
        first: dict[str, float] = {}
        seen = 0
        while time.monotonic() < deadline and alive():
            with self.lock:
                fresh, seen = self.accepted[seen:], len(self.accepted)
            for at, _, reply_to, _ in fresh:
                if reply_to in wanted and reply_to not in first:
                    first[reply_to] = at
            if len(first) >= len(wanted):
                return max(first.values())
            time.sleep(0.01)
        return None


def start_servers() -> tuple[MailServers, Sink]:
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-mail-", dir="/tmp"))
    servers = MailServers(root)
    servers.start()
    sink = Sink()
    sink.start()
    return servers, sink


def stop_servers(servers: MailServers, sink: Sink) -> None:
    sink.stop()
    servers.stop()
    shutil.rmtree(servers.root, ignore_errors=True)


def order_mail(i: int, seat: Seat, lines: list[str], tag: str = "o") -> tuple[str, bytes]:
    power = _SHORT.get(seat.power, seat.power)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = seat.address, MODERATOR, "orders"
    msg["Message-ID"] = mid = f"<{tag}{i}@players.test>"
    msg.set_content(f"SIGNON {power}@{seat.game} {seat.secret}\nORDERS\n" + "\n".join(lines) + "\nEND\n")
    return mid, bytes(msg)


def fill_inbox(servers: MailServers, mails: list[bytes]) -> None:
    """Put the mails in the moderator's INBOX (as if delivered while pbem was down)."""
    client = servers.imap("moderator")
    try:
        for raw in mails:
            typ, data = client.append("INBOX", None, None, raw)
            assert typ == "OK", data
    finally:
        client.logout()


def write_config(folder: Path, servers: MailServers, sink: Sink, *, idle: bool = True) -> Path:
    config = folder / "pbem.toml"
    config.write_text(f"""
[server]
address = "{MODERATOR}"
domain = "example.test"
data_dir = "{folder}"
database = "{folder}/pbem.sqlite"
archive_dir = "{folder}/archive"
game_data = "{folder}/game-data"
log_level = "WARNING"

[intake]
kind = "imap"

[listener]
enabled = false

[imap]
host = "127.0.0.1"
port = {servers.imap_port}
user = "moderator"
password = "{servers.password('moderator')}"
ssl = false
idle = {'true' if idle else 'false'}
poll_interval = 60.0

[outbound]
kind = "smtp"

[smtp]
host = "127.0.0.1"
port = {sink.port}
starttls = false
tls = false
""")
    return config


class Moderator:
    """``pbem serve`` in a process group of its own (its worker dies with it)."""

    def __init__(self, config: Path, log: Path):
        self.config, self.log = config, log
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "pbem", "--config", str(self.config), "serve"],
                                         cwd=str(ROOT), stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """kill -9 of the daemon and its worker, as a power cut would."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()

    def stop(self) -> None:
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
