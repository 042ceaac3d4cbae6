"""A simple bot in the Negotiation Phase and the Congress of Europe: it gives way when
outgunned, calls a Congress when it holds a Casus Belli and is the weaker, proposes the plain
settlement (a Codominion for rival Control markers, the unlawful markers reduced), votes for
what leaves it no worse, signs what passed, and never declares War."""
from __future__ import annotations

from pbem.kit.gameapi import TreatyAction

from ..core import board, congress_rules as cr, disputes
from ..core.data import load_data
from .accepted import only_accepted
from ..core.state import by_rules_order

ATTEND_CHANCE = 0.5


def bot_orders(game, state: dict, power: str, rng) -> list[str]:
    if state.get("game_over"):
        return []
    if state.get("phase") == "negotiation":
        lines = negotiation(state, power, rng)
    else:
        lines = congress(state, power, rng)
    return only_accepted(game, state, power, lines)


def strength(state: dict, power: str, area: str | None = None) -> int:
    """Army strength in the Area, or abroad when no Area is named."""
    units = board.units_of(state, power, area, "army")
    return sum(u["strength"] for u in units)


def negotiation(state: dict, power: str, rng) -> list[str]:
    lines = []
    for area in disputes.troubled_areas(state):
        bad = disputes.illegal_markers(state, area)
        if power not in bad:
            continue
        rivals = [p for p in board.markers_in(state, area) if p != power]
        if any(strength(state, p, area) > strength(state, power, area) for p in rivals):
            lawful = disputes.lawful_level(state, area, power) or "none"
            lines.append(f"DOWNGRADE {area} TO {lawful.upper()}")
    held = [cb for cb in cr.congress_cbs(state) if cb["holder"] == power]
    if held and not cr.current(state):
        weaker = any(strength(state, power) < strength(state, cb["against"]) for cb in held)
        sites = cr.valid_sites(state, cr.all_parties(state))
        if weaker and sites:
            lines.append(f"CALL CONGRESS AT {sites[0]}")
    return lines


def congress(state: dict, power: str, rng) -> list[str]:
    c = cr.current(state)
    if not c or c["step"] == "closed":
        return []
    step = c["step"]
    if step == "attend":
        if power not in c["members"]:
            return ["ATTEND" if rng.random() < ATTEND_CHANCE else "DECLINE"]
        return []
    if step == "propose":
        speaker = cr.speaker(state, c["called_by"])
        first = speaker if speaker in cr.voices(state, c) else (cr.voices(state, c) or [None])[0]
        return settlement(state, c, power) if power == first else []
    if step == "vote":
        return [f"VOTE {p['id']} {'YES' if no_worse(state, power, p) else 'NO'}"
                for p in c["proposals"] if p["status"] == "open"]
    if step == "sign" and power in c.get("signers", []):
        return [f"SIGN {c['adopted']}"]
    return []


def settlement(state: dict, c: dict, power: str) -> list[str]:
    """The plain settlement: rival Control markers share the Area, every other unlawful
    marker is reduced to what the status rules allow."""
    clauses = []
    for area in cr.areas(c):
        pairs = disputes.rival_pairs(state, area)
        if pairs:
            members = by_rules_order({p for pair in pairs for p in pair})
            clauses.append(f"CODOMINION {area} WITH {', '.join(members)}")
            continue
        for p, _why in sorted(disputes.illegal_markers(state, area).items()):
            lawful = disputes.lawful_level(state, area, p) or "none"
            clauses.append(f"DOWNGRADE {p} {area} TO {lawful.upper()}")
    pid = f"C{state['turn']}-{c['round']}-{power[:3].upper()}"
    return [f"PROPOSE {pid}"] + clauses + ["The disputes before this Congress are settled.", "ENDPROPOSE"]


def no_worse(state: dict, power: str, proposal: dict) -> bool:
    """A proposal leaves the bot no worse when no clause lowers its markers or takes its money."""
    for clause in proposal["terms"]:
        t = clause["type"]
        if t == "downgrade" and clause["power"] == power:
            return False
        if t == "pay" and clause["to"] != power and clause.get("subject") in (power, None):
            return False
        if t == "transfer" and clause["to"] != power and board.status_of(
                state, clause["area"], power) == clause["status"]:
            return False
    return True


TREATY_CHANCE = 0.2


def treaty_actions(state: dict, rng) -> list:
    """Now and then two bots sign a small treaty (a payment, a pledge to keep out of an Area,
    a navy limit, an alliance), proposed and signed at once: typed inputs for the random games,
    so that treaties are kept, carried out and broken there too."""

    players = list(state.get("players", []))
    if state.get("game_over") or len(players) < 2 or rng.random() > TREATY_CHANCE:
        return []
    a, b = rng.sample(players, 2)
    area = rng.choice(sorted(load_data(state).areas))
    navy = sum(u["strength"] for u in board.units_of(state, a, type="navy"))
    clause = rng.choice([f"{a}: PAY {b} 5", f"{a}: NO MARKERS IN {area}", "DEFENSIVE ALLIANCE",
                         f"{a}: MAX NAVY {navy + rng.randint(0, 3)}", f"CB IF {b} IS ATTACKED"])
    tid = f"B{state['turn']}-{len(state.get('treaties', {})) + 1}"
    at = f"{state['turn']} bot"
    secret = rng.random() < 0.3
    return [TreatyAction("propose", a, tid, at=at, parties=(b,), text=f"{clause}\nIn good faith.",
                         secret=secret),
            TreatyAction("sign", b, tid, at=at)]
