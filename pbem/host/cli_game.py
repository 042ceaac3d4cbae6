"""The command line verbs that create and steer games: ``pbem game new|add-player|
list|status|start|process|preview|rollback`` and ``pbem gm GAME 'COMMAND' ...``.
Those that steer a game run as the same GM mail would (:mod:`pbem.host.gm_console`)."""
from __future__ import annotations

from pbem.host.cliutil import CliError, open_ctx, rules_help
from pbem.kit.audience import public


def add_verbs(sub, verb) -> None:
    """The game and gm verbs, on the top-level parser ``sub``; ``verb(parent, name,
    func, help)`` adds one."""
    game = sub.add_parser("game", help="create and steer games from the command line")
    gsub = game.add_subparsers(dest="game_command", metavar="VERB")
    gsub.required = True
    new = verb(gsub, "new", cmd_game_new, "create a game (forming)")
    new.add_argument("name")
    new.add_argument("--rules", required=True, help=rules_help("the game's rules, one of"))
    new.add_argument("--option", action="append", default=[], help="KEY=VALUE (repeatable)")
    new.add_argument("--gm", help="the GM's address (default: the site GM, server.gm_address)")
    add = verb(gsub, "add-player", cmd_game_add, "add a player to a game; prints their secret")
    add.add_argument("name")
    add.add_argument("power")
    add.add_argument("email")
    add.add_argument("--secret", help="use this secret instead of a new one")
    verb(gsub, "list", cmd_game_list, "list the games")
    for name, func, text in (("status", cmd_game_status, "show a game's phase, deadline and players"),
                             ("start", cmd_game_start, "start a forming game (commits the dice seed)"),
                             ("process", cmd_game_process, "resolve the current phase now"),
                             ("preview", cmd_game_preview, "show what processing now would do; stores nothing")):
        verb(gsub, name, func, text).add_argument("name")
    rb = verb(gsub, "rollback", cmd_game_rollback, "put a game back to the start of a resolved phase")
    rb.add_argument("name")
    rb.add_argument("phase", help="the phase as HISTORY prints it, e.g. \"1884 Movement/Status Change\" "
                    "or 1884/movement")

    gmv = verb(sub, "gm", cmd_gm, "run GM commands on a game as a GM mail would (EXTEND 24h, PAUSE, "
               "REPLACE France new@example.org, RULE q1 ..., ANNOUNCE is by mail only); mail goes out "
               "with the daemon")
    gmv.add_argument("game")
    gmv.add_argument("commands", nargs="+", help="one quoted GM command each, with or without the leading GM")


def cmd_game_new(args) -> int:
    from pbem.base import gamedata, registry
    from pbem.storage import store
    from pbem.storage.db import atomic

    ctx, cfg = open_ctx(args)
    gm = _game_gm(args.gm, cfg)
    options = dict(_option(o) for o in args.option)
    rules = registry.get(args.rules)
    policy, unknown, known = store.game_settings(rules, dict(cfg.deadlines), options)
    if unknown:
        raise CliError(f"{rules.title} has no option {', '.join(sorted(unknown))} (known: {', '.join(known)})")
    if options.get("data"):
        try:
            options["data"] = gamedata.read(cfg.server.game_data, options["data"])
        except gamedata.DataFileError as exc:
            raise CliError(str(exc)) from None
        found = rules.check_data(options["data"]["text"])
        if found:
            name = options["data"]["name"]
            refused = CliError(f"{name} has {len(found)} problem(s); the game was not created")
            refused.problems = [str(refused)] + [f"{name}:{p.line or '?'}: {p.explain()}" for p in found]
            raise refused
    with atomic(ctx.db):
        with_db = store.create_game(ctx, args.name, args.rules, options, policy, gm)
        store.gm_log(ctx, args.name, "GM", "create", f"rules {args.rules} {options} (command line)",
                     seen_by=public())
    print(f"created {with_db.name} ({with_db.rules.title}), forming")
    print(f"  GM: {gm}" + ("" if args.gm else " (server.gm_address)"))
    for a in with_db.rules.assumptions(options):
        print(f"  assumed: {a}")
    return 0


def _game_gm(given: str | None, cfg) -> str:
    """The GM of a game made on the command line: --gm, else the site GM; never the
    moderator's own address, where mail to the GM would reach nobody."""
    from pbem.base.identity import normalize_address

    gm = normalize_address(given or cfg.server.gm_address)
    where = cfg.path or "the configuration"
    if not gm:
        raise CliError(f"the game needs a GM: give --gm ADDRESS, or set server.gm_address in {where}")
    if "@" not in gm or any(c.isspace() for c in gm):
        raise CliError(f"--gm {given}: not a mail address")
    if gm == normalize_address(cfg.server.address):
        raise CliError(f"{gm} is the moderator's own address (server.address): mail to the GM would "
                       f"reach nobody; give --gm ADDRESS" + ("" if given else f", or set server.gm_address in {where}"))
    return gm


def cmd_game_add(args) -> int:
    from pbem.base.identity import hash_made_secret, hash_secret, new_secret, normalize_address
    from pbem.storage import store

    ctx, _ = open_ctx(args)
    rec = store.get_game(ctx, args.name)
    power = rec.resolve_power(args.power)
    if power is None:
        raise CliError(f"{args.power!r} is not a power of {rec.rules.title}")
    if rec.status == "over":
        raise CliError(f"{rec.name} is over; it takes no players")
    if store.player(ctx, rec.name, power):
        raise CliError(f"{power} already has a player in {rec.name}; use pbem gm {rec.name} \"REPLACE ...\"")
    from pbem.storage.db import atomic

    secret = args.secret or new_secret()
    with atomic(ctx.db):
        hashed = hash_secret(secret) if args.secret else hash_made_secret(ctx.secret_cache, secret)
        store.add_player(ctx, rec.name, power, [normalize_address(args.email)], hashed)
        store.gm_log(ctx, rec.name, "GM", "add player", f"{power} (command line)", seen_by=public())
    print(f"{power}: {args.email}, secret {secret}")
    return 0


def cmd_game_list(args) -> int:
    from pbem.storage import store

    ctx, _ = open_ctx(args)
    for rec in store.list_games(ctx):
        phase = rec.rules.phase(rec.state).label if rec.state else "-"
        print(f"{rec.name:16} {rec.row['rules']:16} {rec.status:8} {phase}")
    return 0


def cmd_game_status(args) -> int:
    from pbem.reporting import render
    from pbem.storage import phase_orders, store

    ctx, _ = open_ctx(args)
    rec = store.get_game(ctx, args.name)
    print(f"{rec.name}: {rec.rules.title}, {rec.status}")
    if rec.status == "paused":
        print("PAUSED by the GM: no phase runs until GM RESUME (the time left is kept)")
    if rec.state:
        phase = rec.rules.phase(rec.state)
        print(f"phase: {phase.label}")
        print(f"deadline: {render.deadline_text(rec, rec.deadline)}")
        waiting = phase_orders.waiting_for(ctx, rec)
        if waiting:
            print(f"waiting for: {', '.join(waiting)}")
        elif phase.owes and rec.status in ("active", "paused"):
            print("waiting for: nobody (every power that owes orders is done"
                  + ("; the phase runs once the game resumes)" if rec.status == "paused" else
                     "; the phase runs at its deadline, as the GM resumed the game)"
                     if rec.row.get("hold_early") else ")"))
        else:
            print("waiting for: nobody (the phase asks for no orders)")
    for row in store.players(ctx, rec.name):
        print(f"  {row['power']:16} {', '.join(store.addresses(row))}  missed {row['missed']}")
    if rec.state:
        for line in rec.rules.gm_status(rec.state):
            print(line)
    return 0


def _as_gm(args, *commands: str) -> int:
    """Game verbs that steer a game go through the GM handlers, so they are
    logged and announced exactly as the same GM mail would be."""
    from pbem.host import gm_console

    ctx, _ = open_ctx(args)
    text, ok = gm_console.run(ctx, args.name, list(commands))
    print(text.rstrip())
    return 0 if ok else 1


def cmd_game_start(args) -> int:
    return _as_gm(args, "START")


def cmd_game_process(args) -> int:
    return _as_gm(args, "PROCESS NOW")


def cmd_game_preview(args) -> int:
    from pbem.play import turns
    from pbem.storage import store

    ctx, _ = open_ctx(args)
    rec = store.get_game(ctx, args.name)
    if rec.status not in ("active", "paused"):
        raise CliError(f"{rec.name} is {rec.status}: there is no phase to preview")
    steps = turns.preview(ctx, args.name)
    store.gm_log(ctx, rec.name, "GM", "preview", "command line", seen_by=public())  # as GM PREVIEW by mail is
    events = [e for s in steps for e in s.events]
    print("would resolve: " + ", ".join(s.phase.label for s in steps))
    print(rec.rules.report(steps[-1].after, events, None).text)
    return 0


def cmd_game_rollback(args) -> int:
    return _as_gm(args, f"ROLLBACK {args.phase}")


def cmd_gm(args) -> int:
    from pbem.host import gm_console

    ctx, _ = open_ctx(args)
    text, ok = gm_console.run(ctx, args.game, args.commands)
    print(text.rstrip())
    return 0 if ok else 1


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep:
        raise CliError(f"option {text!r}: write KEY=VALUE")
    return key.strip(), value.strip()
