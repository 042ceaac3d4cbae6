"""The daemon as an administrator runs it, in its own process: one per site,
its log (timestamps, a line per mail, phase and sent mail, no secret even at
DEBUG, journald's format under systemd, SIGHUP), its mail-handling process
dying with it, `serve --once`'s exit status."""
from __future__ import annotations

import os
import signal
import time

import pytest

from fixtures_mail import free_port
from helpers_host import TIMESTAMPED, Site, alive, children

pytestmark = pytest.mark.slow


def _game(site: Site, north: str = "north@players.test") -> dict[str, str]:
    """Game g1 (Beacon) with North and South seated and started; their secrets."""
    site.pbem("game", "new", "g1", "--rules", "beacon", "--gm", "gm@players.test")
    secrets = {}
    for power, address in (("North", north), ("South", "south@players.test")):
        out = site.pbem("game", "add-player", "g1", power, address).stdout
        secrets[power] = out.rsplit("secret ", 1)[1].strip()
    site.pbem("game", "start", "g1")
    return secrets


def test_one_daemon_per_site_a_second_says_who_holds_it_and_a_killed_one_blocks_nothing(tmp_path):
    site = Site(tmp_path / "site")
    site.init()
    try:
        first = site.start()
        site.wait_for("started")
        for args in ((), ("--once",)):
            second = site.pbem("serve", *args, check=False, timeout=60)
            assert second.returncode == 1, second.stderr
            [line] = second.stderr.splitlines()
            assert line.startswith("pbem: error: pbem is already serving this site")
            assert f"pid {first.pid}" in line and "`pbem serve` since " in line
        assert first.poll() is None
        status = site.pbem("status", check=False)
        assert status.returncode == 0 and f"daemon: running, pid {first.pid}" in status.stdout, status.stdout

        first.send_signal(signal.SIGKILL)
        first.wait(10)
        assert (tmp_path / "site" / "var" / "pbem.sqlite.lock").exists()  # left behind by the killed one
        down = site.pbem("status", check=False)
        assert down.returncode == 1 and "daemon: NOT RUNNING" in down.stdout
        again = site.pbem("serve", "--once", check=False, timeout=120)
        assert again.returncode == 0, again.stderr
    finally:
        site.stop_all()


def test_the_log_has_timestamps_a_line_per_mail_phase_and_sent_mail_and_no_secret_at_debug(tmp_path):
    site = Site(tmp_path / "site", **{'log_level = "INFO"': 'log_level = "DEBUG"'})
    gm_secret = site.init()
    secrets = _game(site)
    try:
        daemon = site.start()
        site.wait_for("started")
        import asyncio
        import email.message

        import aiosmtplib

        port = int(site.config.read_text().split("\n[listener]", 1)[1].split("port = ", 1)[1].split()[0])

        async def send_all():  # through the built-in SMTP listener, as the demo's players do
            for power, bid in (("North", 3), ("South", 2)):
                msg = email.message.EmailMessage()
                address = f"{power.lower()}@players.test"
                msg["From"], msg["To"], msg["Subject"] = address, "pbem@localhost", "bid"
                msg.set_content(f"SIGNON {power}@g1 {secrets[power]}\nORDERS\nBID {bid}\nENDORDERS\n")
                await aiosmtplib.send(msg, hostname="127.0.0.1", port=port)
        asyncio.run(send_all())
        site.wait_for("resolved")
        site.wait_for("sent mail")
        time.sleep(1)
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(60) == 0
    finally:
        site.stop_all()
    log = (site.folder / "serve.log").read_text()
    lines = log.splitlines()
    assert all(TIMESTAMPED.match(line) for line in lines if not line.startswith((" ", "Traceback"))), log
    assert any(" DEBUG " in line for line in lines)  # the level set is the level logged
    for secret in (*secrets.values(), gm_secret):
        assert secret not in log
    assert "pbem 0.2.0 started" in log or "started" in lines[0] or any("started" in ln for ln in lines)
    assert any(" INFO pbem.host.daemon: mail " in ln and "from North@g1: done" in ln for ln in lines), log
    assert any(" INFO pbem.play.turns: g1: " in ln and "resolved (all orders in)" in ln for ln in lines), log
    sent = [ln for ln in lines if " INFO pbem.outbound.outbox: sent mail " in ln]
    assert sent and any("to North" in ln for ln in sent)
    assert not any("@players.test" in ln for ln in sent), sent  # roles, never addresses
    assert lines[-1].endswith("INFO pbem.serve: pbem stopped: SIGTERM received")


def test_under_systemd_the_journal_keeps_the_time_and_reads_the_priority(tmp_path):
    site = Site(tmp_path / "site")
    site.init()
    log = tmp_path / "journal.log"
    log.touch()
    info = os.stat(log)
    env = {**site.env, "JOURNAL_STREAM": f"{info.st_dev}:{info.st_ino}"}
    try:
        proc = site.start("--once", log=log, env=env)
        assert proc.wait(120) == 0
    finally:
        site.stop_all()
    lines = log.read_text().splitlines()
    assert lines and all(line.startswith(("<6>pbem.", "<4>pbem.", "<7>")) for line in lines), lines
    assert not any(TIMESTAMPED.match(line[3:]) for line in lines)


def test_sighup_reopens_the_log_file_and_is_harmless_without_one(tmp_path):
    site = Site(tmp_path / "site", **{'log_file = ""': 'log_file = "var/pbem.log"'})
    site.init()
    log = site.folder / "var" / "pbem.log"
    try:
        daemon = site.start()
        site.wait_for("started", log=log)
        os.rename(log, f"{log}.1")  # what logrotate does, then it sends SIGHUP
        daemon.send_signal(signal.SIGHUP)
        site.wait_for(f"SIGHUP: log file {log} reopened", log=log)
        assert daemon.poll() is None
        assert oct(os.stat(log).st_mode & 0o777) == "0o600"
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(60) == 0
        assert "pbem stopped: SIGTERM received" in log.read_text()
        assert "started" in open(f"{log}.1").read()

        plain = Site(tmp_path / "plain")
        plain.init()
        daemon = plain.start()
        plain.wait_for("started")
        daemon.send_signal(signal.SIGHUP)
        plain.wait_for("SIGHUP: logging to standard error, nothing to reopen")
        assert daemon.poll() is None
        plain.stop_all()
    finally:
        site.stop_all()


def test_the_mail_handling_process_dies_quietly_with_a_killed_daemon(tmp_path):
    site = Site(tmp_path / "site")
    site.init()
    try:
        daemon = site.start()
        site.wait_for("started")
        site.send("someone@players.test", "HELP\n")
        site.wait_for("mail 1 from")
        workers = [pid for pid in children(daemon.pid) if alive(pid)]
        assert workers, "the daemon has no mail-handling process"
        daemon.send_signal(signal.SIGKILL)
        daemon.wait(10)
        deadline = time.monotonic() + 20
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(pid) for pid in workers), "the worker outlived its daemon"
        time.sleep(0.5)
        log = (site.folder / "serve.log").read_text()
        assert "Traceback" not in log and "BrokenPipe" not in log, log
    finally:
        site.stop_all()


def test_serve_once_exits_non_zero_when_a_step_failed(tmp_path):
    site = Site(tmp_path / "site", **{
        'kind = "maildir"                    # production: "imap"': 'kind = "imap"',
        'host = ""                           # e.g. "imap.example.org"': 'host = "127.0.0.1"',
        "port = 993": f"port = {free_port()}",  # nothing listens there
        'user = ""                           # e.g. "pbem@example.org"': 'user = "moderator"',
        'password = ""': 'password = "pw"', "ssl = true": "ssl = false",
        "enabled = true ": "enabled = false "})
    site.init()
    proc = site.pbem("serve", "--once", check=False, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "ERROR pbem.host.daemon: intake failed" in proc.stderr
    assert proc.stderr.rstrip().endswith("pbem stopped: nothing left to do (--once); these steps failed: intake")


@pytest.mark.mail
def test_at_debug_no_mail_read_over_imap_reaches_the_log(clean_mailboxes, tmp_path):
    """The IMAP library logs every line it receives at DEBUG, fetched mail included:
    a sign-on's secret would be in the log."""
    servers = clean_mailboxes
    moderator = servers.address("moderator")
    site = Site(tmp_path / "site", **{
        'address = "pbem@localhost"': f'address = "{moderator}"',
        'log_level = "INFO"': 'log_level = "DEBUG"',
        'kind = "maildir"                    # production: "imap"': 'kind = "imap"',
        "enabled = true ": "enabled = false ",
        'host = ""                           # e.g. "imap.example.org"': 'host = "127.0.0.1"',
        "port = 993": f"port = {servers.imap_port}",
        'user = ""                           # e.g. "pbem@example.org"': 'user = "moderator"',
        'password = ""': f'password = "{servers.password("moderator")}"',
        "ssl = true": "ssl = false"})
    site.init()
    alice = servers.address("alice")
    secrets = _game(site, north=alice)
    secret = "a-secret-0f-alice"
    from helpers_site import help_mail

    body = f"SIGNON North@g1 {secrets['North']}\nSET PASSWORD {secret}\nORDERS\nBID 4\n"
    servers.send(help_mail(alice, moderator, body=body, subject="my bid"), alice, [moderator])
    proc = site.pbem("serve", "--once", check=False, timeout=180)
    assert proc.returncode == 0, proc.stderr
    log = proc.stderr
    assert " DEBUG pbem." in log and "from North@g1: done (signed on as North)" in log, log
    assert "BID 4" not in log and "SET PASSWORD" not in log and secret not in log
    assert secrets["North"] not in log and servers.password("moderator") not in log
