"""Signing on: SIGNON (or GAME, POWER and PASSWORD, in three lines) names the
game, the power (or GM) and its secret; SIGNOFF ends a mail's commands.

The dispatcher checks the sign-on before any command (:func:`sign_on`); the
three-line form and SIGNOFF are read by the parser and the dispatcher and have
no handler of their own.
"""
from __future__ import annotations

from pbem.base.identity import check_reply_token
from pbem.commands import model as m
from pbem.commands import values as v
from pbem.handlers import secret_check
from pbem.handlers.declare import command, declared
from pbem.handlers.session import Session
from pbem.kit.names import nearest
from pbem.storage import store

declared(m.SignOnPart, "GAME", "game", "GAME <game>",
         "Sign on in three lines: the game (with POWER and PASSWORD, in any order).",
         "any", build=lambda c: m.SignOnPart("game", str(c[0])), signon=False)
declared(m.SignOnPart, "POWER", "power", "POWER <power>",
         "Sign on in three lines: the power you play.",
         "any", build=lambda c: m.SignOnPart("power", v.gm_power(str(c[0]))), signon=False)
declared(m.SignOnPart, "PASSWORD", "password", "PASSWORD <secret>",
         "Sign on in three lines: your secret.",
         "any", build=lambda c: m.SignOnPart("password", str(c[0])), signon=False)
declared(m.SignOff, "SIGNOFF", "signoff", "SIGNOFF",
         "End of the commands; anything after it is ignored.",
         "any", signon=False)


def _suggest_game(session: Session, name: str) -> str | None:
    names = [g.name for g in store.list_games(session.ctx)]
    return nearest(name, names)


@command(m.SignOn, "SIGNON", "signon", "SIGNON <power>@<game> <secret>",
         "Sign on as a power (also: SIGNON <power> <game> <secret>; the GM signs on as GM).",
         "any", build=lambda c: m.SignOn(v.gm_power(str(c[0])), str(c[1]), str(c[2])), signon=False)
def sign_on(session: Session, signon: m.SignOn) -> bool:
    """Whether the mail's sign-on holds: the game, the power (or the GM) and its secret,
    and the address or token the game asks for; the reply says why not."""
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
