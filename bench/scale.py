"""One daemon with 10, 100 and 1,000 games in progress: memory, time per
poll, per-mail and per-phase cost, database size per game.

    .venv/bin/python bench/scale.py [--games 10 100 1000] [--mails 100]

Each size runs in a fresh process (so its resident size is its own), with a
real Daemon reading Dovecot over IMAP and sending to an SMTP sink, handling
mail in its own process (the worker's isolation is measured by mailflow.py).
- poll: a whole pass (intake, deadlines, outbox, archive) with no mail, median of 20;
- per mail: order mails waiting in the mailbox, passes until all are answered;
- per phase: GM-requested processing of one game's open phase (reports included);
- memory: the process's maximum resident size after all that.
Prints figures, asserts nothing.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import games_db  # noqa: E402
import mail_rig  # noqa: E402
import mailflow  # noqa: E402

from pbem.play import scheduler
from pbem.storage import store  # noqa: E402
from pbem.base.clock import SystemClock  # noqa: E402
from pbem.base.context import Context  # noqa: E402
from pbem.host.daemon import Daemon  # noqa: E402
from pbem.storage.db import open_db  # noqa: E402
from pbem.mail.imap_source import ImapSource  # noqa: E402
from pbem.mail.sender import SmtpSender  # noqa: E402


async def _measure(folder: Path, servers, sink, games: int, mails: dict[str, bytes]) -> dict:
    ctx = Context(db=open_db(folder / "pbem.sqlite"), clock=SystemClock(), address=mail_rig.MODERATOR,
                  domain="example.test", archive_dir=str(folder / "archive"), reply_rate_per_hour=0)
    source = ImapSource("127.0.0.1", servers.imap_port, "moderator", servers.password("moderator"),
                        idle=True, timeout=60)
    daemon = Daemon(ctx, source, SmtpSender("127.0.0.1", sink.port, timeout=60))
    out: dict = {"games": games}
    await daemon.run_pass()  # the archive of every game is written once: not a poll's cost
    polls, ticks = [], []
    for _ in range(20):
        t0 = time.perf_counter()
        await daemon.run_pass()
        polls.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        scheduler.tick(ctx)
        scheduler.next_wakeup(ctx)
        ticks.append(time.perf_counter() - t0)
    out["poll_ms"] = 1000 * statistics.median(polls)
    out["tick_ms"] = 1000 * statistics.median(ticks)
    mail_rig.fill_inbox(servers, list(mails.values()))
    t0 = time.perf_counter()
    while len(sink.answers(set(mails))) < len(mails) and time.perf_counter() - t0 < 600:
        await daemon.run_pass()
    out["mail_ms"] = 1000 * (time.perf_counter() - t0) / len(mails)
    phase_times = []
    for name in (games_db.game_name(g) for g in range(1, min(games, 4))):
        store.update_game(ctx, name, process_requested=1)
        t0 = time.perf_counter()
        scheduler.tick(ctx)
        phase_times.append(time.perf_counter() - t0)
    out["phase_ms"] = 1000 * statistics.median(phase_times) if phase_times else None
    await source.close()
    await daemon.sender.close()
    ctx.db.conn.close()
    out["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["db_kib_per_game"] = (folder / "pbem.sqlite").stat().st_size / 1024 / games
    return out


def one(games: int, n: int) -> dict:
    servers, sink = mail_rig.start_servers()
    folder = Path(tempfile.mkdtemp(prefix="pbem-bench-scale-", dir="/tmp"))
    try:
        seats = games_db.build(folder / "pbem.sqlite", games)
        mails = mailflow._orders(folder / "pbem.sqlite", seats[:35], n)
        servers.clear("moderator")
        return asyncio.run(_measure(folder, servers, sink, games, mails))
    finally:
        mail_rig.stop_servers(servers, sink)
        mailflow._cleanup(folder)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, nargs="*", default=[10, 100, 1000])
    ap.add_argument("--mails", type=int, default=100)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.mails)))
        return
    print("scale: games in progress | poll (whole pass, no mail) | scheduler pass | per mail | "
          "per phase (reports included) | max resident | database per game")
    for games in args.games:
        proc = subprocess.run([sys.executable, __file__, "--one", str(games), "--mails", str(args.mails)],
                              capture_output=True, text=True)
        if proc.returncode:
            print(f"  {games}: failed\n{proc.stderr[-2000:]}")
            continue
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"  {r['games']:>5} games: poll {r['poll_ms']:7.1f} ms, scheduler {r['tick_ms']:7.1f} ms, "
              f"mail {r['mail_ms']:5.1f} ms, phase {r['phase_ms'] or 0:6.0f} ms, "
              f"{r['rss_mib']:4.0f} MiB resident, {r['db_kib_per_game']:5.0f} KiB a game")


if __name__ == "__main__":
    main()
