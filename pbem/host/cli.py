"""The ``pbem`` command line.  Every verb has --help; errors are one line and
a non-zero exit."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import sqlite3
import sys
from pathlib import Path

from pbem import __version__
from pbem.host import cli_game, cli_host
from pbem.host.cliutil import DEFAULT_CONFIG, CliError, load_cfg, open_ctx, rules_help
from pbem.storage.db import describe_failure

# -- verbs -----------------------------------------------------------------

def cmd_init(args) -> int:
    from pbem.base.config import check_text, load_config, toml_value
    from pbem.base.identity import hash_secret, new_secret
    from pbem.base.private_files import write_private
    from pbem.base.resources import resource
    from pbem.mail.smtp_listener import free_port
    from pbem.storage.backup import migrate_with_backup

    target = Path(args.config or DEFAULT_CONFIG)
    secret = new_secret()
    if target.exists():
        raise CliError(f"{target} exists already; edit it, or give another path with --config")
    text = resource("config.example.toml").read_text(encoding="utf-8")
    text = text.replace('gm_secret_hash = ""', f'gm_secret_hash = "{hash_secret(secret)}"', 1)
    if args.gm:
        old = re.search(r'gm_address = "gm@localhost" *', text).group(0)
        text = text.replace(old, f"gm_address = {toml_value(args.gm)}".ljust(len(old) - 1) + " ", 1)
    example = load_config(resource("config.example.toml"))
    wanted = example.listener.port
    port = free_port(example.listener.host, wanted)
    text = text.replace(f"port = {wanted}", f"port = {port}", 1)
    problems = check_text(text, str(target))
    if problems:
        raise CliError("; ".join(p.split(": ", 1)[1] for p in problems))
    write_private(target, text)  # it holds the GM secret's hash, perhaps mail passwords later
    cfg = load_config(target)
    migrate_with_backup(cfg.server.database)  # an existing database is copied before it is migrated
    print(f"wrote {target} and created the database {cfg.server.database}")
    print(f"GM secret (shown once; sign GM mail with SIGNON GM@<game> <secret>): {secret}")
    print(f"site GM: {cfg.server.gm_address} (server.gm_address in {target}), the GM of games made with "
          f"`pbem game new` without --gm; `pbem mail {cfg.server.gm_address}` reads its mail here")
    listens = f"SMTP listener: {cfg.listener.host}:{cfg.listener.port} (listener.port in {target}"
    if port == wanted:
        print(f"{listens}; `pbem send FILE` needs no listener)")
    else:
        print(f"{listens}): port {wanted} is taken by another program; any free port will do")
    return 0


def cmd_serve(args) -> int:
    """The daemon: one per site (the site lock is held until it exits), the database
    migrated first (with a copy made before), every line of its log timestamped."""
    import signal

    from pbem.base import logsetup
    from pbem.base.config import ConfigError
    from pbem.base.configcheck import problems, warnings
    from pbem.host.sitelock import SiteLock
    from pbem.inbound.sandbox import handler_for
    from pbem.storage.backup import migrate_with_backup

    cfg = load_cfg(args)
    found = problems(cfg)  # what would stop the daemon, before anything starts: one line each
    if found:
        raise ConfigError(found)
    logsetup.configure(cfg.server.log_level,
                       log_file=cfg.path_of(cfg.server.log_file) if cfg.server.log_file else None)
    log = logging.getLogger("pbem.serve")
    lock = SiteLock(cfg.server.database)
    lock.acquire("pbem serve --once" if args.once else "pbem serve")
    try:
        migrate_with_backup(cfg.server.database)
        # The worker process starts now, on the migrated database: it imports pbem and the
        # site's games while this process imports the daemon and reads its first mail.
        handler = handler_for(cfg)
        handler.start_soon()
        from pbem.host import heartbeat
        from pbem.host.wiring import build
        from pbem.mail.smtp_listener import ListenerUnavailable

        for line in warnings(cfg):  # after the database opened: a fatal error comes alone
            log.warning("%s", line)
        try:
            daemon = build(cfg, heartbeat=heartbeat.Heartbeat(cfg.server.database), handler=handler)
        except BaseException:
            asyncio.run(handler.close())
            raise
        why = ["nothing left to do (--once)" if args.once else "stopped"]

        async def run() -> set[str]:
            # SIGTERM and SIGINT finish the pass under way, then stop cleanly; a harder
            # kill is safe too (every step is crash-safe).  SIGHUP reopens the log file.
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()

            def stop_on(sig: signal.Signals) -> None:
                why[0] = f"{sig.name} received"
                stop.set()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop_on, sig)
            loop.add_signal_handler(signal.SIGHUP, lambda: log.info("%s", logsetup.reopen()))
            return await daemon.serve(stop, once=args.once)

        try:
            failed = asyncio.run(run())
        except ListenerUnavailable as exc:  # its one line says what to change; no traceback
            daemon.heartbeat.stopped(str(exc))
            raise CliError(str(exc)) from None
        except BaseException as exc:
            log.critical("pbem stops on an unexpected error: %s", exc, exc_info=exc)
            daemon.heartbeat.stopped(f"unexpected error: {exc}")
            raise
        if failed:
            why[0] += f"; these steps failed: {', '.join(sorted(failed))}"
        log.info("pbem stopped: %s", why[0])
        daemon.heartbeat.stopped(why[0])
        return 1 if args.once and failed else 0
    finally:
        lock.release()


def cmd_send(args) -> int:
    from pbem.mail.maildir_source import deliver_to_maildir

    cfg = load_cfg(args)
    if cfg.intake.kind != "maildir":
        raise CliError("pbem send drops mail into the local Maildir intake; this configuration reads IMAP")
    data = Path(args.file).read_bytes() if args.file != "-" else sys.stdin.buffer.read()
    name = deliver_to_maildir(Path(cfg.intake.maildir), data)
    print(f"queued {name} in {cfg.intake.maildir}")
    return 0


def cmd_mail(args) -> int:
    from pbem.mail.reader import MailboxError, show

    cfg = load_cfg(args)
    if cfg.outbound.kind != "maildir":
        raise CliError("pbem mail reads the local mailboxes of the embedded default; this configuration "
                       "sends mail by SMTP (outbound.kind)")
    try:
        return show(Path(cfg.outbound.maildir), args.address, sys.stdout, last=args.last,
                    prefer_html=args.html, open_file=Path(args.open) if args.open else None)
    except MailboxError as exc:
        raise CliError(str(exc)) from None


def cmd_verify(args) -> int:
    from pbem.play.verify import verify

    ctx, _ = open_ctx(args)
    report = verify(ctx, args.game)
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def cmd_archive(args) -> int:
    from pbem.web.archive import build_archive

    ctx, cfg = open_ctx(args)
    out = Path(args.out) if args.out else Path(cfg.server.archive_dir)
    index = build_archive(ctx, out)
    print(f"archive written: {index}")
    return 0


def cmd_quarantine_list(args) -> int:
    from pbem.inbound.quarantine import listing

    ctx, _ = open_ctx(args)
    rows = listing(ctx)
    for row in rows:
        print(f"{row['id']:6}  {row['received']}  {row['sender'] or '?':30}  {row['subject'] or ''}")
        print(f"        {row['outcome']}")
    print(f"{len(rows)} mail set aside" if rows else "no mail is set aside")
    return 0


def cmd_quarantine_release(args) -> int:
    from pbem.inbound.quarantine import release
    from pbem.storage.db import atomic

    ctx, _ = open_ctx(args)
    with atomic(ctx.db):
        try:
            release(ctx, args.id)
        except (ValueError, LookupError) as exc:
            raise CliError(str(exc) or f"no mail {args.id}") from None
    print(f"mail {args.id} is back in the queue with fresh tries; the daemon handles it on its next pass")
    return 0


def cmd_demo(args) -> int:
    from pbem.host.demo import run_demo

    return run_demo(Path(args.dir), rules=args.rules, turns=args.turns, seed=args.seed)


def _scenario_run(args) -> int:
    from pbem.scenario import run_paths

    return run_paths([Path(p) for p in args.paths], sys.stdout)


def _scenario_check(args) -> int:
    from pbem.base import registry
    from pbem.kit.gameapi import Game

    if args.rules:
        rules = registry.get(args.rules)
    else:
        readers = [registry.get(n) for n in registry.names()
                   if type(registry.get(n)).check_data is not Game.check_data]
        if len(readers) != 1:
            raise CliError("give --rules: " + (", ".join(g.name for g in readers) or "no game") + " reads data files")
        rules = readers[0]
    failed = 0
    for name in args.files:
        try:
            text = Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{name}: cannot be read ({exc})")
            failed += 1
            continue
        found = rules.check_data(text)
        if not found:
            print(f"{name}: fits {rules.title}")
            continue
        failed += 1
        print(f"{name}: {len(found)} problem(s); no game can be made from it")
        for p in found:
            print(f"  {name}:{p.line or '?'}: {p.explain()}")
    return 1 if failed else 0


def _scenario_layout(args) -> int:
    from pbem.base import registry
    from pbem.kit.gameapi import Game, GMError
    from pbem.scenario.layout import LayoutError, lay_out

    if args.rules:
        games = [registry.get(args.rules)]
    else:
        games = [g for g in (registry.get(n) for n in registry.names())
                 if type(g).map_layout is not Game.map_layout]
        if len(games) != 1:
            print(f"pbem: name the game with --rules ({', '.join(g.name for g in games) or 'none lays out a map'})",
                  file=sys.stderr)
            return 2
    try:
        out = lay_out(Path(args.file), games[0], Path(args.out) if args.out else None)
    except (LayoutError, OSError) as exc:
        print(f"pbem: {exc}", file=sys.stderr)
        return 1
    except GMError as exc:  # the game's own refusal of the file says what is wrong
        print(f"pbem: {args.file}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {out}: every place's xy = [x, y]; move any and give the file back with OPTION data=")
    return 0


# -- parser ----------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description="play-by-email moderator")
    parser.add_argument("--version", action="version", version=f"pbem {__version__}")
    parser.add_argument("-c", "--config", type=Path,
                        help=f"configuration file (default: $PBEM_CONFIG, else ./{DEFAULT_CONFIG} if present)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def verb(parent, name, func, help_text):
        p = parent.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(func=func)
        return p

    init = verb(sub, "init", cmd_init, "write a configuration file with a new GM secret, the site GM and a free "
                "listener port, and create the database")
    init.add_argument("--gm", help="the site GM's address (default: gm@localhost, read with pbem mail)")
    serve = verb(sub, "serve", cmd_serve, "run the moderator daemon (one per site)")
    serve.add_argument("--once", action="store_true",
                       help="handle what is waiting, then exit (non-zero when a step failed)")
    send = verb(sub, "send", cmd_send, "drop a mail file into the local Maildir intake")
    send.add_argument("file", help="an RFC 5322 mail file, or - for standard input")

    mail = verb(sub, "mail", cmd_mail, "read a local mailbox of the embedded default (the mail pbem delivered "
                "to an address), or list the mailboxes")
    mail.add_argument("address", nargs="?", help="whose mail to read (none: list the mailboxes)")
    mail.add_argument("--last", type=int, metavar="N", help="only the N newest mails")
    mail.add_argument("--html", action="store_true", help="show the HTML part, read as text, instead of the "
                      "plain-text part")
    mail.add_argument("--open", metavar="FILE", help="write the HTML part of the newest mail shown to FILE, "
                      "its images inside it, for a browser")

    cli_game.add_verbs(sub, verb)

    archive = sub.add_parser("archive", help="the static archive site")
    asub = archive.add_subparsers(dest="archive_command", metavar="VERB")
    asub.required = True
    build = verb(asub, "build", cmd_archive, "write the archive site (every game and turn)")
    build.add_argument("--out", help="output folder (default: server.archive_dir)")

    quarantine = sub.add_parser("quarantine", help="mail set aside after failed tries")
    qsub = quarantine.add_subparsers(dest="quarantine_command", metavar="VERB")
    qsub.required = True
    verb(qsub, "list", cmd_quarantine_list, "list the mail set aside, with why")
    rel = verb(qsub, "release", cmd_quarantine_release,
               "hand a mail that was set aside to the moderator again (after fixing the cause)")
    rel.add_argument("id", type=int, help="its number, from pbem quarantine list")

    cli_host.add_verbs(sub, verb)

    v = verb(sub, "verify", cmd_verify, "re-run every stored phase of a game and check its dice")
    v.add_argument("game")

    scenario = sub.add_parser("scenario", help="run the rules' golden scenario files; lay out a game scenario's map")
    scenario_sub = scenario.add_subparsers(dest="scenario_command", metavar="VERB")
    scenario_sub.required = True
    run = verb(scenario_sub, "run", _scenario_run, "run scenario files or folders; non-zero exit on any failure")
    run.add_argument("paths", nargs="+", help="a .scn file or a folder of them")
    check = verb(scenario_sub, "check", _scenario_check, "check GM data files (OPTION data=) as GM CREATE "
                 "would: every problem, with its line; non-zero exit on any")
    check.add_argument("files", nargs="+", help="a TOML data file (a scenario and/or dice tables)")
    check.add_argument("--rules", help=rules_help("the game the file is for (default: the only game that reads "
                                                  "data files), one of"))
    lay = verb(scenario_sub, "layout", _scenario_layout,
               "write a copy of a game's scenario file (FILE.layout.toml) with where each place stands "
               "on the map, for the GM to adjust")
    lay.add_argument("file", help="the scenario's TOML file (OPTION data=)")
    lay.add_argument("--rules", help=rules_help("the game (default: the one game that lays out maps)"))
    lay.add_argument("--out", help="where to write the copy (default: FILE.layout.toml beside it)")

    demo = verb(sub, "demo", cmd_demo, "play a whole game among bots by mail on the embedded default")
    demo.add_argument("--dir", default="demo-run", help="working folder (default: demo-run)")
    demo.add_argument("--turns", type=int, default=None,
                      help="play this many game turns: the game ends after them (default: the whole game)")
    demo.add_argument("--seed", type=int, default=1, help="the bots' random seed")
    demo.add_argument("--rules", default="pax_britannica",
                      help=rules_help("the game to play (default pax_britannica), one of those with bots"))
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from pbem.base.logsetup import quiet_libraries

    quiet_libraries(logging.WARNING)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head and cut short: not an error
        sys.stderr.close()
        return 0
    except Exception as exc:  # one clear line, never a traceback, for the user
        messages = [str(exc).splitlines()[0] if str(exc) else type(exc).__name__]
        if isinstance(exc, sqlite3.Error):
            messages = [describe_failure(_database(args), exc)]
        if hasattr(exc, "problems"):  # a configuration's problems: one line each
            messages = list(exc.problems)
        for message in messages:
            print(f"pbem: error: {message}", file=sys.stderr)
        if os.environ.get("PBEM_DEBUG"):
            raise
        return 1


def _database(args) -> str:
    try:
        return str(load_cfg(args).server.database)
    except Exception:  # the configuration was the trouble: name the database plainly
        return "the database"


if __name__ == "__main__":
    sys.exit(main())
