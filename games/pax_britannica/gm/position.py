"""A player's position as its sheet shows it, fact by fact: what a GM edit changed is told to the
players whose facts differ after it (pbem.kit.positions), and to no one else.

A position is the sheet of each power the player keeps (the German player keeps Austria-Hungary's,
Rules: AUSTRIA-HUNGARY): treasury, Victory Points, markers, units, Merchant Fleets, the pool, the
Casus Belli it holds or faces, a deficit to meet; the Wars it is in; and where the game stands (the
turn and phase, the last turn, the options).  The two indices, Unrest and canals are the board's,
told in the next report to everyone.
"""
from __future__ import annotations

from ..core.state import label
from ..phases import obligations as duties
from ..report.compose import own_powers, power_sheet


def _sheet(state: dict, power: str, reader: str) -> dict[str, str]:
    sheet = power_sheet(state, [], power, reader)
    out = {f"{power}: treasury": f"£{sheet['treasury']}", f"{power}: Victory Points": str(sheet["vp"])}
    for area, marker in sheet["markers"].items():
        out[f"{power}: marker in {area}"] = marker["status"] + ("" if marker.get("established") else " (unestablished)")
    units: dict[str, list[int]] = {}
    for u in sheet["units"]:
        where = u["where"] + (f" ({u['sea']})" if u.get("sea") else "")
        plural = {"army": "armies", "navy": "navies"}.get(u["type"], u["type"])
        units.setdefault(f"{power}: {plural} at {where}", []).append(u["strength"])
    out.update({k: ("strength " if len(v) == 1 else "strengths ") + ", ".join(map(str, v)) for k, v in units.items()})
    out[f"{power}: Merchant Fleets"] = ", ".join(sheet["merchants"]) or "none"
    out[f"{power}: Merchant Fleets in the pool"] = str(sheet["merchant_pool"])
    out[f"{power}: Casus Belli held"] = ", ".join(sorted(
        f"against {c['against']}" + (f" in {c['area']}" if c.get("area") else "") for c in sheet["cb_held"])) or "none"
    out[f"{power}: Casus Belli against it"] = ", ".join(sorted(
        c["holder"] + (f" in {c['area']}" if c.get("area") else "") for c in sheet["cb_against"])) or "none"
    out[f"{power}: deficit to meet"] = f"£{sheet['deficit']}"
    # What the turn obliges it to spend, or caps (Rules: Forced Expenditures; HEADLINE EVENTS),
    # so a GM's SET FORCED or SET SPENDCAP is told like any other change.
    cap = duties.spend_cap(state, power)
    out[f"{power}: most it may spend on units this turn"] = "no limit" if cap is None else f"£{cap}"
    out[f"{power}: least it must spend on units this turn"] = f"£{duties.forced_remaining(state, power)}"
    wars = [f"{w['id']} ({' vs '.join('+'.join(side) for side in w['sides'])}, {w['status']})"
            for w in state.get("wars", []) if any(power in side for side in w["sides"])]
    out[f"{power}: Wars"] = ", ".join(wars) or "none"
    return out


def position(state: dict, player: str) -> dict[str, str]:
    """``player``'s facts, labelled (an empty dict for a power no one plays)."""
    if player not in state.get("players", []):
        return {}
    out: dict[str, str] = {}
    for power in own_powers(state, player):
        out.update(_sheet(state, power, player))
    out["the game"] = f"{state['turn']} {label(state['phase'])}"
    out["last turn"] = str(state.get("last_turn"))
    out["options"] = ", ".join(f"{k}={v}" for k, v in sorted(state.get("options", {}).items()) if k != "data")
    return out
