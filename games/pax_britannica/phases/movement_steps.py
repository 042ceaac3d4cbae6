"""One Movement/Status Change order carried out on a board: checked, paid for, applied.

Rules: MOVEMENT/STATUS CHANGE - "Activities during this Phase are performed in no
particular order (except that a piece must be purchased before it is placed on the
map)".  A power's orders are carried out one at a time in the order its player wrote
them, each on the board its earlier orders left (a fleet moved above carries the
Communication Link for a purchase below; money spent above is gone below).  The reply
(validation) and the phase (resolution) both call :func:`carry_out`, so what the reply
accepts is what the phase does.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.gameapi import Order

from ..core import board
from . import movement_rules as rules, obligations as duties

Fail = tuple[str, str] | None

#: orders carried out in the written sequence
SEQUENCED = ("buy", "downgrade", "build_army", "build_navy", "place_merchant", "move_merchant",
             "move_army", "move_navy", "build_canal", "give", "accept_money", "transfer", "accept")
#: Rules: NET INCOME RECORD - REMOVE meets the Administrative Phase's deficit, settled
#: before the phase's own activities; SUPPRESS and ELIMINATE act in later phases.
DEFICIT, LATER = ("remove",), ("suppress", "eliminate")
UNIT_KINDS = ("build_army", "build_navy")
AGREEMENTS = ("give", "accept_money", "transfer", "accept")


@dataclass
class Ledger:
    """What a run of the phase keeps beside the board: purchases whose placement effects
    are judged once every purchase stands, canals built, and who spent what on which line."""
    placed: list = field(default_factory=list)    # (power, area, old status, new status)
    canals: list = field(default_factory=list)    # (power, area) built this phase
    spent: dict = field(default_factory=dict)     # power -> [(line, amount)]


def carry_out(state: dict, data, power: str, order: Order, ledger: Ledger) -> tuple[Fail, list[dict]]:
    """Check one order on ``state`` as it now stands and, when legal, pay for it and apply
    it.  Returns ``(None, events)`` or ``((code, message), [])`` with the state unchanged.

    Agreements are applied as the power's own side sees them: GIVE pays at once, ACCEPT
    receives what it names, TRANSFER hands the marker over.  Resolution only calls this for
    a GIVE or TRANSFER the other side accepted, and settles the ACCEPT lines itself."""
    kind, a = order.kind, dict(order.args)
    fail = legality(state, data, power, kind, a)
    if fail:
        return fail, []
    price = rules.cost(state, data, power, kind, a)
    if price > board.treasury(state, power):
        return funds_fail(state, power, order, price, ledger), []
    if kind in UNIT_KINDS:
        fail = spend_cap(state, data, power, price)
        if fail:
            return fail, []
    if price:
        board.add_money(state, power, -price)
        ledger.spent.setdefault(power, []).append((order.line, price))
    if kind == "buy":
        ledger.placed.append((power, a["area"], board.status_of(state, a["area"], power),
                              a["status"]))
    if kind == "build_canal":
        ledger.canals.append((power, a["area"]))
    return None, apply(state, data, power, kind, a, price)


def legality(state: dict, data, power: str, kind: str, a: dict) -> Fail:
    fail = rules.check(state, data, power, kind, a)
    if fail is None and kind == "transfer":
        # the receiver must be able to take it (Rules: Transferring Status)
        fail = rules.check(state, data, a["to"], "accept",
                           {"status": a["status"], "area": a["area"], "from": power})
    return fail


def judge(state: dict, data, power: str, order: Order) -> Fail:
    """What :func:`carry_out` would answer, changing nothing (no ledger: the money message
    is short)."""
    kind, a = order.kind, dict(order.args)
    fail = legality(state, data, power, kind, a)
    if fail:
        return fail
    price = rules.cost(state, data, power, kind, a)
    if price > board.treasury(state, power):
        return "insufficient-funds", f"{order.canonical} costs {price}"
    if kind in UNIT_KINDS:
        return cap_fail(state, data, power, price)
    return None


def funds_fail(state: dict, power: str, order: Order, price: int, ledger: Ledger) -> tuple[str, str]:
    """Rules: MOVEMENT/STATUS CHANGE - "You cannot spend more £'s than you have available";
    the message names the earlier lines whose spending left too little."""
    have = board.treasury(state, power)
    spent = [(line, amount) for line, amount in ledger.spent.get(power, []) if amount]
    text = f"{order.canonical} costs {price}; {power} has {have} left"
    if spent:
        lines = ", ".join(str(line) for line, _ in spent if line is not None) or "above"
        text += (f" after spending {sum(n for _, n in spent)} on the orders written above it "
                 f"(line{'s' if len(spent) > 1 else ''} {lines})")
    return "insufficient-funds", text


def cap_fail(state: dict, data, power: str, price: int) -> Fail:
    """Rules: HEADLINE EVENTS (Liberal Victory in Britain) - a cap on unit purchases (or one
    the GM set, said so): whether buying units for ``price`` more would pass it."""
    cap = duties.spend_cap(state, power)
    if cap is None or duties.unit_spent(state, power) + price <= cap:
        return None
    return "spend-cap", (f"{power} may spend no more than {cap} on units this turn "
                         f"({duties.cap_cause(state, data, power) or 'a cap the GM set'})")


def spend_cap(state: dict, data, power: str, price: int) -> Fail:
    """:func:`cap_fail`, and the purchase counted against the cap when it passes."""
    fail = cap_fail(state, data, power, price)
    if fail is None and duties.spend_cap(state, power) is not None:
        spent = state.setdefault("turn_effects", {}).setdefault("unit_spent", {})
        spent[power] = duties.unit_spent(state, power) + price
    return fail


def apply(state: dict, data, power: str, kind: str, a: dict, price: int = 0) -> list[dict]:
    """Carry out one legal order (money already paid)."""
    if kind == "buy":
        return [buy(state, data, power, a, price)]
    if kind == "downgrade":
        # Rules: EUROPEAN TENSION INCREASES - voluntary reductions raise no tension.
        if a["to"] == "none":
            return [board.remove_marker(state, power, a["area"], "downgrade")]
        est = board.is_established(state, a["area"], power)
        return [board.set_marker(state, power, a["area"], a["to"], est, "downgrade")]
    if kind in UNIT_KINDS:
        return build(state, data, power, kind[6:], a, price)
    if kind == "place_merchant":
        state["merchant_pool"][power] = state["merchant_pool"].get(power, 0) - 1
        fleet(state, a["sea"], power, add=True)
        return [{"kind": "merchant", "power": power, "sea": a["sea"], "from": None,
                 "action": "placed"}]
    if kind == "move_merchant":
        fleet(state, a["from"], power, add=False)
        fleet(state, a["to"], power, add=True)
        return [{"kind": "merchant", "power": power, "sea": a["to"], "from": a["from"],
                 "action": "moved"}]
    if kind == "move_army":
        path = rules.army_path(state, data, power, a)
        unit = board.find_unit(state, power, "army", a["strength"], a["from"])
        unit["where"], unit["sea"] = a["to"], None
        return [{"kind": "unit_moved", "power": power, "type": "army", "strength": a["strength"],
                 "from": a["from"], "to": a["to"], "path": path}]
    if kind == "move_navy":
        unit = rules.navy_unit(state, data, power, a["strength"], a["from"])
        where, sea = rules.navy_target(state, data, power, a["to"])
        before = unit["where"]
        unit["where"], unit["sea"] = where, sea
        return [{"kind": "unit_moved", "power": power, "type": "navy", "strength": a["strength"],
                 "from": before, "to": where, "sea": sea}]
    if kind == "build_canal":
        state.setdefault("canals", []).append(a["area"])
        return [{"kind": "canal", "power": power, "area": a["area"], "cost": price}]
    if kind == "give":
        return [{"kind": "money", "power": power, "to": a["to"], "amount": a["amount"],
                 "from": power}]
    if kind == "accept_money":
        board.add_money(state, power, a["amount"])
        return []
    if kind == "transfer":
        return hand_over(state, power, a["to"], a["area"])
    if kind == "accept":
        return hand_over(state, a["from"], power, a["area"], a["status"])
    return []


def hand_over(state: dict, giver: str, receiver: str, area: str, status: str | None = None) -> list[dict]:
    """Rules: ALTERING EXISTING STATUS MARKERS (Transferring Status) - "Status Markers are
    received at the same level they are transferred at"; whether it is established goes
    with it.  ``status`` is what the receiver named when the giver's marker is not (yet)
    on the board as the receiver sees it."""
    held = board.markers_in(state, area).get(giver)
    est = bool(held and held.get("established"))
    status = held["status"] if held else status
    events = [board.remove_marker(state, giver, area, f"transferred to {receiver}")] if held else []
    events.append(board.set_marker(state, receiver, area, status, est, f"transferred from {giver}"))
    return events


def fleet(state: dict, sea: str, power: str, add: bool) -> None:
    fleets = state.setdefault("merchants", {}).setdefault(sea, [])
    if add and power not in fleets:
        fleets.append(power)
        fleets.sort()
    elif not add and power in fleets:
        fleets.remove(power)
    if not fleets:
        state["merchants"].pop(sea, None)


def buy(state: dict, data, power: str, a: dict, price: int) -> dict:
    """Rules: ESTABLISHING A STATUS MARKER - a new marker gets a Status Change marker
    (unestablished).  Rules: ALTERING EXISTING STATUS MARKERS - "if you already have a
    Protectorate marker in an Area and are upgrading to a Possession, State, or Dominion,
    you need not defeat the Area's Combat Strength to establish it."

    Choice: such an upgrade (and a State/Dominion over an established Possession) stands
    established at once for its owner's later orders, since nothing is left to establish
    it; ``phase_from`` keeps what it was, so other powers' orders of the same phase, and a
    second upgrade, still see the marker as it stood when the phase began."""
    area, status = a["area"], a["status"]
    if rules.needs_permission(state, data, power, area, status):
        used = state.setdefault("turn_effects", {}).setdefault("permission_used", {})
        if area not in used.setdefault(power, []):
            used[power].append(area)
    old = board.status_of(state, area, power)
    no_combat = old in ("protectorate", "possession") and board.is_established(state, area, power) \
        and status in ("possession", "state", "dominion")
    ev = board.set_marker(state, power, area, status, no_combat, "bought")
    mark = state["markers"][area][power]
    if old:
        mark["was"] = old  # what the marker was before this upgrade, for a failed combat
    if no_combat:
        mark["phase_from"] = old
    ev["cost"] = price
    return ev


def build(state: dict, data, power: str, kind: str, a: dict, price: int) -> list[dict]:
    """Rules: MOVEMENT/STATUS CHANGE - units are bought and placed at home (navies in a
    Home Area sea box).  Rules: EUROPEAN TENSION INCREASES - a Naval (1)/(3) built by a
    power other than the USA, Britain or Japan raises tensions 1, a Naval (10) 3."""
    home = board.home_name(data, power)
    unit = board.add_unit(state, power, kind, a["strength"], home,
                          a.get("sea") if kind == "navy" else None)
    events = [{"kind": "unit_built", "power": power, "type": kind, "strength": a["strength"],
               "where": home, "sea": unit["sea"], "cost": price}]
    if kind == "navy" and power not in rules.NAVAL_ETI_EXEMPT:
        delta = 3 if a["strength"] == 10 else 1
        blame = None if required_fleet(state, power, price) else power
        events.append(board.add_eti(state, delta, f"{power} built a Naval ({a['strength']})", blame))
    return events


def required_fleet(state: dict, power: str, price: int) -> bool:
    """Rules: Forced Expenditures and Tension Increases (clarification) - "should required
    German Fleet purchases drive ETI over 99 then Germany will only be held responsible
    ... for fleets built in excess of those required by the Random Event".

    The tension still rises; only the blame is lifted.  Choice: a fleet is required when
    the event demands naval spending (German Navy League Agitation, the only naval-only
    forced expenditure) and the forced amount left after maintenance was not yet met
    before it was bought; fleets bought after that are in excess."""
    forced = state.get("turn_effects", {}).get("forced", {}).get(power)
    if not forced or not forced.get("naval_only"):
        return False
    remaining = int(forced.get("remaining", forced.get("amount", 0)))
    spent = int(forced.get("naval_built", 0))
    forced["naval_built"] = spent + price
    return spent < remaining


def assume(state: dict, data, power: str, order: Order) -> None:
    """Put on ``state`` what a refused or failed order would have provided, without its
    checks or its price: used only to tell a player that a later line needed it."""
    kind, a = order.kind, dict(order.args)
    if kind == "buy" and a["area"] in data.areas:
        board.set_marker(state, power, a["area"], a["status"], False, "assumed")
    elif kind in UNIT_KINDS and a["strength"] in rules.STRENGTHS:
        board.add_unit(state, power, kind[6:], a["strength"], board.home_name(data, power),
                       a.get("sea") if kind == "build_navy" else None)
    elif kind == "place_merchant" and a["sea"] in data.seas:
        fleet(state, a["sea"], power, add=True)
    elif kind == "move_merchant" and a["to"] in data.seas:
        fleet(state, a["from"], power, add=False)
        fleet(state, a["to"], power, add=True)
    elif kind == "build_canal" and a["area"] in board.CANAL_AREAS:
        state.setdefault("canals", []).append(a["area"])
    elif kind == "accept_money":
        board.add_money(state, power, a["amount"])
    elif kind == "accept" and a["area"] in data.areas:
        hand_over(state, a["from"], power, a["area"], a["status"])
    elif kind == "move_army" and board.find_unit(state, power, "army", a["strength"], a["from"]):
        board.find_unit(state, power, "army", a["strength"], a["from"])["where"] = a["to"]


def provides(order: Order) -> str:
    """What an order puts on the board, in words, for a note on a later line."""
    a, n = order.args, order.line
    on = f" on line {n}" if n is not None else " above"
    words = {
        "move_merchant": lambda: f"the Merchant Fleet moved to the {a['to']}{on}",
        "place_merchant": lambda: f"the Merchant Fleet placed in the {a['sea']}{on}",
        "build_canal": lambda: f"the canal built in {a['area']}{on}",
        "buy": lambda: f"the {str(a['status']).title()} bought in {a['area']}{on}",
        "build_army": lambda: f"the Army ({a['strength']}) built{on}",
        "build_navy": lambda: f"the Naval ({a['strength']}) built{on}",
        "move_army": lambda: f"the Army ({a['strength']}) moved to {a['to']}{on}",
        "move_navy": lambda: f"the Naval ({a['strength']}) moved to {a['to']}{on}",
        "accept_money": lambda: f"the {a['amount']} accepted from {a['from']}{on}",
        "accept": lambda: f"the {str(a['status']).title()} in {a['area']} accepted from {a['from']}{on}",
        "transfer": lambda: f"the {str(a['status']).title()} in {a['area']} handed to {a['to']}{on}",
        "downgrade": lambda: f"the downgrade in {a['area']}{on}",
        "give": lambda: f"the {a['amount']} given to {a['to']}{on}",
    }
    return words[order.kind]() if order.kind in words else f"{order.canonical}{on}"


def need_phrase(order: Order, code: str | None) -> str:
    """How a note introduces what ``order`` relied on, from the code it fails with alone."""
    if code == "no-communication-link":
        return f"the Communication Link to {order.args.get('area')} runs through"
    if code in ("no-path", "bad-via", "bad-destination", "bad-start") and order.kind == "move_army":
        return "its path needs"
    if code == "insufficient-funds":
        return "it is paid with"
    return "it needs"
