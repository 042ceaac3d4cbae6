"""What a realm owes in the window the game is in, before it writes its orders: the game's
``obligations`` (pbem.kit.gameapi).  A report opens with them; the checks of the orders
(validate.py) read the same facts (:func:`must_enforce`), so the report and a refusal agree.

Rules: 4.3 (the Action Phase: one action a turn, or Pass); 11.3 Receiving a CtA (a Call to
Arms is accepted or refused); 9.7 steps 1 and 6 (a battle's leader, a retreat); 10.1 steps 1
and 2 and 10.2 (Peace Resolution in Phase 3 step D).
"""
from __future__ import annotations

from pbem.kit import audience
from pbem.kit.gameapi import EFFECT, MUST, Obligation

from . import state as st
from . import victory as vc
from .phases import peace_resolution


def must_enforce(state: dict, realm: str, enemy: str) -> bool:
    """10.1 step 2: "The Victor -must- enforce Peace Terms of their choosing unless a Negotiated
    Peace is agreed with the Loser": a Total Victory cannot be left as it stands."""
    return vc.condition(state, realm, enemy) == "total"


def obligations(state: dict, realm: str) -> list[Obligation]:
    """What ``realm`` must decide now, each the realm's own (and the GM's) to see."""
    if state.get("over") or realm not in state.get("realms", {}) or not st.is_human(state, realm):
        return []
    seen = audience.powers(realm)
    phase = state.get("phase")
    facts = _action(state, realm) if phase == "action" else \
        _reaction(state, realm) if phase == "reaction" else \
        _peace(state, realm) if phase == "p3" and state.get("step") == "D" else []
    return [Obligation(realm, text, seen, kind, rule) for kind, text, rule in facts]


def _action(state: dict, realm: str) -> list:
    if realm != state.get("active"):
        return []
    # 4.3: the realms act one at a time in turn order, one action a turn, until every one has Passed.
    return [(MUST, "It is your turn: send ORDERS with one action, or PASS (no answer: you pass, and may not act "
             "again this round)", "4.3")]


def _reaction(state: dict, realm: str) -> list:
    p = state.get("pending") or {}
    if p.get("realm") != realm:
        return []
    if p["kind"] == "cta":
        # 11.3 Receiving a CtA: the ally accepts (actively or not) or refuses.
        return [(MUST, f"Answer {p['caller']}'s Call to Arms against {', '.join(p['enemies'])}: ACCEPT [ACTIVE|"
                 f"INACTIVE] or REFUSE (no answer: {p['default']})", "11.3 Receiving a CtA")]
    if p["kind"] == "leader":
        # 9.7 step 1: who commands in the battle.
        return [(MUST, f"Choose who commands your side in the battle in {p['loc']}: LEADER <name>, BEST or NONE; "
                 f"you may name {', '.join(p['choices']) or 'none'} (no answer: {p['default']})", "9.7 step 1")]
    # 9.7 step 6: retreat (losing 1 more unit) or fight another round.
    return [(MUST, f"Decide the battle in {p['loc']} after round {p['round']}: RETREAT [TO <area>] (you lose 1 more "
             f"unit) or FIGHT (no answer: {p['default']})", "9.7 step 6")]


def _peace(state: dict, realm: str) -> list:
    """Phase 3 step D, Peace Resolution: each war of the realm, as its orders must settle it."""
    if peace_resolution.reopened(state):
        out = []
        surrendered = [loser for v, loser in state.get("peace_asked", []) if v == realm]
        for loser in surrendered:
            # 10.2: the victor of a surrender enforces terms as after a Partial Victory.
            out.append((MUST, f"{loser} surrendered to you: name your term with ENFORCE <term> ON {loser} (no "
                        "answer: keep_current_board_state)", "10.2"))
        for enemy in peace_resolution.asked_of(state, realm):
            if enemy not in surrendered:
                out.append((MUST, f"Your NEGOTIATE texts with {enemy} differed: send the same NEGOTIATE {enemy} "
                            "text, or OFFER WHITE PEACE, ENFORCE or KEEP WAR (no answer: no negotiated peace, "
                            "the war goes on)", "10.2"))
        return out
    if realm not in peace_resolution.owes(state):
        return []
    out = []
    for enemy in st.enemies(state, realm):
        cond = vc.condition(state, realm, enemy)
        party = vc.peace_party(state, enemy, realm)
        if cond == "white_peace":
            out.append((EFFECT, f"Your war with {enemy} ends by itself in an Automatic White Peace: nothing is "
                        "occupied (no order)", "10.1 step 1"))
        elif party != enemy:
            out.append((EFFECT, f"Your war with {enemy}: {party} is its Active Ally, so its peace is made with "
                        f"{party}", "10.1"))
        elif must_enforce(state, realm, enemy):
            out.append((MUST, f"You have a Total Victory over {enemy}: you must enforce a term on it (ENFORCE "
                        f"<term> ON {enemy}) or agree a negotiated peace (no answer: keep_current_board_state "
                        "is enforced)", "10.1 step 2"))
        else:
            standing = "your Partial Victory" if cond == "partial" else "no side is victorious"
            out.append((MUST, f"Decide your war with {enemy} ({standing}): ENFORCE a term, OFFER WHITE PEACE, "
                        "SURRENDER, NEGOTIATE or KEEP WAR (no answer: the war goes on)", "10.1"))
    return out
