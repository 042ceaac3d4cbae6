"""The Great War: four European Powers in one war, or in overlapping wars, and who is blamed.

Rules: THE GREAT WAR ("Any War involving any four or more of the following Powers is a Great
War: Britain; France; Germany; Austria-Hungary; Italy; and Russia. In the event of a Great
War, the game immediately ends"; "the player who started the War (was the first to declare
War) and the player who caused the Great War by being the fourth Power to declare War, both
lose triple"; "If Austria-Hungary is the fourth Power to declare War ... the German player
does not lose triple"; the four-player game; "A Chinese Rebellion in which four or more
European Powers participate is not considered a Great War"; Ottomans without a Great Power
ally; "if four or more European powers are involved in overlapping Wars, a Great War occurs",
and the example of two wars that combine); WAR WITH THE OTTOMANS ("the power who placed the
Control Marker that originally started the War shall be considered the first power to
declare War"); EUROPEAN TENSIONS AND THE GREAT WAR ("was the Power that issued the
Declaration of War that pulled the fourth European Power into the War").
"""
from __future__ import annotations

from ..core import board
from . import model
from ..core.state import by_rules_order

SIX = ("Britain", "France", "Germany", "Austria-Hungary", "Italy", "Russia")
FOUR_PLAYER_CORE = {"Britain", "France", "Germany"}


def counts(state: dict, war: dict) -> bool:
    """Whether a war may make a Great War at all."""
    if war.get("kind") == "rebellion":
        return False
    if war.get("kind") == "ottoman":
        i = model.side_index(war, model.OTTOMANS)
        return i is not None and any(board.is_great(state, p) for p in war["sides"][i])
    return True


def components(state: dict) -> list[list[dict]]:
    """Wars that share a power, taken together (overlapping wars)."""
    wars = [w for w in model.open_wars(state) if counts(state, w)]
    comps: list[list[dict]] = []
    for w in wars:
        joined = [c for c in comps if any(set(model.members(w)) & set(model.members(x)) for x in c)]
        merged = [w] + [x for c in joined for x in c]
        comps = [c for c in comps if c not in joined] + [merged]
    return comps


def is_great(state: dict, powers: set[str]) -> bool:
    european = powers & set(SIX)
    if len(european) >= 4:
        return True
    return len(state.get("players", [])) == 4 and FOUR_PLAYER_CORE <= european


def check(state: dict) -> list[dict]:
    """Set ``state["great_war"]`` (and say so) the moment one component becomes a Great War."""
    if state.get("great_war") or state.get("game_over"):
        return []
    for comp in components(state):
        powers = {p for w in comp for p in model.members(w)}
        if is_great(state, powers):
            blamed = blame(state, comp)
            ids = [w["id"] for w in comp]
            state["great_war"] = {"blamed": blamed, "turn": state.get("turn"), "cause": "war",
                                  "wars": ids, "announced": True}
            return [{"kind": "great_war", "blamed": blamed, "cause": "war",
                     "powers": by_rules_order(powers & set(SIX)), "wars": ids}]
    return []


def blame(state: dict, comp: list[dict]) -> list[str]:
    """The first declarers of the wars, and the power whose declaration brought the fourth
    European Power in (the one who pulled Austria-Hungary in, when its treaty brought it)."""
    ids = {w["id"] for w in comp}
    firsts: list[str] = []
    for w in comp:
        firsts += [p for p in w.get("firsts", []) if p not in firsts]
    # The declarations joined powers into wars one by one: the culprit's is the one after which
    # some group of powers at War with each other first held four European Powers (two
    # separate wars become one only when a declaration links them: the example of France).
    groups: list[set[str]] = []
    culprit = None
    for d in state.get("declarations", []):
        if d.get("turn") != state.get("turn") or d.get("war") not in ids:
            continue
        linked = {d["by"], *d["against"]}
        touching = [g for g in groups if g & linked]
        merged = linked.union(*touching)
        groups = [g for g in groups if g not in touching] + [merged]
        if is_great(state, merged & set(SIX)):
            culprit = d.get("pulled_by") if d.get("how") == "austria" else d["by"]
            break
    out = list(firsts)
    if culprit and culprit not in out:
        out.append(culprit)
    return [p for p in out if p in state.get("powers", {})]
