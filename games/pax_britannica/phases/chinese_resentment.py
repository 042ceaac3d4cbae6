"""The Chinese Resentment Phase.

Rules: CHINESE RESENTMENT; CHINESE REBELLION; GAME TURN SEQUENCE (Chinese Resentment Phase).

1. The per-turn increases of the Chinese Resentment Increase Summary (entry CRI-03 of
   ``data/summaries.toml``): every Control marker in a Chinese Empire Area adds the marker
   table's per-turn value.  The rules' own example counts Hong Kong's two Protectorates as 6.
   Choice (option ``cri_per_turn_vassals``, default off): Chinese Vassal Areas do not count,
   as the rules' clarification names Chinese Empire Areas only.
2. Three dice: a total at or below the tens figure of the Index (122 -> 12) brings a Chinese
   Rebellion in the following War Phase.  The Rebellion itself is left to the GM for now.
"""
from __future__ import annotations

from ..core import board

CONTROL = board.CONTROL
CHINESE = ("chinese_empire", "chinese_vassal")
#: Rules: CHINESE REBELLION - with every Chinese Area a Possession the Index stops at 99.
ALL_POSSESSIONS_CAP = 99


def option(state: dict, name: str, default):
    return (state.get("options") or {}).get(name, default)


def counted_kinds(state: dict) -> tuple[str, ...]:
    return CHINESE if option(state, "cri_per_turn_vassals", False) else ("chinese_empire",)


def per_turn_increases(state: dict, data) -> list[dict]:
    """Rules: CHINESE RESENTMENT - one increase per Control marker, per power, per Area."""
    events = []
    kinds = counted_kinds(state)
    for area in sorted(state.get("markers", {})):
        info = data.areas.get(area)
        if info is None or info.kind not in kinds:
            continue
        for power, marker in sorted(board.markers_in(state, area).items()):
            if marker["status"] not in CONTROL:
                continue
            delta = int(data.markers[marker["status"]].cri_per_turn)
            if delta:
                events.append(board.add_cri(state, delta,
                                            f"{power} {marker['status']} in {area}"))
    return events


def all_chinese_possessions(state: dict, data) -> bool:
    """Rules: CHINESE REBELLION - "if all Chinese Areas are Possessions, no rebellion can
    occur" (Choice: every Chinese Empire and Vassal Area holds an established Possession)."""
    chinese = [a for a, info in data.areas.items() if info.kind in CHINESE]
    return bool(chinese) and all(
        any(m["status"] == "possession" and m.get("established")
            for m in board.markers_in(state, a).values()) for a in chinese)


def rebellion_check(state: dict, data, dice) -> list[dict]:
    """Rules: CHINESE RESENTMENT - three dice against the Index's tens figure.
    Choice: no dice are rolled when a Rebellion cannot happen (a tens figure below 3, which
    three dice can never reach, or every Chinese Area a Possession); the event says so."""
    threshold = state.get("cri", 0) // 10
    event = {"kind": "chinese_rebellion", "threshold": threshold, "roll": None,
             "occurs": False}
    if all_chinese_possessions(state, data):
        event["reason"] = "every Chinese Area is a Possession"
        return [event]
    if threshold < 3:
        event["reason"] = "the Index is too low for three dice to reach"
        return [event]
    rolled = [dice.d6(f"chinese rebellion #{i}") for i in (1, 2, 3)]
    event.update(roll=sum(rolled), dice=rolled, occurs=sum(rolled) <= threshold)
    events = [event]
    if event["occurs"]:
        state.setdefault("pending", {})["chinese_rebellion"] = True
        events.append({"kind": "gm_notice", "phase": "chinese_resentment",
                       "text": f"A Chinese Rebellion breaks out (3 dice {sum(rolled)} <= "
                               f"{threshold}): it is announced for the War Phase; the engine "
                               f"does not play it yet, so the GM must run or skip it."})
    return events


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    """Rules: GAME TURN SEQUENCE (Chinese Resentment Phase): adjust, then roll."""
    events = per_turn_increases(state, data)
    if all_chinese_possessions(state, data) and state.get("cri", 0) > ALL_POSSESSIONS_CAP:
        excess = state["cri"] - ALL_POSSESSIONS_CAP
        events.append(board.add_cri(state, -excess, "no Rebellion possible: the Index stops at 99"))
    events += rebellion_check(state, data, dice)
    return events
