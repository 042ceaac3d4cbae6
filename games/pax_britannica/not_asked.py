"""Why the window being played asks nothing of a player (``Game.nothing_due``): the
moderator refuses orders from a player a phase neither waits for nor hears, and adds this
reason, so the player learns the rule ("you hold no Casus Belli"), not only that nothing is
due.

Only the windows that ask some players and not others need a reason: the Movement/Status
Change Phase asks everyone, a Negotiation window hears everyone, and a phase that asks nobody
resolves at once.  Each reason says what would have made the player asked.
"""
from __future__ import annotations

from .core import congress_rules as cr, treaty_records
from .report.compose import own_powers
from .war import declare, model, sequence as war_sequence


def reason(state: dict, power: str) -> str | None:
    phase = state.get("phase")
    if state.get("game_over") or state.get("great_war") or power not in state.get("players", []):
        return None
    if phase == "war":
        return _declarations(state, power)
    if phase == "congress":
        return _congress(state, power)
    if phase == "war_alliances":
        return ("Alliance Determination asks only the players a treaty binds to join a War, and, while a "
                "Minor Power fights with no Great Power ally, the players at War with nobody (one may be "
                "given its Units): neither is you now (Rules: THE WAR SEQUENCE)")
    if phase == "war_resolution":
        return ("the Resolution asks only the powers that won Areas or may make demands in a War that "
                "ended; you have nothing to place or demand")
    if phase in war_sequence.WAR_PHASES:
        return _war_window(state, power)
    return None


def _declarations(state: dict, power: str) -> str:
    """Rules: DECLARATIONS OF WAR - "Any player with a Casus Belli can declare War against the
    Power that produced the Casus Belli"; TREATIES - a signer of a broken secret treaty gains
    its Casus Belli by revealing it."""
    own = own_powers(state, power)
    secret = treaty_records.revealable(state, own)
    if secret:
        return (f"you hold no Casus Belli you may use now; reveal the broken secret treaty first "
                f"(TREATY REVEAL {secret[0]}): that gives you one, and this window then takes your "
                "declaration")
    held = [cb for cb in state.get("cb", []) if cb.get("holder") in own]
    if not held:
        return ("you hold no Casus Belli, and only a power with one declares War at the outset of the War "
                "Phase (Rules: DECLARATIONS OF WAR); a treaty that binds you to join a War asks you in "
                "its Alliance Determination")
    why = []
    for cb in held:
        fail = declare.check_declare(state, cb["holder"], cb["against"])
        text = fail[1] if fail else f"{cb['holder']} holds no Casus Belli against {cb['against']} it may use now"
        if text not in why:
            why.append(text)
    return "none of your Casus Belli may be used now: " + "; ".join(why)


def _congress(state: dict, power: str) -> str | None:
    """Rules: CONGRESS OF EUROPE - members, and the United States and Japan only "if they are
    party to the dispute, or if they are unanimously invited to the Congress by all European
    Great Powers, or if the Congress is held in the United States or Japan"."""
    c = cr.current(state)
    if not c or not cr.sitting(state):
        return None
    site = c.get("site", "")
    if power in cr.voices(state, c):
        step = c["step"]
        if step == "sign":
            return "only the parties to the dispute sign the treaty the Congress passed; you are not one"
        if step == "decide":
            return ("only the holders of a Casus Belli against a party to the failed Congress, and the "
                    "defenders of a Minor Power bound to fight, choose War now; you are neither")
        return f"the Congress's {cr.STEP_TITLES.get(step, step)} ask nothing more of you now"
    if power in cr.OVERSEAS:
        return (f"{power} is not a member of the Congress in {site}: the United States and Japan sit in a "
                "Congress of Europe only as a party to its dispute, when every European Great Power "
                "invites them, or when it is held in their country")
    return f"{power} is not a member of the Congress in {site} (it did not attend)"


def _war_window(state: dict, power: str) -> str:
    """Rules: THE WAR SEQUENCE - Initiative, Supply and War End Determination are the rules' own;
    such a window waits only for a Casus Belli that arose in the War, answered in the window after
    it arose (an alliance's Maneuver and Attack Phases hear every player)."""
    name = war_sequence.title(state).split(": ")[-1]
    if not any(model.war_of(state, p) for p in own_powers(state, power)):
        return (f"you are in no War being fought now; the {name} waits only for the powers holding a "
                "Casus Belli that arose in the War")
    return (f"the {name} is played by the rules, with no orders, and waits only for the powers holding a "
            "Casus Belli that arose in the War; your alliance writes its orders in its Maneuver and "
            "Attack Phases")
