"""Mail through pbem, side by side with the floor, in one run through the same
real servers (Dovecot for IMAP, an SMTP sink for outbound mail).

    .venv/bin/python bench/mailflow.py ingest --mails 1000 --games 50 [--runs 3]
    .venv/bin/python bench/mailflow.py crash --mails 1000 --games 50 [--kills 5]
    .venv/bin/python bench/mailflow.py latency --games 1000 [--orders 40]

ingest: N order mails wait in the IMAP mailbox; the time from ``pbem serve``
starting until the SMTP sink has accepted an acknowledgement of each.  The
floor: a bare aioimaplib client fetching the same N mails (UID FETCH in
batches of 50) plus a bare aiosmtplib client sending N replies of the same
size on one connection.  Prints both and their ratio.

crash: the same, with the daemon (and its worker) killed -9 at random
moments and started again; then counts mail lost, applied twice, and
answered twice.

latency: the daemon waits with IMAP IDLE; orders are submitted one at a time
over SMTP; from submission to the acknowledgement leaving (p50/p95/max).

Prints figures, asserts nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aioimaplib
import aiosmtplib

sys.path.insert(0, str(Path(__file__).resolve().parent))

import games_db  # noqa: E402
import mail_rig  # noqa: E402


def _orders(db: Path, seats: list[games_db.Seat], n: int, tag: str = "o") -> dict[str, bytes]:
    """N order mails, round robin over every seat: the bot's orders for its power."""
    lines = games_db.order_lines(db, seats[:n], random.Random(7))
    mails = {}
    for i in range(n):
        seat = seats[i % len(seats)]
        mid, raw = mail_rig.order_mail(i, seat, lines[seat] or ["DONE"], tag)
        mails[mid] = raw
    return mails


async def _floor_fetch(servers, n: int) -> float:
    start = time.monotonic()
    client = aioimaplib.IMAP4(servers.imap_host, servers.imap_port, timeout=60)
    await client.wait_hello_from_server()
    await client.login("moderator", servers.password("moderator"))
    await client.select("INBOX")
    answer = await client.uid_search("ALL")
    uids = [int(u) for line in answer.lines[:-1] for u in line.split() if u.isdigit()]
    got = 0
    for i in range(0, len(uids), 50):
        answer = await client.uid("fetch", ",".join(map(str, uids[i:i + 50])), "(UID BODY.PEEK[])")
        got += sum(1 for line in answer.lines if isinstance(line, bytearray))
    await client.logout()
    if got < n:
        print(f"  (floor fetched {got} of {n})")
    return time.monotonic() - start


async def _floor_send(sink, n: int, size: int) -> float:
    body = ("x" * 70 + "\n") * max(1, size // 71)
    start = time.monotonic()
    client = aiosmtplib.SMTP(hostname="127.0.0.1", port=sink.port, timeout=60)
    await client.connect()
    for i in range(n):
        msg = (f"From: {mail_rig.MODERATOR}\r\nTo: p@players.test\r\nSubject: floor\r\n"
               f"Message-ID: <floor{i}@example.test>\r\nIn-Reply-To: <floor-in{i}@x>\r\n\r\n{body}")
        await client.sendmail(mail_rig.MODERATOR, ["p@players.test"], msg)
    await client.quit()
    return time.monotonic() - start


def _prepare(servers, sink, games: int, n: int, tag: str = "o"):
    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-run-", dir="/tmp"))
    seats = games_db.build(folder / "pbem.sqlite", games)
    mails = _orders(folder / "pbem.sqlite", seats, n, tag)
    servers.clear("moderator")
    mail_rig.fill_inbox(servers, list(mails.values()))
    sink.reset()
    config = mail_rig.write_config(folder, servers, sink)
    return folder, config, mails


def ingest(servers, sink, games: int, n: int, runs: int) -> None:
    print(f"ingest: {n} order mails over {games} games x 7 powers, {runs} runs")
    ratios = []
    for run in range(runs):
        folder, config, mails = _prepare(servers, sink, games, n)
        fetch = asyncio.run(_floor_fetch(servers, n))
        daemon = mail_rig.Moderator(config, folder / "daemon.log")
        start = time.monotonic()
        daemon.start()
        last = sink.wait_for(set(mails), timeout=max(600, n), alive=daemon.alive)
        first = min((min(a for a, _ in c) for c in sink.answers(set(mails)).values()), default=None)
        daemon.stop()
        if last is None:
            print(f"  run {run + 1}: not every mail was answered (see {folder}/daemon.log)")
            continue
        took = last - start
        replies = [size for _, _, reply_to, size in sink.accepted if reply_to in mails]
        size, connections = int(statistics.mean(replies)), sink.connections
        sink.reset()
        send = asyncio.run(_floor_send(sink, n, size))
        floor = fetch + send
        ratios.append(floor / took)
        print(f"  run {run + 1}: pbem {took:.2f} s = {n / took:.0f} mails/s (first ack after "
              f"{first - start:.2f} s, {connections} SMTP connections); floor "
              f"{floor:.2f} s = {n / floor:.0f} mails/s (fetch {fetch:.2f} s + send {send:.2f} s of "
              f"{size} bytes); ratio {floor / took:.3f}")
        _cleanup(folder)
    if ratios:
        print(f"  ratio pbem/floor: median {statistics.median(ratios):.3f}")


def crash(servers, sink, games: int, n: int, kills: int) -> None:
    folder, config, mails = _prepare(servers, sink, games, n, tag="c")
    rng = random.Random(11)
    daemon = mail_rig.Moderator(config, folder / "daemon.log")
    start = time.monotonic()
    killed = 0
    last = None
    while last is None:
        daemon.start()
        if killed < kills:
            # a moment within a run of a few seconds: the start (0.7 s) or amid the batches
            last = sink.wait_for(set(mails), timeout=rng.uniform(0.3, 1.5))
            if last is None:
                daemon.kill()
                killed += 1
        else:
            last = sink.wait_for(set(mails), timeout=max(600, n), alive=daemon.alive)
            if last is None:
                break
    # A copy is moved out of the intake after its reply is sent, so a kill between the two
    # leaves it there until the restarted daemon's first pass: wait for that pass to end.
    settle = time.monotonic() + 60
    while servers.messages("moderator") and daemon.alive() and time.monotonic() < settle:
        time.sleep(0.2)
    daemon.stop()
    took = time.monotonic() - start
    answers = sink.answers(set(mails))
    db = sqlite3.connect(folder / "pbem.sqlite")
    statuses = dict(db.execute("select message_id, status from messages"))
    lost = [m for m in mails if m not in answers or statuses.get(m) in (None, "new")]
    applied = db.execute("select message, count(*) from orders where message is not null "
                         "group by message having count(*) > 1").fetchall()
    doubles = sum(1 for copies in answers.values() if len({mid for _, mid in copies}) > 1)
    resent = sum(len(copies) - 1 for copies in answers.values())
    left = len(servers.messages("moderator"))
    print(f"crash: {n} mails, daemon killed -9 {killed} times: {took:.1f} s in all; lost {len(lost)}, "
          f"applied twice {len(applied)}, answered twice (different replies) {doubles}, the same "
          f"reply sent again {resent}; left in the intake mailbox {left}")
    _cleanup(folder)


def latency(servers, sink, games: int, orders: int) -> None:
    folder, config, _ = _prepare(servers, sink, games, 0)
    seats = games_db.seats(games)
    mails = _orders(folder / "pbem.sqlite", seats[::max(1, len(seats) // orders)], orders, tag="l")
    daemon = mail_rig.Moderator(config, folder / "daemon.log")
    daemon.start()
    # Ready: the first order is answered (not counted).
    first_mid, first_raw = next(iter(mails.items()))
    servers.send(first_raw, "x@players.test", [mail_rig.MODERATOR])
    sink.wait_for({first_mid}, timeout=900)  # the first pass writes every game's archive pages
    rng = random.Random(3)
    waits = []
    for mid, raw in list(mails.items())[1:]:
        time.sleep(rng.uniform(0.2, 1.0))
        sent = time.monotonic()
        servers.send(raw, "x@players.test", [mail_rig.MODERATOR])
        at = sink.wait_for({mid}, timeout=60)
        if at is None:
            print(f"  {mid}: no acknowledgement within 60 s")
            continue
        waits.append(at - sent)
    daemon.stop()
    waits.sort()
    if waits:
        p95 = waits[min(len(waits) - 1, int(round(0.95 * (len(waits) - 1))))]
        print(f"latency with IDLE, {games} games in progress: {len(waits)} orders, p50 "
              f"{statistics.median(waits):.2f} s, p95 {p95:.2f} s, max {waits[-1]:.2f} s")
    _cleanup(folder)


def _cleanup(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("ingest", "crash", "latency", "all"))
    ap.add_argument("--mails", type=int, default=1000)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--orders", type=int, default=40)
    args = ap.parse_args()
    servers, sink = mail_rig.start_servers()
    try:
        if args.what in ("ingest", "all"):
            ingest(servers, sink, args.games, args.mails, args.runs)
        if args.what in ("crash", "all"):
            crash(servers, sink, args.games, args.mails, args.kills)
        if args.what in ("latency", "all"):
            latency(servers, sink, args.games, args.orders)
    finally:
        mail_rig.stop_servers(servers, sink)


if __name__ == "__main__":
    main()
