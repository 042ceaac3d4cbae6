"""The common life cycle of a treaty, as pure functions over a game's state.

Games that know treaties (``Game.treaties = True``) keep them in their own
state under ``state["treaties"]`` (id -> record) and call :func:`act` from
their :meth:`~pbem.gameapi.Game.treaty`; a game adds its own meaning on top
(structured clauses, breaches, victory points).  The moderator only reads the
records back (:func:`visible`) to mail them and to show them in the archive.

The life cycle (the choices every game shares unless it says otherwise):
a treaty is proposed by one power with the others named, and the proposal is
the proposer's signature; it is in force once every named party has signed.
Any party may refuse it before then (it fails) or withdraw its signature; the
proposer's withdrawal withdraws the proposal.  A treaty in force lapses only
by mutual agreement: when every party has withdrawn.  A secret treaty is
shown only to its parties until one of them reveals it.  A party may claim a
breach; the claim is recorded for the GM to rule on.

A game may also conclude a record itself (:func:`concluded_record`), e.g. a
peace its rules enforced: such a record carries ``concluded`` (how and when,
in words), asks nobody to sign, and takes no treaty action.
"""
from __future__ import annotations

from typing import Any, Mapping

from .gameapi import Event, Refused, State, TreatyAction

OPEN = "proposed"
IN_FORCE = "in_force"
CLOSED = ("refused", "withdrawn", "lapsed", "broken")


def book(state: State) -> dict[str, dict[str, Any]]:
    return state.setdefault("treaties", {})


def find(state: State, treaty_id: str) -> dict[str, Any] | None:
    """The record of a treaty by id, case-insensitively."""
    for key, record in state.get("treaties", {}).items():
        if key.lower() == treaty_id.lower():
            return record
    return None


def new_record(treaty_id: str, proposer: str, parties: list[str], text: str, secret: bool,
               at: str, status: str = OPEN) -> dict[str, Any]:
    return {"id": treaty_id, "proposer": proposer, "parties": list(parties), "text": text,
            "secret": bool(secret), "status": status, "signatures": {proposer: at} if proposer else {},
            "refusals": {}, "withdrawals": {}, "breaches": [], "history": []}


def concluded_record(treaty_id: str, parties: list[str], text: str, concluded: str,
                     secret: bool = False) -> dict[str, Any]:
    """A record the game itself concluded (its rules made it; nobody signs):
    in force at once, with ``concluded`` saying how and when in words
    ("enforced in Peace Resolution, round 2")."""
    record = new_record(treaty_id, "", parties, text, secret, "", IN_FORCE)
    record["concluded"] = concluded
    return record


def act(state: State, action: TreatyAction, seated: list[str]) -> tuple[dict[str, Any], list[Event]]:
    """Apply one treaty action to ``state`` (mutated: the caller holds a copy).
    ``seated`` are the powers that may be parties.  Returns the record and
    the events; raises :class:`Refused` with a reason a player understands."""
    if action.action == "propose":
        record = _propose(state, action, seated)
    else:
        record = find(state, action.treaty)
        if record is None or action.power not in record["parties"]:
            raise Refused(f"you are not a party to a treaty {action.treaty!r}", "unknown-treaty")
        if record.get("concluded"):
            raise Refused(f"treaty {record['id']} was concluded by the game ({record['concluded']}): it is not "
                          "signed, withdrawn, revealed or claimed broken by TREATY commands", "treaty-concluded")
        record = _STEPS[action.action](record, action)
    record["history"].append({"at": action.at, "who": action.power, "action": action.action})
    event = {"kind": "treaty", "id": record["id"], "action": action.action, "power": action.power,
             "status": record["status"], "parties": list(record["parties"]), "secret": record["secret"]}
    return record, [event]


def _propose(state: State, action: TreatyAction, seated: list[str]) -> dict[str, Any]:
    if find(state, action.treaty):
        raise Refused(f"treaty {action.treaty} already exists; choose another id", "treaty-exists")
    parties: list[str] = []
    for power in (action.power, *action.parties):
        if power not in seated:
            raise Refused(f"treaty party {power!r} is not playing", "unknown-power")
        if power not in parties:
            parties.append(power)
    if len(parties) < 2:
        raise Refused("a treaty needs at least one other party", "treaty-parties")
    record = new_record(action.treaty, action.power, parties, action.text, action.secret, action.at)
    book(state)[action.treaty] = record
    return record


def _open(record: dict[str, Any], verb: str) -> None:
    if record["status"] != OPEN:
        raise Refused(f"treaty {record['id']} is {record['status']}; it cannot be {verb}", "treaty-closed")


def _sign(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    _open(record, "signed")
    record["signatures"][action.power] = action.at
    if set(record["signatures"]) >= set(record["parties"]):
        record["status"] = IN_FORCE
    return record


def _refuse(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    _open(record, "refused")
    record["refusals"][action.power] = action.at
    record["status"] = "refused"
    return record


def _withdraw(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    if record["status"] == OPEN:
        record["signatures"].pop(action.power, None)
        if action.power == record["proposer"]:
            record["status"] = "withdrawn"
    elif record["status"] == IN_FORCE:
        # Lapse needs every party's agreement; one withdrawal is recorded and
        # the treaty stays in force until all have withdrawn.
        record["withdrawals"][action.power] = action.at
        if set(record["withdrawals"]) >= set(record["parties"]):
            record["status"] = "lapsed"
    else:
        raise Refused(f"treaty {record['id']} is {record['status']}", "treaty-closed")
    return record


def _reveal(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    if not record["secret"]:
        raise Refused(f"treaty {record['id']} is already public", "treaty-public")
    record["secret"] = False
    return record


def _breach(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    if record["status"] != IN_FORCE:
        raise Refused(f"treaty {record['id']} is {record['status']}, not in force", "treaty-closed")
    if action.against not in record["parties"] or action.against == action.power:
        raise Refused(f"a breach is claimed against another party of {record['id']}", "treaty-parties")
    record["breaches"].append({"at": action.at, "by": action.power, "against": action.against,
                               "text": action.text, "ruled": None})
    return record


_STEPS = {"sign": _sign, "refuse": _refuse, "withdraw": _withdraw, "reveal": _reveal, "breach": _breach}


def may_see(record: Mapping[str, Any], power: str | None) -> bool:
    return not record.get("secret") or (power is not None and power in record.get("parties", ()))


def visible(state: State, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
    """The records ``power`` may see (None: the public; ``gm``: all), in id order."""
    return [dict(r) for _, r in sorted(state.get("treaties", {}).items()) if gm or may_see(r, power)]
