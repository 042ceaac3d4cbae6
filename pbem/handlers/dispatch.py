"""Route a parsed mail to its game and power, authenticate it, and run each
command through its handler, in the mail's order."""
from __future__ import annotations

import logging

from pbem.base.identity import check_reply_token
from pbem.commands import model as m
from pbem.handlers import addresses, announce, budget, gm, player, secret_check, treaty
from pbem.handlers.guard import run_command
from pbem.handlers.session import Session
from pbem.kit.names import nearest
from pbem.storage import store

log = logging.getLogger(__name__)

# Commands that make sense before signing on (they carry their own proof or need none).
_OPEN = (m.Help, m.Join, m.SignOff, m.Confirm)

# Commands that act for a power: a GM mail needs GM BECOME <power> before them.
_FOR_A_POWER = (m.Orders, m.Done, m.Clear, m.SetAddress, m.SetPassword, m.SetAbsence, m.SetZone, m.TreatyPropose, m.TreatySign,
                m.TreatyRefuse, m.TreatyWithdraw, m.TreatyReveal, m.TreatyBreach)

HANDLERS = {**player.HANDLERS, **addresses.HANDLERS, **treaty.HANDLERS, **gm.HANDLERS}


def run(session: Session, parsed: m.ParsedMail) -> None:
    for p in parsed.problems:
        session.problems.append(p)
    signed_on = _sign_on(session, parsed.signon) if parsed.signon else None
    if parsed.signon and not signed_on:
        session.status, session.outcome = "rejected", session.outcome
        return
    if not parsed.commands and not parsed.signon:
        session.outcome = "no commands"
    # One "no-signon" per mail, at the first command refused for it; an incomplete
    # sign-on (GAME/POWER/PASSWORD) was reported by the parser and says the same.
    told = any(p.code == "incomplete-signon" for p in parsed.problems)
    helped: set[str] = set()
    spent = budget.MailBudget()
    for cmd in parsed.commands:
        if isinstance(cmd, m.SignOff):
            break
        if isinstance(cmd, m.Help) and not _first_help(session, cmd, helped):
            continue
        if not signed_on and not isinstance(cmd, _OPEN) and not isinstance(cmd, m.GmCreate):
            if not told:
                session.problem("no-signon", f"{cmd.canonical().splitlines()[0]}: sign on first with "
                                "SIGNON <power>@<game> <secret>; nothing in this mail that needs it "
                                "was done", cmd.line, kind="invalid")
                told = True
            continue
        handler = HANDLERS.get(type(cmd))
        if handler is None:
            session.problem("unsupported", f"{type(cmd).__name__} is not supported here", cmd.line)
            continue
        if type(cmd).__name__.startswith("Gm") and not session.is_gm:
            session.problem("not-gm", "GM commands need the GM sign-on: SIGNON GM@<game> <GM secret>",
                            cmd.line)
            continue
        if isinstance(cmd, _FOR_A_POWER) and not session.power:
            session.problem("no-power", f"{cmd.canonical().splitlines()[0]} acts for a power: "
                            "write GM BECOME <power> before it", cmd.line)
            continue
        if not budget.allow(session, cmd, spent) or not _text_fits(session, cmd):
            continue
        run_command(session, cmd, handler)
    undone = budget.summary(spent)
    if undone:
        session.note(undone)
    announce.flush(session)


def _text_fits(session: Session, cmd) -> bool:
    """A press, treaty text or breach claim is at most ``limits.max_text_bytes``:
    what one player writes is copied into others' mail and reports."""
    if not isinstance(cmd, (m.Press, m.TreatyPropose, m.TreatyBreach)):
        return True
    text = cmd.body if isinstance(cmd, m.Press) else cmd.text
    cap = session.ctx.limits.max_text_bytes
    size = len(text.encode("utf-8"))
    if size <= cap:
        return True
    session.problem("text-too-long", f"{cmd.echo().splitlines()[0][:60]}: its text is {size} bytes; "
                    f"at most {cap} are taken. Nothing of it was done: shorten it.", cmd.line)
    return False


def _first_help(session: Session, cmd: m.Help, helped: set[str]) -> bool:
    """Each HELP topic is answered once a mail, and only the first few topics:
    a mail of a thousand HELP lines gets one answer, not a thousand."""
    topic = " ".join((cmd.topic or "").upper().split())
    if topic in helped:
        return False
    limit = session.ctx.limits.max_help
    if len(helped) >= limit:
        if len(helped) == limit:
            session.problem("too-much-help", f"only the first {limit} HELP topics of a mail are "
                            "answered; ask for the others in another mail", cmd.line)
            helped.add("\x00")  # say it once
        return False
    helped.add(topic)
    return True


def _suggest_game(session: Session, name: str) -> str | None:
    names = [g.name for g in store.list_games(session.ctx)]
    return nearest(name, names)


def _sign_on(session: Session, signon: m.SignOn) -> bool:
    ctx = session.ctx
    rec = store.find_game(ctx, signon.game)
    if signon.is_gm:
        session.own_address = session.mail.sender in store.gm_addresses(ctx)
        if not secret_check.gm_secret(session, rec, signon):
            return False
        session.is_gm = session.signed_on = True
        session.game = rec  # may be None before GM CREATE
        session.outcome = "GM"
        return True
    if rec is None:
        session.problem("unknown-game", f"there is no game called {signon.game!r}", signon.line,
                        _suggest_game(session, signon.game))
        session.outcome = "unknown game"
        return False
    power = rec.resolve_power(signon.power)
    row = store.player(ctx, rec.name, power) if power else None
    if row is None:
        names = [p["power"] for p in store.players(ctx, rec.name)]
        session.problem("unknown-power", f"no power {signon.power!r} is played in {rec.name}",
                        signon.line, nearest(signon.power, names))
        session.outcome = "unknown power"
        return False
    record = store.addresses(row)
    session.own_address = session.mail.sender in record
    if not secret_check.player_secret(session, rec, power, row, signon):
        return False
    if (ctx.require_address_of_record or store.option_on(rec, "address_of_record_only")) \
            and session.mail.sender not in record:
        session.game = rec
        session.problem("not-address-of-record", f"this game accepts {power}'s mail only from its "
                        "address of record", signon.line)
        session.notify(key=f"foreign-address:{session.msg_id}", to=record[:1],
                       subject=f"[{rec.name}] {power}: mail from another address refused",
                       text=f"A mail from {session.mail.sender} signed on as {power} with the right "
                            "secret, but this game only accepts mail from your address of record.")
        return False
    if (ctx.reply_token or store.option_on(rec, "reply_token")) and rec.row.get("token_key") and rec.state:
        phase_key = rec.rules.phase(rec.state).key
        if not any(check_reply_token(rec.row["token_key"], rec.name, phase_key, power, t)
                   for t in session.tokens):
            session.game = rec
            session.problem("missing-token", "quote the line TOKEN <token> from your last turn report",
                            signon.line)
            return False
    session.game, session.power = rec, power
    session.signed_on = True
    session.outcome = f"signed on as {power}"
    if session.mail.sender not in record:
        session.cc = record[:1]
    return True
