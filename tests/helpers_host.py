"""A site on disk and `pbem` run on it as an administrator runs it: in another
process, `pbem serve` in the background.  Every daemon a test starts is
stopped (and killed if need be) by the test's ``finally``."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

from fixtures_mail import free_port
from helpers_site import site_config

TIMESTAMPED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d{4} (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")


class Site:
    def __init__(self, folder: Path, **replacements: str):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.config = site_config(folder, {
            'games_extra = []': 'games_extra = ["tests.beacon:GAME"]',
            "port = 2525": f"port = {free_port()}",
            **replacements})
        self.env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
        self.env.pop("PBEM_CONFIG", None)
        self.env.pop("JOURNAL_STREAM", None)
        self.daemons: list[subprocess.Popen] = []

    def pbem(self, *args: str, check: bool = True, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
        proc = subprocess.run([sys.executable, "-m", "pbem", "-c", str(self.config), *args], cwd=self.folder,
                              env=kw.pop("env", self.env), capture_output=True, text=True, timeout=timeout, **kw)
        if check:
            assert proc.returncode == 0, f"pbem {' '.join(args)}: {proc.stdout}\n{proc.stderr}"
        return proc

    def init(self) -> str:
        """`pbem init` on the prepared pbem.toml: keeps it, makes the database, returns the GM secret."""
        text = self.config.read_text()
        self.config.unlink()
        out = self.pbem("init").stdout
        self.config.write_text(text.replace('gm_secret_hash = ""', re.search(
            r'gm_secret_hash = "[^"]+"', self.config.read_text()).group(0)))
        return out.split("): ")[-1].strip()

    def start(self, *args: str, log: Path | None = None, env: dict | None = None) -> subprocess.Popen:
        log = log or self.folder / "serve.log"
        with open(log, "ab") as err:
            proc = subprocess.Popen([sys.executable, "-m", "pbem", "-c", str(self.config), "serve", *args],
                                    cwd=self.folder, env=env or self.env, stdout=subprocess.DEVNULL,
                                    stderr=err)
        self.daemons.append(proc)
        return proc

    def wait_for(self, text: str, log: Path | None = None, timeout: float = 60) -> str:
        log = log or self.folder / "serve.log"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = log.read_text() if log.exists() else ""
            if text in found:
                return found
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not in {log} after {timeout}s:\n{found[-3000:]}")

    def stop_all(self) -> None:
        for proc in self.daemons:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)

    def send(self, sender: str, body: str, subject: str = "orders") -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", subject
        msg["Message-ID"] = f"<{time.monotonic_ns()}@players.test>"
        msg.set_content(body)
        self.pbem("send", "-", input=bytes(msg).decode())

    def replies(self, address: str) -> list[Path]:
        box = self.folder / "var" / "mail" / "out" / address / "new"
        return sorted(box.iterdir()) if box.is_dir() else []


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
