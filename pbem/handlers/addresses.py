"""A power's addresses of record: SET ADDRESS and CONFIRM.

An address receives a power's private reports, so a new one counts only
once its owner shows they read it: ``SET ADDRESS`` mails a token to every
address it names that is not yet of record, and that address answers with
``CONFIRM <token>`` (no sign-on: the token is the proof).  Addresses already
of record and still listed stay; those no longer listed are dropped at once
when one listed address is already of record, else when the first new one
confirms, so a power is never left without an address.  A power has at most
``limits.addresses_per_power`` addresses; a token is good for
``limits.confirm_hours``.
"""
from __future__ import annotations

import hashlib
from datetime import timedelta

from .. import audience, store
from ..commands import model as m
from ..db import dumps, loads, parse_iso, utcnow_iso
from ..identity import new_secret, normalize_address, normalize_secret
from .session import Session


def _token_hash(token: str) -> str:
    return hashlib.sha256(normalize_secret(token).encode("utf-8")).hexdigest()


def set_address(session: Session, cmd: m.SetAddress) -> None:
    ctx, rec, power = session.ctx, session.game, session.power
    limit = ctx.limits.addresses_per_power
    wanted = list(dict.fromkeys(normalize_address(a) for a in cmd.addresses))
    if len(wanted) > limit:
        session.problem("too-many-addresses", f"a power has at most {limit} addresses; this names "
                        f"{len(wanted)}, and none was taken", cmd.line)
        return
    row = store.player(ctx, rec.name, power)
    old = store.addresses(row)
    kept = [a for a in wanted if a in old]
    fresh = [a for a in wanted if a not in old]
    if kept:
        store.update_player(ctx, row["id"], addresses=kept)
    # A later SET ADDRESS replaces the tokens of an earlier one.
    ctx.db.execute("update address_confirmations set status = 'replaced' "
                   "where game = ? and power = ? and status = 'pending'", [rec.name, power])
    hours = ctx.limits.confirm_hours
    for address in fresh:
        token = new_secret()
        ctx.db["address_confirmations"].insert({
            "game": rec.name, "power": power, "address": address, "token_hash": _token_hash(token),
            "requested": dumps(wanted), "expires": utcnow_iso(ctx.now() + timedelta(hours=hours)),
            "status": "pending", "message": session.msg_id})
        session.notify(key=f"confirm-address:{session.msg_id}:{address}", to=[address], kind="confirm",
                       secrets=(token,), subject=f"[{rec.name}] confirm this address for {power}",
                       text=(f"The player of {power} in game {rec.name} asked that this address receive "
                             f"{power}'s mail from the moderator.\n\nIf that is you, reply with this line "
                             f"(within {hours:g} hours):\n\n  CONFIRM {token}\n\nIf not, ignore this mail: "
                             "nothing more will be sent here.\n\n-- \n"
                             f"{ctx.site_name} moderator\n"))
    now = kept or old
    session.cc = sorted(set(old) | set(kept))
    lines = ([f"was {', '.join(old)}", f"now {', '.join(now)}"] if now != old
             else [f"unchanged: {', '.join(now)}"])
    if fresh:
        lines.append(f"waiting for confirmation: {', '.join(fresh)} (a token was mailed to "
                     f"{'each' if len(fresh) > 1 else 'it'}; it counts once it answers CONFIRM <token>)")
    session.section("Addresses of record:", lines)


def confirm(session: Session, cmd: m.Confirm) -> None:
    ctx, sender = session.ctx, session.mail.sender
    row = next(ctx.db["address_confirmations"].rows_where(
        "token_hash = ? and status = 'pending'", [_token_hash(cmd.token)]), None)
    if row is None or parse_iso(row["expires"]) < ctx.now():
        session.problem("unknown-token", "this token is not waiting for a confirmation (it may be "
                        "mistyped, used, replaced by a later SET ADDRESS, or too old)", cmd.line)
        return
    if row["address"] != sender:
        session.problem("wrong-address", "confirm from the address the token was mailed to", cmd.line)
        return
    player = store.player(ctx, row["game"], row["power"])
    requested = loads(row["requested"], [])
    current = store.addresses(player)
    confirmed = [a for a in requested if a in current or a == sender]
    store.update_player(ctx, player["id"], addresses=confirmed[:ctx.limits.addresses_per_power])
    ctx.db["address_confirmations"].update(row["id"], {"status": "confirmed"})
    store.gm_log(ctx, row["game"], row["power"], "address confirmed", row["power"],
                 seen_by=audience.powers(row["power"]))
    session.cc = [a for a in current if a != sender][:1]
    session.section("Address confirmed:", [f"{sender} now receives {row['power']}'s mail in game "
                                           f"{row['game']}", f"addresses of record: {', '.join(confirmed)}"])


HANDLERS = {m.SetAddress: set_address, m.Confirm: confirm}
