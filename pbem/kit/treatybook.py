"""The common life cycle of a treaty, as pure functions over a game's state.

Games that know treaties (the ``pbem.kit.capabilities.Treaties`` capability) keep them in their own
state under ``state["treaties"]`` (id -> record) and call :func:`act` from
their :meth:`~pbem.kit.gameapi.Game.treaty`; a game adds its own meaning on top
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

A treaty is shown by the id its proposer chose (``id``) and kept under a
``key`` unique in the game.  Nobody learns from a treaty command whether a
treaty they may not see exists: a command names a treaty among those its
sender may see (:func:`find_for`), a proposal is checked in full before its
id is, and an id taken only by a treaty the proposer may not see is no
clash -- the new treaty keeps that id and gets a key of its own.  Only a
reader who may see two treaties of one id is asked to say which, by
``<id>~<proposer>``.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.kit import audience, names
from pbem.kit.gameapi import Event, Refused, State, TreatyAction

OPEN = "proposed"
IN_FORCE = "in_force"
CLOSED = ("refused", "withdrawn", "lapsed", "broken")


def book(state: State) -> dict[str, dict[str, Any]]:
    return state.setdefault("treaties", {})


def key_of(record: Mapping[str, Any]) -> str:
    """The key a treaty is kept under (its id, unless another treaty had that id)."""
    return str(record.get("key") or record["id"])


def find(state: State, treaty_key: str) -> dict[str, Any] | None:
    """The record kept under ``treaty_key`` (case-insensitively), else the one with that id:
    the game's own lookup, which sees every treaty."""
    book_ = state.get("treaties", {})
    wanted = treaty_key.lower()
    for key, record in book_.items():
        if key.lower() == wanted:
            return record
    return next((r for r in book_.values() if str(r.get("id", "")).lower() == wanted), None)


def find_for(state: State, ref: str, power: str | None, gm: bool = False) -> dict[str, Any] | None:
    """The treaty ``ref`` names among those ``power`` may see (``gm``: every one): its id, or
    ``<id>~<proposer>`` when the reader sees two of that id.  None when it sees none;
    :class:`Refused` when it sees several and ``ref`` does not say which."""
    seen = [r for _, r in sorted(state.get("treaties", {}).items()) if gm or may_see(r, power)]
    wanted = ref.lower()
    named = [r for r in seen if str(r["id"]).lower() == wanted]
    if not named and "~" in ref:
        tid, proposer = ref.rsplit("~", 1)
        named = [r for r in seen if str(r["id"]).lower() == tid.lower()
                 and _owner(r).lower() == proposer.lower()]
    if len(named) > 1:
        forms = ", ".join(f"{r['id']}~{_owner(r)}" for r in named)
        raise Refused(f"you see {len(named)} treaties called {named[0]['id']}; name one: {forms}",
                      "treaty-ambiguous")
    return named[0] if named else None


def _owner(record: Mapping[str, Any]) -> str:
    """Who made a treaty, as one word: its proposer, or ``game`` for one the game made."""
    return str(record.get("proposer") or "game").replace(" ", "-")


def new_record(treaty_id: str, proposer: str, parties: list[str], text: str, secret: bool,
               at: str, status: str = OPEN, key: str | None = None) -> dict[str, Any]:
    return {"id": treaty_id, "key": key or treaty_id, "proposer": proposer, "parties": list(parties),
            "text": text, "secret": bool(secret), "status": status,
            "signatures": {proposer: at} if proposer else {},
            "refusals": {}, "withdrawals": {}, "breaches": [], "history": []}


def free_key(state: State, treaty_id: str, owner: str) -> str:
    """A key for a new treaty called ``treaty_id``: the id itself when no treaty is kept
    under it, else the id with its owner (the proposer, or who made it) and a number."""
    taken = {k.lower() for k in state.get("treaties", {})}
    key, n = treaty_id, 1
    while key.lower() in taken:
        n += 1
        key = f"{treaty_id}~{owner.replace(' ', '-')}{'' if n == 2 else n - 1}"
    return key


def store(state: State, record: dict[str, Any]) -> dict[str, Any]:
    """Keep ``record`` in the book under its own key."""
    book(state)[key_of(record)] = record
    return record


def concluded_record(treaty_id: str, parties: list[str], text: str, concluded: str,
                     secret: bool = False) -> dict[str, Any]:
    """A record the game itself concluded (its rules made it; nobody signs):
    in force at once, with ``concluded`` saying how and when in words
    ("enforced in Peace Resolution, round 2")."""
    record = new_record(treaty_id, "", parties, text, secret, "", IN_FORCE)
    record["concluded"] = concluded
    return record


def act(state: State, action: TreatyAction, seated: list[str],
        seats: Mapping[str, str] | None = None) -> tuple[dict[str, Any], list[Event]]:
    """Apply one treaty action to ``state`` (mutated: the caller holds a copy).
    ``seated`` are the powers that may be parties; ``seats`` the powers no player holds that
    may be parties too, each with the seated power whose player writes for it (the game's
    ``treaty_seats``).  Returns the record and the events; raises :class:`Refused` with a
    reason a player understands."""
    if action.action == "propose":
        record = _propose(state, action, seated, seats or {})
    else:
        record = find_for(state, action.treaty, action.power)
        if record is None or not acts_for(record, action.power):
            # The nearest id among the treaties the sender is a party to ("anglo_german" for
            # anglo-german): never one it may not see.
            mine = [str(r["id"]) for r in visible(state, action.power) if acts_for(r, action.power)]
            raise Refused(f"you are not a party to a treaty {action.treaty!r}", "unknown-treaty",
                          names.nearest(action.treaty, mine))
        if record.get("concluded"):
            raise Refused(f"treaty {record['id']} was concluded by the game ({record['concluded']}): it is not "
                          "signed, withdrawn, revealed or claimed broken by TREATY commands", "treaty-concluded")
        record = _STEPS[action.action](record, action)
    entry = {"at": action.at, "who": action.power, "action": action.action}
    mine = acts_for(record, action.power)
    if mine not in ([], [action.power]):
        entry["for"] = mine  # "Germany signed (for Austria-Hungary)"
    record["history"].append(entry)
    return record, [event(record, action.action, power=action.power)]


def event(record: Mapping[str, Any], action: str, **extra: Any) -> Event:
    """The event of a change to a treaty's record, seen by whoever may see the treaty."""
    e = {"kind": "treaty", "id": record["id"], "key": key_of(record), "action": action, **extra,
         "status": record["status"], "parties": list(record["parties"]), "secret": bool(record.get("secret"))}
    return audience.tag(e, audience_of(record))


def audience_of(record: Mapping[str, Any]) -> audience.Audience:
    """Who may see a treaty: its parties (or who writes for them) while it is secret,
    everyone once it is revealed."""
    return audience.treaty_of(record)


def acts_for(record: Mapping[str, Any], power: str) -> list[str]:
    """The parties of ``record`` whose player is ``power``'s: itself, if a party, and every
    party it writes for (the record's ``seats``)."""
    seats = record.get("seats") or {}
    return [p for p in record.get("parties") or () if seats.get(p, p) == power]


def _propose(state: State, action: TreatyAction, seated: list[str],
             seats: Mapping[str, str]) -> dict[str, Any]:
    # Everything about the proposal itself is checked before its id, and the id only against
    # the treaties the proposer may see: the answer never tells of a treaty it may not see.
    # The proposer is always a party in its own name: a power no player holds is named
    # among the others, and signs when the player who writes for it does.
    parties: list[str] = []
    for power in (action.power, *action.parties):
        if power not in seated and seats.get(power) not in seated:
            raise Refused(f"treaty party {power!r} is not playing", "unknown-power")
        if power not in parties:
            parties.append(power)
    if len(parties) < 2:
        raise Refused("a treaty needs at least one other party", "treaty-parties")
    if len({seats.get(p, p) for p in parties}) < 2:
        raise Refused(f"a treaty needs another player: {action.power}'s player writes for every party "
                      f"named ({', '.join(parties)})", "treaty-parties")
    if "~" in action.treaty:
        raise Refused(f"a treaty id has no '~' in it ({action.treaty!r})", "treaty-id")
    if any(str(r["id"]).lower() == action.treaty.lower() for r in visible(state, action.power)):
        raise Refused(f"treaty {action.treaty} already exists; choose another id", "treaty-exists")
    record = new_record(action.treaty, action.power, parties, action.text, action.secret, action.at,
                        key=free_key(state, action.treaty, action.power))
    spoken = {p: seats[p] for p in parties if p not in seated}
    if spoken:
        record["seats"] = spoken
        # The proposal is the proposer's signature, for every party its player writes for.
        record["signatures"] = {p: action.at for p in acts_for(record, action.power)}
    return store(state, record)


def _open(record: dict[str, Any], verb: str) -> None:
    if record["status"] != OPEN:
        raise Refused(f"treaty {record['id']} is {record['status']}; it cannot be {verb}", "treaty-closed")


def _sign(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    _open(record, "signed")
    for party in acts_for(record, action.power):
        record["signatures"][party] = action.at
    if set(record["signatures"]) >= set(record["parties"]):
        record["status"] = IN_FORCE
    return record


def _refuse(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    _open(record, "refused")
    for party in acts_for(record, action.power):
        record["refusals"][party] = action.at
    record["status"] = "refused"
    return record


def _withdraw(record: dict[str, Any], action: TreatyAction) -> dict[str, Any]:
    mine = acts_for(record, action.power)
    if record["status"] == OPEN:
        for party in mine:
            record["signatures"].pop(party, None)
        if action.power == record["proposer"]:
            record["status"] = "withdrawn"
    elif record["status"] == IN_FORCE:
        # Lapse needs every party's agreement; one withdrawal is recorded and
        # the treaty stays in force until all have withdrawn.
        for party in mine:
            record["withdrawals"][party] = action.at
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
    if action.against not in record["parties"] or action.against in acts_for(record, action.power):
        raise Refused(f"a breach is claimed against another party of {record['id']}", "treaty-parties")
    record["breaches"].append({"at": action.at, "by": action.power, "against": action.against,
                               "text": action.text, "ruled": None})
    return record


_STEPS = {"sign": _sign, "refuse": _refuse, "withdraw": _withdraw, "reveal": _reveal, "breach": _breach}


def may_see(record: Mapping[str, Any], power: str | None) -> bool:
    """Whether ``power`` (None: the public) may see the treaty, as the audience gate says."""
    own = audience.book_of([record])
    return audience.admits(audience_of(record), power if power else audience.PUBLIC, own)


def visible(state: State, power: str | None, gm: bool = False) -> list[dict[str, Any]]:
    """The records ``power`` may see (None: the public; ``gm``: all), in id order."""
    return [dict(r) for _, r in sorted(state.get("treaties", {}).items()) if gm or may_see(r, power)]
