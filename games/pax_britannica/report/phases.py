"""Which phase each event of a report happened in.

The moderator stamps every event a phase produces with that phase's key
(``phase_key``), which places it exactly.  Events without a stamp (GM state
edits, records older than the stamp) are placed by reasoning: they come in
phase order, the state after them says which phase comes next, and each event
kind can only come from some phases (its reason often narrows them further),
so walking the events backwards and stepping back only when an event cannot
belong to the phase in hand puts each under the latest phase that could have
emitted it.  GM state edits belong to no phase and get a section of their own.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from ..core.state import TURN_LENGTH, label
from ..core.data import load_data
from ..phases import administrative
from ..sequence import PHASES, WAR_PHASES
from . import events as say

GM = "gm"
ANY: frozenset[str] = frozenset()

RANDOM, ADMIN, MINOR, MOVE = "random_events", "administrative", "minor_powers", "movement"
COMBAT, ADJUST, CHINA, VP, FINAL = ("colonial_combat", "marker_adjustment", "chinese_resentment",
                                    "victory_points", "final_record")

KIND_PHASES: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in {
    "random_events": {RANDOM}, "random_event": {RANDOM}, "random_event_reroll": {RANDOM},
    "unrest_reroll": {RANDOM}, "unrest_none": {RANDOM}, "permission": {RANDOM},
    "pressure": {RANDOM},
    "income": {ADMIN},
    "minor_power": {MINOR}, "minor_power_reroll": {MINOR},
    "order_failed": {MOVE}, "unit_built": {MOVE}, "money": {MOVE}, "merchant": {MOVE},
    "canal": {MOVE}, "canal_race": {MOVE}, "deficit": {MOVE}, "deficit_settled": {MOVE},
    "unit_removed": {MOVE},
    "colonial_combat": {MINOR, COMBAT}, "unit_lost": {MINOR, COMBAT, ADJUST},
    "unit_retreated": {MINOR, COMBAT, ADJUST}, "unit_moved": {MINOR, MOVE},
    "marker": {RANDOM, MINOR, MOVE, COMBAT, ADJUST},
    "unrest": {RANDOM, MINOR, COMBAT, ADJUST},
    "eti": {RANDOM, MINOR, MOVE, COMBAT, ADJUST},
    "cri": {RANDOM, MINOR, MOVE, COMBAT, CHINA},
    "cb": {RANDOM, MINOR, MOVE, COMBAT, ADJUST},
    "vp": {RANDOM, MOVE, VP, FINAL}, "funds_vp": {VP, FINAL},
    "chinese_rebellion": {CHINA}, "final_record": {FINAL}, "game_over": {FINAL},
}.items()}
GM_KINDS = {"gm", "treaty", "war_declared", "ruling"}

#: Reason words that pin an event to one phase (the engine's own wording).
REASON_HINTS: tuple[tuple[str, str], ...] = (
    ("random event", RANDOM), ("bought", MOVE), ("downgrade", MOVE), ("transferred", MOVE),
    ("deficit", MOVE), ("placed a", MOVE), ("built a naval", MOVE), ("colonial combat", COMBAT),
    ("both established control", COMBAT),
    ("minor power", MINOR), ("conflict with", ADJUST), ("not suppressed", ADJUST),
    ("established", ADJUST), ("final:", FINAL), ("funds", VP), ("not granted", VP),
)


def candidates(e: dict) -> frozenset[str] | str:
    """The phases that can have emitted ``e``; GM for a GM edit; ANY when unknown."""
    kind = e.get("kind")
    reason = str(e.get("reason") or "").lower()
    if kind in GM_KINDS or reason == "gm" or str(e.get("action") or "").startswith("GM"):
        return GM
    if kind == "unrest" and not ({"table", "cleared"} & set(e)):
        return GM
    if kind == "gm_notice":
        phase = e.get("phase")
        return frozenset({phase}) if phase in PHASES else frozenset({RANDOM, ADJUST})
    possible = KIND_PHASES.get(str(kind), ANY)
    if kind == "unit_moved":
        return frozenset({MOVE}) if e.get("path") else frozenset({MINOR}) if reason else possible
    if kind == "unrest" and e.get("table"):
        return frozenset({RANDOM})
    if kind == "marker" and e.get("reason") == "established":
        return frozenset({ADJUST})
    if (kind == "unrest" and e.get("by")) or (kind == "unit_retreated" and reason == "retreat"):
        return frozenset({MINOR, COMBAT})  # a suppression or a combat retreat
    for words, phase in REASON_HINTS:
        if words in reason and (not possible or phase in possible):
            # a Minor Power's own colonial combat happens in the Minor Powers Phase
            if phase == COMBAT and MINOR in possible and kind != "marker":
                return frozenset({MINOR, COMBAT})
            return frozenset({phase})
    return possible


def _start(state: dict) -> tuple[int, int]:
    """(turn, phase index) of the last phase resolved before ``state``."""
    turn, phase = int(state.get("turn", 0)), state.get("phase", RANDOM)
    if phase in WAR_PHASES:
        phase = "war"
    index = PHASES.index(phase) if phase in PHASES else len(PHASES) - 1
    if state.get("game_over"):
        return turn, index
    if index == 0:
        return turn - TURN_LENGTH, len(PHASES) - 1
    return turn, index - 1


def _from_key(event: dict) -> tuple[int, int] | None:
    """The phase the moderator stamped on the event ("1884/movement"), if any."""
    turn, _, phase = str(event.get("phase_key") or "").partition("/")
    phase = phase.split("/")[0]  # a Congress step: "1884/congress/vote/2"
    if phase in WAR_PHASES:
        phase = "war"
    if not turn.isdecimal() or phase not in PHASES:
        return None
    return int(turn), PHASES.index(phase)


def place(state: dict, events: Sequence[dict]) -> list[tuple[int, int] | str]:
    """For each event, (turn, phase index) or GM.  Events stamped with their
    phase are placed exactly; others (GM edits, older records) by their kind."""
    turn, index = _start(state)
    out: list[tuple[int, int] | str] = [GM] * len(events)
    for i in range(len(events) - 1, -1, -1):
        stamped = _from_key(events[i])
        if stamped is not None:
            out[i] = stamped
            turn, index = stamped
            continue
        c = candidates(events[i])
        if c == GM:
            continue
        if c and PHASES[index] not in c:
            for _ in range(len(PHASES)):
                index -= 1
                if index < 0:
                    turn, index = turn - TURN_LENGTH, len(PHASES) - 1
                if PHASES[index] in c:
                    break
        out[i] = (turn, index)
    return out


def title(where: tuple[int, int] | str) -> str:
    if where == GM:
        return "Changes made by the GM"
    turn, index = where
    return f"{turn} {label(PHASES[index])}"


def sections(items: Sequence[tuple[tuple[int, int] | str, object]]) -> list[tuple[str, list]]:
    """``(place, item)`` pairs, in order: consecutive items of one phase under the
    phase's title; GM edits last."""
    out: list[tuple[str, list]] = []
    gm_edits: list = []
    last = None
    for where, item in items:
        if where == GM:
            gm_edits.append(item)
            continue
        if where != last:
            out.append((title(where), []))
            last = where
        out[-1][1].append(item)
    if gm_edits:
        out.append((title(GM), gm_edits))
    return out


def kinds(events: Iterable[dict]) -> set[str]:
    return {str(e.get("kind")) for e in events}


def movement_defaults(state: dict, power: str) -> str:
    """Rules: MOVEMENT/STATUS CHANGE; ADMINISTRATIVE RECORD (a deficit is met by removals)."""
    text = "no orders: nothing is bought, nothing moves"
    deficit = state.get("pending", {}).get("deficit", {})
    owed = {p: n for p, n in deficit.items() if p == power
            or (power == "Germany" and p == "Austria-Hungary")}
    for p, n in sorted(owed.items()):
        plan = administrative.default_plan(state, load_data(state), p)
        text += (f"; {p}'s deficit of {n} is met by the default removals: "
                 + ("; ".join(say.sentence(e).rstrip(".") for e in plan) or "nothing is left to remove"))
    return text
