"""What a game says of orders, asked ahead by a worker reading the next batch, is what it
says when the mail is handled: the same mails give the same replies, the same stored
orders and the same statuses with and without the answers asked ahead.  A real Pax
Britannica game on real SQLite files."""
from __future__ import annotations

import email
import shutil
from email import policy
from email.message import EmailMessage

from helpers_loop import GM_SECRET, Loop, secret_in
from pbem.handlers import order_verdicts
from pbem.inbound import intake
from pbem.mail.source import RawMail
from pbem.storage import outbox_rows, store

PLAYERS = {"Britain": "alice@example.test", "France": "bob@example.test",
           "Germany": "carol@example.test", "Russia": "dave@example.test"}


def _pax(tmp_path, monkeypatch) -> tuple[Loop, dict[str, str]]:
    monkeypatch.setattr("pbem.play.turns.new_seed", lambda: "0" * 64)
    loop = Loop(tmp_path)
    seats = "".join(f"GM ADD PLAYER {p} {a}\n" for p, a in PLAYERS.items())
    assert loop.mail("gm@example.test", f"SIGNON GM@p1 {GM_SECRET}\nGM CREATE p1 RULES pax_britannica\n"
                     f"{seats}GM START\n") == "done"
    while not store.get_game(loop.ctx, "p1").phase.owes:  # on to the first phase of orders
        assert loop.mail("gm@example.test", f"SIGNON GM@p1 {GM_SECRET}\nGM PROCESS NOW\n") == "done"
    loop.flush()
    secrets = {}
    for power, address in PLAYERS.items():
        welcome = [m for m in loop.inbox(address) if "you play" in m["Subject"]]
        secrets[power] = secret_in(welcome[0].get_body(("plain",)).get_content())
    return loop, secrets


def _mails(secrets: dict[str, str]) -> list[bytes]:
    s = secrets
    bodies = [
        ("alice", f"SIGNON Britain@p1 {s['Britain']}\nORDERS\nBUY INTRST Persia\nBUY INTEREST Persia\nEND\n"),
        ("bob", f"SIGNON France@p1 {s['France']}\nORDERS\nBUY INTEREST Morocco\nEND\n"),
        ("carol", f"SIGNON Germany@p1 {s['Germany']}\nBUY INTEREST Persia\n\nCheers,\nCarol\n"),  # no ORDERS line
        ("dave", f"SIGNON Britain@p1 {s['Russia']}\nORDERS\nBUY INTEREST Persia\n"),  # a wrong secret
        ("dave", f"SIGNON Russia@p1 {s['Russia']}\nORDERS\nBUY INTEREST Persia\nBUY POSSESSION Nowhere\n"),
        ("alice", f"SIGNON Britain@p1 {s['Britain']}\nORDERS\nBUY INTEREST Persia\nEND\n"),
        ("bob", f"SIGNON France@p1 {s['France']}\nORDERS\nBUY INTEREST Morocco\nEND\n"),  # the same again
        ("bob", f"SIGNON France@p1 {s['France']}\nORDERS 1999 Movement\nBUY INTEREST Morocco\n"),
    ]
    out = []
    for i, (who, body) in enumerate(bodies):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{who}@example.test", "pbem@example.test", "orders"
        msg["Message-ID"] = f"<ahead{i}@players.test>"
        msg.set_content(body)
        out.append(bytes(msg))
    return out


def _outcome(loop: Loop, ids: list[int], statuses: dict[int, str]) -> tuple:
    mails = []
    for row in loop.db["outbox"].rows_where("source >= ?", [ids[0]], order_by="id"):
        msg = email.message_from_bytes(outbox_rows.mail_bytes(loop.ctx, row), policy=policy.default)
        mails.append((row["kind"], row["recipients"], str(msg["Subject"]),
                      msg.get_body(("plain",)).get_content()))
    orders = [(r["power"], r["orders"], r["text"], r["refused"], r["current"])
              for r in loop.db["orders"].rows_where("game = 'p1'", order_by="id")]
    return [statuses[i] for i in ids], orders, mails


def test_orders_read_ahead_are_answered_as_orders_read_in_their_transaction(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    loop, secrets = _pax(tmp_path / "a", monkeypatch)
    loop.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (tmp_path / "b").mkdir()
    shutil.copy(tmp_path / "a" / "pbem.sqlite", tmp_path / "b" / "pbem.sqlite")
    other = Loop(tmp_path / "b")
    mails = _mails(secrets)

    def stored(lp: Loop) -> list[int]:
        return [intake.store_raw(lp.ctx, RawMail(f"t:{i}", raw)) for i, raw in enumerate(mails)]

    order_verdicts._kept.clear()
    ahead_ids = stored(loop)
    read = intake.prepare_batch(loop.ctx, ahead_ids)
    asked = len(order_verdicts._kept)
    todo, _ = intake.begin_batch(loop.ctx, ahead_ids)
    ahead = _outcome(loop, ahead_ids, intake.handle_batch(loop.ctx, todo, read))
    taken = asked - len(order_verdicts._kept)

    order_verdicts._kept.clear()
    plain_ids = stored(other)
    plain = _outcome(other, plain_ids, intake.process_batch(other.ctx, plain_ids))

    assert ahead == plain
    assert ahead[0].count("done") == 7 and ahead[0].count("rejected") == 1
    assert any("INTRST" in body for *_, body in ahead[2])  # the refused line is told
    assert taken >= 6  # the questions were answered ahead, not asked again
    order_verdicts._kept.clear()


def test_a_game_that_declares_its_answers_impure_is_never_asked_ahead(tmp_path, monkeypatch):
    """Game.pure_orders = False turns the answers kept ahead off: nothing is kept, and
    an answer kept before is not taken."""
    loop, secrets = _pax(tmp_path, monkeypatch)
    rec = store.get_game(loop.ctx, "p1")
    lines = [(1, "BUY INTEREST Persia")]
    order_verdicts._kept.clear()
    monkeypatch.setattr(type(rec.rules), "pure_orders", False)
    order_verdicts.ask_ahead(rec, "Britain", lines)
    assert not order_verdicts._kept
    monkeypatch.setattr(type(rec.rules), "pure_orders", True)
    order_verdicts.ask_ahead(rec, "Britain", lines)
    assert order_verdicts._kept
    planted = object()
    order_verdicts._kept[order_verdicts._key("parse", rec, "Britain", lines)] = planted
    monkeypatch.setattr(type(rec.rules), "pure_orders", False)
    assert order_verdicts.parse_orders(rec, "Britain", lines) is not planted
