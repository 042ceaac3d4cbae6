"""The command line verbs of the site's administrator: ``status``, ``config
check``, ``migrate``, ``backup`` and ``outbox list|show|retry``."""
from __future__ import annotations

import email
from datetime import datetime, timezone
from email import policy
from pathlib import Path

from pbem.host.cliutil import CliError, config_path, load_cfg, open_ctx

#: a daemon whose last pass is older than this (plus the time one mail may take) is stuck
STALE_SECONDS = 300.0


def add_verbs(sub, verb) -> None:
    verb(sub, "status", cmd_status, "the site's health: the daemon, its last pass, the queues, games "
         "by state; exit status 1 when something needs mending")
    config = sub.add_parser("config", help="the configuration file")
    csub = config.add_subparsers(dest="config_command", metavar="VERB")
    csub.required = True
    verb(csub, "check", cmd_config_check, "check the configuration (and the passwords, CA files and "
         "folders it names); every problem on its own line, exit status 1 on any")
    verb(sub, "migrate", cmd_migrate, "bring the database up to date after an upgrade, copying it "
         "first (stop the daemon before)")
    backup = verb(sub, "backup", cmd_backup, "write a consistent copy of the database to FILE, even "
                  "while the daemon runs")
    backup.add_argument("file", type=Path, help="the copy to write (replaced when it exists)")

    outbox = sub.add_parser("outbox", help="outgoing mail: what waits, what was given up")
    osub = outbox.add_subparsers(dest="outbox_command", metavar="VERB")
    osub.required = True
    lst = verb(osub, "list", cmd_outbox_list, "list mail waiting to be sent and mail given up")
    lst.add_argument("--all", action="store_true", help="sent mail too (kept outbound.keep_sent_days)")
    show = verb(osub, "show", cmd_outbox_show, "show one outgoing mail: recipients, tries, the "
                "server's last answer, its headers")
    show.add_argument("id", type=int)
    show.add_argument("--body", action="store_true", help="print its text too")
    retry = verb(osub, "retry", cmd_outbox_retry, "send mail again now: the given ones (given up "
                 "or waiting), else every waiting one; also ends the pause of held sending")
    retry.add_argument("ids", type=int, nargs="*", metavar="ID")
    retry.add_argument("--failed", action="store_true", help="every mail given up, too")


# -- status ------------------------------------------------------------------

def cmd_status(args) -> int:
    from pbem import __version__
    from pbem.host import heartbeat, sitelock
    from pbem.outbound import sendhold
    from pbem.storage import store
    from pbem.storage.db import MigrationDue

    cfg = load_cfg(args)
    database = cfg.server.database
    trouble: list[str] = []
    print(f"pbem {__version__}: site {cfg.server.name} ({config_path(args) or 'built-in defaults'})")
    holder = sitelock.holder(database)
    beat = heartbeat.read(database) or {}
    if holder is None:
        stopped = beat.get("stopped")
        trouble.append("the daemon is not running" + (f" (it stopped {stopped})" if stopped else ""))
        print(f"daemon: NOT RUNNING{f'; last stopped {stopped}' if stopped else ''}")
    else:
        print(f"daemon: running, {holder.describe()}")
        trouble.extend(_pass_trouble(beat, cfg))
    for step, info in (beat.get("failing") or {}).items() if holder else ():
        trouble.append(f"step {step} failing since {info.get('since', '?')}: {info.get('error', '?')}")
        print(f"failing: {step} since {info.get('since', '?')} ({info.get('tries', '?')} tries): "
              f"{info.get('error', '?')}")
    try:
        ctx, _ = open_ctx(args)
    except MigrationDue as exc:
        print(f"database: {exc}")
        trouble.append("a database migration is due")
        return _verdict(trouble)
    print(f"database: {database}, up to date")
    hold = sendhold.current(ctx)
    if hold:
        trouble.append("sending is held")
        print(f"sending: HELD {hold.summary()}")
    else:
        print("sending: ok")
    _queues(ctx)
    _bouncing(ctx)
    games = store.games_by_status(ctx)
    print("games: " + (", ".join(f"{n} {s}" for s, n in sorted(games.items())) or "none"))
    return _verdict(trouble)


def _pass_trouble(beat: dict, cfg) -> list[str]:
    last = beat.get("last_pass")
    if not last:
        print("last pass: none yet")
        return []
    now = datetime.now(timezone.utc)
    age = (now - datetime.fromisoformat(last)).total_seconds()
    print(f"last pass: {last} ({age:.0f}s ago, {beat.get('passes', 0)} passes since {beat.get('started')})")
    # Within a long pass (a backlog) the daemon still says it is busy after each mail.
    quiet = (now - datetime.fromisoformat(beat.get("last_activity") or last)).total_seconds()
    limit = STALE_SECONDS + cfg.limits.handling_timeout
    return [f"the daemon has not finished a pass for {age:.0f}s"] if quiet > limit else []


def _queues(ctx) -> None:
    from pbem.storage import inbound_mail, outbox_rows

    waiting, quarantined = inbound_mail.counts(ctx)
    queued, oldest, failed = outbox_rows.summary(ctx)
    print(f"inbound: {waiting} mail(s) waiting to be handled; {quarantined} set aside"
          + (" (pbem quarantine list)" if quarantined else ""))
    print(f"outbound: {queued} mail(s) waiting" + (f" (oldest queued {oldest})" if queued else "")
          + f"; {failed} given up" + (" (pbem outbox list)" if failed else ""))


def _bouncing(ctx) -> None:
    """Addresses mail to them bounced from (pbem.outbound.bounces), worst first.  A bouncing
    address is the GM's to mend (the GM has been told), not the site's: listed, not unhealthy."""
    from pbem.outbound.bounces import bouncing_addresses

    rows = bouncing_addresses(ctx)
    print(f"bouncing addresses: {len(rows) or 'none'}")
    for row in rows:
        print(f"  {row['address']}: {row['state']}, score {row['score']:g} ({row['hard']} hard, "
              f"{row['soft']} soft), first {row['first']}, last {row['last']}")


def _verdict(trouble: list[str]) -> int:
    if trouble:
        for line in trouble:
            print(f"UNHEALTHY: {line}")
        return 1
    print("healthy")
    return 0


# -- config, migrate, backup ---------------------------------------------------

def cmd_config_check(args) -> int:
    from pbem.base.configcheck import problems, warnings
    from pbem.storage.db import pending_at

    cfg = load_cfg(args)  # the file's own problems are raised, one line each
    found, notes = problems(cfg), warnings(cfg)
    due = pending_at(cfg.server.database)
    if due:
        notes.append(f"{cfg.server.database}: {len(due)} migration(s) due ({', '.join(due)}): "
                     "stop the daemon and run `pbem migrate`")
    for line in found:
        print(f"problem: {line}")
    for line in notes:
        print(f"warning: {line}")
    name = cfg.path or "the built-in defaults"
    print(f"{name}: {len(found)} problem(s), {len(notes)} warning(s)" if found or notes else f"{name}: ok")
    return 1 if found else 0


def cmd_migrate(args) -> int:
    from pbem.host.sitelock import AlreadyRunning, SiteLock
    from pbem.storage.backup import migrate_with_backup
    from pbem.storage.db import applied, open_db

    cfg = load_cfg(args)
    lock = SiteLock(cfg.server.database)
    try:
        lock.acquire("pbem migrate")
    except AlreadyRunning as exc:
        raise CliError(f"{exc}; the daemon migrates the database itself when it starts") from None
    try:
        ran, copy = migrate_with_backup(cfg.server.database)
        db = open_db(cfg.server.database)
        total = len(applied(db))
        db.close()
    finally:
        lock.release()
    if ran:
        print(f"{cfg.server.database}: migrated ({', '.join(ran)}); the copy made before is {copy}")
    else:
        print(f"{cfg.server.database}: up to date ({total} migrations)")
    return 0


def cmd_backup(args) -> int:
    from pbem.storage.backup import copy_database

    cfg = load_cfg(args)
    try:
        copy = copy_database(cfg.server.database, args.file)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    print(f"backup written: {copy.summary()}")
    return 0


# -- outbox ------------------------------------------------------------------------

def cmd_outbox_list(args) -> int:
    from pbem.outbound import sendhold
    from pbem.outbound.outbox import recipient_roles, without_addresses
    from pbem.storage import outbox_rows
    from pbem.storage.db import loads

    ctx, _ = open_ctx(args)
    hold = sendhold.current(ctx)
    if hold:
        print(f"sending is HELD {without_addresses(hold.summary())}; the mail waiting below goes out "
              "once the server takes mail again")
    rows = outbox_rows.listing(ctx, with_sent=args.all)
    for row in rows:
        to = ", ".join(recipient_roles(ctx, row, loads(row["recipients"], [])))
        when = f"next try {row['next_try']}" if row["status"] == "queued" else f"queued {row['created']}"
        print(f"{row['id']:6}  {row['status']:7} {row['attempts']:2} tries  {when}  {row['kind']:10} "
              f"{row['game'] or '-':12} to {to}")
        if row["last_error"] and row["status"] != "sent":
            print(f"        {without_addresses(row['last_error'])[:200]}")
    counts = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    print(", ".join(f"{n} {s}" for s, n in sorted(counts.items())) if rows else "no mail waits or was given up")
    return 0


def cmd_outbox_show(args) -> int:
    from pbem.storage.db import loads

    ctx, _ = open_ctx(args)
    row = _row(ctx, args.id)
    msg = email.message_from_bytes(row["raw"], policy=policy.default)
    print(f"mail {row['id']}: {row['status']}, {row['attempts']} tries, kind {row['kind']}, "
          f"game {row['game'] or '-'}")
    print(f"recipients: {', '.join(loads(row['recipients'], []))}")
    print(f"queued: {row['created']}; next try: {row['next_try']}; sent: {row['sent'] or '-'}")
    if row["last_error"]:
        print(f"last answer: {row['last_error']}")
    for name in ("From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To", "Auto-Submitted"):
        if msg[name]:
            print(f"{name}: {msg[name]}")
    print(f"size: {len(row['raw'])} bytes")
    if args.body:
        body = msg.get_body(("plain",))
        print()
        print(body.get_content() if body else "(no plain-text part)")
    return 0


def cmd_outbox_retry(args) -> int:
    from pbem.outbound import sendhold
    from pbem.storage import outbox_rows
    from pbem.storage.db import atomic, utcnow_iso

    ctx, _ = open_ctx(args)
    now = utcnow_iso(ctx.now())
    notes = []
    with atomic(ctx.db):
        if args.ids:
            rows = [_row(ctx, i) for i in args.ids]
        else:
            rows = outbox_rows.waiting(ctx, with_failed=args.failed)
        for row in rows:
            if row["status"] == "sent":
                raise CliError(f"mail {row['id']} was sent {row['sent']}; nothing to send again")
            outbox_rows.update(ctx, row["id"], {"status": "queued", "next_try": now,
                                                **({"attempts": 0} if row["status"] == "failed" else {})})
            if row["status"] == "failed" and row["kind"] == "welcome":
                notes.append(f"mail {row['id']} handed out a secret, masked when it was given up: the "
                             "copy sent again shows it masked (GM REPLACE gives the power a new secret)")
        woke = sendhold.wake(ctx)
    for note in notes:
        print(f"note: {note}")
    print(f"{len(rows)} mail(s) queued to be sent now" + ("; the pause of held sending is over" if woke else "")
          + "; the daemon sends them on its next pass")
    return 0


def _row(ctx, mail_id: int) -> dict:
    from pbem.storage import outbox_rows

    row = outbox_rows.by_id(ctx, mail_id)
    if row is None:
        raise CliError(f"there is no outgoing mail {mail_id} (pbem outbox list shows them)")
    return row

