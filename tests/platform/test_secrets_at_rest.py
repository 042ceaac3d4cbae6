"""Secrets at rest and file permissions, with the real daemon on the embedded
default made by ``pbem init``: no secret rests in the database, in the folder
of handled mail or in sent mail, none is put in a reply; what pbem keeps is
readable by its own user only, and the archive by everyone."""
from __future__ import annotations

import email
import re
import stat
from pathlib import Path

import pytest
from hypothesis import example, given, strategies as hs

from pbem.base.config import ConfigError, load_config, password
from pbem.base.clock import FakeClock
from pbem.base.context import Context
from pbem.storage import outbox_rows
from pbem.storage.db import open_db
from helpers_site import Site


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def files(site: Site, *parts: str) -> list[Path]:
    return [p for p in (site.folder.joinpath(*parts)).rglob("*") if p.is_file()]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = Site(tmp_path_factory.mktemp("site"))
    out = site.pbem("init")
    site.gm_secret = re.search(r"GM secret .*: (\S+)", out).group(1)
    text = (site.folder / "pbem.toml").read_text().replace("enabled = true ", "enabled = false", 1)
    (site.folder / "pbem.toml").write_text(text)
    site.send("gm@example.test", f"SIGNON GM@g1 {site.gm_secret}\nGM CREATE g1 RULES beacon\n"
              "GM ADD PLAYER North north@example.test\nGM ADD PLAYER South south@example.test\nGM START\n")
    site.pbem("serve", "--once")
    welcome = (site.folder / "var/mail/out/north@example.test")
    text = "\n".join(p.read_text() for p in welcome.rglob("*") if p.is_file())
    site.north = re.search(r"Your secret is:\s+(\S+)", text).group(1)
    site.send("north@example.test", f"SIGNON North@g1 {site.north}\nORDERS\nBID 2\nSET PASSWORD fresh-secret-77\n",
              subject=f"SIGNON North@g1 {site.north}")
    site.pbem("serve", "--once")
    site.secrets = [site.gm_secret, site.north, "fresh-secret-77"]
    return site


def _holds(data: bytes, secrets: list[str]) -> list[str]:
    return [s for s in secrets if s.encode() in data or s.replace("-", "").encode() in data]


def test_no_secret_rests_in_the_database(site):
    db = open_db(site.folder / "var" / "pbem.sqlite")
    for row in db["messages"].rows:
        assert not _holds(row["raw"], site.secrets), row["subject"]
        assert not _holds((row["subject"] or "").encode(), site.secrets)
    for row in db["outbox"].rows:
        assert row["status"] == "sent"
        mail = outbox_rows.mail_bytes(Context(db=db, clock=FakeClock()), row)  # a report is kept packed
        assert not _holds(mail, site.secrets), row["subject"]  # welcome mail too, once sent


def test_no_secret_rests_in_the_folder_of_handled_mail(site):
    handled = files(site, "var", "mail", "inbox", ".Processed") + files(site, "var", "mail", "inbox", ".Rejected")
    handled = [p for p in handled if p.name != "maildirfolder"]
    assert len(handled) == 2
    for path in handled:
        assert not _holds(path.read_bytes(), site.secrets), path


def test_no_reply_shows_a_secret_but_the_welcome_mail(site):
    for path in files(site, "var", "mail", "out"):
        msg = email.message_from_bytes(path.read_bytes())
        if "you play" in msg["Subject"]:
            continue
        assert not _holds(path.read_bytes(), site.secrets), msg["Subject"]
        assert not _holds(str(msg["Subject"]).encode(), site.secrets)


def test_what_pbem_keeps_is_its_own_user_s_only(site):
    assert mode(site.folder / "pbem.toml") == 0o600
    assert mode(site.folder / "var") == 0o700
    for name in ("pbem.sqlite", "pbem.sqlite-wal"):
        if (site.folder / "var" / name).exists():
            assert mode(site.folder / "var" / name) == 0o600, name
    for sub in ("inbox", "out"):
        for path in (site.folder / "var" / "mail" / sub).rglob("*"):
            assert mode(path) == (0o700 if path.is_dir() else 0o600), path


def test_archive_pages_are_readable_by_a_web_server_whatever_the_umask(tmp_path):
    site = Site(tmp_path, umask=0o077)
    site.pbem("init")
    site.pbem("game", "new", "g1", "--rules", "beacon")
    site.pbem("archive", "build")
    archive = tmp_path / "archive"  # beside the private var/, which a web server may not enter
    pages = [p for p in archive.rglob("*") if p.is_file()]
    assert len(pages) >= 3
    assert all(mode(p) == 0o644 for p in pages), [(p, oct(mode(p))) for p in pages]
    assert all(mode(p) == 0o755 for p in [archive, *archive.rglob("*")] if p.is_dir())


def test_mail_passwords_come_from_a_file_or_the_environment(tmp_path, monkeypatch):
    (tmp_path / "smtp-password").write_text("from-the-file\n")
    (tmp_path / "pbem.toml").write_text('[smtp]\npassword_file = "smtp-password"\n')
    cfg = load_config(tmp_path / "pbem.toml")
    assert password(cfg, "smtp") == "from-the-file"
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "from-the-environment")
    assert password(cfg, "imap") == "from-the-environment"
    (tmp_path / "pbem.toml").write_text('[smtp]\npassword_file = "missing"\n')
    with pytest.raises(ConfigError, match="smtp.password_file: cannot read"):
        password(load_config(tmp_path / "pbem.toml"), "smtp")


@pytest.mark.mail
@pytest.mark.parametrize("processed", ["Processed", ""])
def test_the_imap_folder_of_handled_mail_keeps_the_masked_copy(clean_mailboxes, tmp_path, processed):
    import asyncio

    from helpers_loop import Loop
    from pbem.host.daemon import Daemon
    from pbem.mail.imap_source import ImapSource

    servers = clean_mailboxes
    loop = Loop(tmp_path)
    loop.ctx.address = servers.address("moderator")
    loop.start_beacon()
    secret = loop.secrets["North"]
    servers.append("moderator", (f"From: north@example.test\r\nTo: {servers.address('moderator')}\r\n"
                                 f"Subject: SIGNON North@g1 {secret}\r\nMessage-ID: <imap-rest@players.test>\r\n\r\n"
                                 f"SIGNON North@g1 {secret}\r\nORDERS\r\nBID 2\r\n").encode())

    async def run():
        source = ImapSource(servers.imap_host, servers.imap_port, "moderator", servers.password("moderator"),
                            idle=False, timeout=10, processed=processed, rejected=processed)
        daemon = Daemon(loop.ctx, source, loop.sender)
        first = await daemon.run_pass()
        second = await daemon.run_pass()
        await source.close()
        return first, second

    first, second = asyncio.run(run())
    assert first.handled == 1 and second.fetched == 0, "the masked copy is not read as new mail"
    kept = servers.messages("moderator", processed or "INBOX")
    assert len(kept) == 1 and secret.encode() not in kept[0] and b"BID 2" in kept[0]
    if processed:
        assert servers.messages("moderator") == []


def test_a_secret_typed_in_two_words_rests_in_neither():
    from pbem.outbound.secrets_at_rest import find_secrets, mask_raw
    raw = b"From: fr@example.org\nSubject: orders\n\nsignon france@pax1 UKESS YDKBB\nSTATUS\n"
    found = find_secrets(raw.decode())
    assert {"UKESS", "YDKBB"} <= found and "STATUS" not in found
    masked = mask_raw(raw, found)
    assert b"UKESS" not in masked and b"YDKBB" not in masked and b"STATUS" in masked
    assert find_secrets("SIGNON North@g1 k7mqd-x3hrn") == {"k7mqd-x3hrn"}
    assert find_secrets("SET PASSWORD my own pass phrase") == {"my", "own", "pass", "phrase"}


_LETTERS = "aAkKsSiI\u212a\u0130\u03a3\u03c3\u03c2\u00df-' .\n£"


@given(hs.text(alphabet=_LETTERS, max_size=40), hs.lists(hs.text(alphabet=_LETTERS, min_size=1, max_size=6),
                                                          min_size=1, max_size=3))
@example(text="A\u03a3'A", secrets=["A\u03a3"])  # a sigma that ends the secret, not the text's word
@example(text="\u212aey \u00a3", secrets=["key"])  # the Kelvin sign lowers to k
def test_secrets_are_masked_the_same_whether_or_not_the_quick_check_says_they_are_absent(text, secrets):
    """A few ASCII secrets are first looked for in the whole text lowered (the Kelvin sign
    lowers to k, a capital sigma to one of two letters, a dotted capital I to two): masking
    and searching give what looking up each word gives."""
    from pbem.outbound.secrets_at_rest import _Secrets

    found = _Secrets(secrets)
    if not found:
        return
    slow = _Secrets(secrets)
    slow._absent = lambda _text: False
    assert found.sub(text) == slow.sub(text)
    assert found.search(text) == slow.search(text)
