"""Treaties: written agreements among powers, signed by mail.

A treaty is proposed by one power with the others named (the proposal is
the proposer's signature); it is in force once every named party has signed.
Any party may refuse it before then (it fails) or withdraw its signature.
A treaty in force lapses only by mutual agreement: when every party has
withdrawn.  A secret treaty is shown only to its parties until one of them
reveals it.  Every party receives the treaty record on each change.
"""
from __future__ import annotations

from .. import render, store
from ..commands import model as m
from ..db import dumps, loads, utcnow_iso
from ..gameapi import GMError
from .session import Session


def _load(session: Session, treaty_id: str) -> dict | None:
    rows = list(session.ctx.db["treaties"].rows_where("game = ? and lower(treaty_id) = lower(?)",
                                                      [session.game.name, treaty_id]))
    return rows[0] if rows else None


def _record(row: dict) -> dict:
    return {"id": row["treaty_id"], "proposer": row["proposer"], "parties": loads(row["parties"]),
            "text": row["text"], "secret": bool(row["secret"]), "status": row["status"],
            "signatures": loads(row["signatures"], {}), "refusals": loads(row["refusals"], {}),
            "history": loads(row["history"], [])}


def _save(session: Session, row: dict, action: str) -> None:
    ctx = session.ctx
    now = utcnow_iso(ctx.now())
    history = loads(row["history"], [])
    history.append({"at": now, "who": session.power, "action": action})
    row["history"], row["updated"] = dumps(history), now
    ctx.db["treaties"].upsert(row, pk="id")
    rec = _record(row)
    _tell_game(session, rec)
    text = render.render("treaty.txt.j2", t=rec, game=session.game.name, site=ctx.site_name)
    readers = rec["parties"] if rec["secret"] else [p["power"] for p in store.players(ctx, session.game.name)]
    for power in readers:
        player = store.player(ctx, session.game.name, power)
        if player is None:
            continue
        session.notify(key=f"treaty:{session.msg_id}:{rec['id']}:{action}:{power}",
                       to=store.addresses(player)[:1], kind="treaty",
                       subject=f"[{session.game.name}] treaty {rec['id']}: {rec['status']}", text=text)


def _tell_game(session: Session, rec: dict) -> None:
    """Games that score treaties (Pax Britannica's VP for revealed treaties)
    learn of them through their GM vocabulary; other games ignore it."""
    rec_game = session.game
    if rec_game.state is None:
        return
    text = f"SET TREATY {rec['id']} " + " ".join(rec_game.rules.mail_name(p) for p in rec["parties"])
    if rec["secret"]:
        text += " SECRET"
    text += f" STATUS {rec['status']}"
    try:
        state, _ = rec_game.rules.gm_command(rec_game.state, text, None)
    except (GMError, TypeError, AttributeError):
        return
    store.update_game(session.ctx, rec_game.name, state=state)
    store.gm_log(session.ctx, rec_game.name, "moderator", "treaty record", text)
    session.reload()


def propose(session: Session, cmd: m.TreatyPropose) -> None:
    ctx, rec = session.ctx, session.game
    if _load(session, cmd.id):
        session.problem("treaty-exists", f"treaty {cmd.id} already exists; choose another id", cmd.line)
        return
    everyone = [p["power"] for p in store.players(ctx, rec.name)]
    parties = [session.power]
    for name in cmd.parties:
        power = rec.rules.resolve_power(name)
        if power not in everyone:
            session.problem("unknown-power", f"treaty party {name!r} is not playing", cmd.line)
            return
        if power not in parties:
            parties.append(power)
    if len(parties) < 2:
        session.problem("treaty-parties", "a treaty needs at least one other party", cmd.line)
        return
    now = utcnow_iso(ctx.now())
    row = {"game": rec.name, "treaty_id": cmd.id, "proposer": session.power, "parties": dumps(parties),
           "text": cmd.text, "secret": int(cmd.secret), "status": "proposed",
           "signatures": dumps({session.power: now}), "refusals": "{}", "created": now,
           "updated": now, "history": "[]"}
    row["id"] = ctx.db["treaties"].insert(row).last_pk
    _save(session, row, "proposed")
    session.section(f"Treaty {cmd.id} proposed:", [f"parties {', '.join(parties)}",
                                                   "secret" if cmd.secret else "public"])


def _party_row(session: Session, treaty_id: str, line) -> dict | None:
    row = _load(session, treaty_id)
    if row is None or session.power not in loads(row["parties"]):
        session.problem("unknown-treaty", f"you are not a party to a treaty {treaty_id!r}", line)
        return None
    return row


def _open_proposal(session: Session, cmd, verb: str) -> dict | None:
    """The treaty a party may still sign or refuse: proposed, not yet decided."""
    row = _party_row(session, cmd.id, cmd.line)
    if row is not None and row["status"] != "proposed":
        session.problem("treaty-closed", f"treaty {cmd.id} is {row['status']}; it cannot be {verb}", cmd.line)
        return None
    return row


def _stamp(session: Session, row: dict, column: str) -> None:
    marks = loads(row[column], {})
    marks[session.power] = utcnow_iso(session.ctx.now())
    row[column] = dumps(marks)


def sign(session: Session, cmd: m.TreatySign) -> None:
    row = _open_proposal(session, cmd, "signed")
    if row is None:
        return
    _stamp(session, row, "signatures")
    if set(loads(row["signatures"])) >= set(loads(row["parties"])):
        row["status"] = "in_force"
    _save(session, row, "signed")
    session.section(f"Treaty {cmd.id} signed.", [f"status: {row['status']}"])


def refuse(session: Session, cmd: m.TreatyRefuse) -> None:
    row = _open_proposal(session, cmd, "refused")
    if row is None:
        return
    _stamp(session, row, "refusals")
    row["status"] = "refused"
    _save(session, row, "refused")
    session.section(f"Treaty {cmd.id} refused.", [])


def withdraw(session: Session, cmd: m.TreatyWithdraw) -> None:
    row = _party_row(session, cmd.id, cmd.line)
    if row is None:
        return
    sigs = loads(row["signatures"], {})
    if row["status"] == "proposed":
        sigs.pop(session.power, None)
        row["signatures"] = dumps(sigs)
        if session.power == row["proposer"]:
            row["status"] = "withdrawn"
    elif row["status"] == "in_force":
        # Lapse needs every party's agreement; one withdrawal is recorded and
        # the treaty stays in force until all have withdrawn.
        withdrawn = [h["who"] for h in loads(row["history"], []) if h["action"] == "withdrew"]
        if set(withdrawn) | {session.power} >= set(loads(row["parties"])):
            row["status"] = "lapsed"
    else:
        session.problem("treaty-closed", f"treaty {cmd.id} is {row['status']}", cmd.line)
        return
    _save(session, row, "withdrew")
    session.section(f"Treaty {cmd.id}: your withdrawal is recorded.", [f"status: {row['status']}"])


def reveal(session: Session, cmd: m.TreatyReveal) -> None:
    row = _party_row(session, cmd.id, cmd.line)
    if row is None:
        return
    if not row["secret"]:
        session.problem("treaty-public", f"treaty {cmd.id} is already public", cmd.line)
        return
    row["secret"] = 0
    _save(session, row, "revealed")
    session.section(f"Treaty {cmd.id} revealed to every power.", [])


def list_(session: Session, cmd: m.TreatyList) -> None:
    rows = session.ctx.db["treaties"].rows_where("game = ?", [session.game.name], order_by="id")
    lines = []
    for row in rows:
        rec = _record(row)
        if rec["secret"] and session.power not in rec["parties"] and not session.is_gm:
            continue
        lines.append(f"{rec['id']}: {rec['status']}, parties {', '.join(rec['parties'])}"
                     + (" (secret)" if rec["secret"] else ""))
    session.section("Treaties you may see:", lines or ["none"])


HANDLERS = {m.TreatyPropose: propose, m.TreatySign: sign, m.TreatyRefuse: refuse,
            m.TreatyWithdraw: withdraw, m.TreatyReveal: reveal, m.TreatyList: list_}
