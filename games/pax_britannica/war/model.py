"""War records: who fights whom, in which alliance, and in what order the wars are fought.

Rules: THE WAR SEQUENCE ("the War Sequence is followed to completion for each War fought in a
Game Turn, in the following order: Chinese Rebellion ...; War declared by the Ottoman Empire
...; All other Wars, simultaneously"); DECLARATIONS OF WAR (alliances, three-cornered wars,
separate wars fought "simultaneously, all Military Units in one War effectively ignoring those
in the other War"); WAR AGAINST MINOR POWERS; MOVEMENT DURING AN ALLIANCE MANEUVER PHASE
(Minor Power Movement).

A war is a record in ``state["wars"]``::

    {"id": "W1", "kind": <"war" | "rebellion" | "ottoman">, "status": <"active" | "ended" | "resolved">,
     "sides": [[first alliance], [second alliance], ...],   # in initiative order
     "firsts": [powers that started it], "round": n, "quiet": n, "fought": bool,
     "conquered": {area: [powers]}, "defeated": [areas], "surrendered": [units],
     "grants": [{"area", "by", "to"}], "denials": [{"area", "by", "to"}],
     "peace": {power: [enemies]}, "delay": [powers], "assigned": {minor: player},
     "left": [powers], "result": {...} | None,
     "bonds": [[power, ally], ...]}      # allied by choice: joined an ally, or set so

Two powers are at War when they stand in different alliances of the same war (Choice: a
power that joins an alliance "is at War with all of the opponent(s)", DECLARATIONS OF WAR,
and in a three-cornered war each alliance fights the others).  Only the wars of the group
being fought count (``fighting``): the others wait their turn.
"""
from __future__ import annotations

from ..core import board
from ..core.state import CHINA, NATIVES, OTTOMANS, by_rules_order

#: Rules: DECLARATIONS OF WAR - "Normally, a War occurs between two different Alliances ...
#: the players should add Third Alliance Maneuver, Attack, and Supply Phases": the War
#: Sequence has phases for three alliances at most.
MAX_ALLIANCES = 3
#: Rules: THE WAR SEQUENCE - the order in which wars are fought.
GROUPS = ("rebellion", "ottoman", "war")
ORDINALS = ("first", "second", "third", "fourth", "fifth")
OPEN = ("active", "ended")


def is_native(power: str) -> bool:
    return power in NATIVES


# -- the records ----------------------------------------------------------------------
def open_wars(state: dict) -> list[dict]:
    return [w for w in state.get("wars", []) if w.get("status", "active") in OPEN]


def group_of(war: dict) -> str:
    kind = war.get("kind", "war")
    return kind if kind in GROUPS else "war"


def current_group(state: dict) -> str | None:
    """The group being fought: the first of the rules' order with a war not yet resolved."""
    groups = {group_of(w) for w in open_wars(state)}
    return next((g for g in GROUPS if g in groups), None)


def group_wars(state: dict, group: str | None = None) -> list[dict]:
    group = group or current_group(state)
    return [w for w in open_wars(state) if group_of(w) == group]


def fighting(state: dict) -> list[dict]:
    """The active wars of the group being fought."""
    return [w for w in group_wars(state) if w.get("status", "active") == "active"]


def members(war: dict) -> list[str]:
    return [p for side in war.get("sides", []) for p in side]


def side_index(war: dict, power: str) -> int | None:
    for i, side in enumerate(war.get("sides", [])):
        if power in side:
            return i
    return None


def war_of(state: dict, power: str, among: list[dict] | None = None) -> dict | None:
    for w in fighting(state) if among is None else among:
        if side_index(w, power) is not None:
            return w
    return None


def enemies_in(war: dict, a: str, b: str) -> bool:
    ia, ib = side_index(war, a), side_index(war, b)
    return ia is not None and ib is not None and ia != ib


def at_war(state: dict, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` fight each other in a war being fought now."""
    return any(enemies_in(w, a, b) for w in fighting(state))


def allied(state: dict, a: str, b: str) -> bool:
    """Same alliance of a war being fought now (a power is its own ally)."""
    for w in fighting(state):
        ia = side_index(w, a)
        if ia is not None and ia == side_index(w, b):
            return True
    return False


def enemies_of(state: dict, power: str) -> set[str]:
    war = war_of(state, power)
    if war is None:
        return set()
    mine = side_index(war, power)
    return {p for i, side in enumerate(war["sides"]) if i != mine for p in side}


def allies_of(state: dict, power: str) -> set[str]:
    """The power's alliance (itself included) in the war being fought; just itself otherwise."""
    war = war_of(state, power)
    if war is None:
        return {power}
    return set(war["sides"][side_index(war, power)])


def alliance_label(war: dict, power: str) -> str:
    i = side_index(war, power)
    return "none" if i is None else ORDINALS[i] if i < len(ORDINALS) else str(i + 1)


def kind_for(sides: list[list[str]]) -> str:
    flat = {p for s in sides for p in s}
    return "rebellion" if CHINA in flat else "ottoman" if OTTOMANS in flat else "war"


def new_war(state: dict, sides: list[list[str]], kind: str | None = None,
            firsts: list[str] | None = None, **extra) -> dict:
    """A new war record (appended to ``state["wars"]``)."""
    number = state.get("next_war", len(state.get("wars", [])) + 1)
    state["next_war"] = number + 1
    record = {"id": f"W{number}", "kind": kind or kind_for(sides), "status": "active",
              "sides": [list(s) for s in sides], "firsts": list(firsts or []), "round": 0,
              "quiet": 0, "fought": False, "conquered": {}, "defeated": [], "surrendered": [],
              "grants": [], "denials": [], "peace": {}, "delay": [], "assigned": {},
              "left": [], "result": None, "turn": state.get("turn"),
              "bonds": [[s[0], p] for s in sides for p in s[1:]]}
    record.update(extra)
    state.setdefault("wars", []).append(record)
    return record


# -- who speaks for whom -------------------------------------------------------------------
def is_player(state: dict, power: str) -> bool:
    return power in state.get("players", [])


def speaker(state: dict, power: str) -> str | None:
    """The player who writes a Great Power's orders: itself, or Germany for Austria-Hungary
    (Rules: AUSTRIA-HUNGARY)."""
    if is_player(state, power):
        return power
    if power == "Austria-Hungary" and board.is_great(state, power) and is_player(state, "Germany"):
        return "Germany"
    return None


def controllers(state: dict, war: dict, power: str) -> list[str]:
    """The players who move ``power``'s units in ``war``.  Rules: MOVEMENT DURING AN ALLIANCE
    MANEUVER PHASE (Minor Power Movement) - "Units of Minor Powers participating in a War are
    moved by their allies ... If a Minor Power has no allies, the player appointed to control
    its Units decides"; WAR AGAINST MINOR POWERS; CHINESE REBELLION - a minor Russia is run by
    the French player, a minor Japan by the British; WAR WITH THE OTTOMANS - the Ottomans'
    Great Power allies run them, and nobody when they have none (the engine moves them)."""
    own = speaker(state, power)
    if own:
        return [own]
    if power == CHINA:
        return []
    assigned = war.get("assigned", {}).get(power)
    if assigned:
        return [assigned]
    if war.get("kind") == "rebellion":
        patron = {"Russia": "France", "Japan": "Britain"}.get(power)
        if patron and is_player(state, patron):
            return [patron]
    i = side_index(war, power)
    if i is None:
        return []
    allies = [speaker(state, p) for p in war["sides"][i] if p != power and board.is_great(state, p)]
    return by_rules_order(a for a in allies if a)


def engine_moved(state: dict, war: dict, power: str) -> bool:
    """China, and the Ottomans with no Great Power ally, are moved by the engine (Rules:
    CHINESE REBELLION, Determining Chinese Army Movement; WAR WITH THE OTTOMANS)."""
    return power == CHINA or (power == OTTOMANS and not controllers(state, war, power))


def place_in_war(war: dict, power: str, index: int) -> None:
    while len(war["sides"]) <= index:
        war["sides"].append([])
    if power not in war["sides"][index]:
        war["sides"][index].append(power)


def bond(war: dict, who: str, ally: str) -> None:
    """``who`` is ``ally``'s ally by choice (it joined its alliance)."""
    if who != ally and [who, ally] not in war.setdefault("bonds", []):
        war["bonds"].append([who, ally])


def bound_group(war: dict, power: str) -> set[str]:
    """The powers of ``power``'s alliance allied with it by choice, directly or through each
    other (itself included)."""
    index = side_index(war, power)
    side = set(war["sides"][index]) if index is not None else set()
    group, grew = {power}, True
    while grew:
        grew = False
        for a, b in war.get("bonds", []):
            if a in side and b in side and (a in group) != (b in group):
                group |= {a, b}
                grew = True
    return group


def split_check(war: dict, by: str, target: str) -> tuple[str, str] | None:
    """Why ``by`` may not declare War on ``target``, a power of its own alliance (None: it may).
    Rules: DECLARATIONS OF WAR - an obligated player who joins "is an ally of one of the warring
    Powers", but "it is possible (though unusual) for a three-cornered War to occur ... and no
    Power is allied with another".  Choice: powers that stand in one alliance only because they
    fight the same enemy are allied by nobody's choice, and a declaration between them makes a
    new alliance; an ally by choice (a treaty duty kept, a helper, Austria-Hungary's treaty, a
    side the GM set) may not be declared War on; and the War Sequence has phases for three
    alliances, so a fourth is refused."""
    if target in bound_group(war, by):
        return "own-ally", f"{target} is {by}'s ally in the war being fought"
    if len([s for s in war["sides"] if s]) >= MAX_ALLIANCES:
        return "no-fourth-alliance", (f"{by} and {target} fight in one alliance of a War that has "
                                      f"{MAX_ALLIANCES} alliances already; the War Sequence has no fourth")
    return None


def split(war: dict, by: str, target: str) -> None:
    """``by`` declared War on ``target`` of its own alliance: ``target`` and its allies by
    choice leave for a new alliance, at War with every other (Choice: the rest of the alliance
    stays with ``by``)."""
    group = bound_group(war, target)
    index = side_index(war, target)
    side = war["sides"][index]
    war["sides"][index] = [p for p in side if p not in group]
    war["sides"].append([p for p in side if p in group])


def opposed_index(war: dict, power: str) -> int:
    """Where a power newly at War with ``power`` goes.  Choice: the other alliance of a
    two-alliance war; with three or more, the last alliance that is not ``power``'s."""
    mine = side_index(war, power)
    others = [i for i in range(len(war["sides"])) if i != mine]
    return others[-1] if others else 1 - (mine or 0)


def leave(war: dict, power: str) -> None:
    """A power leaves the war (a separate peace)."""
    for side in war["sides"]:
        if power in side:
            side.remove(power)
    if power not in war["left"]:
        war["left"].append(power)


def merge(state: dict, into: dict, other: dict, flip: bool) -> None:
    """Two separate wars become one (Rules: THE GREAT WAR - "the two Wars combine").  With
    ``flip`` the other war's alliances join the opposite sides (its first alliance with
    ``into``'s second), so the new declaration sets the declarer against its target."""
    sides = list(other["sides"])
    if flip and len(sides) >= 2:
        sides[0], sides[1] = sides[1], sides[0]
    for i, side in enumerate(sides):
        for p in side:
            place_in_war(into, p, i)
    for key in ("firsts",):
        into[key] = into.get(key, []) + [p for p in other.get(key, []) if p not in into.get(key, [])]
    for key in ("surrendered", "grants", "denials", "defeated", "bonds"):
        into[key] = into.get(key, []) + other.get(key, [])
    into["conquered"].update(other.get("conquered", {}))
    into["assigned"].update(other.get("assigned", {}))
    state["wars"] = [w for w in state["wars"] if w is not other]


def enter(state: dict, by: str, target: str, kind: str = "war") -> dict:
    """Put a declaration of War by ``by`` on ``target`` into the war records: a new war, or
    the declarer's or target's war (the newcomer goes to the alliance opposed to the one it
    fights), or two wars merged; a declaration between powers of one alliance makes a
    three-cornered War (``split``).  Returns the war.  Rules: DECLARATIONS OF WAR.  Choice: one
    made in Negotiation that would need a fourth alliance (checked only in the War Phase) leaves
    the two where they stand."""
    candidates = [w for w in open_wars(state) if group_of(w) == kind]
    wa, wb = war_of(state, by, candidates), war_of(state, target, candidates)
    if wa is None and wb is None:
        return new_war(state, [[by], [target]], kind, firsts=[by])
    if wa is not None and wa is wb:
        if side_index(wa, by) == side_index(wa, target) and split_check(wa, by, target) is None:
            split(wa, by, target)   # Rules: DECLARATIONS OF WAR - a three-cornered War
        return wa
    if wb is None:
        place_in_war(wa, target, opposed_index(wa, by))
        return wa
    if wa is None:
        place_in_war(wb, by, opposed_index(wb, target))
        return wb
    flip = side_index(wa, by) == side_index(wb, target)
    merge(state, wa, wb, flip)
    return wa


def minor_members(state: dict, war: dict) -> list[str]:
    return [p for p in members(war) if not board.is_great(state, p) and not is_native(p)]


def unallied_minors(state: dict, war: dict) -> list[str]:
    """Minor Powers at war with no player to move them (Rules: WAR AGAINST MINOR POWERS)."""
    return [m for m in minor_members(state, war) if not controllers(state, war, m)]
