"""Who may see each fact of Pax Britannica (the contract's audiences, pbem.kit.audience).

The board is open (Rules: THE MAP; the Index tracks), so what happens on it is public.  A
power's accounts are its own (Rules: ADMINISTRATIVE RECORD SHEETS): its income, a deficit to
meet, money it gives or receives, an order that failed (the German player keeps
Austria-Hungary's).  What a treaty gives or asks is tagged where it is made -- a treaty's
record and its changes (pbem.kit.treatybook), the Casus Belli and duties it gives in a war
(treaties.py, war/declare.py) -- so that a secret treaty's parties alone know of it until it
is revealed (Rules: TREATIES, "Players are free to keep the terms of Treaties secret ... or
even let on that a Treaty has been drawn up or signed"); a question for the GM is the GM's.
:data:`PUBLIC` and :data:`PRIVATE` give a kind's audience when the code that made the event
gave none; :data:`MADE_WITH` are the kinds tagged where they are made.  A kind in none of
them is left without one (the GM's alone), and the suite fails (test_pb_report checks every
kind the rules emit).  The moderator calls :func:`stamp` on everything the game returns.
"""
from __future__ import annotations

from typing import Iterable

from pbem.kit import audience, treatybook

from . import board

#: event kinds that are their powers' own accounts: the fields naming those powers
PRIVATE = {"money": ("power", "to"), "order_failed": ("power",), "income": ("power",),
           "deficit": ("power",), "funds_vp": ("power",)}
#: event kinds everyone sees: the board, the indices, the Congress, the wars
PUBLIC = frozenset({
    "marker", "unit_built", "unit_moved", "unit_lost", "unit_retreated", "unit_removed", "merchant", "canal",
    "canal_race", "colonial_combat", "codominion", "unrest", "unrest_reroll", "unrest_none", "eti", "cri", "vp",
    "deficit_settled", "random_events", "random_event", "random_event_reroll", "permission", "pressure",
    "minor_power", "minor_power_reroll", "minor_garrison", "chinese_rebellion", "chinese_armies", "great_war",
    "game_over", "final_record", "gm_notice", "gm", "declaration", "defend", "congress_called",
    "congress_attendance", "congress_step", "proposal", "congress_vote", "congress_signature", "congress_failed",
    "clause_void", "war_declared", "war_begins", "war_duty", "war_joined", "initiative", "war_move", "war_combat",
    "war_placed", "supply_check", "unit_surrendered", "area_surrendered", "area_defeated", "area_restored",
    "conquered", "passage_denied", "coaling_granted", "peace_asked", "end_delayed", "separate_peace", "war_end",
    "war_resolved", "reparations", "spoils_squabble", "units_home", "natives_removed"})
#: event kinds whose audience is given where they are made (a treaty's, the GM's, a power's)
#: (and what a GM edit changed in a player's position, that player's: pbem.kit.positions)
MADE_WITH = frozenset({"treaty", "question", "ruling", "cb", "war_refused", "war_duty_void", "war_duty_kept",
                       "position_changed"})


def players_of(state: dict, powers: Iterable[str]) -> list[str]:
    """The powers, and the player who runs each: Austria-Hungary's accounts are the German
    player's (Rules: AUSTRIA-HUNGARY)."""
    out = [p for p in powers if p]
    if "Austria-Hungary" in out and "Germany" in state.get("players", []) \
            and board.is_great(state, "Austria-Hungary"):
        out.append("Germany")
    return out


def of_kind(state: dict, event: dict) -> audience.Audience | None:
    kind = str(event.get("kind"))
    if kind in PRIVATE:
        return audience.powers(players_of(state, [event.get(f) for f in PRIVATE[kind]]))
    if kind in PUBLIC:
        return audience.public()
    if kind == "treaty" and event.get("id"):  # a GM's SET TREATY: whoever may see the treaty
        return audience.treaty(event.get("key") or event["id"], event.get("parties") or ())
    return None


def stamp(state: dict, events: list[dict]) -> list[dict]:
    """Every event with its audience: the one it was made with, else its kind's (a kind this
    module does not know keeps none: the GM's alone)."""
    for e in events:
        if audience.KEY not in e:
            found = of_kind(state, e)
            if found is not None:
                audience.tag(e, found)
    return events


def book(state: dict) -> audience.Book:
    """The treaties the gate reads a treaty's audience against."""
    return audience.book_of(treatybook.visible(state, None, gm=True))


def reader(power: str | None) -> audience.Reader:
    return power if power else audience.PUBLIC


def seen(state: dict, facts: Iterable[dict], power: str | None) -> list[dict]:
    """The facts of the state (Casus Belli, treaty duties) ``power`` may see (None: the
    public), as the platform's one gate says; a fact made with no audience is on the open
    board."""
    known, who = book(state), reader(power)
    return [f for f in facts if audience.admits(audience.of(f) or audience.public(), who, known)]
