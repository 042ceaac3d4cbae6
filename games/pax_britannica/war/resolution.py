"""The Resolution Phase: the spoils placed, a Rebellion's reparations, and every unit back where
it may lawfully stand.

Rules: THE WAR SEQUENCE (Resolution Phase: "alter Status markers to reflect the outcome of the
War ..., return any surrendered or at-sea Naval and Army Units to their Home Countries or
eligible Areas"); NEGOTIATION AND ENDING A WAR ("The victorious players can, by mutual agreement,
put any of their own legal Status markers in each of the Areas conquered ... at no cost in
£'s. If the players cannot agree on a division of spoils, a Congress of Europe is automatically
called and all players of the squabbling alliance have Casus Belli against each other"; the
clarifications on conflicting and unclear markers; a Minor Power's victory); CODOMINIONS AND WARS
("the Status markers of any neutral Powers in the Area cannot be removed or altered"); CHINESE
REBELLION (both endings, reparations, the Index readjusted, units moved home after cession);
WAR WITH THE OTTOMANS (its endings).
"""
from __future__ import annotations

from ..core import board, disputes, mapgraph, summaries
from . import model, natives
from .minors import minor_victory
from .orders_of import chosen
from ..core.state import by_rules_order

PLACEABLE = ("interest", "influence", "protectorate", "possession")
HEAVY = ("possession", "dominion", "state")


# -- who decides what --------------------------------------------------------------------------
def spoils(state: dict, data, war: dict) -> dict[str, list[str]]:
    """Power -> the Areas it may PLACE a marker in.  Choice: after a victory the victors place
    in what they conquered (the defeated alliance's conquests go back); after a stalemate, a
    negotiated end or a war whose sides could not reach each other, each side in its own
    conquests; after an Ottoman defeat, the victors in the Area that started the War."""
    result = war.get("result") or {}
    how = result.get("how")
    out: dict[str, list[str]] = {}
    if war.get("kind") == "rebellion":
        return out
    if how == "enemy_victory":
        placer = war.get("placer")
        side = model.side_index(war, placer) if placer else None
        side = side if side is not None else (1 if len(war["sides"]) > 1 else 0)
        # a war the GM set up names no Area: the first Ottoman Area the placer Controls
        area = war.get("area") or next((a for a, info in sorted(data.areas.items())
                                        if info.kind == "ottoman" and placer
                                        and board.has_control(state, placer, a)), None)
        for p in war["sides"][side]:
            if not model.is_native(p) and area:
                out.setdefault(p, []).append(area)
        return out
    if war.get("kind") == "ottoman" and how in ("ottoman_victory", "ottoman_unreachable", "stalemate"):
        return out
    winners = set(p for i in result.get("victors", []) for p in war["sides"][i]) if result.get("victors") else None
    for area, holders in sorted(war.get("conquered", {}).items()):
        for p in holders:
            if model.is_native(p) or p not in model.members(war):
                continue
            if winners is not None and p not in winners:
                continue
            out.setdefault(p, []).append(area)
    return out


def open_spoils(state: dict, data, war: dict) -> dict[str, list[str]]:
    """The spoils a marker can still raise: a power holding a Possession (or more) in an Area it
    won has nothing to place there (a placed marker only raises what it holds), so it is not
    asked, and not offered PLACE there."""
    out = {}
    for p, areas in spoils(state, data, war).items():
        left = [a for a in areas if board.rank(board.status_of(state, a, p)) < board.rank("possession")]
        if left:
            out[p] = left
    return out


def demanders(state: dict, data, war: dict) -> list[str]:
    """Rules: CHINESE REBELLION - "Each colonial Power who has any remaining Army Units in any
    Chinese Empire or Chinese Vassal Area can demand the cession of one Chinese Area".  The Great
    Powers first, then Russia, then Japan (as Minor Powers)."""
    if war.get("kind") != "rebellion" or (war.get("result") or {}).get("how") != "colonial_victory":
        return []
    found = {u["power"] for u in board.units_of(state, type="army") if u["where"] in data.areas
             and data.areas[u["where"]].kind in natives.CHINESE and not model.is_native(u["power"])}
    great = by_rules_order(p for p in found if board.is_great(state, p))
    minors = [p for p in ("Russia", "Japan") if p in found and p not in great]
    return great + minors


def deciders(state: dict, data) -> dict[str, list[str]]:
    """Player -> the powers it decides for in this Resolution Phase."""
    out: dict[str, list[str]] = {}
    for war in model.group_wars(state):
        if war.get("status") != "ended":
            continue
        for p in list(open_spoils(state, data, war)) + demanders(state, data, war):
            for c in model.controllers(state, war, p):
                out.setdefault(c, [])
                if p not in out[c]:
                    out[c].append(p)
    return out


def check_place(state: dict, data, war: dict, power: str, area: str, status: str) -> tuple | None:
    if area not in spoils(state, data, war).get(power, []):
        return "not-conquered", f"{power} may place markers only in the Areas its alliance won ({area} is not one)"
    if status not in PLACEABLE:
        return "bad-status", "a marker placed after a War is an Interest, Influence, Protectorate or Possession"
    if not board.is_great(state, power) and status != "possession":
        return "minor-possession", f"a Minor Power obtains Possession of what it is granted: PLACE POSSESSION {area}"
    held = board.status_of(state, area, power)
    if board.rank(held) >= board.rank(status):
        # The rules' placement puts the victor's marker in; one at or below what it holds
        # would change nothing, so it is refused when it arrives rather than dropped silently.
        return "not-an-upgrade", (f"{power} already holds {article(held)} {held.title()} in {area}: a marker "
                                  "placed after a War only raises what a power holds there, so this "
                                  "would change nothing")
    neutral = [p for p in board.controllers(state, area) if p not in model.members(war)]
    if neutral and status == "influence":
        return "beside-neutral", (f"{', '.join(neutral)} (neutral) Control {area}: an Influence cannot stand "
                                  f"beside it, and neutral markers stay")
    if neutral and status == "interest" and any(board.status_of(state, area, p) in HEAVY for p in neutral):
        return "beside-neutral", f"a neutral Possession stands in {area}: no Interest beside it"
    return None


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


# -- the phase ------------------------------------------------------------------------------------
def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    events: list[dict] = []
    for war in [w for w in model.group_wars(state) if w.get("status") == "ended"]:
        how = (war.get("result") or {}).get("how")
        if war.get("kind") == "rebellion":
            events += rebellion(state, data, war, how, orders)
        elif war.get("kind") == "ottoman" and how in ("ottoman_victory", "ottoman_unreachable"):
            events += ottoman(state, data, war, how)
        events += place(state, data, war, orders)
        events += unclear(state, war)
        events += homecoming(state, data, war)
        war["status"] = "resolved"
        events.append({"kind": "war_resolved", "war": war["id"], "how": how,
                       "sides": [list(side) for side in war.get("sides", [])]})
    remember_ottoman_control(state, data)
    return events


def orders_for(state: dict, war: dict, orders: dict, kinds: tuple[str, ...]) -> list:
    out = []
    for power in by_rules_order(orders):
        if model.side_index(war, power) is None:
            continue
        out += [(power, o) for o in chosen(state, war, power, orders) if o.kind in kinds]
    return out


def place(state: dict, data, war: dict, orders: dict) -> list[dict]:
    """The victors' PLACE orders, Area by Area; placements that cannot stand together are a
    squabble: nothing is placed there and the squabblers have Casus Belli against each other."""
    wanted: dict[str, list[tuple[str, str]]] = {}
    events = []
    for power, o in orders_for(state, war, orders, ("place",)):
        fail = check_place(state, data, war, power, o.args["area"], o.args["status"])
        if fail:
            events.append({"kind": "order_failed", "power": power, "order": o.canonical,
                           "code": fail[0], "reason": fail[1]})
            continue
        wanted.setdefault(o.args["area"], []).append((power, o.args["status"]))
    for area, items in sorted(wanted.items()):
        statuses = {s for _, s in items}
        controls = [p for p, s in items if s in board.CONTROL]
        clash = (controls and "influence" in statuses) or (
            "possession" in statuses and any(s == "interest" and p not in controls for p, s in items))
        if clash:
            squabblers = by_rules_order(p for p, _ in items)
            events.append({"kind": "spoils_squabble", "war": war["id"], "area": area, "powers": squabblers})
            for a in squabblers:
                for b in squabblers:
                    if a != b:
                        ev = board.add_cb(state, a, b, area, "the victors could not agree on the spoils",
                                          cause="war_spoils", rule="CB-08")
                        events += [ev] if ev else []
            events.append({"kind": "gm_notice", "text": f"The victors could not agree on {area}: the rules "
                           "call a Congress of Europe; they hold Casus Belli against each other."})
            continue
        events += put(state, data, war, area, items)
    return events


def put(state: dict, data, war: dict, area: str, items: list[tuple[str, str]]) -> list[dict]:
    """Rules: "the power(s) in control of a conquered area may place any status markers they
    wish in the area, at no cost in pounds. Any conflicting markers, including those that belong
    to neutrals, are reduced or removed. This does not cause any change to the European Tensions
    Index" - except a neutral's Control marker in a Codominion, which stays."""
    events = []
    placed = {}
    for power, status in items:
        if board.rank(board.status_of(state, area, power)) < board.rank(status):
            events.append(board.set_marker(state, power, area, status, True, "spoils of War"))
            delta = summaries.cri_for_placement(data, area, status)
            if delta:
                events.append(board.add_cri(state, delta, f"{power} placed a {status} in {area}"))
        placed[power] = status
    neutral = {p for p in board.controllers(state, area) if p not in model.members(war)}
    for power in sorted(board.markers_in(state, area)):
        if power in placed or power in neutral:
            continue
        keep = disputes.lawful_level(state, area, power)
        events += disputes.lower(state, power, area, keep, "conflicts with the spoils of War", eti=False)
    return events


def unclear(state: dict, war: dict) -> list[dict]:
    """Rules (clarification): "If, at the end of a war, no power has conquered an area,
    conflicting status markers exist, it is unclear what power controls the area, and there has
    been no resolution by treaty, all control markers in the area are reduced to Influences. No
    increase in European Tensions results."  Choice: Areas whose unlawful markers belong to the
    war's powers."""
    events = []
    warring = set(model.members(war)) | set(war.get("left", []))
    for area in disputes.troubled_areas(state):
        if area in war.get("conquered", {}):
            continue
        involved = set(disputes.illegal_markers(state, area)) | set(board.controllers(state, area))
        if not involved & warring or len(board.controllers(state, area)) < 1:
            continue
        for power in board.controllers(state, area):
            events += disputes.lower(state, power, area, "influence", "unclear after the War", eti=False)
    return events


# -- the Rebellion and the Ottomans alone -----------------------------------------------------------
def chinese_areas(data) -> list[str]:
    return sorted(a for a, info in data.areas.items() if info.kind in natives.CHINESE)


def rebellion(state: dict, data, war: dict, how: str, orders: dict) -> list[dict]:
    events = []
    if how in ("rebellion_won", "rebellion_ended"):
        spared = {"Formosa"} if how == "rebellion_ended" else set()
        for area in chinese_areas(data):
            if area in spared:
                continue
            for power in sorted(board.markers_in(state, area)):
                events.append(board.remove_marker(state, power, area, "the Chinese Rebellion succeeded"))
    state.get("pending", {}).pop("chinese_rebellion", None)
    if how == "colonial_victory":
        events += reparations(state, data, war, orders)
    return events


def reparations(state: dict, data, war: dict, orders: dict) -> list[dict]:
    """Rules: reparations - "Only defeated Areas can be ceded ... If the players cannot agree, no
    Areas are ceded ... The demands of the Great Powers are always met first ... Minor Powers will
    demand Areas ... in the following order: Russia, Japan"; "Each player who receives an Area can
    place a Control marker in the Area at no £ cost"; Readjusting the Chinese Resentment Index.
    Choice: each DEMAND names one defeated Area (a Possession unless it says PROTECTORATE); two
    Great Powers demanding the same Area is a disagreement: nothing is ceded."""
    events = []
    eligible = demanders(state, data, war)
    demands = {}
    for power, o in orders_for(state, war, orders, ("demand",)):
        if power in eligible and power not in demands and o.args["area"] in war.get("defeated", []):
            demands[power] = (o.args["area"], o.args.get("status") or "possession")
    great = {p: d for p, d in demands.items() if board.is_great(state, p)}
    areas = [d[0] for d in great.values()]
    if len(areas) != len(set(areas)):
        return [{"kind": "reparations", "war": war["id"], "ceded": {}, "agreed": False,
                 "demands": {p: d[0] for p, d in demands.items()}}]
    ceded = dict(great)
    for minor in ("Russia", "Japan"):
        if minor in demands and minor not in great and demands[minor][0] not in [d[0] for d in ceded.values()]:
            ceded[minor] = demands[minor]
    for power, (area, status) in ceded.items():
        events.append(board.set_marker(state, power, area, status, True, "ceded by China"))
        for other in sorted(board.markers_in(state, area)):
            if other != power:
                events += disputes.lower(state, other, area, disputes.lawful_level(state, area, other),
                                         "ceded by China", eti=False)
        delta = summaries.cri_for_placement(data, area, status)
        if delta:
            events.append(board.add_cri(state, delta, f"{area} ceded to {power}"))
    return [{"kind": "reparations", "war": war["id"], "agreed": True,
             "ceded": {p: d[0] for p, d in ceded.items()}}] + events


def ottoman(state: dict, data, war: dict, how: str) -> list[dict]:
    """Rules: "all Status markers belonging to the Empire's enemies are removed" (Choice: in the
    Ottoman Empire Areas); Egypt held by a neutral: "They retain Status markers in Tripoli;
    markers in the Ottoman Empire and Quwait are removed"."""
    lands = [a for a, info in data.areas.items() if info.kind == "ottoman"]
    if how == "ottoman_unreachable":
        lands = [a for a in lands if a != "Tripoli"]
    events = []
    for area in sorted(lands):
        for power in sorted(board.markers_in(state, area)):
            if model.enemies_in(war, model.OTTOMANS, power):
                events.append(board.remove_marker(state, power, area, "the Ottoman war"))
    return events


def remember_ottoman_control(state: dict, data) -> None:
    """The Control markers standing in Ottoman Empire Areas: a new one starts an Ottoman war at
    the next War Phase (Rules: WAR WITH THE OTTOMANS - "Upgrading on existing Control marker will
    not trigger on Ottoman War").  Choice: markers placed at a War's Resolution start none."""
    state["ottoman_control"] = sorted(
        [p, a] for a, info in data.areas.items() if info.kind == "ottoman"
        for p in board.controllers(state, a))


# -- units --------------------------------------------------------------------------------------------
def homecoming(state: dict, data, war: dict) -> list[dict]:
    """Surrendered units and units at sea go home; so do units standing where their power may
    not be now (Choice: home, always lawful, rather than a nearer Area).  The Chinese and Ottoman
    armies leave the map; a victorious Minor Power garrisons (minor_victory)."""
    events = []
    powers = set(model.members(war)) | set(war.get("left", []))
    back: dict[str, list[dict]] = {}
    for saved in war.get("surrendered", []):
        unit = board.add_unit(state, saved["power"], saved["type"], saved["strength"],
                              board.home_name(data, saved["power"]) or saved["where"])
        unit["sea"] = home_box(data, saved["power"], saved["where"]) if unit["type"] == "navy" else None
        back.setdefault(saved["power"], []).append(dict(unit, origin=saved["where"], why="surrendered there"))
    war["surrendered"] = []
    for unit in sorted(state.get("units", []), key=lambda u: u["id"]):
        power = unit["power"]
        if model.is_native(power):
            continue
        if power not in powers and unit["where"] not in data.seas and unit["where"] not in data.capes:
            continue
        where = unit["where"]
        at_sea = where in data.seas or where in data.capes
        lawful = not at_sea and (where == board.home_name(data, power) or (
            board.has_control(state, power, where, established=unit["type"] == "navy")))
        if lawful:
            continue
        unit["sea"] = home_box(data, power, where) if unit["type"] == "navy" else None
        unit["where"] = board.home_name(data, power) or where
        back.setdefault(power, []).append(dict(unit, origin=where,
                                               why="at sea" if at_sea else "no Control marker there"))
    for power, units in sorted(back.items()):
        events.append({"kind": "units_home", "war": war["id"], "power": power,
                       "units": [f"{u['type'].capitalize()} ({u['strength']}) from {u['origin']} ({u['why']})"
                                 for u in units]})
    for native in [p for p in model.NATIVES if p in powers]:
        gone = board.units_of(state, native)
        for u in gone:
            board.remove_unit(state, u["id"])
        if gone:
            events.append({"kind": "natives_removed", "war": war["id"], "power": native, "count": len(gone)})
    events += minor_victory(state, data, war)
    return events


def home_box(data, power: str, origin: str) -> str | None:
    home = data.homes.get(power)
    if home is None or not home.seas:
        return None
    near = sorted(set(home.seas) & ({origin} | set(mapgraph.seas_of(data, origin))))
    return near[0] if near else sorted(home.seas)[0]
