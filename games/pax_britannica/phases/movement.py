"""The Movement/Status Change Phase: every power's orders resolved at once.

Rules: MOVEMENT/STATUS CHANGE ("all players engage in the following activities in
any order").  By email the orders arrive together, so the engine fixes one order
of resolution and documents it (Choice):

1. every accepted order is stored in ``state["turn_orders"]`` (later phases read
   SUPPRESS and ELIMINATE from there); this turn's Merchant Fleets are taken from
   the Game Turn Track;
2. deficits left by the Administrative Phase are settled (the player's REMOVE
   orders first, then the documented default);
3. voluntary downgrades, then money (GIVE matched by ACCEPT), then marker
   transfers (TRANSFER matched by ACCEPT);
4. marker purchases, each power in its own order sequence, stopping at the first
   it cannot afford; Casus Belli and Chinese Resentment are judged once all
   purchases stand, so the order powers are taken in does not matter;
5. unit builds (same stopping rule); 6. Merchant Fleets; 7. army and naval moves;
8. canals last: every builder pays, the first canal's 15 VP go to its builder
   (several at once: a die each, highest wins, ties roll again).
Powers are taken in alphabetical order inside each step.  An order that became
illegal by the time it is reached is skipped with an ``order_failed`` event.
"""
from __future__ import annotations

from pbem.gameapi import Order

from .. import board
from ..state import take_merchants
from . import movement_rules as rules

CANAL_VP = 15  # Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS
STAGES = (("downgrade",), ("give", "accept_money"), ("transfer", "accept"), ("buy",),
          ("build_army", "build_navy"), ("place_merchant", "move_merchant"),
          ("move_army", "move_navy"), ("build_canal",))


def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    events: list[dict] = []
    orders = {p: [o if isinstance(o, Order) else Order.from_json(o) for o in os]
              for p, os in (orders or {}).items()}
    state["turn_orders"] = {p: [o.to_json() for o in os] for p, os in sorted(orders.items()) if os}
    for power in board.great_powers(state):
        take_merchants(state, data, power)
    events += settle_deficits(state, data, orders)
    for kinds in STAGES:
        events += run_stage(state, data, orders, kinds, dice)
    return events


def settle_deficits(state: dict, data, orders: dict) -> list[dict]:
    """Rules: NET INCOME RECORD - a negative net income is met by removals.
    Choice: only REMOVE orders count towards a deficit; DOWNGRADE stays voluntary."""
    from . import administrative
    events = []
    for power in sorted(state.get("pending", {}).get("deficit", {})):
        removes = [o for o in orders.get(power, []) if o.kind == "remove"]
        events += administrative.settle_deficit(state, data, power, removes)
    return events


def _of(orders: dict, kinds: tuple[str, ...]) -> list[tuple[str, Order]]:
    return [(p, o) for p in sorted(orders) for o in orders[p] if o.kind in kinds]


def failed(power: str, order: Order, code: str, reason: str) -> dict:
    return {"kind": "order_failed", "power": power, "order": order.canonical, "code": code,
            "reason": reason}


def run_stage(state: dict, data, orders: dict, kinds: tuple[str, ...], dice) -> list[dict]:
    if kinds == ("give", "accept_money"):
        return money(state, data, orders)
    if kinds == ("transfer", "accept"):
        return transfers(state, data, orders)
    if kinds == ("build_canal",):
        return canals(state, data, orders, dice)
    events: list[dict] = []
    placed: list[tuple[str, str, str | None, str]] = []
    for power in sorted(orders):
        broke = False
        for o in orders[power]:
            if o.kind not in kinds:
                continue
            price = rules.cost(state, data, power, o.kind, o.args)
            if broke or price > board.treasury(state, power):
                broke = broke or o.kind in ("buy", "build_army", "build_navy")
                events.append(failed(power, o, "insufficient-funds",
                                     f"{power} has {board.treasury(state, power)}, needs {price}"))
                continue
            fail = rules.check(state, data, power, o.kind, dict(o.args))
            if fail is None and o.kind in ("build_army", "build_navy"):
                fail = spend_cap(state, power, price)
            if fail:
                events.append(failed(power, o, *fail))
                continue
            board.add_money(state, power, -price)
            if o.kind == "buy":
                placed.append((power, o.args["area"],
                               board.status_of(state, o.args["area"], power), o.args["status"]))
            events += apply(state, data, power, o.kind, dict(o.args), price)
    if placed:
        events += finish_placements(state, data, placed)
    return events


def spend_cap(state: dict, power: str, price: int) -> rules.Fail:
    """Rules: HEADLINE EVENTS (Liberal Victory in Britain) - a cap on unit purchases."""
    cap = state.get("turn_effects", {}).get("spend_cap", {}).get(power)
    if cap is None:
        return None
    spent = state.setdefault("turn_effects", {}).setdefault("unit_spent", {}).get(power, 0)
    if spent + price > cap:
        return "spend-cap", f"{power} may spend no more than {cap} on units this turn"
    state["turn_effects"]["unit_spent"][power] = spent + price
    return None


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
    if kind in ("build_army", "build_navy"):
        return build(state, data, power, kind[6:], a, price)
    if kind == "place_merchant":
        state["merchant_pool"][power] = state["merchant_pool"].get(power, 0) - 1
        _fleet(state, a["sea"], power, add=True)
        return [{"kind": "merchant", "power": power, "sea": a["sea"], "from": None,
                 "action": "placed"}]
    if kind == "move_merchant":
        _fleet(state, a["from"], power, add=False)
        _fleet(state, a["to"], power, add=True)
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
    return []  # suppress, eliminate, remove: read by later phases from turn_orders


def _fleet(state: dict, sea: str, power: str, add: bool) -> None:
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
    (unestablished).  Rules: ALTERING EXISTING STATUS MARKERS - upgrading an established
    Protectorate to Possession, State or Dominion needs no Colonial Combat.
    Choice: such an upgrade (and a State/Dominion over an established Possession) is
    established at once, since nothing is left to establish it; it is marked
    ``pending_establish`` until every purchase of the phase stands."""
    area, status = a["area"], a["status"]
    if rules.needs_permission(state, data, power, area, status):
        used = state.setdefault("turn_effects", {}).setdefault("permission_used", {})
        if area not in used.setdefault(power, []):
            used[power].append(area)
    old = board.status_of(state, area, power)
    no_combat = old in ("protectorate", "possession") and board.is_established(state, area, power) \
        and status in ("possession", "state", "dominion")
    ev = board.set_marker(state, power, area, status, False, "bought")
    mark = state["markers"][area][power]
    if old:
        mark["was"] = old  # what the marker was before this upgrade, for a failed combat
    if no_combat:
        mark["pending_establish"] = True
    ev["cost"] = price
    return ev


def finish_placements(state: dict, data, placed: list) -> list[dict]:
    """Placement effects (Casus Belli, Chinese Resentment, Ottoman War).
    Choice: each is judged against every other power's markers as they stand after all
    purchases, so the order powers are taken in does not matter."""
    from .. import summaries
    events: list[dict] = []
    for power, area, old, new in placed:
        mark = state["markers"][area][power]
        saved = dict(mark)
        if old is None:
            del state["markers"][area][power]
        else:
            state["markers"][area][power] = {"status": old, "established": True}
        effects = summaries.placement_effects(state, data, power, area, new)
        state["markers"][area][power] = saved
        events += summaries.apply_effects(state, effects)
    for power, area, _old, _new in placed:
        mark = state["markers"][area][power]
        if mark.pop("pending_establish", False):
            mark["established"] = True
            mark.pop("was", None)
    return events


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


def money(state: dict, data, orders: dict) -> list[dict]:
    """Rules: TRANSFERRING MONEY - both powers must agree: GIVE matched by ACCEPT.
    Choice: the receiver's ACCEPT names the same amount."""
    events = []
    for power, o in _of(orders, ("give",)):
        to, amount = o.args["to"], o.args["amount"]
        match = any(a.args["from"] == power and a.args["amount"] == amount
                    for a in orders.get(to, []) if a.kind == "accept_money")
        fail = rules.check(state, data, power, "give", dict(o.args))
        if not match:
            fail = ("unmatched", f"{to} did not order ACCEPT {amount} FROM {power}")
        elif fail is None and amount > board.treasury(state, power):
            fail = ("insufficient-funds", f"{power} has only {board.treasury(state, power)}")
        if fail:
            events.append(failed(power, o, *fail))
            continue
        board.add_money(state, power, -amount)
        board.add_money(state, to, amount)
        events.append({"kind": "money", "power": power, "to": to, "amount": amount,
                       "from": power})
    for power, o in _of(orders, ("accept_money",)):
        giver = o.args["from"]
        if not any(g.args["to"] == power and g.args["amount"] == o.args["amount"]
                   for g in orders.get(giver, []) if g.kind == "give"):
            events.append(failed(power, o, "unmatched", f"{giver} did not order the GIVE"))
    return events


def transfers(state: dict, data, orders: dict) -> list[dict]:
    """Rules: ALTERING EXISTING STATUS MARKERS (Transferring Status) - both powers must
    agree; the marker keeps its level (and whether it is established)."""
    events = []
    matched = set()
    for power, o in _of(orders, ("transfer",)):
        a = o.args
        acc = next((x for x in orders.get(a["to"], []) if x.kind == "accept"
                    and x.args["from"] == power and x.args["area"] == a["area"]
                    and x.args["status"] == a["status"]), None)
        fail = rules.check(state, data, power, "transfer", dict(a)) or (
            rules.check(state, data, a["to"], "accept", dict(acc.args)) if acc else
            ("unmatched", f"{a['to']} did not order ACCEPT {a['status'].upper()} {a['area']} FROM {power}"))
        if fail:
            events.append(failed(power, o, *fail))
            continue
        matched.add((a["to"], a["area"]))
        est = board.is_established(state, a["area"], power)
        events.append(board.remove_marker(state, power, a["area"], f"transferred to {a['to']}"))
        events.append(board.set_marker(state, a["to"], a["area"], a["status"], est,
                                       f"transferred from {power}"))
    for power, o in _of(orders, ("accept",)):
        if (power, o.args["area"]) not in matched:
            events.append(failed(power, o, "unmatched", f"no matching TRANSFER from {o.args['from']}"))
    return events


def canals(state: dict, data, orders: dict, dice) -> list[dict]:
    """Rules: BUILDING CARIBBEAN-SOUTH PACIFIC CANALS; CANALS AND STRAITS - 30£, an
    established Influence or Control marker, not in Unrest; the first builder gains
    15 VP; simultaneous builders all pay and dice decide who was first.
    Choice: a die each in alphabetical order of the powers, ties roll again."""
    events, builders = [], []
    first_possible = not state.get("canals") and not state.get("canal_vp_awarded")
    for power, o in _of(orders, ("build_canal",)):
        fail = rules.check(state, data, power, "build_canal", dict(o.args))
        if fail is None and board.treasury(state, power) < rules.CANAL_COST:
            fail = ("insufficient-funds", f"a canal costs {rules.CANAL_COST}")
        if fail and not (fail[0] == "canal-exists" and o.args["area"] in
                         [b[1] for b in builders]):
            events.append(failed(power, o, *fail))
            continue
        board.add_money(state, power, -rules.CANAL_COST)
        builders.append((power, o.args["area"]))
        if o.args["area"] not in state.setdefault("canals", []):
            state["canals"].append(o.args["area"])
        events.append({"kind": "canal", "power": power, "area": o.args["area"],
                       "cost": rules.CANAL_COST})
    if builders and first_possible:
        winner = _first_builder(sorted({p for p, _ in builders}), dice, events)
        state["canal_vp_awarded"] = True
        events.append(board.add_vp(state, winner, CANAL_VP, "first Caribbean-South Pacific canal"))
    return events


def _first_builder(powers: list[str], dice, events: list[dict]) -> str:
    while len(powers) > 1:
        rolls = {p: dice.d6(f"canal: who built first ({p})") for p in powers}
        events.append({"kind": "canal_race", "rolls": rolls})
        best = max(rolls.values())
        powers = [p for p in powers if rolls[p] == best]
    return powers[0]
