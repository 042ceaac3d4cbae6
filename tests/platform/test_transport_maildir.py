"""MaildirSource and MaildirDelivery on a temporary directory."""
import asyncio
import email.message
import os

import pytest

from pbem.mail.maildir_source import (
    MaildirDelivery, MaildirSource, deliver_to_maildir, read_maildir)
from pbem.mail.source import PermanentFailure


def make_message(subject: str, to: str = "alice@example.test") -> email.message.EmailMessage:
    msg = email.message.EmailMessage()
    msg["From"] = "moderator@example.test"
    msg["To"] = to
    msg["Subject"] = subject
    msg.set_content(f"body of {subject}\n")
    return msg


def test_source_creates_the_maildir(tmp_path):
    MaildirSource(tmp_path / "intake")
    assert sorted(os.listdir(tmp_path / "intake")) == ["cur", "new", "tmp"]


def test_fetch_returns_mail_oldest_first_and_respects_limit(tmp_path):
    box = tmp_path / "intake"
    names = [deliver_to_maildir(box, b"Subject: %d\n\nx\n" % i) for i in range(5)]
    # Delivery time orders the mail, not the name: make the first one the newest.
    os.utime(box / "new" / names[0], ns=(2**62, 2**62))

    async def run():
        source = MaildirSource(box)
        every = await source.fetch()
        first_two = await source.fetch(limit=2)
        await source.close()
        return every, first_two

    every, first_two = asyncio.run(run())
    assert [m.data for m in every] == [b"Subject: %d\n\nx\n" % i for i in (1, 2, 3, 4, 0)]
    assert [m.key for m in every] == ["maildir:" + n for n in names[1:] + names[:1]]
    assert first_two == every[:2]


def test_ack_moves_into_processed_and_rejected_folders(tmp_path):
    box = tmp_path / "intake"
    names = [deliver_to_maildir(box, b"Subject: %d\n\nx\n" % i) for i in range(3)]
    for second, name in enumerate(names, start=1):
        os.utime(box / "new" / name, (second, second))
    # A message a mail reader already moved to cur/ with a flag keeps its key and its flag.
    os.rename(box / "new" / names[0], box / "cur" / (names[0] + ":2,F"))

    async def run():
        source = MaildirSource(box)
        mails = await source.fetch()
        await source.ack(mails[0].key, "processed")
        await source.ack(mails[1].key, "rejected")
        await source.ack(mails[1].key, "rejected")  # a repeated ack is harmless
        with pytest.raises(ValueError):
            await source.ack(mails[2].key, "deleted")
        return mails, await source.fetch()

    mails, after = asyncio.run(run())
    assert after == [mails[2]]
    assert read_maildir(box / ".Processed") == [mails[0].data]
    assert read_maildir(box / ".Rejected") == [mails[1].data]
    assert [m.key for m in mails] == ["maildir:" + n for n in names]
    assert os.listdir(box / ".Processed" / "cur") == [names[0] + ":2,FS"]
    assert os.listdir(box / ".Rejected" / "cur") == [names[1] + ":2,S"]
    assert (box / ".Processed" / "maildirfolder").exists()


def test_wait_returns_on_new_mail_and_times_out_otherwise(tmp_path):
    box = tmp_path / "intake"

    async def run():
        source = MaildirSource(box, poll_interval=0.05)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await source.wait(0.3)
        idle = loop.time() - t0
        t0 = loop.time()
        loop.call_later(0.2, deliver_to_maildir, box, b"Subject: late\n\nx\n")
        await source.wait(10)
        woke = loop.time() - t0
        await source.fetch()
        t0 = loop.time()
        await source.wait(0.3)  # nothing new since the fetch
        return idle, woke, loop.time() - t0

    idle, woke, again = asyncio.run(run())
    assert 0.29 <= idle < 2
    assert 0.15 <= woke < 2
    assert again >= 0.29


def test_delivery_writes_one_maildir_per_recipient(tmp_path):
    delivery = MaildirDelivery(tmp_path / "mail")
    msg = make_message("Turn 3", to="alice@example.test, Bob@Example.test")
    asyncio.run(delivery.send(bytes(msg), ["alice@example.test", "Bob@Example.test"]))
    for who in ("alice@example.test", "bob@example.test"):
        found = read_maildir(tmp_path / "mail" / who)
        assert len(found) == 1
        assert b"Subject: Turn 3\n" in found[0] and b"\r\n" not in found[0]
        assert os.listdir(tmp_path / "mail" / who / "tmp") == []


def test_delivery_refuses_addresses_that_are_not_safe_folder_names(tmp_path):
    delivery = MaildirDelivery(tmp_path / "mail")
    for bad in ("../etc@x", "no-at-sign", "a/b@example.test", ".hidden@x"):
        with pytest.raises(PermanentFailure):
            asyncio.run(delivery.send(bytes(make_message("x")), [bad]))
    assert not (tmp_path / "mail").exists()


def test_sources_and_senders_meet_the_shared_protocols(tmp_path):
    from pbem.mail.imap_source import ImapSource
    from pbem.mail.sender import SmtpSender
    from pbem.mail.smtp_listener import SmtpListener  # noqa: F401  (imports cleanly)
    from pbem.mail.source import MailSender, MailSource

    assert isinstance(MaildirSource(tmp_path / "in"), MailSource)
    assert isinstance(ImapSource("127.0.0.1", 143, "u", "p"), MailSource)
    assert isinstance(MaildirDelivery(tmp_path / "out"), MailSender)
    assert isinstance(SmtpSender("127.0.0.1", 25), MailSender)
    assert not isinstance(object(), MailSource)


def test_missing_dovecot_fails_loudly_with_the_packages_to_install():
    from fixtures_mail import require_dovecot

    with pytest.raises(pytest.fail.Exception, match="apt-get install dovecot-imapd dovecot-lmtpd"):
        require_dovecot("/nonexistent/sbin/dovecot")
