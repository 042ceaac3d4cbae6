"""The Victory Point Record Phase (Section V of the Administrative Record).

Rules: VICTORY POINTS; VICTORY POINT AWARDS DURING THE VICTORY POINT RECORD PHASE;
AUSTRIA-HUNGARY (the German player adds both treasuries before dividing); HEADLINE
EVENTS (Dominion/Statehood pressure: grant it or lose VP).
"""
from __future__ import annotations

from fractions import Fraction

from ..core import board, summaries


def treaty_vp_amount(state: dict) -> int:
    """VP per turn for each signatory of a revealed Treaty in effect.  The rules text
    gives no amount; the Bonus VP Summary data (entry VP-02) holds the assumed value.
    Choice: the game option ``treaty_vp`` overrides it (a GM can then also award it)."""
    option = state.get("options", {}).get("treaty_vp")
    if option is not None:
        return int(option)
    for e in summaries.bonus_vp_rules():
        if e.get("effect", {}).get("per") == "revealed_treaty":
            return int(e["effect"].get("amount", 0))
    return 0


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    if state.get("great_war"):
        # Rules: EUROPEAN TENSIONS AND THE GREAT WAR - "they do not conduct a final
        # Victory Point Record Phase for the turn in which the game ends".
        return []
    events: list[dict] = []
    for power in state.get("players", []):
        events.extend(treasury_vp(state, data, power))
    for power in list(state.get("powers", {})):
        # Rules: "Any money left over after purchasing victory points is lost; all
        # treasuries begin every turn empty."
        state["powers"][power]["treasury"] = 0
    events.extend(treaty_bonus(state))
    events.extend(pressure_penalty(state))
    return events


def divide(amount: int, divisor) -> int:
    """Rules: "divide the number on Line 23 by that number ... (fractions are lost)":
    167 / 10 = 16.  Exact arithmetic, so a divisor of 2.5 loses nothing to floats."""
    if amount <= 0:
        return 0
    return int(Fraction(amount) // Fraction(str(divisor)))


def treasury_vp(state: dict, data, power: str) -> list[dict]:
    """Lines 23-24.  Rules: AUSTRIA-HUNGARY - Germany adds the Austrian treasury."""
    amount = board.treasury(state, power)
    if power == "Germany" and "Austria-Hungary" in state.get("powers", {}):
        amount += board.treasury(state, "Austria-Hungary")
    vp = divide(amount, data.powers[power].vp_divisor)
    if vp == 0:
        return []
    # The VP are on the open track; the treasury they come from is the power's own.
    return [board.add_vp(state, power, vp, "funds"),
            {"kind": "funds_vp", "power": power, "vp": vp, "treasury": amount,
             "divisor": f"{data.powers[power].vp_divisor:g}"}]


def treaty_bonus(state: dict) -> list[dict]:
    """Line 25.  Rules: VICTORY POINT AWARDS DURING THE VICTORY POINT RECORD PHASE -
    "revealed Treaties in effect" earn per-turn bonuses; unrevealed ones do not.
    (The canal bonus is paid when the canal is built, in the Movement Phase.)"""
    per = treaty_vp_amount(state)
    events = []
    if per <= 0:
        return events
    players = set(state.get("players", []))
    for tid, treaty in sorted(state.get("treaties", {}).items()):
        if treaty.get("status") != "in_force" or treaty.get("secret"):
            continue
        for power in treaty.get("parties", []):
            if power == "Austria-Hungary" and "Germany" in players:
                power = "Germany"
            if power in players:
                events.append(board.add_vp(state, power, per, f"revealed treaty {tid} in force"))
    return events


def pressure_penalty(state: dict) -> list[dict]:
    """Rules: HEADLINE EVENTS - Australian/New Zealand/South African Pressure for
    Dominion, Alaskan Pressure for Statehood: "Grant ... or lose 5 VP".  Granted means the
    power holds the Dominion/State marker there by now (ordered with BUY DOMINION/STATE in
    the Movement Phase).  Pressure recorded as impossible costs nothing (random_events)."""
    events = []
    for p in state.get("turn_effects", {}).get("pressure", []):
        if not p.get("possible", True):
            continue
        if board.status_of(state, p["area"], p["power"]) in ("dominion", "state"):
            continue
        if p["power"] in state.get("players", []):
            events.append(board.add_vp(state, p["power"], -abs(int(p.get("vp", 5))),
                                       f"{p['event']}: {p['status']} not granted in {p['area']}"))
    return events
