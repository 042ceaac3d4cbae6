"""The GM's commands on the game and its seats: create, add a player, start,
replace, become a power, rule, announce, reveal the seed, and the game's own
edits (the clock's commands are in :mod:`.gm_clock`).  Every one is written to
the GM log."""
from __future__ import annotations

import re
import dataclasses
from pathlib import Path

from pbem.base import gamedata, registry
from pbem.base.deadlines import DeadlineError
from pbem.base.identity import hash_made_secret, new_secret, normalize_address
from pbem.commands import model as m
from pbem.commands import values as v
from pbem.commands.grammar import top_keywords
from pbem.handlers.declare import command, gm_words
from pbem.handlers.gm_common import announce as _announce, log as _log, need_game as _need_game
from pbem.handlers.session import Session
from pbem.kit import audience, names, positions
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import Edit, GMError, Refused, Ruling
from pbem.mail.attachments import toml_files
from pbem.play import turns
from pbem.reporting import dossier, render, reports
from pbem.storage import inbound_mail, snapshots, store
from pbem.storage.db import loads, utcnow_iso


#: a game's name: it is in every subject line, file name and page of the archive
GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


@command(m.GmCreate, "GM CREATE", "gm_create", "GM CREATE <game> RULES <rules> [OPTION <key>=<value> ...]",
         "Create a game played under a rule set, with options.",
         "gm",
         build=lambda c: m.GmCreate(str(c[0]), str(c[1]),
                                    tuple(v.option(str(w)) for opt in c[2:] for w in opt.children)),
         signon=False)
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
        if not _data_fits(session, cmd, rules, options["data"]):
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


def _data_fits(session: Session, cmd: m.GmCreate, rules, frozen: dict) -> bool:
    """The game's check of the data file: every problem is listed, with the file's line."""
    found = rules.check_data(frozen["text"])
    if found:
        session.problem("bad-data-file", f"GM CREATE {cmd.game}: the data file {frozen['name']} has {len(found)} "
                        "problem(s), listed below with the file's lines; the game was not created")
    # Without a line of the mail, so that the reply lists them in the file's order after the
    # first; a reply lists a bounded number (reply_bounds.summarise counts the rest).
    for p in found:
        where = f"{frozen['name']} line {p.line}: " if p.line else f"{frozen['name']}: "
        session.problem(f"data-{p.code}", where + p.message, None, p.suggestion, p.kind)
    return not found


def _data_file(session: Session, name: str) -> dict:
    """The GM's data file, from the mail's attachments or the site's game data folder."""
    raw = inbound_mail.get(session.ctx, session.msg_id)["raw"]
    attached = toml_files(raw)
    if name in attached:
        return gamedata.freeze(name, attached[name])
    return gamedata.read(Path(session.ctx.game_data_dir), name)


@command(m.GmAddPlayer, "GM ADD PLAYER", "gm_add_player", "GM ADD PLAYER <power> <email>",
         "Seat a player at a power (its name as the reports print it, e.g. United States).",
         "gm", build=lambda c: m.GmAddPlayer(*v.power_and_address(str(c[0]), "GM ADD PLAYER")))
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
    store.add_player(ctx, rec.name, power, [address], hash_made_secret(ctx.secret_cache, secret))
    _log(session, "add player", power)
    session.notify(key=f"welcome:{rec.name}:{power}:{session.msg_id}:{cmd.line}", to=[address],
                   subject=f"[{rec.name}] you play {power}",
                   kind="welcome", secrets=(secret,),
                   text=render.render("welcome.txt.j2", game=rec.name, title=rec.rules.title, power=power,
                                      secret=secret, address=ctx.address, site=ctx.site_name))
    session.section("Player added:", [f"{power}: {address} (their secret was mailed to them)"])


@command(m.GmCancel, "GM CANCEL", "gm_cancel", "GM CANCEL",
         "Delete a forming game: its seats, log and archive pages go (the mail stays); its players are "
         "told. A started game is never deleted.",
         "gm")
def cancel(session: Session, cmd: m.GmCancel) -> None:
    if not _need_game(session, cmd, "forming"):
        return
    rec, ctx = session.game, session.ctx
    for p in store.players(ctx, rec.name):
        session.notify(key=f"cancelled:{rec.name}:{p['power']}:{session.msg_id}", to=store.addresses(p),
                       subject=f"[{rec.name}] the game was cancelled", kind="notice",
                       text=f"The GM cancelled the game {rec.name} ({rec.rules.title}) before it started. "
                            f"Your seat at {p['power']} and its secret are gone; nothing more will come "
                            "about this game.\n")
    store.delete_game(ctx, rec.name)
    session.game = None   # the rest of the mail acts on no game
    session.section("Game cancelled:", [f"{rec.name} is deleted with its seats and log; its archive pages go "
                                        "with the next archive build."])


@command(m.GmStart, "GM START", "gm_start", "GM START",
         "Start the game (publishes the dice seed's hash).",
         "gm")
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


@command(m.GmReplace, "GM REPLACE", "gm_replace", "GM REPLACE <power> <email>",
         "Give a power to a new player; they are mailed their secret and a handover dossier "
         "(position, treaties, press, pending orders).",
         "gm", build=lambda c: m.GmReplace(*v.power_and_address(str(c[0]), "GM REPLACE")))
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
    store.update_player(ctx, row["id"], addresses=[address], secret_hash=hash_made_secret(ctx.secret_cache, secret),
                        missed=0,
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


@command(m.GmBecome, "GM BECOME", "gm_become", "GM BECOME <power>",
         "Act as a power (the following commands are that power's).",
         "gm", build=lambda c: m.GmBecome(" ".join(str(c[0]).split())))
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


@command(m.GmRule, "GM RULE", "gm_rule", "GM RULE <question-id> <ruling...>",
         "Answer a question the rules engine could not decide.",
         "gm", build=lambda c: m.GmRule(str(c[0]), v.phrase(c[1])))
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
    for t in rec.rules.treaty_records(rec.state, None, gm=True) if supports(rec.rules, "treaties") else []:
        if wanted in (str(t.get("key") or t["id"]).lower(), str(t["id"]).lower()):
            return audience.treaty_of(t)
    for data in snapshots.events_of_kind(session.ctx, rec.name, "question"):
        event = loads(data, {})
        if str(event.get("id", "")).lower() == wanted:
            return audience.of(event) or audience.gm()
    return audience.gm()


def _treaties_changed(session: Session, events: list[dict], line) -> None:
    reports.queue_treaty_records(session.ctx, session.game, render.treaty_keys(events), f"{session.msg_id}:{line}")


@command(m.GmAnnounce, "GM ANNOUNCE", "gm_announce", "GM ANNOUNCE ... ENDANNOUNCE",
         "Send the text up to ENDANNOUNCE to every player.",
         "gm", build=lambda c: m.GmAnnounce(""), text="text", block="ANNOUNCE")
def announce(session: Session, cmd: m.GmAnnounce) -> None:
    if not _need_game(session, cmd):
        return
    # The text may tell of what another command of the mail does: it is held if one fails
    # (see announce.flush), so players never read of a rollback that did not happen.
    session.gm_texts.append((len(session.announcements), len(session.sections)))
    _announce(session, "announcement from the GM", cmd.text)
    session.section("Announcement sent to every player.", [])


@command(m.GmRevealSeed, "GM REVEAL SEED", "gm_reveal_seed", "GM REVEAL SEED",
         "Publish the dice seed so anyone can verify.",
         "gm")
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


@command(m.GmEdit, "GM", None, "GM <game-command...>",
         "Any other GM line is a state edit in the game's own vocabulary (e.g. GM SET TREASURY"
         " France 10); every player whose position it changes is told what changed, and an edit"
         " that would change nothing is refused (`no-change`).",
         "gm")
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
        _suggest_own_command(session, cmd.text)
        return
    # An edit is public when everything it did is; one that touched a private figure or a
    # secret treaty is the GM's alone.  What it changed in each player's position is that
    # player's, told below, and does not make the log entry private.
    told = [e for e in events if e.get("kind") == positions.POSITION_CHANGED]
    _log(session, "state edit", cmd.text,
         audience.narrowest(audience.of(e) for e in events if e.get("kind") != positions.POSITION_CHANGED))
    _treaties_changed(session, events, cmd.line)
    for e in told:  # one mail per player for the whole GM mail (announce.flush)
        _announce(session, "the GM changed your position", str(e.get("text", "")), audience.of(e) or audience.gm())
    session.section("State edit applied:", [cmd.text] + [f"{e.get('power')} is told: {'; '.join(e.get('changes', []))}"
                                                         for e in told])


def _suggest_own_command(session: Session, text: str) -> None:
    """The game refused an edit whose first word is a typo of one of pbem's own GM
    commands (``GM EXTND 24h``): that command is the likelier meaning, so the refusal
    suggests it, unless the game suggested something itself."""
    refused = session.problems[-1] if session.problems else None
    if refused is None or refused.suggestion or refused.code != GMError.code:
        return  # refused for a reason of the game's own naming
    words = text.split()
    own = gm_words()
    if words[0].upper() in own:
        return  # written right (GM SET is pbem's and a game's): a mistake further on
    close = names.nearest(words[0].upper(), own, normalise=str.upper)
    if close:
        session.problems[-1] = dataclasses.replace(refused, suggestion=" ".join(["GM", close, *words[1:]]))
