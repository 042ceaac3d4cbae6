"""A player's account: SET PASSWORD, SET ABSENCE, SET ZONE, and JOIN (a seat
in a forming game, held until the address answers its token)."""
from __future__ import annotations

from pbem.base.identity import hash_secret, normalize_secret
from pbem.commands import model as m
from pbem.commands import values as v
from pbem.handlers import addresses
from pbem.handlers.declare import command
from pbem.handlers.session import Session
from pbem.kit import audience, names
from pbem.reporting import render
from pbem.storage import store

#: the longest absence a player may announce (a longer one is a replacement)
MAX_ABSENCE_DAYS = 60


def long_enough(session: Session, secret: str, line: int | None) -> bool:
    """A secret a player chooses has at least ``limits.min_secret_length``
    characters (case, spaces and hyphens aside): a short one is guessed."""
    least = session.ctx.limits.min_secret_length
    if len(normalize_secret(secret)) >= least:
        return True
    session.problem("secret-too-short", f"a secret needs at least {least} letters or digits "
                    "(spaces and hyphens are not counted); nothing was changed", line)
    return False


@command(m.SetPassword, "SET PASSWORD", "set_password", "SET PASSWORD <new-secret>",
         "Change your secret.",
         "any", build=lambda c: m.SetPassword(v.secret(str(c[0]))), for_power=True, limit="SET PASSWORD")
def set_password(session: Session, cmd: m.SetPassword) -> None:
    if not long_enough(session, cmd.secret, cmd.line):
        return
    row = store.player(session.ctx, session.game.name, session.power)
    store.update_player(session.ctx, row["id"], secret_hash=hash_secret(cmd.secret))
    session.cc = store.addresses(row)[:1]
    session.section("Secret changed.", ["Use the new secret from your next mail on."])


@command(m.SetAbsence, "SET ABSENCE", "set_absence", "SET ABSENCE <from-date> <to-date>",
         "Announce an absence (dates as 2026-01-31).",
         "player", build=lambda c: m.SetAbsence(*v.period(str(c[0]), str(c[1]))), for_power=True)
def set_absence(session: Session, cmd: m.SetAbsence) -> None:
    if cmd.end < cmd.start:
        session.problem("bad-absence", "the absence ends before it starts", cmd.line)
        return
    today = session.ctx.now().date()
    if cmd.end < today or (cmd.start - today).days > 365 or (cmd.end - cmd.start).days > MAX_ABSENCE_DAYS:
        session.problem("bad-absence", f"an absence is at most {MAX_ABSENCE_DAYS} days, starts within "
                        "a year and has not ended yet; nothing was noted", cmd.line)
        return
    row = store.player(session.ctx, session.game.name, session.power)
    store.update_player(session.ctx, row["id"], absent_from=cmd.start.isoformat(), absent_to=cmd.end.isoformat())
    store.gm_log(session.ctx, session.game.name, session.power, "absence", f"{cmd.start} to {cmd.end}",
                 seen_by=audience.powers(session.power))
    session.section("Absence noted:", [f"{cmd.start} to {cmd.end}: missed deadlines in that time "
                                       "apply your defaults without counting against you."])


@command(m.SetZone, "SET ZONE", "set_zone", "SET ZONE <zone>",
         "Show deadlines in your own time zone too, e.g. SET ZONE America/New_York (the game's"
         " zone and UTC are always shown).",
         "player", build=lambda c: m.SetZone(v.zone(str(c[0]))), for_power=True)
def set_zone(session: Session, cmd: m.SetZone) -> None:
    row = store.player(session.ctx, session.game.name, session.power)
    store.update_player(session.ctx, row["id"], zone=cmd.zone)
    rec = session.game
    shown = render.deadline_text(rec, rec.deadline, cmd.zone) if rec.deadline else None
    session.section("Time zone set:", [f"deadlines are shown in {cmd.zone} too"]
                    + ([f"the current deadline: {shown}"] if shown else []))


@command(m.SetMap, "SET MAP", "set_map", "SET MAP <PNG/SVG/LINK/NONE>",
         "How your reports show the map: PNG (an image every mail client shows; the default), SVG"
         " (your own map, sharper, with your places ringed; some clients show no SVG), LINK (only the"
         " link to the game's archive) or NONE.",
         "player", build=lambda c: m.SetMap(v.map_choice(str(c[0]))), for_power=True)
def set_map(session: Session, cmd: m.SetMap) -> None:
    row = store.player(session.ctx, session.game.name, session.power)
    store.update_player(session.ctx, row["id"], map_view=cmd.choice)
    said = {"png": "as an image in every report", "svg": "as your own SVG drawing in every report",
            "link": "as a link to the game's archive", "none": "not at all"}[cmd.choice]
    lines = [f"your reports show the map {said}"]
    if cmd.choice == "link" and not session.ctx.base_url:
        lines.append("this site publishes no archive address, so your reports will carry no map")
    session.section("Map set:", lines)


@command(m.Join, "JOIN", "join", "JOIN <game> <power> <secret>",
         "Ask to play a power in a game that has not started; choose your secret. The seat is "
         "yours once your address answers the token mailed to it with CONFIRM.",
         "any", build=lambda c: m.Join(str(c[0]), str(c[1]), v.secret(str(c[2]))), signon=False, limit="JOIN")
def join(session: Session, cmd: m.Join) -> None:
    """Ask for a seat: it is held for the sender, who takes it by answering the
    token mailed to that address (a forged From cannot seat anyone), one seat
    per address in a game unless the GM allows more (``seats_per_address``)."""
    ctx = session.ctx
    rec = store.find_game(ctx, cmd.game)
    if rec is None:
        session.problem("unknown-game", f"there is no game called {names.shown(cmd.game)}", cmd.line)
        return
    if rec.status != "forming":
        session.problem("game-not-forming", f"{rec.name} is {rec.status}; it takes no new players", cmd.line)
        return
    roster = rec.roster
    power = roster.resolve(cmd.power)
    if power is None or power not in roster.powers:
        session.problem("unknown-power", f"{names.shown(cmd.power)} is not a power of {rec.rules.title}",
                        cmd.line, ", ".join(roster.powers))
        return
    if store.player(ctx, rec.name, power):
        session.problem("power-taken", f"{power} is already taken in {rec.name}", cmd.line)
        return
    if not addresses.seat_free_for(session, rec, session.mail.sender, cmd.line) or \
            not long_enough(session, cmd.secret, cmd.line):
        return
    addresses.ask_to_confirm(session, rec, power, session.mail.sender, hash_secret(cmd.secret))
    session.section("Seat held:", [f"{power} in {rec.name} is yours once you answer the token just "
                                   "mailed to this address with CONFIRM <token>."])
