"""The hostile corpus (tests/hostile, written by make_corpus.py): every odd or
malicious mail through the whole loop — stored, handled, answered, delivered —
with its expected outcome from expected.toml.

Keys of a case: ``status`` (the mail's final status); ``replies`` (replies to
its sender); ``reply_contains`` / ``reply_lacks`` (in the reply's text);
``reply_max_factor`` (the reply at most this many times the mail's size) and
``reply_max_bytes``; ``reply_to_only`` (the reply's only recipients);
``reply_header_lacks``; ``copy_to`` (a copy of the reply goes there);
``notice_to`` (a further notice goes there); ``orders`` (North's current orders
afterwards); ``sender`` (the sender as read); ``no_game`` (that game was not
created); ``secret_nowhere`` (in no stored mail, no subject and no mail sent);
``signs_on_with`` (a secret that works afterwards); ``addresses`` (addresses
of record afterwards); ``mails_to_none`` (an address that gets nothing);
``deliver_twice``; ``max_bytes`` (the site's size limit for the case);
``encode_secret`` (how the body hides the secret: base64 or qp-split).
"""
from __future__ import annotations

import base64
import email
from email import policy
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

from helpers_loop import GM_SECRET, Loop
from pbem.inbound import intake
from pbem.storage import outbox_rows, phase_orders, store
from pbem.storage.db import loads
from pbem.mail.source import RawMail

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
EXPECTED = tomllib.loads((HOSTILE / "expected.toml").read_text(encoding="utf-8"))


def test_the_corpus_is_large_and_every_mail_has_its_outcome():
    mails = sorted(p.name for p in HOSTILE.glob("*.eml"))
    assert len(mails) >= 60
    assert mails == sorted(EXPECTED)


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon()
    lp.mail("gm@example.test", f"SIGNON GM@g2 {GM_SECRET}\nGM CREATE g2 RULES beacon OPTION powers=North,South,West\n")
    lp.flush()
    return lp


def fill(raw: bytes, secrets: dict[str, str], how: str | None) -> bytes:
    """The mail with the test game's secrets in place of {NORTH}, {SOUTH}, {GM}."""
    def put(data: bytes) -> bytes:
        for name, secret in secrets.items():
            data = data.replace(b"{" + name.encode() + b"}", secret.encode())
        return data

    if how == "base64":
        top, _, body = raw.partition(b"\n\n")
        return top + b"\n\n" + base64.encodebytes(put(base64.decodebytes(body)))
    if how == "qp-split":  # a soft line break in the middle of the secret, as long lines get
        secrets = {k: f"{v[:4]}=\n{v[4:]}" for k, v in secrets.items()}
    return put(raw)


def text_of(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=policy.default)
    body = msg.get_body(("plain",))
    return body.get_content() if body else ""


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_mail(loop, name):
    want = EXPECTED[name]
    secrets = {"NORTH": loop.secrets["North"], "SOUTH": loop.secrets["South"], "GM": GM_SECRET}
    raw = fill((HOSTILE / name).read_bytes(), secrets, want.get("encode_secret"))
    if "max_bytes" in want:
        loop.ctx.max_message_bytes = want["max_bytes"]
    before_outbox = loop.db["outbox"].count
    msg_id = None
    for copy in range(2 if want.get("deliver_twice") else 1):
        msg_id = intake.store_raw(loop.ctx, RawMail(f"hostile:{name}:{copy}", raw))
        status = intake.process(loop.ctx, msg_id)
    row = loop.db["messages"].get(msg_id)
    assert status == want["status"], (row["outcome"], row["error"])
    sender = row["sender"]
    out = list(loop.db["outbox"].rows_where("id > ?", [before_outbox]))
    replies = [r for r in out if r["kind"] == "reply" and r["source"] == msg_id and sender in loads(r["recipients"])]
    assert len(replies) == want["replies"], row["outcome"]
    if replies:
        reply = replies[0]
        text = text_of(reply["raw"])
        for part in want.get("reply_contains", []):
            assert part in text, text[:3000]
        for part in want.get("reply_lacks", []):
            assert part not in text, text[:3000]
        if "reply_max_factor" in want:
            assert len(reply["raw"]) <= want["reply_max_factor"] * len(raw), (len(reply["raw"]), len(raw))
        if "reply_max_bytes" in want:
            assert len(text.encode("utf-8")) <= want["reply_max_bytes"]
        if "reply_to_only" in want:
            assert loads(reply["recipients"]) == want["reply_to_only"]
        parsed = email.message_from_bytes(reply["raw"], policy=policy.default)
        for header in want.get("reply_header_lacks", []):
            assert parsed[header] is None
        if "copy_to" in want:
            assert want["copy_to"] in loads(reply["recipients"])
    if "notice_to" in want:
        assert [r for r in out if r["kind"] != "reply" and want["notice_to"] in loads(r["recipients"])]
    if "sender" in want:
        assert sender == want["sender"]
    if "orders" in want:
        current = phase_orders.current_orders(loop.ctx, "g1", "1/orders")
        for power, orders in want["orders"].items():
            assert "; ".join(o.canonical for o in current.get(power, [])) == orders
    if "no_game" in want:
        assert store.find_game(loop.ctx, want["no_game"]) is None
    if "secret_nowhere" in want:
        secret = fill(want["secret_nowhere"].encode(), secrets, None)
        assert secret not in row["raw"], "the stored mail keeps the secret"
        assert secret.decode() not in (row["subject"] or "")
        for mail in loop.db["outbox"].rows_where("kind != 'welcome'"):
            whole = outbox_rows.mail_bytes(loop.ctx, mail)  # a report is kept packed
            assert secret not in whole and secret.decode() not in text_of(whole), mail["subject"]
    if "signs_on_with" in want:
        assert loop.mail("north@example.test", f"SIGNON North@g1 {want['signs_on_with']}\nSTATUS\n") == "done"
    if "addresses" in want:
        for power, addresses in want["addresses"].items():
            assert store.addresses(store.player(loop.ctx, "g1", power)) == addresses
    if "mails_to_none" in want:
        assert not [r for r in loop.db["outbox"].rows if want["mails_to_none"] in loads(r["recipients"])]
    loop.flush()  # every queued mail can be built and delivered
