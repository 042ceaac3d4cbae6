"""What a Great Power must do, may not do, or is given this turn, before it writes its
Movement/Status Change orders: the game's ``obligations`` (pbem.kit.gameapi).

Each fact is read here once and used twice: the report opens with it, and the checks of
the orders (movement_validate.py, movement_steps.py) read the same function, so what the
report says and what the reply refuses or warns of cannot disagree.

Rules: RANDOM EVENTS (HEADLINE EVENTS; Forced Expenditures and Tension Increases);
INCOME RECORD (the Colonial Office die); NET INCOME RECORD (a deficit); Special British
Garrison Rule and Special Russian Garrison Rule (rebuilding the garrison).
"""
from __future__ import annotations

from pbem.kit import audience
from pbem.kit.gameapi import EFFECT, LIMIT, MUST, Obligation

from ..core import board, movement_units
from ..core.audiences import players_of

FORCED_RULE = "Forced Expenditures and Tension Increases"
CAP_RULE = "HEADLINE EVENTS (Liberal Victory in Britain)"


# -- the facts both the report and the checks read ------------------------------------------
def effects(state: dict) -> dict:
    """This turn's lasting effects of the Random Events Phase (phases/random_events.py)."""
    return state.get("turn_effects") or {}


def forced(state: dict, power: str) -> dict | None:
    """Rules: Forced Expenditures - the event's demand on ``power`` this turn, or None:
    ``{"amount", "naval_only", "excluding", "event"}`` and, once the Administrative Phase has
    counted maintenance toward it, ``"paid"`` and ``"remaining"``."""
    return effects(state).get("forced", {}).get(power)


def forced_remaining(state: dict, power: str) -> int:
    """What the forced expenditure still asks after maintenance (all of it before then)."""
    need = forced(state, power)
    return int(need.get("remaining", need.get("amount", 0))) if need else 0


def forced_due(state: dict, power: str) -> int:
    """Rules: Forced Expenditures - "he must spend as much money as he is able to spend on
    Military Units": what remains, as far as the Treasury allows."""
    return min(forced_remaining(state, power), board.treasury(state, power))


def spend_cap(state: dict, power: str) -> int | None:
    """Rules: HEADLINE EVENTS (Liberal Victory in Britain) - the most ``power`` may spend
    buying units this turn, or None."""
    cap = effects(state).get("spend_cap", {}).get(power)
    return None if cap is None else int(cap)


def unit_spent(state: dict, power: str) -> int:
    """What ``power`` has spent buying units this turn (counted against a spending cap)."""
    return int(effects(state).get("unit_spent", {}).get(power, 0))


def deficit(state: dict, power: str) -> int:
    """Rules: NET INCOME RECORD - the shortfall the Movement/Status Change Phase settles first."""
    return int(state.get("pending", {}).get("deficit", {}).get(power, 0))


def event_roll(state: dict, data, name: str | None) -> str | None:
    """The roll ("2-6") of this turn's headline event called ``name``, or None (a GM edit)."""
    for roll in effects(state).get("events", []):
        event = data.random_events.get(roll)
        if event is not None and event.name == name:
            return roll
    return None


def dice_of(roll: str | None) -> tuple[int, ...]:
    """A roll read "d1-d2" as its dice, in the order rolled."""
    return tuple(int(d) for d in roll.split("-")) if roll else ()


# -- the obligations -------------------------------------------------------------------------
def obligations(state: dict, data, power: str, own: list[str]) -> list[Obligation]:
    """Every obligation of the powers ``own`` (the German player's include Austria-Hungary's)
    in the Movement/Status Change Phase, the phase whose orders meet them; none in the
    others.  Each is the power's own (Rules: ADMINISTRATIVE RECORD SHEETS: the accounts
    are private), seen by it, its player and the GM."""
    if state.get("phase") != "movement" or state.get("game_over"):
        return []
    out: list[Obligation] = []
    for p in own:
        if not board.is_great(state, p):
            continue
        lead = "" if p == power else f"{p}: "
        seen = audience.powers(players_of(state, [p]))
        out += [Obligation(p, lead + text, seen, kind, rule, dice)
                for kind, text, rule, dice in _facts(state, data, p)]
    return out


def _facts(state: dict, data, power: str) -> list[tuple[str, str, str, tuple[int, ...]]]:
    return [fact for _, fact in facts(state, data, power)]


def facts(state: dict, data, power: str) -> list[tuple[str, tuple[str, str, str, tuple[int, ...]]]]:
    """Each obligation of ``power`` as (what it is, (kind, text, rule, dice)), whatever the phase:
    what it is, one word, is what a scenario case asks for (the query OBLIGATIONS)."""
    out = []
    for name, find in (("deficit", _deficit), ("forced", _forced), ("cap", _cap), ("garrison", _garrison),
                       ("pressure", _pressure), ("permission", _permissions), ("income", _colonial_office)):
        out += [(name, fact) for fact in find(state, data, power)]
    return out


def _named(state: dict, data, name: str | None) -> tuple[str, tuple[int, ...]]:
    """Who an obligation comes from, as its line begins ("Pan-Slav Agitation in Russia"), and the
    dice of its random event (none for a GM edit)."""
    if not name or name == "GM":
        return "Set by the GM", ()
    return name, dice_of(event_roll(state, data, name))


def _deficit(state: dict, data, power: str) -> list:
    n = deficit(state, power)
    if not n:
        return []
    # Rules: NET INCOME RECORD - "he must eliminate exactly (or as near to exactly as
    # possible) the necessary number of Military Units abroad and/or Status markers".
    # Choice (movement.py): only REMOVE orders count towards it; the default removes the rest.
    return [(MUST, f"Meet a deficit of £{n}: choose the units abroad to remove (REMOVE ARMY|NAVY <strength> "
             "<place>); what your REMOVE orders leave is removed by default first thing this phase",
             "NET INCOME RECORD", ())]


def _forced(state: dict, data, power: str) -> list:
    need = forced(state, power)
    if not need:
        return []
    # Rules: Forced Expenditures and Tension Increases.
    why, dice = _named(state, data, need.get("event"))
    what = "naval units" if need.get("naval_only") else "units"
    excluding = " (the Indian Army's maintenance does not count)" if need.get("excluding") else ""
    amount, due = int(need.get("amount", 0)), forced_due(state, power)
    paid = f", of which maintenance paid £{need['paid']}" if "paid" in need else ""
    if due <= 0 and forced_remaining(state, power) <= 0:
        return [(EFFECT, f"{why}: £{amount} on {what}{excluding}{paid}: nothing more is owed", FORCED_RULE,
                 dice)]
    short = "" if due >= forced_remaining(state, power) else \
        f"; £{forced_remaining(state, power)} remain, but the treasury holds £{board.treasury(state, power)}"
    said = f" (£{amount} on {what}{excluding}{paid}{short})" if (paid or excluding or short) else ""
    return [(MUST, f"{why}: spend at least £{due} building {what} this turn{said}", FORCED_RULE, dice)]


def cap_cause(state: dict, data, power: str) -> str | None:
    """The random event of this turn that capped ``power``'s unit spending (its name), or None
    when the GM set the cap (SET SPENDCAP)."""
    return next((e.name for r in effects(state).get("events", [])
                 if (e := data.random_events.get(r)) is not None and e.power == power
                 and getattr(e, "spend_cap", None) is not None), None)


def _cap(state: dict, data, power: str) -> list:
    cap = spend_cap(state, power)
    if cap is None:
        return []
    why, dice = _named(state, data, cap_cause(state, data, power))
    spent = unit_spent(state, power)
    so_far = f" (£{spent} spent so far)" if spent else ""
    return [(LIMIT, f"{why}: spend no more than £{cap} building units this turn{so_far}", CAP_RULE, dice)]


def garrison_need(after: dict, state: dict, data, power: str) -> tuple[int, int, int, str]:
    """Rules: Special British Garrison Rule; Special Russian Garrison Rule - "he must rebuild
    them as soon as he can afford to do so (after paying regular maintenance)": how many Army
    (10) Units the garrison lacks on the board ``after`` (the orders' board, or the board as it
    stands), how many of them ``state``'s treasury can pay for, their price, and the garrison's
    name."""
    short = movement_units.garrison_shortfall(after, data, power)
    price = data.unit_cost("army", 10)
    can = min(short, board.treasury(state, power) // price) if short else 0
    return short, can, price, "Indian Army" if power == "Britain" else "Western Garrison"


def _garrison(state: dict, data, power: str) -> list:
    short, can, price, name = garrison_need(state, state, data, power)
    if not short:
        return []
    rule = "Special British Garrison Rule" if power == "Britain" else "Special Russian Garrison Rule"
    if can <= 0:
        return [(EFFECT, f"The {name} lacks {short} Army (10) Unit(s); you cannot afford one (£{price} each) "
                 "this turn", rule, ())]
    return [(MUST, f"Rebuild the {name}: build {can} Army (10) Unit(s) (£{price} each) in its zone; it lacks "
             f"{short}", rule, ())]


def _pressure(state: dict, data, power: str) -> list:
    """Rules: HEADLINE EVENTS - pressure for Dominion or Statehood: grant it or lose VP."""
    out = []
    for p in effects(state).get("pressure", []):
        if p.get("power") != power or not p.get("possible", True):
            continue
        why, dice = _named(state, data, p.get("event"))
        out.append((MUST, f"{why}: raise {p['area']} to {str(p['status']).title()} this turn (BUY "
                    f"{str(p['status']).upper()} {p['area']}) or lose {abs(int(p.get('vp', 5)))} Victory Points",
                    "HEADLINE EVENTS", dice))
    return out


def _permissions(state: dict, data, power: str) -> list:
    """Rules: HEADLINE EVENTS - Serbia Defies Austria-Hungary, War in South America, Boer
    Oppression of Uitlanders: a Control marker the power may buy (and must pay for)."""
    out = []
    for p in effects(state).get("permissions", []):
        if p.get("power") != power:
            continue
        why, dice = _named(state, data, p.get("event"))
        areas = ", ".join(p.get("areas") or ()) or "the Areas named"
        most = f" (in at most {p['max_areas']} of them)" if p.get("max_areas") else ""
        out.append((EFFECT, f"{why}: you may buy a Control marker in {areas}{most} this turn, paying for it, "
                    "and move armies in and fight there", "HEADLINE EVENTS", dice))
    return out


def _colonial_office(state: dict, data, power: str) -> list:
    """Rules: INCOME RECORD - the Colonial Office die; HEADLINE EVENTS - its multipliers."""
    out = []
    co = effects(state).get("colonial_office", {}).get(power)
    mult = effects(state).get("co_mult", {}).get(power)
    for roll in effects(state).get("events", []):
        event = data.random_events.get(roll)
        if event is None or event.power != power or event.co_mult is None or float(event.co_mult) == 1:
            continue
        factor = float(event.co_mult)
        change = {0: "wiped out", 0.5: "halved", 2: "doubled"}.get(factor, f"multiplied by {factor:g}")
        out.append((EFFECT, f"{event.name}: Colonial Office income {change} this turn", "HEADLINE EVENTS",
                    dice_of(roll)))
    if co is not None:
        times = f" (x{float(mult):g} by this turn's events)" if mult is not None and float(mult) != 1 else ""
        if co.get("roll") is None:
            out.append((EFFECT, f"Colonial Office income £{co['amount']}{times}: no Control marker on the map, so "
                        "the 6 result without a roll", "INCOME RECORD", ()))
        else:
            out.append((EFFECT, f"Colonial Office income £{co['amount']}{times}", "INCOME RECORD",
                        (int(co["roll"]),)))
    return out
