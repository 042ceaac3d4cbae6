"""The Negotiation Phase: disputes settled by mail.

Rules: NEGOTIATION (1-4); Casus Belli Markers; DECLARATIONS OF WAR ("they are allowed to
declare War during Negotiations"); CONGRESS OF EUROPE (who may call it, and where);
MINOR POWER/GREAT POWER STATUS CONFLICTS (defending a Minor Power's rights forces a Congress);
EUROPEAN TENSION INCREASES.

The phase takes orders only when a Casus Belli, a marker the status rules forbid, a Minor
Power's displaced Influence, or a secret treaty broken this turn and not yet revealed is
waiting; otherwise it passes through.  Its orders resolve in this order (Choice): downgrades;
money; marker transfers; Codominions; the Casus Belli those settle are struck off; DEFEND;
declarations of War; the call of a Congress (the first valid call in the rules' order of the
callers' powers).  Without a Congress, what is still unlawful on the map is cleared as a
Congress that failed would clear it.

A window's orders can give a Casus Belli its holder has had no window to use, or break a secret
treaty: the phase then goes on with another window (negotiation_windows.py).
"""
from __future__ import annotations

from pbem.kit.gameapi import Order

from ..core import board, congress_rules as cr, declarations, disputes, treaties, treaty_records
from ..core.state import by_rules_order, label
from .negotiation_checks import call_check, check, claims
from .negotiation_windows import begin, finish, later_owes, round_of


# -- who is asked ------------------------------------------------------------------------------
def parties(state: dict) -> set[str]:
    """Parties to a dispute: Casus Belli holders and targets, the owners of markers the
    status rules forbid (and the powers whose markers they stand beside), and the signers of a
    secret treaty broken this turn who may reveal it to gain a Casus Belli (Rules: TREATIES)."""
    out = disputes.parties(state)
    for area in disputes.troubled_areas(state):
        out |= set(disputes.illegal_markers(state, area)) | set(board.controllers(state, area))
    return out | {p["holder"] for _, p in treaty_records.unrevealed(state)}


def asked(state: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(owes, may).  Choice: with a Minor Power's claim open every player is asked (any Great
    Power may DEFEND it); otherwise the parties owe an answer and the others may write.  In a
    further window (``goes_on``) only the parties to what the last window's orders gave owe
    one; everyone else may still write."""
    if state.get("game_over") or state.get("great_war"):
        return (), ()
    players = list(state.get("players", []))
    involved = set(cr.speakers(state, parties(state)))
    if claims(state):
        involved = set(players)
    if round_of(state) > 1:
        owes = tuple(later_owes(state))
        return owes, tuple(p for p in players if p not in owes)
    if not involved:
        return (), ()
    owes = tuple(p for p in players if p in involved)
    return owes, tuple(p for p in players if p not in involved)


# -- resolution ---------------------------------------------------------------------------------
def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    orders = {p: [o if isinstance(o, Order) else Order.from_json(o) for o in os]
              for p, os in (orders or {}).items()}
    events: list[dict] = []
    floor = begin(state)
    settled: list[tuple[str, set, set]] = []   # (Area, powers either side, powers both sides)
    events += downgrades(state, orders, settled)
    events += money(state, orders)
    events += transfers(state, orders, settled)
    events += codominions(state, data, orders, settled)
    events += settle(state, settled)
    events += defend(state, orders)
    events += declare(state, orders, "negotiation")
    events += call(state, orders)
    # Rules: NEGOTIATION (4) - the Casus Belli a Codominion gives must survive the window that
    # gave it, for its holder to use: then the next window settles or clears the map.
    if not finish(state, floor) and not cr.current(state) and not state.get("great_war"):
        # Choice: the rules say every Casus Belli marker must be gone by the end of the turn but
        # not how when nobody calls a Congress: as when a Congress fails and nobody goes to War.
        events += disputes.clear_all(state, data, "not settled by Negotiation and no Congress")
    return events + disputes.send_strays_home(state, data, "no Control marker of its own there")


def each_order(orders: dict, kinds: tuple[str, ...]):
    """(power, order) for every order of these kinds, the powers in the rules' order."""
    for power in by_rules_order(orders):
        for o in orders[power]:
            if o.kind in kinds:
                yield o.power or power, o


def failed(power: str, o: Order, code: str, reason: str) -> dict:
    return {"kind": "order_failed", "power": power, "order": o.canonical.splitlines()[0],
            "code": code, "reason": reason}


def downgrades(state: dict, orders: dict, settled: list) -> list[dict]:
    """Rules: NEGOTIATION (1, 2) - a power may agree to downgrade its marker; EUROPEAN TENSION
    INCREASES - such reductions raise the Index (the clarifications say who is blamed)."""
    events = []
    for who, o in each_order(orders, ("downgrade",)):
        fail = check(state, None, who, o, {})
        if fail:
            events.append(failed(who, o, *fail[:2]))
            continue
        settled.append((o.args["area"], {who}, set()))
        events += disputes.lower(state, who, o.args["area"], o.args["to"], "negotiated downgrade")
    return events


def money(state: dict, orders: dict) -> list[dict]:
    """Rules: NEGOTIATION (3) - "Players can also freely transfer money to each other";
    TRANSFERRING MONEY - both must agree: GIVE matched by ACCEPT of the same amount."""
    events = []
    for who, o in each_order(orders, ("give",)):
        to, amount = o.args["to"], o.args["amount"]
        match = any(x.kind == "accept_money" and x.args["from"] == who and x.args["amount"] == amount
                    for x in orders.get(cr.speaker(state, to) or to, []))
        fail = check(state, None, who, o, {})
        if not match:
            fail = ("unmatched", f"{to} did not order ACCEPT {amount} FROM {who}")
        if fail:
            events.append(failed(who, o, *fail[:2]))
            continue
        board.add_money(state, who, -amount)
        board.add_money(state, to, amount)
        events.append({"kind": "money", "power": who, "from": who, "to": to, "amount": amount})
    return events


def transfers(state: dict, orders: dict, settled: list) -> list[dict]:
    """Rules: NEGOTIATION (3) - "A player can give his marker to another Power, removing it
    and replacing it with an equivalent marker owned by the receiving Power".  Choice: the
    marker changes hands without European Tensions (nothing is downgraded)."""
    events = []
    for who, o in each_order(orders, ("transfer",)):
        a = o.args
        match = any(x.kind == "accept" and x.args["from"] == who and x.args["area"] == a["area"]
                    and x.args["status"] == a["status"]
                    for x in orders.get(cr.speaker(state, a["to"]) or a["to"], []))
        fail = check(state, None, who, o, {}) or (None if match else (
            "unmatched", f"{a['to']} did not order ACCEPT {a['status'].upper()} {a['area']} FROM {who}"))
        if fail:
            events.append(failed(who, o, *fail[:2]))
            continue
        settled.append((a["area"], {who}, {who, a["to"]}))
        events += treaties.move_marker(state, who, a["to"], a["area"], "negotiation")
    return events


def codominions(state: dict, data, orders: dict, settled: list) -> list[dict]:
    """Rules: NEGOTIATION (4) - a Codominion is made when every member sends the same
    CODOMINION order (every Control holder among them); a new member pays for its
    Protectorate (an Influence holder 10£)."""
    events = []
    offers: dict[tuple, list] = {}
    for who, o in each_order(orders, ("codominion",)):
        members = frozenset([who] + o.args["with"])
        offers.setdefault((o.args["area"], members), []).append((who, o))
    for (area, members), sent in sorted(offers.items(), key=lambda kv: (kv[0][0], sorted(kv[0][1]))):
        senders = {who for who, _ in sent}
        fail = next((check(state, data, who, o, {}) for who, o in sent if check(state, data, who, o, {})), None)
        if fail is None and senders != set(members):
            fail = ("unmatched", f"not every member sent it: waiting for "
                    f"{', '.join(sorted(set(members) - senders))}")
        if fail:
            events += [failed(who, o, *fail[:2]) for who, o in sent]
            continue
        settled.append((area, set(), set(members)))
        clause = {"area": area, "members": sorted(members), "text": f"CODOMINION {area}"}
        events += treaties.codominion(state, data, clause, "negotiation", free=False)
    return events


def settle(state: dict, settled: list) -> list[dict]:
    """Rules: NEGOTIATION - downgrading, giving a marker away or sharing the Area "thus ending
    their dispute".  Choice: a Casus Belli over an Area goes when its holder or its target gave way
    there (a downgrade; the giver of a marker), or when both agreed (a transfer between them, a
    Codominion of which both are members).  A third power's grievance stands."""
    events = []
    for cb in list(disputes.current(state)):
        pair = {cb["holder"], cb["against"]}
        for area, either, both in settled:
            if cb.get("area") == area and (pair & either or pair <= both):
                ev = board.remove_cb(state, cb, "settled in Negotiation")
                if ev:
                    events.append(ev)
                break
    return events


def defend(state: dict, orders: dict) -> list[dict]:
    """Rules: MINOR POWER/GREAT POWER STATUS CONFLICTS - "any other Great Power ... can announce
    that he will defend the Minor Power's rights in the Area, in which case a Congress of Europe
    must be called".  Choice: the Minor Power then holds a Casus Belli against the placer
    (its rights are the dispute), and the defenders speak for it as parties."""
    events = []
    for who, o in each_order(orders, ("defend",)):
        found = [c for c in claims(state) if c["minor"] == o.args["minor"] and c["placer"] != who
                 and o.args.get("area") in (None, c["area"])
                 and board.has_control(state, c["placer"], c["area"])]
        if not found:
            events.append(failed(who, o, "nothing-to-defend", "the displacing Control marker is gone"))
            continue
        for claim in found:
            if who not in claim.setdefault("defenders", []):
                claim["defenders"].append(who)
            ev = board.add_cb(state, claim["minor"], claim["placer"], claim["area"],
                              f"{who} defends {poss(claim['minor'])} rights in {claim['area']}",
                              cause="minor_rights", rule="CB-04")
            events += [e for e in (ev,) if e]
            events.append({"kind": "defend", "power": who, "minor": claim["minor"],
                           "area": claim["area"], "against": claim["placer"]})
    return events


def poss(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def declare(state: dict, orders: dict, phase: str) -> list[dict]:
    """Rules: DECLARATIONS OF WAR; EUROPEAN TENSION INCREASES - "The Index increases by 5
    points each time a declaration of War is issued by a player ... regardless of the number
    of powers named".  The War itself is played in the War Phase."""
    events = []
    for who, o in each_order(orders, ("declare_war",)):
        if state.get("great_war"):
            break
        targets = [t for t in o.args["against"] if disputes.against(state, who, t)
                   and not disputes.at_war(state, who, t)]
        missing = [t for t in o.args["against"] if t not in targets]
        if missing:
            events.append(failed(who, o, "no-casus-belli", f"no Casus Belli (or already at War) "
                                 f"against {', '.join(missing)}"))
        if targets:
            events += declarations.record(state, who, targets, phase)
    return events


def call(state: dict, orders: dict) -> list[dict]:
    """Rules: CONGRESS OF EUROPE - a Casus Belli holder calls it and names the site; "When a
    Congress of Europe convenes, the Index increases by 3 points" (blamed on the caller).
    Choice: with several calls, the first valid one in the rules' order of the callers'
    powers; DEFEND with no call makes the first defender call it at the first valid site."""
    events = []
    calls = list(each_order(orders, ("call_congress",)))
    chosen = None
    sites = cr.valid_sites(state, cr.all_parties(state))
    for who, o in calls:
        fail = call_check(state, who, o.args["site"])
        if fail and fail[0] == "bad-site" and sites and chosen is None:
            # Choice: a site that other orders of the phase made unlawful (a party went to War,
            # a dispute was settled) gives way to the first lawful site in the rules' order.
            events.append(failed(who, o, "bad-site", f"{o.args['site']} is no longer a lawful site; "
                                 f"the Congress meets in {sites[0]}"))
            chosen = (who, sites[0])
            continue
        if fail is None and chosen is None:
            chosen = (who, o.args["site"])
        elif fail is not None:
            events.append(failed(who, o, *fail[:2]))
        else:
            events.append(failed(who, o, "congress-called", f"{chosen[0]} called the Congress first"))
    defenders = [p for c in claims(state) for p in c.get("defenders", [])]
    if chosen is None and defenders:
        if sites:
            chosen = (by_rules_order(defenders)[0], sites[0])
    if chosen is None or state.get("great_war") or not (cr.congress_cbs(state) or defenders):
        return events
    caller, site = chosen
    sites = cr.valid_sites(state, cr.all_parties(state))
    if sites == ["Germany"]:
        site = "Germany"  # Rules: "If all players are party, the Congress is automatically held in Germany."
    state["congress"] = cr.new_congress(state, caller, site)
    c = state["congress"]
    events.append({"kind": "congress_called", "by": caller, "site": site, "members": list(c["members"]),
                   "parties": list(c["parties"]), "disputes": len(c["disputes"])})
    events.append(board.add_eti(state, 3, f"{caller} convened a Congress of Europe in {site}", caller))
    return events


# -- claims: a Minor Power's Influence displaced ---------------------------------------------------
def record_claims(state: dict, events: list[dict]) -> None:
    """Rules: MINOR POWER/GREAT POWER STATUS CONFLICTS - "If any Power attempts to place a Control
    marker in an Area where a Minor Power has an Influence marker, the Minor Power will not
    contest ... However, any other Great Power ... can announce that he will defend the Minor
    Power's rights".  Noted after the Marker Adjustment Phase: an Influence it reduced for a
    Great Power's Control, or (option marker_conflicts=negotiation) one still standing beside it."""
    found = []
    for e in events:
        if e.get("kind") == "marker" and e.get("from") == "influence" and e.get("displaced_by") \
                and not board.is_great(state, e["power"]) and board.is_great(state, e["displaced_by"]):
            found.append((e["power"], e["area"], e["displaced_by"]))
    for area in sorted(state.get("markers", {})):
        ctrl = [p for p in board.controllers(state, area) if board.is_great(state, p)]
        for power, marker in board.markers_in(state, area).items():
            if ctrl and marker["status"] == "influence" and not board.is_great(state, power) \
                    and power in state.get("powers", {}):
                found.append((power, area, disputes.blame(state, area, ctrl)))
    state["minor_claims"] = [{"minor": m, "area": a, "placer": p, "turn": state["turn"], "defenders": []}
                             for m, a, p in sorted(set(found))]


def phase_label(state: dict) -> str:
    return f"{state['turn']} {label('negotiation')}"
