"""A treaty's record as Pax Britannica keeps it: which are in force, what a change to one
tells whom, which records a power may read, and a breach - the treaty broken, the Casus Belli
its other signers gain and the rise of the Index.

Rules: TREATIES; Treaties and Casus Belli ("all other signatories to the Treaty automatically
have a Casus Belli against that player"); EUROPEAN TENSION INCREASES ("Each time a player
breaks a Treaty, the Index increases by 5").  What a treaty's clauses do is treaties.py.
"""
from __future__ import annotations

from pbem.kit import treatybook

from . import board

BREACH_ETI = 5  # Rules: EUROPEAN TENSION INCREASES (ETI-12)


def in_force(state: dict) -> list[dict]:
    return [t for _, t in sorted(state.get("treaties", {}).items()) if t.get("status") == "in_force"]


def treaty_event(record: dict, action: str) -> dict:
    """A change to a treaty's record: seen by whoever may see the treaty."""
    return treatybook.event(record, action, broken_by=record.get("broken_by"))


def board_reason(record: dict) -> str:
    """A treaty as the cause of a change on the open board: by its id when it is public; a
    secret one is not named (Choice: its consequences are public, its existence is not)."""
    return "by agreement" if record.get("secret") else f"treaty {record['id']}"


def break_treaty(state: dict, record: dict, breaker: str, why: str) -> list[dict]:
    """Rules: Treaties and Casus Belli ("all other signatories to the Treaty automatically have
    a Casus Belli against that player"); EUROPEAN TENSION INCREASES (+5).  Rules: TREATIES -
    "If a secret Treaty is broken, however, a signer who wishes to use that fact to obtain a
    Casus Belli must make the Treaty public": the Casus Belli wait for TREATY REVEAL."""
    if record.get("status") != treatybook.IN_FORCE:
        return []
    record["status"] = "broken"
    record["broken_by"] = breaker
    turn = str(state.get("turn"))
    record.setdefault("breaches", []).append({"at": turn, "by": "moderator", "against": breaker,
                                              "text": why, "ruled": "broken"})
    record.setdefault("history", []).append({"at": turn, "who": breaker, "action": "broke"})
    eti = board.add_eti(state, BREACH_ETI, f"{breaker} broke treaty {record['id']}", breaker)
    if record.get("secret"):
        # Choice (choices/diplomacy.md): the Index is on the board, so its rise is public;
        # which treaty was broken, and by whom, stays with the parties until it is revealed.
        eti.update(reason="a treaty was broken", blame=None)
    events = [treaty_event(record, "broken"), eti]
    others = [p for p in record["parties"] if p != breaker]
    if record.get("secret"):
        record["pending_cbs"] = [{"holder": p, "against": breaker, "turn": state.get("turn")}
                                 for p in others]
        return events
    for p in others:
        events.append(board.add_cb(state, p, breaker, None, f"{breaker} broke treaty {record['id']}",
                                   cause="treaty_breach", rule="CB-05"))
    return [e for e in events if e]


def grant_pending(state: dict, record: dict) -> list[dict]:
    """A broken secret treaty made public: its signers now have their Casus Belli (this
    turn only: a Casus Belli lasts the turn it arose in).  Revealing breaks nothing
    (Rules: TREATIES, clarification: no tension, no Casus Belli for revealing)."""
    events = []
    for p in record.pop("pending_cbs", []):
        if p.get("turn") == state.get("turn"):
            events.append(board.add_cb(state, p["holder"], p["against"], None,
                                       f"{p['against']} broke treaty {record['id']}",
                                       cause="treaty_breach", rule="CB-05",
                                       audience=treatybook.audience_of(record)))
    return [e for e in events if e]


def unrevealed(state: dict) -> list[tuple[dict, dict]]:
    """(treaty, pending Casus Belli) for every secret treaty broken this turn whose signer has
    not yet made it public to gain its Casus Belli (Rules: TREATIES - "a signer who wishes to
    use that fact to obtain a Casus Belli must make the Treaty public")."""
    return [(t, p) for _, t in sorted(state.get("treaties", {}).items())
            for p in t.get("pending_cbs", []) if p.get("turn") == state.get("turn")]


def unoffered(state: dict) -> list[tuple[dict, dict]]:
    """``unrevealed`` less the treaties whose signers a Negotiation window of this turn has
    asked already (``state["negotiation_window"]["told"]``, phases/negotiation_windows.py)."""
    rec = state.get("negotiation_window") or {}
    told = set(rec.get("told", [])) if rec.get("turn") == state.get("turn") else set()
    return [(t, p) for t, p in unrevealed(state) if t["id"] not in told]


def revealable(state: dict, powers) -> list[str]:
    """The broken secret treaties of this turn any of ``powers`` may reveal to gain a Casus Belli."""
    return sorted({t["id"] for t, p in unrevealed(state) if p["holder"] in set(powers)})


def records(state: dict, power: str | None, gm: bool = False) -> list[dict]:
    out = []
    for r in treatybook.visible(state, power, gm):
        r.pop("terms", None)
        r.pop("pending_cbs", None)
        r.setdefault("clauses", [])
        out.append(r)
    return out
