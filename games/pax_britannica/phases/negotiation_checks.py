"""The Negotiation Phase's orders checked on arrival (Rules: NEGOTIATION 1-4; CONGRESS OF EUROPE,
who may call it and where): each order against the board as it stands, with the money a power
gives and accepts in the same orders counted first (NEGOTIATION 3).  The phase itself resolves
in negotiation.py."""
from __future__ import annotations

from pbem.kit.gameapi import Order, Problem

from ..core import board, congress_rules as cr, disputes, treaties

ALLOWED = ("downgrade", "transfer", "accept", "give", "accept_money", "codominion",
           "call_congress", "declare_war", "defend", "done")


def claims(state: dict) -> list[dict]:
    return [c for c in state.get("minor_claims", []) if c.get("turn") == state.get("turn")]


def validate(state: dict, power: str, orders: list[Order], data) -> list[Problem]:
    problems: list[Problem] = []
    spent: dict[str, int] = {}
    # Rules: NEGOTIATION (3) - "Players can also freely transfer money to each other", and money
    # is settled before Codominions (``resolve``): the money a power ACCEPTs in these orders
    # counts towards the Protectorate its Codominion costs; whether it is paid is settled then.
    accepted: dict[str, int] = {}
    for o in orders:
        if o.kind == "accept_money":
            accepted[o.power or power] = accepted.get(o.power or power, 0) + o.args["amount"]
    for o in orders:
        who = o.power or power
        if o.kind not in ALLOWED:
            problems.append(Problem("wrong-phase", f"{o.canonical.splitlines()[0]} is not an order of "
                                    f"the Negotiation Phase", o.line))
            continue
        fail = check(state, data, who, o, spent, accepted.get(who, 0))
        if fail:
            problems.append(Problem(fail[0], fail[1], o.line, fail[2] if len(fail) > 2 else None))
        elif o.kind == "codominion" and (price := treaties.member_price(data, state, o.args["area"], who)):
            problems.append(codominion_cost(state, who, price, o.line))
    return problems


def check(state: dict, data, who: str, o: Order, spent: dict, accepted: int = 0) -> tuple | None:
    """Why an order cannot be carried out as the board stands (None: it can).  ``spent``: what
    the power's orders so far GIVE; ``accepted``: what its orders ACCEPT."""
    a = o.args
    if o.kind == "downgrade":
        have = board.status_of(state, a["area"], who)
        if have is None:
            return "no-marker", f"{who} has no marker in {a['area']}"
        if board.rank(a["to"]) >= board.rank(have):
            return "not-lower", f"{who}'s {have} in {a['area']} is not above {a['to']}"
    elif o.kind in ("transfer", "accept"):
        giver = who if o.kind == "transfer" else a["from"]
        taker = a["to"] if o.kind == "transfer" else who
        if board.status_of(state, a["area"], giver) != a["status"]:
            return "no-marker", f"{giver} has no {a['status']} in {a['area']}"
        if giver == taker or not board.is_great(state, taker) or not board.is_great(state, giver):
            return "bad-transfer", "markers pass between two Great Powers only"
        if board.rank(board.status_of(state, a["area"], taker)) >= board.rank(a["status"]):
            return "bad-transfer", f"{taker} already holds as much in {a['area']}"
    elif o.kind in ("give", "accept_money"):
        giver = who if o.kind == "give" else a["from"]
        taker = a["to"] if o.kind == "give" else who
        # Rules: AUSTRIA-HUNGARY - "Austria-Hungary can never give £'s to any other player";
        # MINOR POWERS - they never receive income of any kind.
        if giver == taker or not board.is_great(state, taker) or giver == "Austria-Hungary":
            return "bad-payment", "money passes between Great Powers (never from Austria-Hungary)"
        if o.kind == "give":
            spent[who] = spent.get(who, 0) + a["amount"]
            if spent[who] > board.treasury(state, who):
                return "insufficient-funds", f"{who} has {board.treasury(state, who)}"
    elif o.kind == "codominion":
        return codominion_check(state, data, who, a, accepted - spent.get(who, 0))
    elif o.kind == "call_congress":
        return call_check(state, who, a["site"])
    elif o.kind == "declare_war":
        for target in a["against"]:
            if not disputes.against(state, who, target):
                return "no-casus-belli", f"{who} has no Casus Belli against {target}"
    elif o.kind == "defend":
        if not [c for c in claims(state) if c["minor"] == a["minor"] and c["placer"] != who
                and a.get("area") in (None, c["area"])]:
            return "nothing-to-defend", f"no Influence of {a['minor']} was displaced this turn" + (
                f" in {a['area']}" if a.get("area") else "")
    return None


def codominion_check(state: dict, data, who: str, a: dict, income: int = 0) -> tuple | None:
    """Rules: NEGOTIATION (4) - "All players with Control markers in an Area must agree".
    ``income``: money the power's own orders accept (and do not give away) this phase."""
    c = {"area": a["area"], "members": [who] + a["with"], "text": f"CODOMINION {a['area']}"}
    trouble = treaties.codominion_problems(state, c)
    if trouble:
        return "bad-codominion", trouble[0]
    members = set(c["members"])
    outside = [p for p in board.controllers(state, a["area"]) if p not in members]
    if outside:
        return "bad-codominion", f"{', '.join(outside)} Control {a['area']} and must be members"
    if any(not board.is_great(state, p) for p in members):
        return "bad-codominion", "a Minor Power cannot agree to a Codominion by negotiation"
    price = treaties.member_price(data, state, a["area"], who)
    if price > board.treasury(state, who) + max(0, income):
        return "insufficient-funds", f"joining the Codominion costs {who} {price}" + (
            f" (it has {board.treasury(state, who)}, and accepts {income})" if income > 0 else "")
    return None


def codominion_cost(state: dict, who: str, price: int, line: int | None) -> Problem:
    """A note with an accepted CODOMINION that costs money: what, and from which money."""
    have = board.treasury(state, who)
    where = f"from its £{have}" if price <= have else f"with the money it accepts (it has £{have})"
    return Problem("codominion-cost", f"kept: if the Codominion is agreed, joining it costs {who} £{price}, "
                   f"paid {where}", line, None, "warning")


def call_check(state: dict, who: str, site: str) -> tuple | None:
    """Rules: CONGRESS OF EUROPE - "Any player with a Casus Belli ... can call for a Congress";
    the site rules (congress_rules.valid_sites)."""
    holders = {who} | ({"Austria-Hungary"} if who == "Germany" else set())
    if not [cb for cb in cr.congress_cbs(state) if cb["holder"] in holders] and not \
            [c for c in claims(state) if who in (c.get("defenders") or [])]:
        return "no-casus-belli", f"{who} holds no Casus Belli to take to a Congress"
    if cr.current(state):
        return "congress-called", "a Congress has already been called this turn"
    parties = cr.all_parties(state)
    sites = cr.valid_sites(state, parties)
    if site not in sites:
        why = ("every player is a party, so it meets in Germany" if sites == ["Germany"] else
               f"{site} is a party to a dispute" if site in parties else
               f"{site} hosts only when every European Great Power is a party" if site in cr.OVERSEAS
               else f"{site} is not a player's Home Country")
        return "bad-site", (f"the Congress cannot meet in {site}: {why}; lawful sites now: "
                            f"{', '.join(sites) or 'none'}")
    return None
