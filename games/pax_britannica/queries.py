"""Scenario queries (SCENARIOS.md): numbers as int, yes/no as bool, lists as lists."""
from __future__ import annotations

from typing import Any

from pbem.kit import treatybook
from pbem.kit.gameapi import GMError

from . import sequence
from .phases import obligations as duties
from .core import board
from .core.audiences import seen
from .core.congress_rules import current
from .core.reading import Tok, tokenize
from .core.state import merchants_available
from .war import geo, model

QUERY_WORDS = {"TREASURY", "VP", "MARKER", "ESTABLISHED", "ARMY", "NAVY", "MERCHANT", "UNREST",
               "CB", "WAR", "ETI", "CRI", "CANAL", "PHASE", "TURN", "CONTROLLER", "CONQUERED",
               "TREATY", "GAME_OVER", "ORDERS", "POOL", "DEFICIT", "FORCED", "CANALS", "WARS",
               "BREACH", "CONGRESS_SITE", "CONGRESS_MEMBERS", "PROPOSAL", "DECLARED", "STEP",
               "CB_CAUSE", "OWES", "MAY", "ALLIANCE", "SUPPLY", "COALING", "DEFEATED", "SURRENDERED",
               "DENIED", "WAR_STATUS", "KNOWN_CB", "OBLIGATIONS"}


def answer(state: dict, text: str, data) -> Any:
    toks = tokenize(text, data, QUERY_WORDS)
    if not toks or toks[0].kind != "kw":
        raise GMError(f"unknown query: {text}")
    what, args = toks[0].text, toks[1:]
    handler = _QUERIES.get(what)
    if handler is None:
        raise GMError(f"unknown query: {text}")
    return handler(state, args, data, text)


def _names(args: list[Tok], n: int, text: str) -> list[str]:
    names = [t.text for t in args if t.kind == "name"]
    if len(names) != n or len(args) != n:
        raise GMError(f"query needs {n} name(s): {text}")
    return names


def _power(data, name: str) -> str:
    p = data.resolve_power(name, natives=True)
    if p is None:
        raise GMError(f"unknown power {name!r}" + _hint(data.suggest(name, "power", "native")))
    return p


def _hint(near: str | None) -> str:
    return f" (did you mean {near}?)" if near else ""


def _place(data, name: str, power: str | None = None) -> str:
    p = data.resolve_place(name, power)
    if p is None:
        raise GMError(f"unknown place {name!r}" + _hint(data.suggest(name, "place")))
    return p


def _area(data, name: str) -> str:
    a = data.resolve_area(name)
    if a is None:
        raise GMError(f"unknown area {name!r}" + _hint(data.suggest(name, "area")))
    return a


def _place_power(state, args, data, text) -> tuple[str, str]:
    place, power = _names(args, 2, text)
    power = _power(data, power)
    return _place(data, place, power), power


def q_treasury(state, args, data, text):
    return board.treasury(state, _power(data, _names(args, 1, text)[0]))


def q_vp(state, args, data, text):
    return state["powers"][_power(data, _names(args, 1, text)[0])].get("vp", 0)


def q_marker(state, args, data, text):
    area, power = _names(args, 2, text)
    return board.status_of(state, _area(data, area), _power(data, power)) or "none"


def q_established(state, args, data, text):
    area, power = _names(args, 2, text)
    return board.is_established(state, _area(data, area), _power(data, power))


def q_army(state, args, data, text):
    place, power = _place_power(state, args, data, text)
    return board.army_strength(state, power, place)


def q_navy(state, args, data, text):
    place, power = _place_power(state, args, data, text)
    total = board.navy_strength(state, power, place)
    if place in data.seas:  # navies at home sit in the Home Area box of that sea
        total += sum(u["strength"] for u in board.units_of(state, power, type="navy")
                     if u.get("sea") == place and u["where"] == board.home_name(data, power))
    return total


def q_merchant(state, args, data, text):
    sea, power = _names(args, 2, text)
    return int(_power(data, power) in state.get("merchants", {}).get(_place(data, sea), []))


def q_unrest(state, args, data, text):
    return board.in_unrest(state, _area(data, _names(args, 1, text)[0]))


def q_cb(state, args, data, text):
    a, b = _names(args, 2, text)
    return board.has_cb(state, _power(data, a), _power(data, b))


def q_war(state, args, data, text):
    """At War: enemies in a war not yet over, or a declaration of War made this turn that is not
    yet in a war (the War is played in the War Phase)."""
    a, b = (_power(data, n) for n in _names(args, 2, text))
    for w in state.get("wars", []):
        if w.get("status") in model.OPEN and model.enemies_in(w, a, b):
            return True
    return any(not d.get("war") and d["by"] in (a, b) and ({a, b} - {d["by"]}) <= set(d["against"])
               for d in state.get("declarations", []) if d.get("turn") == state.get("turn"))


def q_alliance(state, args, data, text):
    """first, second, third or none: the power's alliance in the war under way."""
    power = _power(data, _names(args, 1, text)[0])
    war = model.war_of(state, power) or model.war_of(state, power, model.open_wars(state))
    return model.alliance_label(war, power) if war else "none"


def q_supply(state, args, data, text):
    """Whether a unit or Area of the power at that place is in supply now (Rules: SUPPLY)."""
    place, power = _place_power(state, args, data, text)
    return geo.in_supply(state, data, power, place)


def q_coaling(state, args, data, text):
    """Whether the power has Coaling Rights in that Sea or Cape Zone now."""
    sea, power = _place_power(state, args, data, text)
    return sea in geo.coaling_seas(state, data, power)


def q_defeated(state, args, data, text):
    """Whether the Area has lost its own Combat Strength in the Rebellion or Ottoman war."""
    area = _area(data, _names(args, 1, text)[0])
    return any(area in w.get("defeated", []) for w in state.get("wars", [])
               if w.get("status") in ("active", "ended"))


def q_surrendered(state, args, data, text):
    """Strength points of the power's units surrendered in the wars under way."""
    power = _power(data, _names(args, 1, text)[0])
    return sum(u["strength"] for w in state.get("wars", []) for u in w.get("surrendered", [])
               if u["power"] == power)


def q_denied(state, args, data, text):
    """Whether the power is denied the passage of that canal or straits Area now."""
    area, power = _names(args, 2, text)
    power = _power(data, power)
    return geo.denied(state, model.war_of(state, power), power, _area(data, area))


def q_war_status(state, args, data, text):
    """A war's status (active, ended, resolved) and how it ended: ``war_status W1``."""
    wid = _names(args, 1, text)[0]
    war = next((w for w in state.get("wars", []) if w["id"].lower() == wid.lower()), None)
    if war is None:
        return "none"
    how = (war.get("result") or {}).get("how")
    return f"{war['status']}" + (f" {how}" if how else "")


def q_controller(state, args, data, text):
    return board.controllers(state, _area(data, _names(args, 1, text)[0]))


def q_conquered(state, args, data, text):
    area = _area(data, _names(args, 1, text)[0])
    holders: set[str] = set()
    for w in state.get("wars", []):
        if w.get("status") in ("active", "ended"):
            holders |= set(w.get("conquered", {}).get(area, []))
    return sorted(holders)


def q_canal(state, args, data, text):
    return _area(data, _names(args, 1, text)[0]) in state.get("canals", [])


def q_treaty(state, args, data, text):
    tid = _names(args, 1, text)[0]
    for key, t in state.get("treaties", {}).items():
        if key.lower() == tid.lower():
            return t.get("status", "proposed")
    return "none"


def q_breach(state, args, data, text):
    """The power that broke a treaty, or none."""
    record = treatybook.find(state, _names(args, 1, text)[0])
    return (record or {}).get("broken_by") or "none"


def q_congress_site(state, args, data, text):
    c = current(state)
    return c["site"] if c else "none"


def q_congress_members(state, args, data, text):
    c = current(state)
    return list(c["members"]) if c else []


def q_proposal(state, args, data, text):
    """open, passed, defeated, signed, refused (none when unknown)."""
    pid = _names(args, 1, text)[0].lower()
    c = current(state) or state.get("congress") or {}
    return next((p["status"] for p in c.get("proposals", []) if p["id"].lower() == pid), "none")


def q_declared(state, args, data, text):
    """Whether the first power declared War on the second this turn."""
    a, b = (_power(data, n) for n in _names(args, 2, text))
    return any(d["by"] == a and b in d["against"] for d in state.get("declarations", [])
               if d.get("turn") == state.get("turn"))


def q_step(state, args, data, text):
    """The Congress of Europe's step (attend, propose, vote, sign, decide, closed) or none."""
    c = current(state)
    return c["step"] if c else "none"


def q_cb_cause(state, args, data, text):
    """Why the first power holds a Casus Belli against the second (its causes), or none."""
    a, b = (_power(data, n) for n in _names(args, 2, text))
    return sorted({cb.get("cause") for cb in state.get("cb", []) if cb["holder"] == a
                   and cb["against"] == b}) or "none"


def q_known_cb(state, args, data, text):
    """Who may know of the first power's Casus Belli against the second: ``everyone``, or the
    powers told of it (a secret treaty's parties: Rules: TREATIES, secret treaties), or none."""
    a, b = (_power(data, n) for n in _names(args, 2, text))
    held = [cb for cb in state.get("cb", []) if cb["holder"] == a and cb["against"] == b]
    if not held:
        return "none"
    if seen(state, held, None):
        return "everyone"
    return sorted(p for p in state.get("players", []) if seen(state, held, p))


def q_pool(state, args, data, text):
    return merchants_available(state, data, _power(data, _names(args, 1, text)[0]))


def q_orders(state, args, data, text):
    """The canonical orders stored for a power this turn (state["turn_orders"])."""
    power = _power(data, _names(args, 1, text)[0])
    return [o["canonical"] for o in state.get("turn_orders", {}).get(power, [])]


def q_deficit(state, args, data, text):
    power = _power(data, _names(args, 1, text)[0])
    return duties.deficit(state, power)


def q_forced(state, args, data, text):
    """Rules: Forced Expenditures and Tension Increases - what a power must still spend on
    units this turn: the event's amount, less the unit maintenance the Administrative
    Phase counted towards it (the figure its report and the checks of its orders read)."""
    power = _power(data, _names(args, 1, text)[0])
    return duties.forced_remaining(state, power)


def q_obligations(state, args, data, text):
    """What a power's report lists under "What you must do this phase" in the Movement/Status
    Change Phase, each by what it is (forced, cap, deficit, garrison, pressure, permission,
    income): phases/obligations.py."""
    power = _power(data, _names(args, 1, text)[0])
    return sorted({name for name, _ in duties.facts(state, data, power)})


_QUERIES = {
    "TREASURY": q_treasury, "VP": q_vp, "MARKER": q_marker, "ESTABLISHED": q_established,
    "ARMY": q_army, "NAVY": q_navy, "MERCHANT": q_merchant, "UNREST": q_unrest, "CB": q_cb,
    "WAR": q_war, "CONTROLLER": q_controller, "CONQUERED": q_conquered, "CANAL": q_canal,
    "TREATY": q_treaty, "ORDERS": q_orders, "POOL": q_pool, "DEFICIT": q_deficit,
    "FORCED": q_forced, "OBLIGATIONS": q_obligations, "BREACH": q_breach, "CONGRESS_SITE": q_congress_site,
    "CONGRESS_MEMBERS": q_congress_members, "PROPOSAL": q_proposal, "DECLARED": q_declared,
    "STEP": q_step, "CB_CAUSE": q_cb_cause, "ALLIANCE": q_alliance, "SUPPLY": q_supply,
    "COALING": q_coaling, "DEFEATED": q_defeated, "SURRENDERED": q_surrendered,
    "DENIED": q_denied, "WAR_STATUS": q_war_status, "KNOWN_CB": q_known_cb,
    "OWES": lambda s, a, d, t: list(sequence.info(s).owes),
    "MAY": lambda s, a, d, t: list(sequence.info(s).may),
    "ETI": lambda s, a, d, t: s.get("eti", 0),
    "CRI": lambda s, a, d, t: s.get("cri", 0),
    "PHASE": lambda s, a, d, t: s["phase"],
    "TURN": lambda s, a, d, t: s["turn"],
    "GAME_OVER": lambda s, a, d, t: bool(s.get("game_over")),
    "CANALS": lambda s, a, d, t: sorted(s.get("canals", [])),
}
