"""The built-in SMTP listener's port taken by another program: the daemon says so in one
line naming the settings and goes on with mail dropped in by ``pbem send``, unless the
listener is set to be the only way mail arrives; ``pbem init`` picks a free port."""
from __future__ import annotations

import errno
import re
import socket
import time

from helpers_loop import secret_in
from helpers_site import Site, hold_port

from pbem.mail.reader import read, text_body
from pbem.mail.smtp_listener import free_port, port_is_free


def _site(tmp_path) -> tuple[Site, socket.socket, str]:
    """A site made by `pbem init`, its listener's port then held by another program."""
    site = Site(tmp_path)
    out = site.pbem("init")
    gm_secret = re.search(r"GM secret .*: (\S+)", out).group(1)
    holder = hold_port()
    site.setting("listener", "port", str(holder.getsockname()[1]))
    return site, holder, gm_secret


def _texts(site: Site, address: str) -> list[str]:
    return [text_body(msg)[0] for msg in read(site.mailbox(address))]


def test_a_daemon_whose_listener_port_is_taken_answers_mail_dropped_by_pbem_send(tmp_path):
    site, holder, gm_secret = _site(tmp_path)
    port = holder.getsockname()[1]
    with holder:
        site.send("gm@example.test", f"SIGNON GM@g1 {gm_secret}\nGM CREATE g1 RULES beacon\n"
                  "GM ADD PLAYER North north@example.test\nGM ADD PLAYER South south@example.test\nGM START\n")
        serve = site.run("serve", "--once")
        assert serve.returncode == 0, serve.stderr
        lines = serve.stderr.splitlines()
        said = [line for line in lines if " ERROR " in line]
        assert len(said) == 1, lines  # the one error line
        line = said[0]
        assert f"cannot listen on 127.0.0.1:{port}: address already in use" in line
        assert "listener.port" in line and "listener.enabled" in line and "pbem send" in line
        assert str(site.config.name) in line

        north = secret_in("\n".join(_texts(site, "north@example.test")))
        site.send("north@example.test", f"SIGNON North@g1 {north}\nORDERS\nBID 3\n")
        site.send("south@example.test", "SIGNON South@g1 not-the-secret\nORDERS\nBID 1\n")
        serve = site.run("serve", "--once")
        assert serve.returncode == 0 and serve.stderr.count("SMTP listener: cannot listen") == 1, serve.stderr
    replies = _texts(site, "north@example.test")
    assert "Orders stored for Round 1 Orders" in replies[-1] and "  BID 3" in replies[-1], replies[-1]
    assert "[wrong-secret]" in _texts(site, "south@example.test")[-1], _texts(site, "south@example.test")[-1]


def test_the_running_daemon_goes_on_answering_while_the_port_stays_taken(tmp_path):
    """`pbem serve` (not --once) keeps running without its listener and answers mail
    dropped in after it started."""
    site, holder, _ = _site(tmp_path)
    with holder:
        daemon = site.start("serve")
        try:
            deadline = time.monotonic() + 60
            site.send("someone@example.test", "HELP\n", subject="help")
            # the reply's file, not only its folder: a delivery makes the folder before it moves the file in
            while time.monotonic() < deadline and not _texts(site, "someone@example.test"):
                assert daemon.poll() is None, daemon.stderr.read()
                time.sleep(0.2)
            assert any("SIGNON" in text for text in _texts(site, "someone@example.test"))
            assert daemon.poll() is None
        finally:
            daemon.terminate()
            _, err = daemon.communicate(timeout=60)
    assert daemon.returncode == 0, err
    assert err.count("SMTP listener: cannot listen") == 1, err


def test_a_daemon_whose_listener_is_required_refuses_to_start_with_that_line(tmp_path):
    site, holder, _ = _site(tmp_path)
    site.setting("listener", "required", "true")
    with holder:
        site.send("someone@example.test", "HELP\n", subject="help")
        serve = site.run("serve", "--once")
    assert serve.returncode == 1
    lines = serve.stderr.splitlines()
    assert serve.stdout == "" and "Traceback" not in serve.stderr, serve.stderr
    # one line says it (a warning about the site's folders may come before it, none after)
    assert [line for line in lines if "SMTP listener" in line] == lines[-1:], lines
    assert lines[-1].startswith("pbem: error: SMTP listener: cannot listen on 127.0.0.1:")
    assert "listener.required = true" in serve.stderr and "listener.port" in serve.stderr
    assert not site.mailbox("someone@example.test").exists()  # nothing was handled
    assert len(list((tmp_path / "var" / "mail" / "inbox" / "new").iterdir())) == 1  # the mail waits


def test_init_picks_a_free_port_when_2525_is_taken(tmp_path):
    try:
        holder = hold_port(port=2525)
    except OSError as exc:  # another program holds it already: taken all the same
        assert exc.errno == errno.EADDRINUSE
        holder = None
    try:
        out = Site(tmp_path).pbem("init")
        port = int(re.search(r"^port = (\d+)", (tmp_path / "pbem.toml").read_text(), re.M).group(1))
        assert port != 2525
        assert f"SMTP listener: 127.0.0.1:{port} (listener.port in " in out
        assert "port 2525 is taken by another program" in out
    finally:
        if holder is not None:
            holder.close()


def test_free_port_is_the_wanted_one_when_free_else_one_after_it():
    with hold_port() as held:
        taken = held.getsockname()[1]
        assert not port_is_free("127.0.0.1", taken)
        other = free_port("127.0.0.1", taken)
        assert other != taken and port_is_free("127.0.0.1", other)
    with hold_port() as probe:
        free = probe.getsockname()[1]
    assert free_port("127.0.0.1", free) == free
