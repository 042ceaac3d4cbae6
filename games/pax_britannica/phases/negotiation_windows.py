"""The Negotiation Phase's further windows in a Game Turn.

Rules: NEGOTIATION (4) - "If a Codominion is created where a Power has an Influence, that Power
will now have CB against all members of the Codominion"; Treaties and Casus Belli ("Whenever a
player breaks a formal Treaty, all other signatories to the Treaty automatically have a Casus
Belli"); TREATIES ("If a secret Treaty is broken, however, a signer who wishes to use that fact
to obtain a Casus Belli must make the Treaty public"); Casus Belli ("if a player does not use a
Casus Belli to declare War against another player on the turn that the conditions of the Casus
Belli occur, the Casus Belli expires").

A window's orders can give a Casus Belli its holder has had no window to use, or break a secret
treaty whose other signers must reveal it to use it.  Choice: the Negotiation Phase then goes on
with another window (``ROUNDS`` in all at most) in which those holders owe an answer (they may
reveal the treaty, call a Congress, declare War, settle), and what is still unlawful on the map
is cleared only after the last window (phases/negotiation.py).
"""
from __future__ import annotations

from ..core import congress_rules as cr, disputes, treaty_records

#: Choice: the Negotiation Phase has at most this many windows in a Game Turn.
ROUNDS = 3
#: Casus Belli a window's own orders can give, whose holders get a further window to use them
FRESH_CAUSES = ("codominion", "treaty_breach")


def window(state: dict, keep: bool = False) -> dict:
    """This turn's Negotiation windows: ``round`` (1, 2, ...), ``fresh_from`` (the number of the
    first Casus Belli the last window's orders gave), ``told`` (the broken secret treaties whose
    signers were asked in a window already), ``more`` (the last window gave fresh Casus Belli).
    ``keep``: store a new turn's record in the state (only while resolving)."""
    rec = state.get("negotiation_window")
    if not rec or rec.get("turn") != state.get("turn"):
        rec = {"turn": state.get("turn"), "round": 1, "fresh_from": None, "told": [], "more": False}
        if keep:
            state["negotiation_window"] = rec
    return rec


def round_of(state: dict) -> int:
    return window(state)["round"]


def cb_number(cb: dict) -> int:
    digits = "".join(ch for ch in str(cb.get("id", "")) if ch.isdecimal())
    return int(digits) if digits else 0


def fresh(state: dict, floor: int | None) -> list[dict]:
    """Casus Belli given by a window's own orders (numbered from ``floor``) whose holder a
    player speaks for."""
    if floor is None:
        return []
    return [cb for cb in disputes.current(state) if cb.get("cause") in FRESH_CAUSES
            and cb_number(cb) >= floor and cr.speaker(state, cb["holder"])]


def untold(state: dict) -> list[dict]:
    """Pending Casus Belli of broken secret treaties whose signers no window has asked yet."""
    return [p for _, p in treaty_records.unoffered(state)]


def goes_on(state: dict) -> bool:
    """Whether the Negotiation Phase goes on with another window (see the module's Choice):
    the last window's orders gave a Casus Belli, or broke a secret treaty, that its holders
    have had no window to use; never once a Congress is called or after ``ROUNDS`` windows."""
    rec = window(state, keep=True)
    if cr.current(state) or state.get("great_war") or rec["round"] >= ROUNDS:
        return False
    # fresh Casus Belli are counted again here: a treaty the orders broke is found after them
    if not fresh(state, rec["fresh_from"]) and not untold(state):
        return False
    rec["round"] += 1
    return True


def later_owes(state: dict) -> list[str]:
    """Who owes an answer in a further window: the parties to the Casus Belli the last window's
    orders gave, and the signers of a secret treaty broken since who may reveal it."""
    new = disputes.parties(state, fresh(state, window(state)["fresh_from"])) | {p["holder"] for p in untold(state)}
    return cr.speakers(state, new)


def begin(state: dict) -> int:
    """A window resolves: the secret treaties broken so far have been offered in it; returns the
    number the Casus Belli its orders give start at."""
    rec = window(state, keep=True)
    rec["told"] = sorted(set(rec["told"]) | {t["id"] for t, _ in treaty_records.unrevealed(state)})
    return state.get("next_cb", len(state.get("cb", [])) + 1)


def finish(state: dict, floor: int) -> bool:
    """After a window's orders: whether another window will follow for the Casus Belli they
    gave (then the map is cleared only after it)."""
    rec = window(state, keep=True)
    rec["fresh_from"], rec["more"] = floor, bool(fresh(state, floor))
    return rec["more"] and rec["round"] < ROUNDS and not cr.current(state)
