"""Real mail servers on loopback for the test suite: Dovecot (IMAP + LMTP) and an SMTP relay.

Loaded by tests/conftest.py as a pytest plugin.  The servers start once per session on free
ports inside a temporary directory and are stopped by PID at the end.  When Dovecot is not
installed every test that needs it fails with a message naming the Debian packages.

The SMTP server in front of Dovecot is a small aiosmtpd relay (in a thread of the test process)
that knows the users, answers 550 for unknown recipients at RCPT time like a real MTA, and
delivers over LMTP before it answers 250, so a mail is in the mailbox when the send returns.
It offers AUTH (the users' passwords; a wrong one gets 535) and, on a test's demand, refuses
like a provider: a sender or quota at MAIL FROM, a policy at RCPT, a mail's content at DATA.
"""
from __future__ import annotations

import email.message
import email.policy
import email.utils
import grp
import imaplib
import os
import pwd
import re
import shutil
import smtplib
import socket
import ssl
import string
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

DOVECOT = "/usr/sbin/dovecot"
INSTALL_HINT = "apt-get install dovecot-imapd dovecot-lmtpd"
OPENSSL = "/usr/bin/openssl"
DOMAIN = "example.test"
USERS = ("moderator", "alice", "bob", "carol", "dave", "gm")
CONF_TEMPLATE = Path(__file__).parent / "mailserver_conf" / "dovecot.conf.tmpl"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_banner(port: int, timeout: float = 15.0) -> None:
    """Wait until something on 127.0.0.1:port accepts a connection and greets."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.settimeout(2)
                if s.recv(100):
                    return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing answered on 127.0.0.1:{port} within {timeout}s")


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    """Wait until 127.0.0.1:port accepts connections (TLS ports greet only after a handshake)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout}s")


class LmtpRelay:
    """aiosmtpd handler: known local users only, delivery to Dovecot over LMTP."""

    def __init__(self, lmtp_port: int, users: dict[str, str]):
        self.lmtp_port = lmtp_port
        self.users = users
        self.deferred: set[str] = set()  # answered 451 at RCPT, as a full mailbox is
        # Refusals a provider gives: to MAIL FROM (a sending quota, a refused sender), to every
        # RCPT (a policy), to the DATA of a mail whose bytes hold a marker (its content).
        self.sender_refusal: str | None = None
        self.rcpt_refusal: str | None = None
        self.data_refusal: tuple[bytes, str] | None = None

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.sender_refusal:
            return self.sender_refusal
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.rcpt_refusal:
            return self.rcpt_refusal
        if address.lower() in self.deferred:
            return "451 4.2.2 <%s>: mailbox full, try again later" % address
        local, _, domain = address.rpartition("@")
        if domain.lower() != DOMAIN or local.lower() not in self.users:
            return "550 5.1.1 <%s>: recipient unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        data = envelope.original_content
        if self.data_refusal and self.data_refusal[0] in data:
            return self.data_refusal[1]
        # Dovecot's LMTP adds Return-Path and Delivered-To itself.
        trace = (f"Received: from {session.host_name or 'unknown'} ([{session.peer[0]}])\r\n"
                 f"\tby relay.{DOMAIN} with ESMTP; {email.utils.formatdate()}\r\n").encode()
        try:
            self._deliver(envelope.mail_from, envelope.rcpt_tos, trace + data)
        except smtplib.SMTPResponseException as exc:
            return f"{exc.smtp_code} {exc.smtp_error.decode(errors='replace')}"
        except smtplib.SMTPRecipientsRefused as exc:
            code, text = next(iter(exc.recipients.values()))
            return f"{code} {text.decode(errors='replace')}"
        except OSError as exc:
            return f"451 4.3.0 local delivery unavailable: {exc}"
        return "250 2.0.0 delivered"

    def _deliver(self, mail_from: str, rcpts: list[str], data: bytes) -> None:
        # One LMTP transaction per recipient: LMTP answers DATA once per recipient and
        # smtplib reads a single reply.  Runs in the relay's own thread, so blocking is fine.
        lmtp = smtplib.LMTP("127.0.0.1", self.lmtp_port, timeout=30)
        try:
            for rcpt in rcpts:
                lmtp.sendmail(mail_from, [rcpt], data)
        finally:
            lmtp.close()


class MailServers:
    """The running servers and small synchronous helpers the tests use."""

    def __init__(self, root: Path):
        self.root = root
        self.imap_host = self.smtp_host = "127.0.0.1"
        self.imap_port = free_port()
        self.imaps_port = free_port()
        self.lmtp_port = free_port()
        self.smtp_port = free_port()
        self._passwords = {u: u + "pw" for u in USERS}
        self.ca_file = root / "tls" / "cert.pem"  # self-signed for 127.0.0.1
        self._dovecot: subprocess.Popen | None = None
        self._relay: Controller | None = None
        self._relay_handler: LmtpRelay | None = None

    # -- users ---------------------------------------------------------------------------
    @property
    def users(self) -> tuple[str, ...]:
        return USERS

    def password(self, user: str) -> str:
        return self._passwords[user]

    def address(self, user: str) -> str:
        return f"{user}@{DOMAIN}"

    # -- life cycle ----------------------------------------------------------------------
    def start(self) -> None:
        self._prepare()
        self.start_dovecot()
        self._start_relay()

    def stop(self) -> None:
        self.stop_relay()
        self.stop_dovecot()

    def _run_as(self) -> tuple[int, int, str, str]:
        if os.geteuid() == 0:
            pw = pwd.getpwnam("nobody")
        else:
            pw = pwd.getpwuid(os.geteuid())
        return pw.pw_uid, pw.pw_gid, pw.pw_name, grp.getgrgid(pw.pw_gid).gr_name

    def client_tls_context(self) -> ssl.SSLContext:
        """A client context that trusts the servers' self-signed certificate."""
        return ssl.create_default_context(cafile=str(self.ca_file))

    def _make_certificate(self) -> None:
        tls = self.root / "tls"
        tls.mkdir(exist_ok=True)
        subprocess.run(
            [OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1",
             "-keyout", str(tls / "key.pem"), "-out", str(tls / "cert.pem")],
            check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, timeout=60)

    def _prepare(self) -> None:
        uid, gid, user, group = self._run_as()
        os.chmod(self.root, 0o755)  # Dovecot runs as `user` and must traverse it
        for sub in ("run", "state", "log", "mail"):
            (self.root / sub).mkdir(exist_ok=True)
        self._make_certificate()
        lines = [f"{u}:{{PLAIN}}{p}:{uid}:{gid}::{self.root}/mail/{u}"
                 for u, p in self._passwords.items()]
        (self.root / "users").write_text("\n".join(lines) + "\n")
        conf = string.Template(CONF_TEMPLATE.read_text()).substitute(
            root=self.root, run_user=user, run_group=group, uid=uid, gid=gid,
            imap_port=self.imap_port, imaps_port=self.imaps_port, lmtp_port=self.lmtp_port)
        (self.root / "dovecot.conf").write_text(conf)
        os.chmod(self.root / "users", 0o600)
        if os.geteuid() == 0:
            for sub in ("run", "state", "log", "mail", "users", "tls", "tls/key.pem"):
                os.chown(self.root / sub, uid, gid)

    def start_dovecot(self) -> None:
        uid, gid, _, _ = self._run_as()
        kwargs = {}
        if os.geteuid() == 0:
            kwargs = {"user": uid, "group": gid, "extra_groups": []}
        # -F keeps the master in the foreground, so its PID is ours to stop.  Its stdio goes
        # to a file: Dovecot keeps the starter's stdout open, and a pipe would never close.
        with open(self.root / "log" / "dovecot.stdio", "ab") as out:
            self._dovecot = subprocess.Popen(
                [DOVECOT, "-F", "-c", str(self.root / "dovecot.conf")],
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, **kwargs)
        try:
            wait_for_banner(self.imap_port)
            wait_for_banner(self.lmtp_port)
            wait_for_port(self.imaps_port)
        except RuntimeError as exc:
            log = self.root / "log" / "dovecot.log"
            tail = log.read_text()[-3000:] if log.exists() else "(no log)"
            stdio = (self.root / "log" / "dovecot.stdio").read_text()[-2000:]
            self.stop_dovecot()
            raise RuntimeError(f"Dovecot did not start: {exc}\n{tail}\n{stdio}") from None

    def stop_dovecot(self) -> None:
        proc, self._dovecot = self._dovecot, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def restart_dovecot(self) -> None:
        self.stop_dovecot()
        self.start_dovecot()

    def stop_relay(self) -> None:
        if self._relay is not None:
            self._relay.stop()
            self._relay = None

    def start_relay(self) -> None:
        if self._relay is None:
            self._start_relay()

    def defer(self, *addresses: str) -> None:
        """The SMTP relay answers 451 for these recipients until called again without them."""
        self._relay_handler.deferred = {a.lower() for a in addresses}

    def refuse(self, *, sender: str | None = None, rcpt: str | None = None,
               data: tuple[bytes, str] | None = None) -> None:
        """The SMTP relay answers MAIL FROM with ``sender``, every RCPT with ``rcpt``, and the
        DATA of a mail holding ``data[0]`` with ``data[1]``, until called again without them."""
        handler = self._relay_handler
        handler.sender_refusal, handler.rcpt_refusal, handler.data_refusal = sender, rcpt, data

    def _start_relay(self) -> None:
        passwords = self._passwords
        server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        server_tls.load_cert_chain(self.root / "tls" / "cert.pem", self.root / "tls" / "key.pem")

        def authenticator(server, session, envelope, mechanism, auth_data):
            if not isinstance(auth_data, LoginPassword):
                return AuthResult(success=False, handled=False)
            user = auth_data.login.decode().split("@")[0]
            ok = passwords.get(user) == auth_data.password.decode()
            # handled=False lets aiosmtpd answer 535 itself on failure.
            return AuthResult(success=ok, handled=False)

        class RelayController(Controller):
            def factory(self):
                return SMTP(self.handler, hostname=f"relay.{DOMAIN}", enable_SMTPUTF8=True,
                            data_size_limit=20 * 1024 * 1024, authenticator=authenticator,
                            auth_require_tls=False, auth_required=False,
                            tls_context=server_tls, require_starttls=False)

        self._relay_handler = LmtpRelay(self.lmtp_port, passwords)
        self._relay = RelayController(self._relay_handler, hostname="127.0.0.1", port=self.smtp_port)
        self._relay.start()

    # -- client helpers (plain smtplib / imaplib on purpose: independent of pbem) -----------
    def send(self, message, from_addr: str, to_addrs) -> dict:
        """Submit one message over SMTP; returns smtplib's dict of refused recipients."""
        if isinstance(to_addrs, str):
            to_addrs = [to_addrs]
        if isinstance(message, email.message.Message):
            message = message.as_bytes(policy=email.policy.SMTP)
        with smtplib.SMTP(self.smtp_host, self.smtp_port, timeout=30) as smtp:
            return smtp.sendmail(from_addr, list(to_addrs), message)

    def imap(self, user: str) -> imaplib.IMAP4:
        """A logged-in imaplib client for user (the caller logs out)."""
        client = imaplib.IMAP4(self.imap_host, self.imap_port, timeout=30)
        client.login(user, self.password(user))
        return client

    def mailboxes(self, user: str) -> list[str]:
        client = self.imap(user)
        try:
            typ, data = client.list()
            names = []
            for line in data:
                m = re.match(rb'\(.*?\) (?:"[^"]*"|NIL) (.*)$', line)
                names.append(m.group(1).decode().strip('"'))
            return names
        finally:
            client.logout()

    def messages(self, user: str, mailbox: str = "INBOX") -> list[bytes]:
        """Every message in mailbox, oldest first (the mailbox must exist)."""
        client = self.imap(user)
        try:
            typ, _ = client.select(f'"{mailbox}"', readonly=True)
            if typ != "OK":
                raise AssertionError(f"{user} has no mailbox {mailbox!r}")
            typ, data = client.uid("SEARCH", None, "ALL")
            uids = sorted(int(u) for u in data[0].split())
            found = []
            for uid in uids:
                typ, data = client.uid("FETCH", str(uid), "(BODY.PEEK[])")
                found.extend(part[1] for part in data if isinstance(part, tuple))
            return found
        finally:
            client.logout()

    def flags(self, user: str, mailbox: str = "INBOX") -> list[set[str]]:
        """The flags of every message in mailbox, oldest first."""
        client = self.imap(user)
        try:
            client.select(f'"{mailbox}"', readonly=True)
            typ, data = client.uid("FETCH", "1:*", "(FLAGS)")
            found = []
            for line in data:
                m = re.search(rb"UID (\d+).*FLAGS \(([^)]*)\)|FLAGS \(([^)]*)\).*UID (\d+)", line or b"")
                if m:
                    uid, names = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
                    found.append((int(uid), set(names.decode().split())))
            return [f for _, f in sorted(found)]
        finally:
            client.logout()

    def wait_for_messages(self, user: str, n: int, timeout: float = 10,
                          mailbox: str = "INBOX") -> list[bytes]:
        """Poll until mailbox holds at least n messages; fail the test otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                found = self.messages(user, mailbox)
            except AssertionError:
                found = []
            if len(found) >= n or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert len(found) >= n, f"{user}/{mailbox}: {len(found)} messages after {timeout}s, wanted {n}"
        return found

    def append(self, user: str, raw: bytes, mailbox: str = "INBOX") -> None:
        client = self.imap(user)
        try:
            client.create(f'"{mailbox}"')  # NO if it exists: fine
            typ, data = client.append(f'"{mailbox}"', None, None, raw)
            assert typ == "OK", data
        finally:
            client.logout()

    def clear(self, user: str) -> None:
        """Empty INBOX and delete every other mailbox of user."""
        client = self.imap(user)
        try:
            typ, data = client.select("INBOX")
            if int(data[0]):
                client.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                client.expunge()
            client.close()
        finally:
            client.logout()
        others = [m for m in self.mailboxes(user) if m.upper() != "INBOX"]
        if others:
            client = self.imap(user)
            try:
                for name in sorted(others, key=len, reverse=True):
                    client.delete(f'"{name}"')
            finally:
                client.logout()


def require_dovecot(binary: str = DOVECOT, openssl: str = OPENSSL) -> None:
    """Fail (never skip) the test that needs Dovecot when it is not installed."""
    if not os.path.exists(binary):
        pytest.fail(f"{binary} not found: the mail tests need Dovecot ({INSTALL_HINT})",
                    pytrace=False)
    if not os.path.exists(openssl):
        pytest.fail(f"{openssl} not found: the mail tests make a TLS certificate with it "
                    "(apt-get install openssl)", pytrace=False)


def announce(config: pytest.Config, line: str) -> None:
    """A line on the terminal while the tests run (the test's output is captured)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        reporter.write(f"\n{line}\n")  # the progress dots go on below it


@pytest.fixture(scope="session")
def mail_servers(pytestconfig):
    """Session-wide Dovecot (IMAP + LMTP) and SMTP relay on loopback."""
    require_dovecot()
    root = Path(tempfile.mkdtemp(prefix="pbem-mail-", dir="/tmp"))
    servers = MailServers(root)
    announce(pytestconfig, f"starting Dovecot (IMAP on 127.0.0.1:{servers.imap_port}) and an SMTP server "
             f"(127.0.0.1:{servers.smtp_port}) for the mail tests")
    try:
        servers.start()
        yield servers
    finally:
        servers.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def clean_mailboxes(mail_servers):
    """Every user's mailboxes empty at the start of the test, both servers running
    (a test may have stopped one) and no recipient deferred."""
    if mail_servers._dovecot is None or mail_servers._dovecot.poll() is not None:
        mail_servers.start_dovecot()
    mail_servers.start_relay()
    mail_servers.defer()
    mail_servers.refuse()
    for user in mail_servers.users:
        mail_servers.clear(user)
    yield mail_servers
