"""The Final Record Phase (Section VI of the Administrative Record).

Rules: GAME TURN SEQUENCE (Final Record Phase); VICTORY POINT AWARDS AT THE END OF THE
GAME; PATHS ACROSS AFRICA; THE GREAT WAR; EUROPEAN TENSIONS AND THE GREAT WAR;
AUSTRIA-HUNGARY ("at the end of the game, Austrian Status markers do contribute to the
German Victory Point total").

Only after the 1916 turn or a Great War; otherwise the phase does nothing (the
dispatcher advances the Game Turn).  Line 27: VP so far; 28: end-of-game bonuses;
29: twice the income from Areas, divided by the VP divisor; 30: the Great War penalty.
"""
from __future__ import annotations

from collections import deque

from ..core import board, mapgraph, summaries
from ..core.state import last_turn
from .administrative import marker_income
from .victory_points import divide

LAST_TURN = 1916
#: Rules: PATHS ACROSS AFRICA.
AFRICA_NORTHWEST = ("Marocco", "Rio de Oro", "Mauretania", "Senegambia", "Ashantee")
AFRICA_NORTHEAST = ("Egypt", "Soudan", "Eritrea", "Berbera", "Somalia", "Kenya")
AFRICA_MEDITERRANEAN = ("Marocco", "Algiers", "Tunis", "Tripoli", "Egypt")
AFRICA_TIP = ("Cape Colony", "Sudwest Afrika", "Mozambique")
EAST_WEST_VP, NORTH_SOUTH_VP = 10, 15


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    if not (state.get("turn", 0) >= last_turn(state) or state.get("great_war")):
        return []
    events: list[dict] = []
    lines: dict[str, dict[str, int]] = {}
    for power in state.get("players", []):
        sheet = {"27": state["powers"][power].get("vp", 0)}
        bonus = bonus_events(state, data, power)
        sheet["28"] = sum(e["delta"] for e in bonus)
        events.extend(bonus)
        sheet["29"] = area_vp(state, data, power)
        if sheet["29"]:
            events.append(board.add_vp(state, power, sheet["29"], "final: twice the income "
                                       "from Areas / VP divisor"))
        sheet["30"] = great_war_penalty(state, data, power)
        if sheet["30"]:
            events.append(board.add_vp(state, power, sheet["30"], "final: Great War penalty"))
        sheet["31"] = state["powers"][power]["vp"]
        lines[power] = sheet
    ranks = ranking({p: lines[p]["31"] for p in lines})
    state["game_over"] = True
    state["final"] = {"ranks": ranks, "vp": {p: lines[p]["31"] for p in lines},
                      "lines": lines}
    events.append({"kind": "final_record", "ranks": ranks})
    return events


def area_vp(state: dict, data, power: str) -> int:
    """Line 29: "re-figure Section II (the Income Record) ... Double the number of £'s
    you calculate, and divide this total by your Victory Point Divisor" - "as many
    Victory Points from his Areas as he would receive over two turns of collecting
    income from it without subtracting maintenance costs".
    Choice: only the income from Areas (lines 11-14) is re-figured; the Colonial Office
    is not rolled again ("from his Areas")."""
    income = marker_income(state, data, power)
    if power == "Germany" and "Austria-Hungary" in state.get("powers", {}):
        income += marker_income(state, data, "Austria-Hungary")
    return divide(2 * income, data.powers[power].vp_divisor)


def great_war_penalty(state: dict, data, power: str) -> int:
    """Line 30.  Rules: THE GREAT WAR - every player loses the Game Turn Track number;
    the player(s) blamed lose triple.  A Great War set off by a Random Event blames
    nobody (Rules: HEADLINE EVENTS)."""
    war = state.get("great_war")
    if not war:
        return 0
    turn = war.get("turn", state.get("turn")) if isinstance(war, dict) else state.get("turn")
    entry = (getattr(data, "turn_track", {}) or {}).get(turn)
    penalty = int(getattr(entry, "great_war_penalty", 0) or 0) if entry is not None else 0
    blamed = war.get("blamed", []) if isinstance(war, dict) else []
    if power == "Austria-Hungary":
        return 0
    return -penalty * (3 if power in culprits(state, blamed) else 1)


def culprits(state: dict, blamed: list) -> set[str]:
    """The players who caused the Great War.  Rules: EUROPEAN TENSIONS AND THE GREAT WAR -
    "He took any action that increased the European Tensions Index above 100";
    AUSTRIA-HUNGARY - "The German player can move Austrian Units ... build and place
    Status markers", so an Austrian action that takes the Index to 100 (say an Austrian
    fleet) is the German player's and he loses triple.
    Choice: the exception in THE GREAT WAR (Austria-Hungary drawn in as the fourth Power by
    its defensive Treaty) concerns declarations of War, which the GM rules on; an Index
    pushed to 100 by an Austrian action always blames the German player."""
    out = set(blamed)
    if "Austria-Hungary" in out and "Germany" in state.get("players", []):
        out.add("Germany")
    return out


def africa_paths() -> list[tuple[str, tuple, tuple, int]]:
    """(name, one end, other end, VP) of each path, from the Bonus VP Summary data
    (entries VP-03, VP-04), else from the rules text's lists above."""
    paths = []
    for e in summaries.bonus_vp_rules():
        eff = e.get("effect", {})
        if e.get("rule") == "PATHS ACROSS AFRICA" and eff.get("from") and eff.get("to"):
            says = e.get("says", "")
            name = next((n for n in ("east-west", "north-south") if n in says), e["id"])
            paths.append((name, tuple(eff["from"]), tuple(eff["to"]), int(eff["amount"])))
    return paths or [("east-west", AFRICA_NORTHWEST, AFRICA_NORTHEAST, EAST_WEST_VP),
                     ("north-south", AFRICA_MEDITERRANEAN, AFRICA_TIP, NORTH_SOUTH_VP)]


def bonus_events(state: dict, data, power: str) -> list[dict]:
    """Line 28: the end-of-game lines of the Bonus Victory Point Summary computed here.
    Rules: PATHS ACROSS AFRICA - 10 VP east-west, 15 VP north-south, each once.
    Bonus lines the summary leaves to the GM (amount unknown) are not computed."""
    events = []
    for name, ends_a, ends_b, vp in africa_paths():
        if vp and africa_path(state, data, power, ends_a, ends_b):
            events.append(board.add_vp(state, power, vp, f"final: {name} path across Africa"))
    return events


def africa_path(state: dict, data, power: str, ends_a, ends_b) -> bool:
    """Rules: PATHS ACROSS AFRICA - Control markers in one Area of each end group and a
    Communication Link between them by Overland Routes only, i.e. through Areas the
    power Controls.  Choice: Control means an established Control marker."""
    controlled = {a for a in board.areas_of(state, power, board.CONTROL)
                  if board.has_control(state, power, a)}
    starts = [a for a in ends_a if a in controlled]
    goals = {a for a in ends_b if a in controlled}
    seen, todo = set(starts), deque(starts)
    while todo:
        here = todo.popleft()
        if here in goals:
            return True
        for nxt in mapgraph.land_neighbours(data, here):
            if nxt in controlled and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def ranking(totals: dict[str, int]) -> list[dict]:
    """Rules: VICTORY POINT AWARDS AT THE END OF THE GAME - "the greatest total coming in
    first".  Choice: equal totals share a rank (1, 1, 3); listed by name within a tie."""
    order = sorted(totals, key=lambda p: (-totals[p], p))
    out = []
    for i, power in enumerate(order):
        rank = out[-1]["rank"] if out and out[-1]["vp"] == totals[power] else i + 1
        out.append({"power": power, "vp": totals[power], "rank": rank})
    return out
