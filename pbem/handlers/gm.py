"""GM commands by mail.  Every one is written to the GM log; every deadline
change is announced to all players."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from pbem.base import deadlines, gamedata, phaselabels, registry
from pbem.base.deadlines import DeadlineError
from pbem.base.identity import hash_secret, new_secret, normalize_address
from pbem.commands import model as m
from pbem.commands.help import top_keywords
from pbem.handlers.session import Session
from pbem.kit import audience, names
from pbem.kit.gameapi import Edit, Refused, Ruling
from pbem.mail.attachments import toml_files
from pbem.play import turns
from pbem.reporting import dossier, render, reports
from pbem.storage import inbound_mail, phase_orders, snapshots, store
from pbem.storage.db import loads, parse_iso, utcnow_iso


def _need_game(session: Session, cmd, *statuses: str) -> bool:
    rec = session.game
    if rec is None:
        session.problem("unknown-game", "sign on as GM@<game> of an existing game", cmd.line)
        return False
    if statuses and rec.status not in statuses:
        session.problem("wrong-game-status", f"{rec.name} is {rec.status}; this needs it "
                        f"{' or '.join(statuses)}", cmd.line)
        return False
    return True


def _log(session: Session, action: str, detail: str = "",
         seen_by: audience.Audience = audience.public()) -> None:
    """The GM log keeps the GM's role, never an address (the archive shows what is public)."""
    store.gm_log(session.ctx, session.game_name, "GM", action, detail, seen_by=seen_by)


def _announce(session: Session, what: str, text: str,
              seen_by: audience.Audience = audience.public()) -> None:
    """Every player the gate lets see it hears of it: one mail for the whole GM mail (see
    announce.py)."""
    session.announce(what, text, seen_by)


#: a game's name: it is in every subject line, file name and page of the archive
GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def create(session: Session, cmd: m.GmCreate) -> None:
    ctx = session.ctx
    if not GAME_NAME.fullmatch(cmd.game):
        session.problem("bad-game-name", f"{names.shown(cmd.game)} cannot name a game: at most 40 "
                        "letters, digits, '-', '_' or '.', starting with a letter or digit", cmd.line)
        return
    if store.find_game(ctx, cmd.game):
        session.problem("game-exists", f"a game called {cmd.game!r} exists already", cmd.line)
        return
    try:
        rules = registry.get(cmd.rules.lower())
    except KeyError as exc:
        session.problem("unknown-rules", str(exc.args[0]), cmd.line)
        return
    options = dict(cmd.options)
    try:
        policy, unknown, known = store.game_settings(rules, ctx.deadline_defaults, options)
    except (ValueError, DeadlineError) as exc:
        session.problem("bad-option", str(exc), cmd.line)
        return
    for key in unknown:
        session.problem("unknown-option", f"{rules.title} has no option {key!r}; the game was not created",
                        cmd.line, ", ".join(known))
    if unknown:
        return
    if options.get("data"):
        try:
            options["data"] = _data_file(session, options["data"])
        except gamedata.DataFileError as exc:
            session.problem("bad-data-file", f"{exc}; the game was not created", cmd.line)
            return
    try:
        assumed = rules.assumptions(options)
    except Refused as exc:
        session.problem("bad-data-file", f"{exc}; the game was not created", cmd.line)
        return
    session.game = store.create_game(ctx, cmd.game, rules.name, options, policy, session.mail.sender)
    _log(session, "create", cmd.canonical())
    lines = [f"{cmd.game}: {rules.title}, forming. Add players with GM ADD PLAYER or let them JOIN."]
    frozen = gamedata.describe(options.get("data"))
    if frozen:
        lines.append(f"Uses the {frozen}, stored with the game.")
    if assumed:
        lines.append("Values this game assumes (override with OPTION data=<file>):")
        lines.extend(f"- {a}" for a in assumed)
    session.section("Game created:", lines)


def _data_file(session: Session, name: str) -> dict:
    """The GM's data file, from the mail's attachments or the site's game data folder."""
    raw = inbound_mail.get(session.ctx, session.msg_id)["raw"]
    attached = toml_files(raw)
    if name in attached:
        return gamedata.freeze(name, attached[name])
    return gamedata.read(Path(session.ctx.game_data_dir), name)


def add_player(session: Session, cmd: m.GmAddPlayer) -> None:
    if not _need_game(session, cmd, "forming", "active", "paused"):
        return
    rec, ctx = session.game, session.ctx
    power = rec.resolve_power(cmd.power)
    if power is None:
        session.problem("unknown-power", f"{cmd.power!r} is not a power of {rec.rules.title}", cmd.line,
                        rec.roster.nearest(cmd.power))
        return
    if store.player(ctx, rec.name, power):
        session.problem("power-taken", f"{power} already has a player; use GM REPLACE", cmd.line)
        return
    secret = new_secret()
    address = normalize_address(cmd.email)
    store.add_player(ctx, rec.name, power, [address], hash_secret(secret))
    _log(session, "add player", power)
    session.notify(key=f"welcome:{rec.name}:{power}:{session.msg_id}:{cmd.line}", to=[address],
                   subject=f"[{rec.name}] you play {power}",
                   kind="welcome", secrets=(secret,),
                   text=render.render("welcome.txt.j2", game=rec.name, title=rec.rules.title, power=power,
                                      secret=secret, address=ctx.address, site=ctx.site_name))
    session.section("Player added:", [f"{power}: {address} (their secret was mailed to them)"])


def start(session: Session, cmd: m.GmStart) -> None:
    if not _need_game(session, cmd, "forming"):
        return
    try:
        rec = turns.start_game(session.ctx, session.game.name)
    except (ValueError, Refused) as exc:
        session.problem("cannot-start", str(exc), cmd.line)
        return
    session.game = rec
    phase = rec.rules.phase(rec.state)  # turns.start_game logged the start with the seed commitment
    # A first phase that takes orders at once gets no turn report: the start mail is each
    # reader's report of the position then, with what they may do now.
    session.announce_position = phase.open
    _announce(session, "the game has started",
              f"{rec.rules.title}, game {rec.name}, has started.\n"
              f"Powers: {', '.join(p['power'] for p in store.players(session.ctx, rec.name))}\n"
              f"First phase: {phase.label}\n\n"
              f"Dice commitment: SHA-256 of this game's secret seed is\n  {rec.row['seed_hash']}\n"
              "The seed is revealed when the game ends, so anyone can check every roll.")
    session.section("Game started.", [f"first phase {phase.label}"])


def pause(session: Session, cmd: m.GmPause) -> None:
    if not _need_game(session, cmd, "active"):
        return
    rec = session.game
    if not deadlines.pause_allowed(rec.policy, rec.row["pauses"]):
        session.problem("pause-cap", f"this game allows {rec.policy.max_pauses} pauses; all are used", cmd.line)
        return
    store.update_game(session.ctx, rec.name, status="paused", paused_at=utcnow_iso(session.ctx.now()),
                      pauses=rec.row["pauses"] + 1)
    _log(session, "pause")
    _announce(session, "the game is paused", "The GM has paused the game. No phase runs until it "
              "resumes; the time left before the deadline is kept for you.")
    session.section("Game paused.", [])


def resume(session: Session, cmd: m.GmResume) -> None:
    """The clock restarts with the time that was left when the game paused.
    A phase whose every owing power is already done then waits for its
    deadline rather than running at once, unless the GM says RESUME NOW."""
    if not _need_game(session, cmd, "paused"):
        return
    rec, now = session.game, session.ctx.now()
    deadline = rec.deadline
    if deadline is not None:
        # The time the game stood still is given back to the players.
        deadline = max(deadline + (now - parse_iso(rec.row["paused_at"])), now)
    store.update_game(session.ctx, rec.name, status="active", paused_at=None,
                      deadline=utcnow_iso(deadline) if deadline else None,
                      warnings_sent=_passed_warnings(rec, deadline, now))
    session.reload()
    _log(session, "resume now" if cmd.now else "resume", f"deadline {utcnow_iso(deadline) if deadline else '-'}")
    if cmd.now:
        steps = turns.run_phase(session.ctx, rec.name, reason="GM RESUME NOW")
        session.reload()
        _announce(session, "the game resumes", "The GM has resumed the game and resolved "
                  + ", ".join(s.phase.label for s in steps) + " at once; your reports follow.")
        session.section("Game resumed and processed:", [s.phase.label for s in steps])
        return
    rec = session.game
    phase = rec.rules.phase(rec.state)
    lines = []
    if phase.owes and not phase_orders.waiting_for(session.ctx, rec):
        store.update_game(session.ctx, rec.name, hold_early=1)
        session.reload()
        lines = [f"Every power that owes orders for {phase.label} is done: the phase runs at the deadline "
                 f"({render.deadline_text(rec, deadline)}), not at once, so orders may still change. "
                 "GM PROCESS NOW (or GM RESUME NOW) runs it at once."]
    _announce(session, "the game resumes", "The GM has resumed the game, with the time that was left "
              "when it paused.")
    session.section("Game resumed.", lines)


def _passed_warnings(rec, deadline: datetime | None, now: datetime) -> list[str]:
    """Reminders whose moment lies before ``now`` for this deadline: a deadline
    the GM just set or moved is announced to everyone, so those are not sent
    on top of the announcement (the later ones still are)."""
    if deadline is None:
        return []
    policy = rec.policy_for(rec.rules.phase(rec.state)) if rec.state else rec.policy
    return sorted(deadlines.format_duration(w) for w in policy.warnings if now >= deadline - w)


def _set_deadline(session: Session, cmd, new: datetime, what: str, **extra) -> None:
    rec = session.game
    store.update_game(session.ctx, rec.name, deadline=utcnow_iso(new),
                      warnings_sent=_passed_warnings(rec, new, session.ctx.now()), **extra)
    session.reload()
    _log(session, what, utcnow_iso(new))
    _announce(session, "deadline changed", f"The GM {what}.")
    session.section("Deadline changed:", [render.deadline_text(session.game, new)])


def extend(session: Session, cmd: m.GmExtend) -> None:
    if not _need_game(session, cmd, "active", "paused"):
        return
    rec = session.game
    if rec.deadline is None:
        session.problem("no-deadline", "the game is not waiting for orders", cmd.line)
        return
    done = [timedelta(seconds=s) for s in rec.extensions]
    try:
        new = deadlines.extend(rec.deadline, cmd.duration, rec.policy, done)
    except DeadlineError as exc:
        session.problem("extension-cap", str(exc), cmd.line)
        return
    _set_deadline(session, cmd, new, f"extended the deadline by {deadlines.format_duration(cmd.duration)}",
                  extensions=[*rec.extensions, cmd.duration.total_seconds()])


def set_deadline(session: Session, cmd: m.GmSetDeadline) -> None:
    if not _need_game(session, cmd, "active", "paused"):
        return
    zone = ZoneInfo(cmd.zone or session.game.policy.timezone)
    when = deadlines.to_instant(cmd.when, zone).astimezone(timezone.utc)
    if when <= session.ctx.now():
        session.problem("deadline-past", "the new deadline is in the past", cmd.line)
        return
    _set_deadline(session, cmd, when, "set a new deadline")


def process(session: Session, cmd: m.GmProcess) -> None:
    if not _need_game(session, cmd, "active"):
        return
    if not cmd.now:
        # Runs on the daemon's next pass, after this mail (and any orders
        # arriving with it) is committed; the deadline itself is not moved.
        store.update_game(session.ctx, session.game.name, process_requested=1)
        _log(session, "process requested")
        session.section("Processing requested:", ["the phase runs on the moderator's next pass, "
                                                  "with the defaults for missing orders"])
        return
    steps = turns.run_phase(session.ctx, session.game.name, reason="GM PROCESS NOW")
    _log(session, "process now", ", ".join(s.phase.label for s in steps))
    session.section("Processed:", [s.phase.label for s in steps])


def preview(session: Session, cmd: m.GmPreview) -> None:
    if not _need_game(session, cmd, "active", "paused"):
        return
    rec = session.game
    steps = turns.preview(session.ctx, rec.name)
    events = [e for s in steps for e in s.events]
    after = steps[-1].after
    lines = [f"Would resolve: {', '.join(s.phase.label for s in steps)}", ""]
    lines += rec.rules.report(after, events, None).text.splitlines()
    _log(session, "preview")
    session.section("Preview (nothing was stored):", lines)


def rollback(session: Session, cmd: m.GmRollback) -> None:
    """Back to the start of a resolved phase, named as HISTORY prints it; every
    player is mailed the restored position with what is due."""
    if not _need_game(session, cmd, "active", "paused", "over"):
        return
    rows = phase_orders.history(session.ctx, session.game.name)
    found = phaselabels.find(cmd.phase, rows)
    keys = list(dict.fromkeys(r["phase_key"] for r in found))
    if len(keys) != 1:
        what = (f"{cmd.phase!r} names {len(keys)} phases: "
                f"{', '.join(r['label'] for r in found)}; name one" if keys else
                f"no resolved phase {cmd.phase!r} in {session.game.name}")
        session.problem("bad-rollback", what + (f". Resolved phases: {phaselabels.listing(rows)}"
                                                if rows else ""), cmd.line)
        return
    rec = turns.rollback(session.ctx, session.game.name, keys[0])
    session.game = rec
    label = rec.rules.phase(rec.state).label
    session.announce_position = True
    _announce(session, f"the GM rolled the game back to {label}",
              f"The GM has rolled the game back to the start of {label}. Orders sent for it and for the "
              "phases after it were withdrawn: send your orders again. The position below is the one "
              "restored.")
    session.section("Rolled back:", [label, "every player is mailed the restored position"])


def replace(session: Session, cmd: m.GmReplace) -> None:
    if not _need_game(session, cmd):
        return
    rec, ctx = session.game, session.ctx
    power = rec.resolve_power(cmd.power)
    row = store.player(ctx, rec.name, power) if power else None
    if row is None:
        session.problem("unknown-power", f"{cmd.power!r} has no player to replace", cmd.line,
                        rec.roster.nearest(cmd.power))
        return
    secret, address = new_secret(), normalize_address(cmd.email)
    old = store.addresses(row)
    store.update_player(ctx, row["id"], addresses=[address], secret_hash=hash_secret(secret), missed=0,
                        status="active")
    _log(session, "replace", f"{power}: a new player")
    session.notify(key=f"welcome:{rec.name}:{power}:{session.msg_id}:{cmd.line}", to=[address],
                   subject=f"[{rec.name}] you now play {power}",
                   kind="welcome", secrets=(secret,),
                   text=render.render("welcome.txt.j2", game=rec.name, title=rec.rules.title, power=power,
                                      secret=secret, address=ctx.address, site=ctx.site_name))
    sent = dossier.queue_dossier(ctx, rec, power, address, key=f"dossier:{session.msg_id}:{cmd.line}")
    session.notify(key=f"replaced:{rec.name}:{power}:{session.msg_id}:{cmd.line}", to=old[:1],
                   subject=f"[{rec.name}] {power} has a new player",
                   text=f"The GM has handed {power} in game {rec.name} to another player. Thank you for playing.")
    session.section("Player replaced:", [f"{power}: now {address}"]
                    + (["they were mailed the handover dossier (position, treaties, press, orders)"]
                       if sent else []))


def become(session: Session, cmd: m.GmBecome) -> None:
    if not _need_game(session, cmd):
        return
    rec = session.game
    power = rec.resolve_power(cmd.power)
    row = store.player(session.ctx, rec.name, power) if power else None
    if row is None:
        session.problem("unknown-power", f"{cmd.power!r} is not played in {rec.name}", cmd.line)
        return
    session.power = power
    _log(session, "become", power, audience.powers(power))
    session.notify(key=f"become:{session.msg_id}:{power}", to=store.addresses(row)[:1],
                   subject=f"[{rec.name}] the GM acted as {power}",
                   text=f"The GM is acting as {power} in game {rec.name} (mail of {utcnow_iso(session.ctx.now())}).\n"
                        "You will receive the acknowledgement of what was done on your behalf.")
    # The power is told by the notice above; it is not copied on the GM's
    # reply, which may hold other commands' output (addresses, previews).
    session.section(f"Acting as {power} for the rest of this mail.", [])


def _apply(session: Session, inp, line) -> list[dict] | None:
    """A ruling or an edit, through the game as a typed input (a snapshot
    ``pbem verify`` replays); None when the game refused it."""
    try:
        events = turns.apply_input(session.ctx, session.game.name, inp)
    except Refused as exc:
        session.problems.append(exc.problem(line))
        return None
    session.reload()
    return events


def rule(session: Session, cmd: m.GmRule) -> None:
    if not _need_game(session, cmd, "active", "paused"):
        return
    events = _apply(session, Ruling(cmd.question, cmd.ruling), cmd.line)
    if events is None:
        return
    seen_by = _question_audience(session, cmd.question)
    _log(session, "ruling", f"{cmd.question}: {cmd.ruling}", seen_by)
    _announce(session, f"GM ruling on {cmd.question}", f"The GM ruled on {cmd.question}: {cmd.ruling}", seen_by)
    _treaties_changed(session, events, cmd.line)
    session.section("Ruling recorded:", [f"{cmd.question}: {cmd.ruling}"])


def _question_audience(session: Session, question: str) -> audience.Audience:
    """Who hears of a ruling: whoever may see the treaty it is on; else whoever may see the
    question the game asked (its latest ``question`` event of that id); else the GM alone."""
    rec, wanted = session.game, question.lower()
    for t in rec.rules.treaty_records(rec.state, None, gm=True) if rec.rules.treaties else []:
        if wanted in (str(t.get("key") or t["id"]).lower(), str(t["id"]).lower()):
            return audience.treaty(t.get("key") or t["id"], t.get("parties") or ())
    for data in snapshots.events_of_kind(session.ctx, rec.name, "question"):
        event = loads(data, {})
        if str(event.get("id", "")).lower() == wanted:
            return audience.of(event) or audience.gm()
    return audience.gm()


def _treaties_changed(session: Session, events: list[dict], line) -> None:
    reports.queue_treaty_records(session.ctx, session.game, render.treaty_keys(events), f"{session.msg_id}:{line}")


def announce(session: Session, cmd: m.GmAnnounce) -> None:
    if not _need_game(session, cmd):
        return
    _log(session, "announce", cmd.text[:200])
    _announce(session, "announcement from the GM", cmd.text)
    session.section("Announcement sent to every player.", [])


def reveal_seed(session: Session, cmd: m.GmRevealSeed) -> None:
    if not _need_game(session, cmd, "active", "paused", "over"):
        return
    rec = session.game
    store.update_game(session.ctx, rec.name, seed_revealed=1)
    _log(session, "reveal seed")
    _announce(session, "dice seed revealed", f"The game's dice seed is {rec.row['seed']}\n"
              f"(its SHA-256, published at the start: {rec.row['seed_hash']}).")
    session.section("Seed revealed to every player.", [])


#: commands a GM may write after GM by mistake (they are everyone's, written without GM)
_NOT_GM = top_keywords() - {"SET", "CLEAR", "GM"}


def edit(session: Session, cmd: m.GmEdit) -> None:
    first = cmd.text.split()[0].upper()
    if first in _NOT_GM:
        session.problem("not-gm-command", f"{first} is not a GM command: write it without GM",
                        cmd.line, cmd.text)
        return
    if not _need_game(session, cmd, "active", "paused"):
        return
    events = _apply(session, Edit(cmd.text), cmd.line)
    if events is None:
        return
    # An edit is public when everything it did is; one that touched a private figure or a
    # secret treaty is the GM's alone.
    _log(session, "state edit", cmd.text, audience.narrowest(audience.of(e) for e in events))
    _treaties_changed(session, events, cmd.line)
    session.section("State edit applied:", [cmd.text])


HANDLERS = {m.GmCreate: create, m.GmAddPlayer: add_player, m.GmStart: start, m.GmPause: pause,
            m.GmResume: resume, m.GmExtend: extend, m.GmSetDeadline: set_deadline, m.GmProcess: process,
            m.GmPreview: preview, m.GmRollback: rollback, m.GmReplace: replace, m.GmBecome: become,
            m.GmRule: rule, m.GmAnnounce: announce, m.GmRevealSeed: reveal_seed, m.GmEdit: edit}
