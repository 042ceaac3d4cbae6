"""ImapSource when things go wrong: server restarts, UIDVALIDITY changes, dead or mute servers."""
import asyncio
import email

import pytest

from fixtures_mail import free_port
from pbem.mail.imap_protocol import parse_key
from pbem.mail.imap_source import ImapSource
from pbem.mail.source import PermanentFailure, TemporaryFailure

pytestmark = pytest.mark.mail


def source_for(servers, **kw) -> ImapSource:
    kw.setdefault("timeout", 5)
    kw.setdefault("backoff", (0.2, 2.0))
    return ImapSource(servers.imap_host, servers.imap_port, "moderator",
                      servers.password("moderator"), **kw)


def raw(subject: str) -> bytes:
    return f"From: bob@example.test\r\nSubject: {subject}\r\n\r\norders\r\n".encode()


def deliver(servers, subject: str) -> None:
    servers.send(raw(subject), servers.address("bob"), [servers.address("moderator")])


async def fetch_patiently(source: ImapSource, want: int, timeout: float = 20.0) -> list:
    """What a daemon loop does: fetch, and on a temporary failure wait and try again."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    failures = 0
    while True:
        try:
            mails = await source.fetch()
            if len(mails) >= want:
                return mails, failures
        except TemporaryFailure:
            failures += 1
        assert loop.time() < deadline, f"no {want} message(s) within {timeout}s"
        await source.wait(1)


def subjects(mails) -> list[str]:
    return [email.message_from_bytes(getattr(m, "data", m))["Subject"] for m in mails]


def test_source_keeps_working_across_a_dovecot_restart(clean_mailboxes):
    servers = clean_mailboxes

    async def run():
        source = source_for(servers)
        try:
            deliver(servers, "before")
            [before] = await source.fetch()
            await asyncio.to_thread(servers.restart_dovecot)
            await asyncio.to_thread(deliver, servers, "after")
            # The first call after the restart may see the dropped line; one more goes through.
            try:
                await source.ack(before.key, "rejected")
            except TemporaryFailure:
                await source.wait(1)
                await source.ack(before.key, "rejected")
            mails, failures = await fetch_patiently(source, 1)
            for mail in mails:
                await source.ack(mail.key, "processed")
            return before, mails, failures
        finally:
            await source.close()

    before, mails, failures = asyncio.run(run())
    assert subjects(mails) == ["after"]
    assert failures <= 2
    # The key from before the restart still named the same message (same UIDVALIDITY).
    assert subjects(servers.messages("moderator", "Rejected")) == ["before"]
    assert subjects(servers.messages("moderator", "Processed")) == ["after"]


def test_a_restart_during_idle_ends_the_wait_and_the_source_recovers(clean_mailboxes):
    servers = clean_mailboxes

    async def run():
        source = source_for(servers)
        loop = asyncio.get_running_loop()
        try:
            assert await source.fetch() == []
            waiter = asyncio.ensure_future(source.wait(60))
            deadline = loop.time() + 10
            while not (source._client is not None and source._client.has_pending_idle()):
                assert loop.time() < deadline, "never entered IDLE"
                await asyncio.sleep(0.01)
            t0 = loop.time()
            await asyncio.to_thread(servers.restart_dovecot)
            await asyncio.wait_for(waiter, 25)
            ended = loop.time() - t0
            await asyncio.to_thread(deliver, servers, "post restart")
            mails, _ = await fetch_patiently(source, 1)
            return ended, mails
        finally:
            await source.close()

    ended, mails = asyncio.run(run())
    # Dovecot ends an IDLE session some seconds after its master stops (about 10 s here).
    assert ended < 20
    assert subjects(mails) == ["post restart"]


def test_a_new_uidvalidity_voids_old_keys(clean_mailboxes):
    servers = clean_mailboxes
    servers.append("moderator", raw("first life"), mailbox="Orders")

    async def run():
        source = source_for(servers, mailbox="Orders")
        try:
            [old] = await source.fetch()
            # Someone recreates the mailbox: same mail, but every UID is void now.
            await asyncio.to_thread(recreate_orders)
            mails, _ = await fetch_patiently(source, 1)
            await source.ack(old.key, "processed")  # a stale key must not move anything
            after_stale_ack = await source.fetch()
            return old, mails, after_stale_ack
        finally:
            await source.close()

    def recreate_orders():
        client = servers.imap("moderator")
        try:
            assert client.delete("Orders")[0] == "OK"
        finally:
            client.logout()
        servers.append("moderator", raw("first life"), mailbox="Orders")

    old, [new], after_stale_ack = asyncio.run(run())
    assert new.data.endswith(b"orders\r\n") and old.data == new.data
    assert parse_key(old.key)[0] == parse_key(new.key)[0] == "Orders"
    assert parse_key(old.key)[1] != parse_key(new.key)[1]
    assert old.key != new.key
    assert after_stale_ack == [new]
    assert servers.messages("moderator", "Processed") == []


def test_refused_connection_is_temporary_and_backs_off(mail_servers):
    async def run():
        source = ImapSource("127.0.0.1", free_port(), "moderator", "x", timeout=5,
                            backoff=(0.3, 5.0))
        loop = asyncio.get_running_loop()
        try:
            with pytest.raises(TemporaryFailure):
                await source.fetch()
            with pytest.raises(TemporaryFailure, match="next attempt"):
                await source.fetch()  # backing off: no new connection attempt yet
            t0 = loop.time()
            await source.wait(30)  # sleeps out the back-off, not the whole timeout
            slept = loop.time() - t0
            with pytest.raises(TemporaryFailure):
                await source.fetch()
            return slept, source._failures
        finally:
            await source.close()

    slept, failures = asyncio.run(run())
    assert 0.1 < slept < 2
    assert failures == 2


def test_wrong_password_is_a_permanent_failure(mail_servers):
    async def run():
        source = ImapSource(mail_servers.imap_host, mail_servers.imap_port, "moderator",
                            "not the password", timeout=5)
        try:
            await source.fetch()
        finally:
            await source.close()

    with pytest.raises(PermanentFailure, match="refused"):
        asyncio.run(run())


def test_a_server_that_never_answers_times_out():
    async def run():
        held = []

        async def mute(reader, writer):
            held.append(writer)  # accept, never greet

        server = await asyncio.start_server(mute, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        source = ImapSource("127.0.0.1", port, "moderator", "x", timeout=0.5)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        try:
            with pytest.raises(TemporaryFailure, match="no answer"):
                await source.fetch()
            return loop.time() - t0
        finally:
            await source.close()
            for writer in held:
                writer.close()
            server.close()
            await server.wait_closed()

    assert asyncio.run(run()) < 3
