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

A JOIN is confirmed the same way: the seat is held until the address that
asked for it answers its token, so a forged From seats nobody; an address
takes one seat per game unless the game's ``seats_per_address`` allows more,
and the GM is told of every seat taken.
"""
from __future__ import annotations

import hashlib
from datetime import timedelta

from pbem.base.identity import new_secret, normalize_address, normalize_secret
from pbem.commands import model as m
from pbem.commands import values as v
from pbem.handlers.declare import command
from pbem.handlers.session import Session
from pbem.kit import audience
from pbem.storage import address_confirmations, store
from pbem.storage.db import dumps, loads, parse_iso, utcnow_iso


def _token_hash(token: str) -> str:
    return hashlib.sha256(normalize_secret(token).encode("utf-8")).hexdigest()


@command(m.SetAddress, "SET ADDRESS", "set_address", "SET ADDRESS <email>[,<email>...]",
         "Replace the addresses your reports go to (at most 3); a new address counts once it "
         "answers the token mailed to it with CONFIRM.",
         "player",
         build=lambda c: m.SetAddress(tuple(v.address(str(t)) for t in c)),
         for_power=True,
         limit="SET ADDRESS")
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
    address_confirmations.replace_pending(ctx, rec.name, power)
    for address in fresh:
        _token_mail(session, rec, power, address, wanted,
                    f"The player of {power} in game {rec.name} asked that this address receive "
                    f"{power}'s mail from the moderator.")
    now = kept or old
    session.cc = sorted(set(old) | set(kept))
    lines = ([f"was {', '.join(old)}", f"now {', '.join(now)}"] if now != old
             else [f"unchanged: {', '.join(now)}"])
    if fresh:
        lines.append(f"waiting for confirmation: {', '.join(fresh)} (a token was mailed to "
                     f"{'each' if len(fresh) > 1 else 'it'}; it counts once it answers CONFIRM <token>)")
    session.section("Addresses of record:", lines)


def _token_mail(session: Session, rec, power: str, address: str, requested: list[str], why: str,
                secret_hash: str | None = None) -> None:
    ctx, hours = session.ctx, session.ctx.limits.confirm_hours
    token = new_secret()
    address_confirmations.add_pending(ctx, {
        "game": rec.name, "power": power, "address": address, "token_hash": _token_hash(token),
        "requested": dumps(requested), "expires": utcnow_iso(ctx.now() + timedelta(hours=hours)),
        "message": session.msg_id, "secret_hash": secret_hash})
    session.notify(key=f"confirm-address:{session.msg_id}:{address}", to=[address], kind="confirm",
                   secrets=(token,), subject=f"[{rec.name}] confirm this address for {power}",
                   text=(f"{why}\n\nIf that is you, reply with this line "
                         f"(within {hours:g} hours):\n\n  CONFIRM {token}\n\nIf not, ignore this mail: "
                         "nothing more will be sent here.\n\n-- \n"
                         f"{ctx.site_name} moderator\n"))


def ask_to_confirm(session: Session, rec, power: str, address: str, secret_hash: str) -> None:
    """A JOIN: the seat is taken when ``address`` answers the token mailed to it."""
    address_confirmations.replace_pending(session.ctx, rec.name, power, address)
    _token_mail(session, rec, power, address, [address],
                f"Someone writing from this address asked to play {power} in game {rec.name}.",
                secret_hash=secret_hash)


def seat_free_for(session: Session, rec: store.GameRecord, address: str, line: int | None) -> bool:
    """Whether ``address`` may take one more seat in ``rec``."""
    value = str(rec.options.get("seats_per_address", "1")).strip()
    allowed = max(1, int(value)) if value.isdigit() else 1
    taken = [r["power"] for r in store.players_at(session.ctx, address) if r["game"] == rec.name]
    if len(taken) < allowed:
        return True
    session.problem("seat-limit", f"{address} already plays {', '.join(taken)} in {rec.name}; a "
                    "player takes one seat unless the GM allows more (OPTION seats_per_address=2)", line)
    return False


def _take_seat(session: Session, row: dict) -> None:
    """CONFIRM of a JOIN: the seat, if it is still free, and the GM is told."""
    ctx, sender = session.ctx, session.mail.sender
    rec = store.find_game(ctx, row["game"])
    if rec is None or rec.status != "forming" or store.player(ctx, rec.name, row["power"]):
        session.problem("power-taken", f"{row['power']} in {row['game']} is no longer free", None)
        address_confirmations.set_status(ctx, row["id"], "replaced")
        return
    if not seat_free_for(session, rec, sender, None):
        return
    store.add_player(ctx, rec.name, row["power"], [sender], row["secret_hash"])
    address_confirmations.set_status(ctx, row["id"], "confirmed")
    store.gm_log(ctx, rec.name, row["power"], "join", row["power"], seen_by=audience.public())
    session.game, session.power = store.get_game(ctx, rec.name), row["power"]
    session.section("Joined:", [f"you play {row['power']} in {rec.name}; the GM starts the game."])
    gm = rec.row.get("gm_address")
    if gm:
        seated = [p["power"] for p in store.players(ctx, rec.name)]
        session.notify(key=f"seat-taken:{session.msg_id}", to=[gm],
                       subject=f"[{rec.name}] {row['power']} taken by {sender}",
                       text=f"{sender} joined game {rec.name} as {row['power']} (the address answered "
                            f"its token).\nSeats taken: {', '.join(seated)}.\n\n-- \n{ctx.site_name} moderator\n")


@command(m.Confirm, "CONFIRM", "confirm", "CONFIRM <token>",
         "From a new address: accept the SET ADDRESS (or take the JOIN seat) that named it "
         "(the token was mailed to it); no sign-on needed.",
         "any", build=lambda c: m.Confirm(str(c[0])), signon=False, limit="CONFIRM")
def confirm(session: Session, cmd: m.Confirm) -> None:
    ctx, sender = session.ctx, session.mail.sender
    row = address_confirmations.pending_with(ctx, _token_hash(cmd.token))
    if row is None or parse_iso(row["expires"]) < ctx.now():
        session.problem("unknown-token", "this token is not waiting for a confirmation (it may be "
                        "mistyped, used, replaced by a later SET ADDRESS, or too old)", cmd.line)
        return
    if row["address"] != sender:
        session.problem("wrong-address", "confirm from the address the token was mailed to", cmd.line)
        return
    if row.get("secret_hash"):
        _take_seat(session, row)
        return
    player = store.player(ctx, row["game"], row["power"])
    requested = loads(row["requested"], [])
    current = store.addresses(player)
    confirmed = [a for a in requested if a in current or a == sender]
    # A new address answered: a power flagged for its dead address is reachable again.
    store.update_player(ctx, player["id"], addresses=confirmed[:ctx.limits.addresses_per_power], status="active")
    address_confirmations.set_status(ctx, row["id"], "confirmed")
    store.gm_log(ctx, row["game"], row["power"], "address confirmed", row["power"],
                 seen_by=audience.powers(row["power"]))
    session.cc = [a for a in current if a != sender][:1]
    session.section("Address confirmed:", [f"{sender} now receives {row['power']}'s mail in game "
                                           f"{row['game']}", f"addresses of record: {', '.join(confirmed)}"])
