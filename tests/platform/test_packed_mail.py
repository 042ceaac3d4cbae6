"""Reports kept once and small (pbem.storage.packed_mail, outbox_rows): the map every reader's
report of a phase shows is stored once, the rest compressed, and every mail is given back
byte for byte -- to be sent, to be sent again after a crash, to be shown -- until it is sent
and pruned, when the parts no kept mail shows go too.  Snapshots keep their states packed."""
from __future__ import annotations

import os

from helpers_loop import Loop
from pbem.mail.compose import Inline
from pbem.outbound import outbox
from pbem.storage import outbox_rows, packed_mail
from pbem.storage.values import dumps, loads, pack_text, unpack_text

PNG = b"\x89PNG\r\n\x1a\n" + os.urandom(20_000)  # as little compressible as a real map


def queue_report(loop, key: str, to: str, text: str, image: bytes = PNG) -> str:
    return outbox.queue(loop.ctx, key=key, to=[to], subject=f"report {key}", text=text, kind="report",
                        html='<p>x</p><img src="cid:map@x">', related=[Inline("map@x", "image/png", image, "map.png")])


def stored_rows(loop) -> list[dict]:
    return list(loop.db["outbox"].rows_where(order_by="id"))


def test_pack_gives_the_mail_back_byte_for_byte_and_cuts_each_part_out():
    raw = b"From: a\n\n--b\nContent-Transfer-Encoding: base64\n\n" + packed_mail._encoded(PNG) + b"--b--\n"
    stored, where, parts = packed_mail.pack(raw, [PNG])
    assert list(parts) == [packed_mail.digest(PNG)] and len(where) == 1
    assert len(stored) < 200  # the part went, the rest is compressed
    assert packed_mail.unpack(stored, where, parts.__getitem__) == raw
    # A part that is not in the mail stays a plain compressed mail, which still unpacks.
    stored, where, parts = packed_mail.pack(b"From: a\n\nhello\n", [PNG])
    assert (where, parts) == ([], {}) and packed_mail.unpack(stored, where, {}.get) == b"From: a\n\nhello\n"
    # A mail stored before packing is given back as it is.
    assert packed_mail.unpack(b"From: a\n\nold\n", None, {}.get) == b"From: a\n\nold\n"


def test_the_map_of_every_readers_report_is_stored_once_and_each_mail_comes_back_whole(tmp_path):
    loop = Loop(tmp_path)
    ids = [queue_report(loop, f"r{i}", f"p{i}@example.test", f"report for power {i}\n" * 200) for i in range(7)]
    assert loop.db["outbox_parts"].count == 1
    rows = stored_rows(loop)
    assert all(packed_mail.is_packed(r["raw"]) and len(r["raw"]) < 2_000 for r in rows)
    for message_id in ids:
        whole = outbox_rows.by_message_id(loop.ctx, message_id)["raw"]
        assert message_id.encode() in whole and packed_mail._encoded(PNG) in whole  # the map is back
    # What is sent is what was built: the same bytes on every read (a resend after a crash).
    first = [r["raw"] for r in outbox_rows.due(loop.ctx, "9999", after=0, limit=50)]
    assert first == [r["raw"] for r in outbox_rows.due(loop.ctx, "9999", after=0, limit=50)]
    assert all(r["raw"] == outbox_rows.mail_bytes(loop.ctx, s) for r, s in zip(
        outbox_rows.due(loop.ctx, "9999", after=0, limit=50), rows))


def test_mail_not_sent_is_kept_whole_and_parts_go_only_with_the_last_mail_that_shows_them(tmp_path):
    loop = Loop(tmp_path)
    queue_report(loop, "old", "a@example.test", "first phase")
    queue_report(loop, "other", "b@example.test", "first phase, b")
    new_map = PNG[:-1] + b"!"
    new = queue_report(loop, "new", "a@example.test", "second phase", new_map)
    assert loop.db["outbox_parts"].count == 2
    # The first two were sent long ago; the third is held (not sent): nothing of it may go.
    for row in stored_rows(loop)[:2]:
        loop.db["outbox"].update(row["id"], {"status": "sent"})
    loop.clock.advance(days=40)
    assert outbox.prune(loop.ctx, keep_days=30) == 2
    assert loop.db["outbox_parts"].count == 1
    held = outbox_rows.waiting(loop.ctx, with_failed=True)
    assert [r["message_id"] for r in held] == [new] and packed_mail._encoded(new_map) in held[0]["raw"]


def test_a_state_is_kept_packed_and_read_as_the_text_it_was():
    state = dumps({"areas": {f"area{i}": {"owner": "Britain", "units": [i, i + 1]} for i in range(500)}})
    packed = pack_text(state)
    assert len(packed) < len(state) / 5
    assert unpack_text(packed) == state and loads(packed) == loads(state)
    assert unpack_text(state) == state and unpack_text(None) is None
