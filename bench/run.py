"""Every benchmark figure of bench/RESULTS.md: prints them, asserts nothing.

    .venv/bin/python bench/run.py [--quick]

Runs, one after the other (each script takes its own options too):
- mailflow.py ingest: 1,000 and 10,000 order mails through ``pbem serve``
  against the floor, through the same Dovecot and SMTP sink;
- mailflow.py crash: the 1,000 with the daemon killed -9 five times;
- mailflow.py latency: acknowledgement latency with IDLE, 10 and 1,000 games;
- phases.py: adjudication per phase kind and whole 10-turn bot games (time),
  then the same with allocations traced (memory) — never both in one run;
- war_turn.py: a Pax Britannica turn with a war among seven powers (time);
- scale.py: 10, 100 and 1,000 games in progress in one daemon;
- the parse time of an oversized mail (flagged from its headers);
- quotes.py: quoted text in real clients' replies, pbem's rules against two libraries.
``--quick`` runs small sizes of each (a few minutes).
"""
from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))


def bench_oversized() -> None:
    """An oversized mail is flagged from its headers; its body is never decoded."""
    from pbem.mail.normalize import parse_message

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "n@x", "pbem@localhost", "huge"
    msg.set_content("PRESS TO ALL\n" + ("long " * 40 + "\n") * 40000)
    raw = bytes(msg)
    start = time.perf_counter()
    parse_message(raw, max_bytes=1_000_000)
    print(f"oversized: a {len(raw) / 2**20:.1f} MiB mail flagged in {1000 * (time.perf_counter() - start):.1f} ms")


def run(script: str, *args: str) -> None:
    command = [sys.executable, str(BENCH / script), *args]
    print(f"$ python bench/{script} {' '.join(args)}", flush=True)
    subprocess.run(command, cwd=ROOT, check=False)
    print(flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes of everything")
    args = ap.parse_args()
    print(f"pbem benchmarks, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, "
          f"{platform.machine()}, {_cores()} cores\n", flush=True)
    if args.quick:
        run("mailflow.py", "ingest", "--mails", "200", "--games", "10", "--runs", "1")
        run("mailflow.py", "crash", "--mails", "200", "--games", "10", "--kills", "2")
        run("mailflow.py", "latency", "--games", "10", "--orders", "10")
        run("phases.py", "--games", "1", "--turns", "3")
        run("phases.py", "--games", "1", "--turns", "3", "--memory")
        run("war_turn.py", "--games", "2")
        run("scale.py", "--games", "10", "100", "--mails", "40")
    else:
        run("mailflow.py", "ingest", "--mails", "1000", "--games", "50", "--runs", "3")
        run("mailflow.py", "ingest", "--mails", "10000", "--games", "300", "--runs", "1")
        run("mailflow.py", "crash", "--mails", "1000", "--games", "50", "--kills", "5")
        run("mailflow.py", "latency", "--games", "10", "--orders", "40")
        run("mailflow.py", "latency", "--games", "1000", "--orders", "40")
        run("phases.py", "--games", "3", "--turns", "10")
        run("phases.py", "--games", "3", "--turns", "10", "--memory")
        run("war_turn.py", "--games", "10")
        run("scale.py", "--games", "10", "100", "1000", "--mails", "100")
    bench_oversized()
    run("quotes.py")


def _cores() -> int:
    import os

    return os.cpu_count() or 1


if __name__ == "__main__":
    main()
