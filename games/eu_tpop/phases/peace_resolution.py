"""Phase 3 step D, Peace Resolution (10.1): automatic white peace, total
victories in turn order, the remaining wars in turn order, the aftermath.

By email the step is one order window: every player at war sends its peace
orders at once, and they are applied in turn order, one player's wars
before the next player's (Choice: the outcome is the one the sequential
table order gives, since each player decides only its own wars)."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from .. import gm_edits
from .. import peace as pc
from .. import state as st
from .. import victory as vc
from ..deal_lines import deal_key
from ..negotiated_peace import read_negotiation


def wars(state: dict) -> list[tuple[str, str]]:
    return [tuple(w["pair"].split("|")) for w in state["wars"]]


PEACE_ORDERS = ("enforce", "offer_white", "surrender", "negotiate", "keep_war")


def owes(state: dict) -> list[str]:
    """Human players with a war to decide: one that does not end by itself in
    an Automatic White Peace; in the window after a surrender, its victors (10.2)."""
    if reopened(state):
        return [r for r in state["order"] if asked_of(state, r)]
    out = []
    for realm in state["order"]:
        if st.is_human(state, realm) and any(vc.condition(state, realm, e) != "white_peace"
                                             for e in st.enemies(state, realm)):
            out.append(realm)
    return out


def not_asked(state: dict, realm: str) -> str:
    """Why step D asks nothing of ``realm`` (Game.nothing_due): 10.1 asks only about the wars
    that do not end by themselves; its second window (10.2) only the victors and negotiators."""
    if reopened(state):
        return ("this window asks only a surrender's victor for its term and the players whose NEGOTIATE "
                "texts differed (10.2); you are neither")
    if not st.enemies(state, realm):
        return "you are at War with no realm, so you have no peace to resolve (10.1)"
    return "each of your wars ends by itself in an Automatic White Peace (10.1 step 1): nothing is left to decide"


def reopened(state: dict) -> bool:
    """Whether step D waits in its second window: a surrender's victor to name its term (10.2),
    or two players whose NEGOTIATE texts differed to agree (or decide otherwise)."""
    return bool(state.get("peace_asked") or state.get("negotiating"))


def asked_of(state: dict, realm: str) -> list[str]:
    """The enemies whose war the second window of step D asks ``realm`` about."""
    out = [loser for v, loser in state.get("peace_asked", []) if v == realm]
    for a, b, *_ in state.get("negotiating", []):
        if realm in (a, b):
            out.append(b if realm == a else a)
    return out


def resolve(state: dict, orders: dict, dice, events: list) -> None:
    """Phase 3 step D (no dice: every outcome of 10.1 is chosen or follows from the board).
    When a surrender leaves its victor a term to choose (10.2), the step waits for it in a
    second window (``state["peace_asked"]``, :func:`after_surrender`) before the aftermath."""
    if reopened(state):
        second_window(state, orders, events)
        return
    _white_peace(state, events)
    _total(state, orders, events)
    _remaining(state, orders, events)
    _moot(state, orders, events)
    if not reopened(state):
        aftermath(state, events)


def _white_peace(state: dict, events: list) -> None:
    """10.1 step 1; the Active Allies of a player count as part of it."""
    for a, b in sorted(wars(state)):
        if not st.at_war(state, a, b):
            continue
        # An Active Ally's war is settled with its PR: never a separate white peace (10.1 step 1).
        pa, pb = vc.peace_party(state, a, b), vc.peace_party(state, b, a)
        if pa == pb or not st.at_war(state, pa, pb):
            continue
        lead, other = (pa, pb) if st.is_player(state, pa) or not st.is_player(state, pb) else (pb, pa)
        if vc.automatic_white_peace(state, lead, other):
            pc.apply_term(state, lead, other, "white_peace", [], events, how="automatic", condition="white_peace")


def _orders_of(orders: dict, realm: str) -> list:
    return list(orders.get(realm, []))


def _enforce_order(orders: dict, v: str, loser: str):
    return next((o for o in _orders_of(orders, v) if o.kind == "enforce" and o.args["realm"] == loser), None)


def _negotiated(orders: dict, a: str, b: str):
    mine = next((o for o in _orders_of(orders, a) if o.kind == "negotiate" and o.args["realm"] == b), None)
    theirs = next((o for o in _orders_of(orders, b) if o.kind == "negotiate" and o.args["realm"] == a), None)
    if mine and theirs:
        if deal_key(mine.args["lines"]) == deal_key(theirs.args["lines"]):
            return mine.args["lines"]
        return False
    return None


def _total(state: dict, orders: dict, events: list) -> None:
    """10.1 step 2: a victor must enforce terms (or agree a negotiated peace)."""
    for v in state["order"]:
        for loser in st.enemies(state, v):
            if not st.at_war(state, v, loser) or vc.condition(state, v, loser) != "total":
                continue
            if _differs(state, orders, v, loser, events) or _try_negotiated(state, orders, v, loser, events):
                continue
            o = _enforce_order(orders, v, loser)
            term, details = _choose(state, v, loser, o, events, must=True)
            pc.apply_term(state, v, loser, term, details, events)


def _choose(state: dict, v: str, loser: str, o, events: list, must: bool):
    if o is not None:
        why = vc.why_not(state, v, loser, o.args["term"])
        if why is None and o.args["term"] != "negotiated_peace":
            try:
                pc.check_details(state, v, loser, o.args["details"])
                return o.args["term"], o.args["details"]
            except Refused as exc:
                # Choice: impossible details are dropped; the term itself still applies.
                events.append({"kind": "peace_refused", "realm": v, "against": loser, "term": o.args["term"],
                               "why": f"{exc}; the term applies without it"})
                return o.args["term"], []
        events.append({"kind": "peace_refused", "realm": v, "against": loser, "term": o.args["term"],
                       "why": why or "a negotiated peace needs NEGOTIATE from both sides"})
    # Choice: a victor who names no usable term keeps the current board state (or, when even that is
    # not allowed, takes the first term the table allows).
    allowed = [t for t in vc.terms(state, v, loser) if t != "negotiated_peace"]
    term = "keep_current_board_state" if "keep_current_board_state" in allowed else (allowed[0] if allowed
                                                                                     else "white_peace")
    events.append({"kind": "default_decision", "realm": v, "decision": f"ENFORCE {term} ON {loser}"})
    return term, []


def _differs(state: dict, orders: dict, a: str, b: str, events: list) -> bool:
    """Two NEGOTIATE texts that differ, in the first window of step D: both players are told,
    each text quoted, and the war waits for the second window (Choice), where they may send the
    same text again or decide the war otherwise."""
    if any({x, y} == {a, b} for x, y, *_ in state.get("negotiating", [])):
        return True   # already waiting for the second window
    if _negotiated(orders, a, b) is not False:
        return False
    mine = next(o for o in _orders_of(orders, a) if o.kind == "negotiate" and o.args["realm"] == b)
    theirs = next(o for o in _orders_of(orders, b) if o.kind == "negotiate" and o.args["realm"] == a)
    state.setdefault("negotiating", []).append([a, b])
    events.append({"kind": "negotiation_differs", "a": a, "b": b, "text_a": mine.args["lines"],
                   "text_b": theirs.args["lines"]})
    return True


def _try_negotiated(state: dict, orders: dict, a: str, b: str, events: list) -> bool:
    lines = _negotiated(orders, a, b)
    if lines is False:
        events.append({"kind": "peace_refused", "realm": a, "against": b, "term": "negotiated_peace",
                       "why": "the two NEGOTIATE texts differ"})
        return False
    if not lines:
        return False
    try:
        term, victor, details, extras = read_negotiation(state, a, b, lines)
    except Refused as exc:
        events.append({"kind": "peace_refused", "realm": a, "against": b, "term": "negotiated_peace",
                       "why": str(exc)})
        return False
    loser = b if victor == a else a
    record = pc.apply_term(state, victor, loser, term, details, events, how="negotiated")
    record["text"] += "\nAgreed text:\n" + "\n".join(lines)
    for extra in extras:
        if extra[0] == "cut":
            try:
                from ..diplomacy import cut_ties
                cut_ties(state, extra[1], extra[2], events)
            except Refused as exc:
                events.append({"kind": "peace_refused", "realm": extra[1], "against": extra[2],
                               "term": "negotiated_peace", "why": f"its Cut Ties: {exc}"})
        else:
            paid = pc.pay_ducats(state, extra[1], extra[2], extra[3], events, "negotiated peace")
            record["text"] += f"\n{extra[1]} pays {extra[2]} {paid} Ducats (the agreed extra action)."
    return True


def _written_order(state: dict, orders: dict, v: str) -> list[str]:
    """10.1 step 3: "A player must resolve all of the Wars that they wish to end, in any order they
    like": the player's wars in the order its orders first name them, then the others."""
    out = []
    for o in _orders_of(orders, v):
        enemy = o.args.get("realm") if o.kind in PEACE_ORDERS else None
        if enemy and enemy not in out and st.at_war(state, v, enemy):
            out.append(enemy)
    return out + [e for e in st.enemies(state, v) if e not in out]


def _remaining(state: dict, orders: dict, events: list, only: tuple[str, str] | None = None) -> None:
    """10.1 step 3 (1.2: 'Remaining Wars'), player by player in turn order, each player's wars in
    the order it wrote them (``only``: the one war of ``only[0]`` against ``only[1]``)."""
    # Choice: surrenders sent in the window take effect before anyone resolves a war, so the
    # enemy can enforce its terms in the same window (10.2: it must end the war this round).
    for v in state["order"]:
        for o in _orders_of(orders, v):
            if o.kind == "surrender" and st.at_war(state, v, o.args["realm"]):
                events += gm_edits.surrender(state, v, o.args["realm"])
    for v in ([only[0]] if only else state["order"]):
        for loser in ([only[1]] if only else _written_order(state, orders, v)):
            if not st.at_war(state, v, loser):
                continue
            if only is None and (_differs(state, orders, v, loser, events) or
                                 _try_negotiated(state, orders, v, loser, events)):
                continue
            cond = vc.condition(state, v, loser)
            if cond == "white_peace":
                # A war left with nothing occupied by an earlier peace of this step meets 10.1 step 1's
                # requirements: it ends in an Automatic White Peace, whatever was ordered for it.
                _automatic(state, v, loser, events)
                continue
            o = _enforce_order(orders, v, loser)
            offered = any(x.kind == "offer_white" and x.args["realm"] == loser for x in _orders_of(orders, v))
            surrendered = [loser, v] in state["surrendered"]
            if surrendered and o is None and st.is_human(state, v):
                # 10.2: "your Enemy is allowed to enforce Peace as if they had achieved a Partial
                # Victory": the decision is the victor's, asked in a window of its own.
                if [v, loser] not in state.setdefault("peace_asked", []):
                    state["peace_asked"].append([v, loser])
                    events.append({"kind": "decision_needed", "realm": v, "decision": "peace",
                                   "default": f"ENFORCE keep_current_board_state ON {loser}"})
                continue
            if cond in ("partial", "total") and (o is not None or surrendered):
                term, details = _choose(state, v, loser, o, events, must=True)
                pc.apply_term(state, v, loser, term, details, events)
            elif cond in ("partial", "total") and st.kind(state, v) == "BOT":
                pc.apply_term(state, v, loser, *_choose(state, v, loser, None, events, must=True), events)
            elif o is not None and o.args["term"] == "white_peace" and not offered:
                offered = True
            if not st.at_war(state, v, loser):
                continue
            if offered and _accepts_white(state, loser, v, orders):
                pc.apply_term(state, v, loser, "white_peace", [], events, how="offered and accepted")
            elif offered:
                events.append({"kind": "peace_refused", "realm": v, "against": loser, "term": "white_peace",
                               "why": f"{loser} did not accept"})


def _automatic(state: dict, a: str, b: str, events: list) -> None:
    """An Automatic White Peace between two parties (10.1 step 1), led by the player."""
    pa, pb = vc.peace_party(state, a, b), vc.peace_party(state, b, a)
    if pa == pb or not st.at_war(state, pa, pb):
        pa, pb = a, b
    lead, other = (pa, pb) if st.is_player(state, pa) or not st.is_player(state, pb) else (pb, pa)
    pc.apply_term(state, lead, other, "white_peace", [], events, how="automatic", condition="white_peace")


def second_window(state: dict, orders: dict, events: list) -> None:
    """The second window of step D: each victor of a surrender names its term (10.2; silence keeps
    the current board state); two players whose NEGOTIATE texts differed agree now or decide the
    war as in the first window (a Total Victory's victor still must enforce a term: 10.1 step 2).
    Then the aftermath (10.1 step 4)."""
    for v, loser in state.pop("peace_asked", []):
        if not st.at_war(state, v, loser):
            continue
        o = _enforce_order(orders, v, loser)
        term, details = _choose(state, v, loser, o, events, must=True)
        pc.apply_term(state, v, loser, term, details, events)
    for a, b in state.pop("negotiating", []):
        if _try_negotiated(state, orders, a, b, events):
            continue
        for v, loser in ((a, b), (b, a)):
            if not st.at_war(state, v, loser):
                continue
            if vc.condition(state, v, loser) == "total":
                term, details = _choose(state, v, loser, _enforce_order(orders, v, loser), events, must=True)
                pc.apply_term(state, v, loser, term, details, events)
            else:
                _remaining(state, {v: _orders_of(orders, v), loser: _orders_of(orders, loser)}, events,
                           only=(v, loser))
    _moot(state, orders, events)
    aftermath(state, events)


def _moot(state: dict, orders: dict, events: list) -> None:
    """Peace orders about a war that an earlier peace already ended are reported, not lost silently."""
    for v in state["order"]:
        for o in _orders_of(orders, v):
            enemy = o.args.get("realm")
            if o.kind not in ("enforce", "offer_white", "negotiate", "keep_war") or not enemy or \
                    st.at_war(state, v, enemy) or _used(o, v, enemy, events):
                continue
            events.append({"kind": "peace_moot", "realm": v, "against": enemy, "order": o.canonical.splitlines()[0]})


def _used(o, v: str, enemy: str, events: list) -> bool:
    """Whether this order made the peace that ended the war."""
    for e in events:
        if e.get("kind") != "peace" or {e["victor"], e["loser"]} != {v, enemy}:
            continue
        if (o.kind == "enforce" and e["victor"] == v and e["how"] == "enforced") or \
                (o.kind == "offer_white" and e["how"] == "offered and accepted") or \
                (o.kind == "negotiate" and e["how"] == "negotiated"):
            return True
    return False


def _accepts_white(state: dict, realm: str, offerer: str, orders: dict) -> bool:
    """10.2: an NPR always accepts a white peace; a Bot in an inconclusive war
    when the enemy occupies more of its tax value than it occupies of the
    enemy's; a human player when it offers the same."""
    k = st.kind(state, realm)
    if k == "NPR":
        return True
    if k == "BOT":
        theirs = sum(state["provinces"][p]["tax"] for p in vc.occupied_by(state, [offerer], st.family(state, realm)))
        mine = sum(state["provinces"][p]["tax"] for p in vc.occupied_by(state, [realm], st.family(state, offerer)))
        return theirs > mine
    return any(o.kind == "offer_white" and o.args["realm"] == offerer for o in _orders_of(orders, realm))


def aftermath(state: dict, events: list) -> None:
    """10.1 step 4: players now at peace bring units home from neutral Areas,
    flip Active Allies back and return their allied units."""
    for realm in state["order"]:
        if st.enemies(state, realm):
            continue
        for npr in st.active_allies(state, realm):
            state["alliances"][st.pair(realm, npr)]["active"] = False
            events.append({"kind": "active_ally_ended", "pr": realm, "npr": npr})
        rd = state["realms"][realm]
        lost = rd["allied"]
        rd["allied"] = 0
        for loc in list(state["units"]):
            for key in ("allied_inf", "allied_cav"):
                lost += st.remove_units(state, loc, realm, key, 10**6)
        if lost:
            events.append({"kind": "allied_units_returned", "realm": realm, "count": lost})
        for area in sorted(state["areas"]):
            units = st.units_at(state, area).get(realm)
            if not units or st.land_count(units) == 0 or st.area_status(state, realm, area) != "neutral":
                continue
            near = nearest_friendly(state, realm, area)
            if near:
                dest = near[0]
                moved = state["units"][area].pop(realm)
                st.tidy(state, area)
                for k, n in moved.items():
                    st.add_units(state, dest, realm, k, n)
                for ld in state["leaders"].get(realm, []):
                    if ld.get("at") == area:   # the army's leader goes with it (as in a move, 9.5)
                        ld["at"] = dest
                events.append({"kind": "relocated", "realm": realm, "from": area, "to": dest, "ties": near[1:]})


def nearest_friendly(state: dict, realm: str, start: str) -> list[str]:
    """The Friendly Areas nearest ``start``, counting each Area or Sea Zone as one space, in
    alphabetical order; the units go to the first (Choice: ties go alphabetically)."""
    frontier, seen = [start], {start}
    while frontier:
        nxt = []
        found = sorted(p for p in frontier if p in state["areas"] and p != start
                       and st.area_status(state, realm, p) == "friendly")
        if found:
            return found
        for place in sorted(frontier):
            neighbours = list(st.land_neighbours(state, place)) if place in state["areas"] else []
            if place in state["areas"]:
                neighbours += state["areas"][place]["seas"]
            else:
                neighbours += state["seas"][place]["adj"]
                neighbours += [a for a, d in state["areas"].items() if place in d["seas"]]
            for n in neighbours:
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return []
