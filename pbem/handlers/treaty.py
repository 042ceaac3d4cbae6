"""Treaties by mail: the mail side of the game's treaties.

A treaty command becomes a typed :class:`~pbem.kit.gameapi.TreatyAction` that the
game validates and applies (its life cycle is in :mod:`pbem.kit.treatybook`, the
meaning of its clauses in the game).  Each action is a snapshot of the game,
so ``pbem verify`` replays it.  Here we only read the command, stamp the
moment it arrived, and mail the record to every player who may see it.
"""
from __future__ import annotations

from pbem.commands import model as m
from pbem.commands import values as v
from pbem.handlers.declare import command
from pbem.handlers.session import Session
from pbem.kit import audience, names, positions
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import Refused, TreatyAction
from pbem.play import turns
from pbem.reporting import render, reports
from pbem.storage import store
from pbem.storage.db import utcnow_iso


def _running(session: Session, cmd) -> bool:
    rec = session.game
    if rec is None or rec.state is None or rec.status not in ("active", "paused"):
        session.problem("game-not-running", "treaties are made in a running game", cmd.line)
        return False
    return _has_treaties(session, cmd)


def _has_treaties(session: Session, cmd) -> bool:
    if not supports(session.game.rules, "treaties"):
        session.problem("no-treaties", f"{session.game.rules.title} has no treaties; "
                        "agreements are made in press", cmd.line)
        return False
    return True


def _act(session: Session, cmd, action: TreatyAction) -> dict | None:
    """Apply the action; the record after it, or None when the game refused.  A refusal
    reads the same whether or not a treaty the sender may not see exists (the treaty book
    looks only among the treaties the sender may see)."""
    owed_before = set(session.game.rules.phase(session.game.state).owes)
    try:
        events = turns.apply_input(session.ctx, session.game.name, action)
    except Refused as exc:
        session.problems.append(exc.problem(cmd.line))
        return None
    session.reload()
    rec = session.game
    keys = render.treaty_keys(events)
    reports.queue_treaty_records(session.ctx, rec, keys, f"{session.msg_id}:{cmd.line}")
    _tell_positions(session, events, owed_before)
    return next((t for t in rec.rules.treaty_records(rec.state, session.power)
                 if keys and str(t.get("key") or t["id"]).lower() == keys[0].lower()), None)


def _tell_positions(session: Session, events: list[dict], owed_before: set[str]) -> None:
    """What the command did to other players' positions (the game's ``position_changed``
    events, each to its audience), and to a power that now owes orders in this phase (a
    Casus Belli gained against it on a reveal), that they are due: in one notice each for
    the whole mail (announce.flush)."""
    for e in events:
        if e.get("kind") == positions.POSITION_CHANGED:
            session.announce("your position changed", str(e.get("text", "")), audience.of(e) or audience.gm())
    rec = session.game
    phase = rec.rules.phase(rec.state)
    for power in [p for p in phase.owes if p not in owed_before and p != session.power]:
        session.announce("your orders are due",
                         f"{power} now owes orders for {phase.label}: send STATUS for what you may do, "
                         "or your orders.", audience.powers(power))


def _action(session: Session, cmd, verb: str, **extra) -> TreatyAction:
    return TreatyAction(verb, session.power, cmd.id, at=utcnow_iso(session.ctx.now()), **extra)


@command(m.TreatyPropose, "TREATY PROPOSE", "treaty_propose",
         "TREATY PROPOSE <id> WITH <power>[,<power>...] [PUBLIC] ... ENDTREATY",
         "Propose a treaty; the lines up to ENDTREATY are its text. It stays private to its "
         "parties (until one of them reveals it) unless PUBLIC shows it to every power.",
         "player",
         build=lambda c: m.TreatyPropose(str(c[0]), v.names(c[1]),
                                         c[2] is None or c[2].type == "SECRET", ""),
         for_power=True,
         limit="TREATY",
         text="text",
         block="TREATY")
def propose(session: Session, cmd: m.TreatyPropose) -> None:
    if not _running(session, cmd):
        return
    rec = session.game
    seated = {p["power"] for p in store.players(session.ctx, rec.name)}
    # A power no player holds may be a party when the game names who writes for it.
    seated |= {p for p, seat in rec.rules.treaty_seats(rec.state).items() if seat in seated}
    parties = []
    for name in names.join_words(cmd.parties, rec.resolve_power, seated):
        power = rec.resolve_power(name)
        if power not in seated:
            session.problem("unknown-power", f"treaty party {name!r} is not playing", cmd.line,
                            rec.roster.nearest(name))
            return
        parties.append(power)
    if len(set(parties)) < len(parties):
        session.note(f"Treaty {cmd.id} named a party more than once: each counts once.")
        parties = list(dict.fromkeys(parties))
    record = _act(session, cmd, _action(session, cmd, "propose", parties=tuple(parties), text=cmd.text,
                                        secret=cmd.secret))
    if record:
        session.section(f"Treaty {record['id']} proposed:", [
            f"parties {', '.join(record['parties'])}",
            "private: only its parties see it, until one of them sends TREATY REVEAL "
            f"{record['id']}" if record["secret"] else "public: every power sees it"])


def _simple(verb: str, done: str):
    def handler(session: Session, cmd) -> None:
        if not _running(session, cmd):
            return
        record = _act(session, cmd, _action(session, cmd, verb))
        if record:
            session.section(done.format(id=record["id"]), [f"status: {render.TREATY_STATUS.get(record['status'], record['status'])}"])
    handler.__name__ = verb
    return handler


sign = command(m.TreatySign, "TREATY SIGN", "treaty_sign", "TREATY SIGN <id>",
               "Sign a treaty proposed to you.", "player",
               build=lambda c: m.TreatySign(str(c[0])), for_power=True, limit="TREATY",
               )(_simple("sign", "Treaty {id} signed."))
refuse = command(m.TreatyRefuse, "TREATY REFUSE", "treaty_refuse", "TREATY REFUSE <id>",
                 "Refuse a treaty proposed to you.", "player",
                 build=lambda c: m.TreatyRefuse(str(c[0])), for_power=True, limit="TREATY",
                 )(_simple("refuse", "Treaty {id} refused."))
withdraw = command(m.TreatyWithdraw, "TREATY WITHDRAW", "treaty_withdraw", "TREATY WITHDRAW <id>",
                   "Withdraw a treaty you proposed (or your signature).", "player",
                   build=lambda c: m.TreatyWithdraw(str(c[0])), for_power=True, limit="TREATY",
                   )(_simple("withdraw", "Treaty {id}: your withdrawal is recorded."))
reveal = command(m.TreatyReveal, "TREATY REVEAL", "treaty_reveal", "TREATY REVEAL <id>",
                 "Make a secret treaty public.", "player",
                 build=lambda c: m.TreatyReveal(str(c[0])), for_power=True, limit="TREATY",
                 )(_simple("reveal", "Treaty {id} revealed to every power."))


@command(m.TreatyBreach, "TREATY BREACH", "treaty_breach", "TREATY BREACH <id> <power> [<what they did>]",
         "Claim that another party broke a treaty in force (a power's name as written, United "
         "States too); the GM is mailed the claim and rules on it, GM STATUS and TREATY LIST show "
         "it open until then.",
         "player",
         build=lambda c: m.TreatyBreach(str(c[0]), str(c[1]), v.phrase(c[2]) or ""),
         for_power=True,
         limit="TREATY BREACH",
         text="text")
def breach(session: Session, cmd: m.TreatyBreach) -> None:
    if not _running(session, cmd):
        return
    against, text = _power_and_text(session, cmd.against, cmd.text)
    if against is None:
        session.problem("unknown-power", f"{cmd.against!r} is not a power of this game", cmd.line,
                        session.game.roster.nearest(cmd.against))
        return
    record = _act(session, cmd, _action(session, cmd, "breach", against=against, text=text))
    if record:
        _tell_gm(session, record, against, text)
        session.section(f"Treaty {record['id']}: breach by {against} claimed.",
                        ["the GM is mailed the claim and rules on it; every party has the record"])


#: the most words a power's name has ("United States", "Austria Hungary")
NAME_WORDS = 3


def _power_and_text(session: Session, first: str, text: str) -> tuple[str | None, str]:
    """The power a claim names, as players write it: one word, or several ("United States",
    written without quotes), and the rest of the line."""
    words = text.split()
    for n in range(min(NAME_WORDS - 1, len(words)), -1, -1):
        power = session.game.resolve_power(" ".join([first, *words[:n]]))
        if power is not None:
            return power, " ".join(words[n:]) if n else text
    return None, text


def _tell_gm(session: Session, record: dict, against: str, text: str) -> None:
    """The GM rules on a claim: the GM is mailed it at once (one mail for the claim)."""
    rec = session.game
    address = rec.row["gm_address"]
    if not address:
        return
    tid = record["id"]
    session.notify(key=f"breach:{session.msg_id}:{session.game.name}:{tid}", to=[address],
                   subject=f"[{rec.name}] breach claim on treaty {tid}",
                   text=f"{session.power} claims {against} broke treaty {tid}: {text or '(no reason given)'}\n\n"
                        f"Rule on it with GM RULE {tid} <ruling>; GM STATUS and TREATY LIST show the "
                        f"open claims.\n\n-- \n{session.ctx.site_name} moderator\n")


def open_claims(records: list[dict]) -> list[str]:
    """The breach claims not yet ruled on among some treaty records, a line each, by the
    treaty's id the GM rules on."""
    return [f"{t['id']}: {b['by']} claims {b['against']} broke it"
            + (f" ({b['text']})" if b.get("text") else "") + f"; GM RULE {t['id']} <ruling>"
            for t in records for b in t.get("breaches") or () if not b.get("ruled")]


@command(m.TreatyList, "TREATY LIST", "treaty_list", "TREATY LIST",
         "List the treaties you can see.",
         "player", limit="TREATY LIST")
def list_(session: Session, cmd: m.TreatyList) -> None:
    rec = session.game
    if rec is None or rec.state is None:
        session.problem("game-not-running", "treaties are made in a running game", cmd.line)
        return
    if not _has_treaties(session, cmd):
        return
    lines = [f"{t['id']}: {render.TREATY_STATUS.get(t['status'], t['status'])}, parties "
             f"{', '.join(t['parties'])}" + (" (private)" if t["secret"] else "")
             + "".join(f"; open claim: {b['by']} against {b['against']}"
                       for b in t.get("breaches") or () if not b.get("ruled"))
             for t in rec.rules.treaty_records(rec.state, session.power, gm=session.is_gm and not session.power)]
    session.section("Treaties you may see:", lines or ["none"])
