"""ImapSource against the real Dovecot: fetch, ack, UID bookkeeping, batches, IDLE."""
import asyncio
import email
import ssl

import pytest

from pbem.mail.imap_protocol import multiappend, parse_fetch, parse_key, parse_search
from pbem.mail.imap_source import ImapSource
from pbem.mail.source import RawMail, TemporaryFailure

pytestmark = pytest.mark.mail


def source_for(servers, **kw) -> ImapSource:
    kw.setdefault("timeout", 10)
    return ImapSource(servers.imap_host, servers.imap_port, "moderator",
                      servers.password("moderator"), **kw)


def fetch_once(servers) -> list:
    """What one fetch of a new connection returns (a daemon's first pass)."""
    async def run():
        source = source_for(servers)
        try:
            return await source.fetch()
        finally:
            await source.close()

    return asyncio.run(run())


def deliver(servers, *subjects: str) -> None:
    for subject in subjects:
        servers.send(f"From: alice@example.test\r\nSubject: {subject}\r\n\r\norders\r\n".encode(),
                     servers.address("alice"), [servers.address("moderator")])


def subjects(raw_messages) -> list[str]:
    return [email.message_from_bytes(m.data if isinstance(m, RawMail) else m)["Subject"]
            for m in raw_messages]


def test_fetch_then_ack_moves_mail_into_processed_and_rejected(clean_mailboxes):
    servers = clean_mailboxes
    deliver(servers, "one", "two", "three")

    async def run():
        source = source_for(servers)
        try:
            mails = await source.fetch()
            await source.ack(mails[0].key, "processed")
            await source.ack(mails[1].key, "rejected")
            return mails, await source.fetch()
        finally:
            await source.close()

    mails, again = asyncio.run(run())
    assert subjects(mails) == ["one", "two", "three"]
    validity = {parse_key(m.key)[1] for m in mails}
    assert len(validity) == 1
    assert [parse_key(m.key) for m in mails] == [
        ("INBOX", *validity, uid) for uid in sorted(parse_key(m.key)[2] for m in mails)]
    assert again == [mails[2]]
    assert subjects(servers.messages("moderator", "Processed")) == ["one"]
    assert subjects(servers.messages("moderator", "Rejected")) == ["two"]
    assert subjects(servers.messages("moderator")) == ["three"]


def test_unacknowledged_mail_comes_back_with_the_same_key(clean_mailboxes):
    servers = clean_mailboxes
    deliver(servers, "kept")

    async def run(ack: bool):
        source = source_for(servers)
        try:
            mails = await source.fetch()
            if ack:
                await source.ack(mails[0].key, "processed")
                await source.ack(mails[0].key, "processed")  # repeated ack: harmless
            return mails
        finally:
            await source.close()

    first = asyncio.run(run(ack=False))
    second = asyncio.run(run(ack=True))  # a restarted daemon sees the same key
    assert first == second and len(first) == 1
    assert asyncio.run(run(ack=False)) == []
    assert subjects(servers.messages("moderator", "Processed")) == ["kept"]


def test_a_fresh_source_can_ack_a_key_it_never_fetched(clean_mailboxes):
    # After a crash the daemon may ack, on a new connection, mail it stored before.
    servers = clean_mailboxes
    deliver(servers, "stored before the crash", "still to do")

    async def run():
        first, second = source_for(servers), source_for(servers)
        try:
            mails = await first.fetch()
            await second.ack(mails[0].key, "processed")
            await second.wait(0.1)
            return mails, await second.fetch()
        finally:
            await first.close()
            await second.close()

    mails, left = asyncio.run(run())
    assert left == mails[1:]
    assert subjects(servers.messages("moderator", "Processed")) == ["stored before the crash"]


def test_many_messages_arrive_in_batches_oldest_first(clean_mailboxes):
    servers = clean_mailboxes
    names = [f"order {i:03d}" for i in range(120)]
    deliver(servers, *names)

    async def run():
        source = source_for(servers, batch_size=50)
        try:
            first = await source.fetch(limit=100)
            for mail in first:
                await source.ack(mail.key, "processed")
            rest = await source.fetch(limit=100)
            for mail in rest:
                await source.ack(mail.key, "processed")
            return first, rest, await source.fetch()
        finally:
            await source.close()

    first, rest, empty = asyncio.run(run())
    assert subjects(first) == names[:100]
    assert subjects(rest) == names[100:]
    assert empty == []
    assert len(servers.messages("moderator", "Processed")) == 120


def test_without_move_the_source_copies_flags_and_expunges(clean_mailboxes):
    servers = clean_mailboxes
    deliver(servers, "old server")

    class NoMoveSource(ImapSource):
        async def _ensure_connected(self):
            await super()._ensure_connected()
            self._capabilities.discard("MOVE")

    async def run():
        source = NoMoveSource(servers.imap_host, servers.imap_port, "moderator",
                              servers.password("moderator"), timeout=10)
        try:
            [mail] = await source.fetch()
            await source.ack(mail.key, "processed")
            return await source.fetch()
        finally:
            await source.close()

    assert asyncio.run(run()) == []
    assert servers.messages("moderator") == []
    assert subjects(servers.messages("moderator", "Processed")) == ["old server"]


def test_empty_folders_keep_mail_in_the_mailbox_flagged_seen(clean_mailboxes):
    servers = clean_mailboxes
    deliver(servers, "handled", "refused", "still to do")

    async def run():
        source = source_for(servers, processed="", rejected="")
        try:
            mails = await source.fetch()
            await source.ack(mails[0].key, "processed")
            await source.ack(mails[1].key, "rejected")
            await source.ack(mails[1].key, "rejected")  # repeated ack: harmless
            return mails, await source.fetch()
        finally:
            await source.close()

    async def restarted():
        source = source_for(servers, processed="", rejected="")
        try:
            await source.wait(0.1)
            return await source.fetch()
        finally:
            await source.close()

    mails, again = asyncio.run(run())
    assert subjects(mails) == ["handled", "refused", "still to do"]
    assert again == [mails[2]]
    assert asyncio.run(restarted()) == [mails[2]]  # a new connection skips flagged mail too
    # Nothing moved, nothing deleted, no folder made.
    assert subjects(servers.messages("moderator")) == ["handled", "refused", "still to do"]
    assert servers.flags("moderator") == [{"\\Seen"}, {"\\Seen"}, set()]
    assert servers.mailboxes("moderator") == ["INBOX"]


def test_with_folders_mail_read_elsewhere_is_still_fetched(clean_mailboxes):
    # Only when handled mail stays in the mailbox does \Seen mean "handled".
    servers = clean_mailboxes
    deliver(servers, "read in a mail client")
    client = servers.imap("moderator")
    try:
        client.select("INBOX")
        client.store("1", "+FLAGS", r"(\Seen)")
    finally:
        client.logout()

    assert subjects(fetch_once(servers)) == ["read in a mail client"]


async def wait_until(predicate, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("idle", [True, False], ids=["idle", "poll"])
def test_wait_wakes_up_soon_after_delivery(clean_mailboxes, idle):
    servers = clean_mailboxes

    async def run():
        source = source_for(servers, idle=idle, poll_interval=0.2)
        loop = asyncio.get_running_loop()
        try:
            assert await source.fetch() == []
            t0 = loop.time()
            await source.wait(0.5)  # nothing arrives: the timeout ends the wait
            quiet = loop.time() - t0
            waiter = asyncio.ensure_future(source.wait(30))
            if idle:
                await wait_until(lambda: source._client is not None
                                 and source._client.has_pending_idle())
            t0 = loop.time()
            await asyncio.to_thread(deliver, servers, "wake up")
            await asyncio.wait_for(waiter, 10)
            woke = loop.time() - t0
            mails = await source.fetch()
            await source.ack(mails[0].key, "processed")
            t0 = loop.time()
            await source.wait(0.5)  # the next cycle: nothing new, no stale wake-up
            return quiet, woke, mails, loop.time() - t0
        finally:
            await source.close()

    quiet, woke, mails, quiet_again = asyncio.run(run())
    assert 0.45 <= quiet < 5
    assert woke < 5
    assert subjects(mails) == ["wake up"]
    assert 0.45 <= quiet_again < 5


def test_wait_returns_at_once_when_mail_arrived_since_the_fetch(clean_mailboxes):
    servers = clean_mailboxes

    async def run():
        source = source_for(servers)
        loop = asyncio.get_running_loop()
        try:
            assert await source.fetch() == []
            await asyncio.to_thread(deliver, servers, "meanwhile")
            t0 = loop.time()
            await source.wait(30)
            return loop.time() - t0
        finally:
            await source.close()

    assert asyncio.run(run()) < 2


def test_a_fetch_interrupts_a_running_wait(clean_mailboxes):
    servers = clean_mailboxes

    async def run():
        source = source_for(servers)
        try:
            await source.fetch()
            waiter = asyncio.ensure_future(source.wait(60))
            await wait_until(lambda: source._client is not None
                             and source._client.has_pending_idle())
            mails = await asyncio.wait_for(source.fetch(), 10)
            await asyncio.wait_for(waiter, 10)
            return mails
        finally:
            await source.close()

    assert asyncio.run(run()) == []


def test_implicit_tls_with_a_trusted_certificate(clean_mailboxes):
    servers = clean_mailboxes
    deliver(servers, "secret orders")

    async def run(context):
        source = ImapSource(servers.imap_host, servers.imaps_port, "moderator",
                            servers.password("moderator"), ssl_context=context, timeout=10)
        try:
            mails = await source.fetch()
            for mail in mails:
                await source.ack(mail.key, "processed")
            return mails
        finally:
            await source.close()

    with pytest.raises(TemporaryFailure, match="CERTIFICATE_VERIFY_FAILED"):
        asyncio.run(run(ssl.create_default_context()))  # a certificate nobody vouches for
    assert subjects(asyncio.run(run(servers.client_tls_context()))) == ["secret orders"]
    assert subjects(servers.messages("moderator", "Processed")) == ["secret orders"]


def test_parsers_handle_item_order_and_unsolicited_lines():
    lines = [b"1 FETCH (BODY[] {5}", bytearray(b"hello"), b" UID 7)",
             b"2 FETCH (UID 9 BODY[] {3}", bytearray(b"bye"), b")",
             b"3 FETCH (FLAGS (\\Seen))", b"Fetch completed."]
    assert parse_fetch(lines) == {7: b"hello", 9: b"bye"}
    assert parse_search([b"4 EXISTS", b"3 5 8", b"Search completed (0.001 secs)."]) == [3, 5, 8]
    assert parse_search([b"", b"Search completed."]) == []
    assert parse_key("imap:Games:Pax:12:34") == ("Games:Pax", 12, 34)
    with pytest.raises(ValueError):
        parse_key("maildir:123.abc")


def test_a_move_stopped_between_flagging_and_expunging_is_finished_by_the_next_run(clean_mailboxes):
    """A daemon killed after flagging a handled copy \\Deleted but before expunging it left
    the copy in the intake for good (the search for new mail skips it); the next
    connection expunges it, and only it."""
    servers = clean_mailboxes
    deliver(servers, "handled", "new")

    async def stopped_half_way():
        source = source_for(servers)
        try:
            handled, _ = await source.fetch()
            uid = parse_key(handled.key)[2]
            await source._client.uid("store", str(uid), "+FLAGS.SILENT", r"(\Deleted \Seen)")
        finally:
            await source.close()

    asyncio.run(stopped_half_way())
    assert subjects(servers.messages("moderator")) == ["handled", "new"]  # flagged, still there
    assert subjects(fetch_once(servers)) == ["new"]
    assert subjects(servers.messages("moderator")) == ["new"]


@pytest.mark.parametrize("folders", [True, False], ids=["folders", "flagged in the mailbox"])
def test_many_mails_moved_in_one_go_end_as_each_moved_alone(clean_mailboxes, folders):
    """ack_many files masked copies, moves or flags the rest and deletes the originals with
    one flag and one expunge: each mail ends where its own ack would have put it."""
    servers = clean_mailboxes
    deliver(servers, "kept", "refused", "secret kept", "secret refused", "to do")
    kw = {} if folders else {"processed": "", "rejected": ""}

    async def run():
        source = source_for(servers, **kw)
        try:
            kept, refused, secret_kept, secret_refused, _ = await source.fetch()
            masked = lambda m: m.data.replace(b"Subject: secret", b"Subject: masked")  # noqa: E731
            await source.ack_many([(kept.key, "processed", None), (refused.key, "rejected", None),
                                   (secret_kept.key, "processed", masked(secret_kept)),
                                   (secret_refused.key, "rejected", masked(secret_refused))])
            return await source.fetch()
        finally:
            await source.close()

    assert subjects(asyncio.run(run())) == ["to do"]
    if folders:
        assert subjects(servers.messages("moderator")) == ["to do"]
        assert sorted(subjects(servers.messages("moderator", "Processed"))) == ["kept", "masked kept"]
        assert sorted(subjects(servers.messages("moderator", "Rejected"))) == ["masked refused", "refused"]
    else:
        inbox = dict(zip(subjects(servers.messages("moderator")), servers.flags("moderator")))
        assert inbox == {"kept": {"\\Seen"}, "refused": {"\\Seen"}, "to do": set(),
                         "masked kept": {"\\Seen"}, "masked refused": {"\\Seen"}}
        assert servers.mailboxes("moderator") == ["INBOX"]


@pytest.mark.parametrize("multiappend", [True, False], ids=["MULTIAPPEND", "one APPEND a copy"])
def test_masked_copies_are_filed_whole_in_order_and_once(clean_mailboxes, multiappend):
    """A batch's masked copies go to their folder in one APPEND where the server takes
    several messages in one (MULTIAPPEND with LITERAL+), one APPEND a copy where it does
    not; either way each lands byte for byte, in order.  A folder deleted meanwhile is
    made again and gets each copy once: a refused MULTIAPPEND files none of its copies."""
    servers = clean_mailboxes
    deliver(servers, *(f"m{i}" for i in range(5)))
    appends = []

    class Source(ImapSource):
        async def _ensure_connected(self):
            await super()._ensure_connected()
            if not multiappend:
                self._capabilities.discard("MULTIAPPEND")

        async def _call(self, what, coro, **kw):
            if what == "APPEND":
                appends.append(what)
            return await super()._call(what, coro, **kw)

    def masked(i: int) -> bytes:  # 8-bit text, and a line that reads like a literal's size
        return (f"From: alice@example.test\r\nSubject: masked m{i}\r\n\r\n"
                f"SIGNON France@g1 ******** caf\u00e9\r\nnote {{{i + 3}+}}\r\n" + "x" * 90 * i + "\r\n").encode()

    async def run():
        source = Source(servers.imap_host, servers.imap_port, "moderator",
                        servers.password("moderator"), timeout=10)
        try:
            mails = await source.fetch()
            admin = servers.imap("moderator")
            admin.delete("Processed")
            admin.logout()
            await source.ack_many([(m.key, "processed", masked(i)) for i, m in enumerate(mails)])
            return await source.fetch()
        finally:
            await source.close()

    assert asyncio.run(run()) == []
    assert servers.messages("moderator") == []
    assert servers.messages("moderator", "Processed") == [masked(i) for i in range(5)]
    # refused once (no folder), then the lot in one command, or each copy in its own
    assert len(appends) == (2 if multiappend else 6)


def test_a_multiappend_is_one_command_line_then_literals_the_server_reads_unasked():
    size, payload = multiappend([b"one\r\n", b"two!\r\n", b"3"], r"(\Seen)")
    assert size == "{5}"
    assert payload == b"one\r\n" + b" (\\Seen) {6+}\r\ntwo!\r\n" + b" (\\Seen) {1+}\r\n3"
    assert multiappend([b"a", b"bc"], None) == ("{1}", b"a {2+}\r\nbc")
