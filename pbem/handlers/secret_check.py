"""The secret of a sign-on, checked under the wrong-secret throttle
(:mod:`pbem.handlers.throttle`): a waiting counter refuses at once, without the slow
hash; a right secret already checked by this process is not hashed again
(:class:`pbem.base.identity.SecretCache`); a wrong secret is counted, and the owner (the power's address of
record, or the game's GM) hears of wrong secrets at most once an hour."""
from __future__ import annotations

from pbem.base.deadlines import format_deadline
from pbem.commands import model as m
from pbem.handlers import throttle
from pbem.handlers.session import Session
from pbem.storage import store


def _waiting(session: Session, keys: list[str], who: str, line: int | None) -> bool:
    until = throttle.waiting_until(session.ctx, keys)
    if until is None:
        return False
    when = format_deadline(until, "UTC")
    session.problem("too-many-wrong-secrets", f"too many wrong secrets for {who} or from your address: "
                    f"sign-ons wait until {when}; nothing in this mail was done (the secret was not "
                    "even checked). Send it again after that.", line)
    session.outcome = "sign-on waits: too many wrong secrets"
    return True


def player_secret(session: Session, rec: store.GameRecord, power: str, row: dict, signon: m.SignOn) -> bool:
    """Whether ``signon`` gives ``power``'s right secret; on a wrong one the
    sender is told, the counters are counted and the address of record told."""
    ctx, sender = session.ctx, session.mail.sender
    record = store.addresses(row)
    # The address of record meets no counter: forged mail from it must not lock
    # its owner out (and its replies go to that owner).
    keys = [] if sender in record else [throttle.sender_key(sender), throttle.power_key(rec.name, power)]
    session.game = rec
    if keys and _waiting(session, keys, power, signon.line):
        return False
    if ctx.secret_cache.verify(signon.secret, row["secret_hash"]):
        throttle.right(ctx, [throttle.sender_key(sender), throttle.power_key(rec.name, power)])
        return True
    if keys:
        throttle.wrong(ctx, keys)
    session.problem("wrong-secret", f"the secret for {power} is wrong; nothing was changed", signon.line)
    session.outcome = "wrong secret"
    told = throttle.power_key(rec.name, power)
    if sender not in record and throttle.tell_now(ctx, told):  # the record itself has the reply
        count = throttle.failures(ctx, told)
        session.notify(key=f"forgery:{session.msg_id}", to=record[:1],
                       subject=f"[{rec.name}] {power}: a mail with a wrong secret was refused",
                       text=f"A mail from {sender} signed on as {power} in game {rec.name} with a "
                            f"wrong secret. Nothing was changed.\n"
                            + (f"That makes {count} wrong secrets for {power} in a row; you hear of "
                               "them at most once an hour.\n" if count > 1 else "")
                            + "If this was not you, tell your GM.")
    return False


def gm_secret(session: Session, rec: store.GameRecord | None, signon: m.SignOn) -> bool:
    """Whether ``signon`` gives the site's GM secret (same throttle, one
    counter for the site; a GM's own address meets none)."""
    ctx, sender = session.ctx, session.mail.sender
    keys = [] if sender in store.gm_addresses(ctx) else [throttle.sender_key(sender), throttle.gm_key()]
    if keys and _waiting(session, keys, "the GM", signon.line):
        return False
    if ctx.gm_secret_hash and ctx.secret_cache.verify(signon.secret, ctx.gm_secret_hash):
        throttle.right(ctx, keys)
        return True
    if ctx.gm_secret_hash and keys:
        throttle.wrong(ctx, keys)
    session.problem("wrong-secret", "the GM secret is wrong; nothing was done", signon.line)
    session.outcome = "GM sign-on refused"
    gm = rec.row["gm_address"] if rec else None
    if gm and gm != sender and throttle.tell_now(ctx, throttle.gm_key()):
        session.notify(key=f"gm-forgery:{session.msg_id}", to=[gm],
                       subject=f"[{rec.name}] refused GM sign-on from {sender}",
                       text=f"A mail from {sender} tried to sign on as GM of {rec.name} with a wrong "
                            "secret. Nothing was done. (You hear of such mail at most once an hour.)")
    return False
