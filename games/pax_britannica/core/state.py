"""The state shape (README.md), the set-ups, the Game Turns and the names of the phases (the
order they are played in is the table in ``sequence.py``).

Rules: GAME TURN SEQUENCE, SETTING UP THE GAME.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from . import board

#: Rules: PLAYING PIECES - the twelve sets, in the order the rules list them.
POWERS = ("Britain", "France", "Germany", "Austria-Hungary", "United States", "Japan",
          "Russia", "Italy", "Netherlands", "Belgium", "Spain", "Portugal")
ALWAYS_GREAT = ("Britain", "France", "Germany", "United States")
#: Rules: PLAYING PIECES - "Additionally, there are six pieces used to represent Chinese or
#: Ottoman armies": the two native powers, in the order the rules name them.
CHINA, OTTOMANS = "China", "Ottoman Empire"
NATIVES = (CHINA, OTTOMANS)
FIRST_TURN, LAST_TURN, TURN_LENGTH = 1880, 1916, 4

#: the phases' names as the rules print them (Rules: GAME TURN SEQUENCE; THE WAR SEQUENCE)
LABELS = {"random_events": "Random Events", "administrative": "Administrative Record",
          "minor_powers": "Minor Powers", "movement": "Movement/Status Change",
          "colonial_combat": "Colonial Combat", "marker_adjustment": "Marker Adjustment",
          "negotiation": "Negotiation", "congress": "Congress of Europe",
          "chinese_resentment": "Chinese Resentment", "war": "War",
          "victory_points": "Victory Point Record", "final_record": "Final Record",
          "war_alliances": "War: Alliance Determination", "war_initiative": "War: Initiative",
          "war_maneuver_1": "War: First Alliance Maneuver", "war_attack_1": "War: First Alliance Attack",
          "war_supply_1": "War: First Alliance Supply", "war_maneuver_2": "War: Second Alliance Maneuver",
          "war_attack_2": "War: Second Alliance Attack", "war_supply_2": "War: Second Alliance Supply",
          "war_maneuver_3": "War: Third Alliance Maneuver", "war_attack_3": "War: Third Alliance Attack",
          "war_supply_3": "War: Third Alliance Supply", "war_end": "War End Determination",
          "war_resolution": "War: Resolution"}


def label(phase: str) -> str:
    return LABELS.get(phase) or phase.replace("_", " ").title()


def power_order(power: str) -> int:
    """A power's place in the rules' order of the powers (Rules: PLAYING PIECES): the twelve
    sets as the rules list them, then the Chinese and the Ottoman armies, then any other (a
    Minor Power's Area in a war), all of those last ranked alike."""
    if power in POWERS:
        return POWERS.index(power)
    if power in NATIVES:
        return len(POWERS) + NATIVES.index(power)
    return len(POWERS) + len(NATIVES)


def by_rules_order(powers: Iterable[str]) -> list[str]:
    """``powers`` once each, in the rules' order of the powers (ties, by name): the order every
    list of powers is settled, reported and asked in."""
    return sorted(set(powers), key=lambda p: (power_order(p), p))


def great_set(players: Sequence[str]) -> set[str]:
    """Rules: SETTING UP THE GAME; AUSTRIA-HUNGARY (always played by Germany)."""
    great = set(players)
    if "Germany" in great:
        great.add("Austria-Hungary")
    return great


def new_state(players: Sequence[str], options: Mapping[str, Any], data=None) -> dict:
    """An empty board: no markers, units, wars; treasuries at zero."""
    great = great_set(players)
    return {
        "rules": "pax_britannica",
        "turn": FIRST_TURN,
        "phase": "random_events",
        "players": list(players),
        "options": dict(options),
        "powers": {p: {"treasury": 0, "vp": 0, "great": p in great, "missed": 0}
                   for p in POWERS},
        "markers": {},
        "units": [],
        "next_unit_id": 1,
        "merchants": {},
        "merchant_pool": {p: 0 for p in POWERS},
        "merchants_taken": {},
        "unrest": [],
        "cb": [],
        "eti": 0,
        "cri": 0,
        "canals": [],
        "canal_vp_awarded": False,
        "treaties": {},
        "wars": [],
        "turn_effects": {},
        "turn_orders": {},
        "pending": {},
        "game_over": False,
        "great_war": None,
        "final": None,
    }


def _get(item: Any, *names: str, default: Any = None) -> Any:
    """Read a field from a record that may be a dict, a tuple-like object or a dataclass."""
    for n in names:
        if isinstance(item, Mapping):
            if n in item:
                return item[n]
        elif hasattr(item, n):
            return getattr(item, n)
    return default


def _status_name(power: str, status: str) -> str:
    status = status.lower()
    if "/" in status or status in ("dominion", "state"):
        # Rules: STATUS CHANGE - Dominions are British, States American.
        return "state" if power == "United States" else "dominion"
    return status


def apply_1880(state: dict, data) -> dict:
    """Rules: SETTING UP THE GAME - the Initial Deployment of every Player Sheet.
    Minor Russia, Japan or Italy still set up; they only lose their turn-track fleets."""
    setup = data.setup_1880
    for m in _get(setup, "markers", default=()) or ():
        power = data.resolve_power(_get(m, "power")) or _get(m, "power")
        area = _get(m, "area", "location")
        status = _status_name(power, _get(m, "status"))
        established = _get(m, "established", default=True)
        board.set_marker(state, power, area, status, bool(established), "setup 1880")
    for u in _get(setup, "units", default=()) or ():
        power = data.resolve_power(_get(u, "power")) or _get(u, "power")
        kind = str(_get(u, "type", "kind")).lower()
        where = _get(u, "where", "location", "area")
        if kind in ("merchant", "merchant_fleet"):
            _add_merchant(state, power, where)
            continue
        kind = "navy" if kind in ("naval", "navy", "fleet") else "army"
        unit = board.add_unit(state, power, kind, int(_get(u, "strength")), where,
                              _get(u, "sea", default=None))
        if _get(u, "group", default=None):
            unit["group"] = _get(u, "group")  # indian_army / western_garrison
    for m in _get(setup, "merchants", default=()) or ():
        if isinstance(m, str):
            continue
        power = data.resolve_power(_get(m, "power")) or _get(m, "power")
        _add_merchant(state, power, _get(m, "sea", "where", "location"))
    for m in _get(setup, "merchants_if_minor", default=()) or ():
        power = data.resolve_power(_get(m, "power")) or _get(m, "power")
        if not board.is_great(state, power):
            _add_merchant(state, power, _get(m, "sea"))
    return state


def _add_merchant(state: dict, power: str, sea: str) -> None:
    fleets = state.setdefault("merchants", {}).setdefault(sea, [])
    if power not in fleets:
        fleets.append(power)
        fleets.sort()


def merchants_due(state: dict, data, power: str) -> int:
    """Rules: MOVEMENT (Merchant Fleets) and SETTING UP THE GAME: fleets on the Game
    Turn Track for this turn; Minor Powers never receive new Merchant Fleets."""
    if not board.is_great(state, power):
        return 0
    track = getattr(data, "turn_track", {}) or {}
    entry = track.get(state.get("turn"))
    if entry is None:
        return 0
    merchants = _get(entry, "merchants", default={}) or {}
    return int(merchants.get(power, 0))


def merchants_available(state: dict, data, power: str) -> int:
    """Fleets a power may place now: its pool plus this turn's arrivals not yet taken."""
    pool = state.get("merchant_pool", {}).get(power, 0)
    if state.get("merchants_taken", {}).get(power) != state.get("turn"):
        pool += merchants_due(state, data, power)
    return pool


def take_merchants(state: dict, data, power: str) -> int:
    """Move this turn's arrivals into the pool (once per turn)."""
    if state.setdefault("merchants_taken", {}).get(power) != state.get("turn"):
        state.setdefault("merchant_pool", {})[power] = merchants_available(state, data, power)
        state["merchants_taken"][power] = state.get("turn")
    return state["merchant_pool"].get(power, 0)


def last_turn(state: dict) -> int:
    """The last Game Turn: 1916 (Rules: GAME TURN SEQUENCE), or the earlier one a
    shorter game ends with (option ``last_turn``, or the GM's SET LAST TURN).
    Choice: a shorter game ends like a full one - its Final Record scores."""
    return int(state.get("last_turn") or LAST_TURN)


def check_last_turn(year: int, current: int = FIRST_TURN) -> None:
    """A last turn must be a Game Turn from ``current`` to 1916."""
    if year < max(FIRST_TURN, current) or year > LAST_TURN or (year - FIRST_TURN) % TURN_LENGTH:
        raise ValueError(f"the last turn must be one of the Game Turns {max(FIRST_TURN, current)}, ..., "
                         f"{LAST_TURN} (every {TURN_LENGTH} years), not {year}")


def game_should_end(state: dict) -> bool:
    """Rules: GAME TURN SEQUENCE (Final Record): after 1916 (or the last turn of a
    shorter game) or a Great War."""
    return bool(state.get("great_war")) or state["turn"] >= last_turn(state)
