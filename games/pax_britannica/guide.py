"""What a power may order now, with real names and prices, and what its
accepted orders cost: the reports' "what you may do now" and the reply's
total.

Nothing here is a rule of its own: every choice offered is one the
Movement/Status Change checks (:mod:`.phases.movement_rules`) accept on the
board as it stands, at the price :func:`.phases.movement_rules.cost` charges,
for the Treasury the power has now.  Orders written above a line change what
that line may do (money spent, a fleet moved: orders take effect in the
order written), so the lists are of what each order may do on its own.
"""
from __future__ import annotations

from typing import Sequence

from pbem.kit.gameapi import Order, OrderOption
from pbem.kit.state_copy import copy_state

from .core import board, mapgraph
from .core.movement_units import check_move_army, check_move_navy
from .core.state import merchants_available
from .phases import administrative, movement_rules as rules, movement_steps as steps
from .report import events as say, war as report_war
from .report.board import distances
from .report.compose import own_powers
from .report.diplomacy import options

#: the most values one line of the guide lists before "and N more"
MOST = 24
BUY_ORDER = ("interest", "influence", "protectorate", "possession", "dominion", "state")


def _some(items: list[str], rest: str = "more") -> tuple[str, ...]:
    if len(items) <= MOST:
        return tuple(items)
    return tuple(items[:MOST]) + (f"and {len(items) - MOST} {rest}",)


def options_now(state: dict, data, power: str) -> list[OrderOption]:
    """Rules: MOVEMENT/STATUS CHANGE - what ``power`` (and Austria-Hungary for the
    German player) may order in this phase; in the Negotiation Phase and the Congress
    of Europe, what it may send there (report_diplomacy.options); in a War, what the window
    now open takes from it (report_war.options)."""
    if power not in state.get("players", []):
        return []
    if state.get("phase") in ("negotiation", "congress"):
        return options(state, power)
    if state.get("phase") == "war" or str(state.get("phase", "")).startswith("war_"):
        return report_war.options(state, data, power)
    if state.get("phase") != "movement":
        return []
    out: list[OrderOption] = []
    with mapgraph.components_kept():  # read-only: each power's links found once, not per Area
        for p in own_powers(state, power):
            part = for_power(state, data, p)
            if p != power and part:
                out.append(OrderOption(f"FOR {p}", "the orders below it are Austria-Hungary's, until FOR "
                                       f"{power}"))
            out += part
    return out


def for_power(state: dict, data, power: str) -> list[OrderOption]:
    money = board.treasury(state, power)
    out = buying(state, data, power, money, nearness(state, data, power))
    out += downgrades(state, power)
    out += building(state, data, power, money)
    out += moving(state, data, power)
    out += merchants(state, data, power)
    out += others(state, data, power, money)
    return out


def nearness(state: dict, data, power: str) -> dict[str, tuple[int, int]]:
    """How near each place is to ``power``: steps from anything it holds (its Merchant Fleets'
    seas make most coasts one step away), then steps from its Home Country, Control markers and
    units alone, which tells those coasts apart (Kamerun before Burma for Germany)."""
    held = distances(state, data, [power])
    home = board.home_name(data, power)
    core = ({home} if home else set()) | set(board.areas_of(state, power, board.CONTROL)) \
        | {u["where"] for u in board.units_of(state, power)}
    solid = mapgraph.distances(state, data, core)
    return {place: (held.get(place, 99), solid.get(place, 99)) for place in set(held) | set(solid)}


def buying(state: dict, data, power: str, money: int, near: dict[str, tuple[int, int]]) -> list[OrderOption]:
    """Rules: STATUS CHANGE; ALTERING EXISTING STATUS MARKERS (an upgrade pays the
    difference).  Areas nearest the power's holdings first (``nearness``)."""
    out = []
    for status in BUY_ORDER:
        if status not in data.markers:
            continue
        choices = []
        for area in sorted(data.areas, key=lambda a: (near.get(a, (99, 99)), a)):
            a = {"area": area, "status": status}
            if rules.check_buy(state, data, power, a) is None:
                price = rules.cost(state, data, power, "buy", a)
                if price <= money:
                    choices.append(f"{area} {say.money(price)}")
        if choices:
            m = data.markers[status]
            note = (f"income Economic Value x {m.income_mult}; "
                    + (f"upkeep {say.money(m.maint)} a turn" if m.maint else "no upkeep")
                    + ("; needs one of your armies there when the phase ends" if m.garrison else "")
                    + "; nearest first")
            out.append(OrderOption(f"BUY {status.upper()} <area>", note, _some(choices, "more, farther off")))
    return out


def downgrades(state: dict, power: str) -> list[OrderOption]:
    """Rules: ALTERING EXISTING STATUS MARKERS (Downgrading Status)."""
    areas = board.areas_of(state, power, ("interest", "influence"))
    if not areas:
        return []
    return [OrderOption("DOWNGRADE <area> [TO INTEREST|NONE]", "give up an Interest or Influence "
                        "(no tension, no refund)", _some(areas))]


def building(state: dict, data, power: str, money: int) -> list[OrderOption]:
    """Rules: MOVEMENT/STATUS CHANGE - units are bought at home."""
    out = []
    home = data.homes.get(power)
    for kind in ("army", "navy"):
        choices = []
        for strength in rules.STRENGTHS:
            a = {"strength": strength, "sea": sorted(home.seas)[0] if home and home.seas else None}
            price = rules.cost(state, data, power, f"build_{kind}", a)
            if rules.check_build(state, data, power, a, kind) is None and price <= money:
                choices.append(f"{strength} {say.money(price)}")
        if not choices:
            continue
        if kind == "army":
            out.append(OrderOption("BUILD ARMY <strength>", "placed in your Home Country", tuple(choices)))
        else:
            boxes = ", ".join(sorted(home.seas))
            tension = "" if power in rules.NAVAL_ETI_EXEMPT else "; raises European Tensions"
            out.append(OrderOption("BUILD NAVY <strength> [<home sea box>]", f"placed in {boxes}{tension}",
                                   tuple(choices)))
    return out


def _unit_places(state: dict, power: str, kind: str) -> dict[str, list[int]]:
    places: dict[str, list[int]] = {}
    for u in board.units_of(state, power, type=kind):
        places.setdefault(u["where"], []).append(u["strength"])
    return places


def moving(state: dict, data, power: str) -> list[OrderOption]:
    """Rules: MOVEMENT (Army Units, Naval Units)."""
    out = []
    home = board.home_name(data, power)
    targets = sorted(set(board.areas_of(state, power, board.CONTROL)) | ({home} if home else set()))
    for kind, check in (("army", check_move_army), ("navy", check_move_navy)):
        for where, strengths in sorted(_unit_places(state, power, kind).items()):
            found = []
            for to in targets:
                if to != where and any(check(state, data, power, {"strength": s, "from": where, "to": to, "via": []}) is None
                       for s in sorted(set(strengths))):
                    found.append(to)
            if found:
                word = "ARMY" if kind == "army" else "NAVY"
                sizes = ", ".join(str(s) for s in sorted(strengths, reverse=True))
                out.append(OrderOption(f"MOVE {word} <strength> {where} TO <to>",
                                       f"your {kind} units there: {sizes}", _some(found)))
    return out


def _army_for(state: dict, data, power: str, area: str) -> bool:
    """Rules: COLONIAL COMBAT TO SUPPRESS UNREST - only a power "that has an Army Unit in an
    Area that is in Unrest" fights it: one there already, or one it may move there now."""
    if board.army_strength(state, power, area) > 0:
        return True
    return any(check_move_army(state, data, power, {"strength": s, "from": where, "to": area, "via": []}) is None
               for where, strengths in _unit_places(state, power, "army").items() for s in set(strengths))


def merchants(state: dict, data, power: str) -> list[OrderOption]:
    """Rules: MOVEMENT (Merchant Fleets)."""
    out = []
    fleets = sorted(mapgraph.merchant_seas(state, power))
    free = sorted(s for s in data.seas if s not in fleets)
    new = merchants_available(state, data, power)
    if new > 0 and free:
        out.append(OrderOption("PLACE MERCHANT <sea>", f"{new} new Merchant Fleet{'s' if new > 1 else ''} to "
                               "place, one a Sea Zone", _some(free)))
    if fleets and free:
        out.append(OrderOption("MOVE MERCHANT <sea> TO <sea>", "any distance, to a Sea Zone without one of "
                               "yours; from " + ", ".join(fleets), _some(free)))
    return out


def others(state: dict, data, power: str, money: int) -> list[OrderOption]:
    out = []
    canals = [f"{area} {say.money(rules.CANAL_COST)}" for area in board.CANAL_AREAS
              if rules.check_canal(state, data, power, {"area": area}) is None and rules.CANAL_COST <= money]
    if canals:
        out.append(OrderOption("BUILD CANAL <area>", "joins the Caribbean and the South Pacific; 15 VP to "
                               "the first builder", tuple(canals)))
    unrest = [a for a in sorted(state.get("unrest", []))
              if rules.check_suppress(state, data, power, {"area": a}) is None and _army_for(state, data, power, a)]
    if unrest:
        out.append(OrderOption("SUPPRESS <area>", "your armies there fight the Unrest in the Colonial "
                               "Combat Phase (an army you have there, or move there above the line)",
                               _some(unrest)))
    deficit = state.get("pending", {}).get("deficit", {}).get(power)
    if deficit:
        out.append(removals(state, data, power, deficit))
    peers = [p for p in state.get("players", []) if p != power and board.is_great(state, p)]
    if money > 0 and power != "Austria-Hungary" and peers:
        out.append(OrderOption("GIVE <power> <amount>", f"up to {say.money(money)}; the other power "
                               "writes ACCEPT <amount> FROM " + power, tuple(peers)))
    return out


def removals(state: dict, data, power: str, deficit: int) -> OrderOption:
    """Rules: NET INCOME RECORD - the units abroad a REMOVE may name, with what the default
    removes without one (administrative.default_plan): the units it would take first, then the
    others; a unit that is the last Army of a Controlled Area says so."""
    plan = administrative.default_plan(state, data, power)
    first = [f"{e['type'].upper()} {e['strength']} {e['where']}" for e in plan if e["kind"] == "unit_removed"]
    home = board.home_name(data, power)
    abroad = {}
    for u in board.units_of(state, power):
        if u["where"] == home:
            continue
        text = f"{u['type'].upper()} {u['strength']} {u['where']}"
        last = u["type"] == "army" and board.has_control(state, power, u["where"]) and \
            len(board.units_of(state, power, u["where"], "army")) == 1
        abroad[text] = text + (" (its last garrison)" if last else "")
    choices = [abroad[t] for t in dict.fromkeys(first) if t in abroad] + \
        [abroad[t] for t in sorted(abroad) if t not in first]
    default = "; ".join(say.sentence(e).rstrip(".") for e in plan) or "nothing is left to remove"
    return OrderOption("REMOVE ARMY|NAVY <strength> <place>", f"meets your deficit of {say.money(deficit)}; "
                       f"without REMOVE lines the default: {default}", _some(choices))


# -- what accepted orders cost -------------------------------------------------------

def order_summary(state: dict, data, power: str, orders: Sequence[Order]) -> list[str]:
    """Rules: MOVEMENT/STATUS CHANGE ("You cannot spend more £'s than you have
    available") - the accepted orders carried out in the order written, as the
    phase will: what each costs, the total, and what is left."""
    if state.get("phase") != "movement":
        return []
    sim = copy_state(state)
    ledger = steps.Ledger()
    by_power: dict[str, list[Order]] = {}
    for o in orders:
        by_power.setdefault(o.power or power, []).append(o)
    lines = []
    for p, own in by_power.items():
        if p not in sim.get("powers", {}):
            continue
        costs, received = [], 0
        for o in own:
            if o.kind not in steps.SEQUENCED:
                continue
            before = board.treasury(sim, p)
            fail, _ = steps.carry_out(sim, data, p, o, ledger)
            if fail is None and o.kind == "accept_money":
                received += o.args["amount"]
            elif fail is None and board.treasury(sim, p) < before:
                costs.append(f"{o.canonical} {say.money(before - board.treasury(sim, p))}")
        spent = sum(n for _, n in ledger.spent.get(p, []))
        have = board.treasury(state, p)
        head = f"{p}: " if len(by_power) > 1 or p != power else ""
        if not costs and not received:
            lines.append(f"{head or 'T'}{'t' if head else ''}hese orders cost nothing; the Treasury stays at "
                         f"{say.money(have)}.")
            continue
        text = f"{head}cost {say.money(spent)}" + (f" ({'; '.join(costs)})" if costs else "")
        text += f" of the Treasury's {say.money(have)}"
        if received:
            text += f", with {say.money(received)} accepted from other powers"
        text += f": {say.money(board.treasury(sim, p))} left."
        if received:
            text += " Money another power does not hand over is not there when the phase is resolved."
        lines.append(text[0].upper() + text[1:])
    return lines
