"""The Action Phase by email: one realm acts at a time, its action runs at
once through a queue of work (Calls to Arms, battles, sieges), and the queue
stops for a decision that belongs to another player (a ``reaction`` window)
when its standing orders do not settle it."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from .. import battle as bt
from .. import combat, diplomacy, hre, leaders, moves, sieges
from .. import state as st
from .. import war
from ..deal_lines import deal_key

MAIN = ("declare", "activate", "naval", "recruit", "siege", "appoint", "forge", "influence", "cut_ties", "subjugate",
        "marriage", "diplomacy", "pass")


# -- turns -----------------------------------------------------------------------------------

def begin_turn(state: dict) -> None:
    """What counts once per turn starts afresh (9.2 MC/NC, 9.6 the 1c for a battle)."""
    state["used_mc"], state["used_nc"] = {}, {}
    state["npr_used"] = {"mc": [], "nc": []}
    state["c_gained"] = False
    state["influence_turn"] = {}
    # 9.7: 'no battle with an NPR if hostile units were there before this turn'
    state["present"] = {loc: sorted(u) for loc, u in state["units"].items()}
    state["present_wars"] = [w["pair"] for w in state["wars"]]
    for area, n in state["rebels"].items():
        if n:
            state["present"].setdefault(area, []).append(st.REBELS)


def next_realm(state: dict) -> str | None:
    order = state["order"]
    if not order:
        return None
    start = order.index(state["active"]) + 1 if state["active"] in order else 0
    for i in range(len(order)):
        realm = order[(start + i) % len(order)]
        if realm not in state["passed"] and realm in state["realms"]:
            return realm
    return None


def advance(state: dict, events: list) -> None:
    """After an action: the next realm that has not passed, or Phase 3."""
    state["pending"] = None
    moves.repair_in_port(state, events)   # the turn ends
    nxt = next_realm(state)
    if nxt is None:
        state["phase"], state["step"], state["active"] = "p3", "A", None
        events.append({"kind": "phase", "phase": "peace_and_rebels", "round": state["round"]})
        return
    state["active"] = nxt
    state["action_no"] += 1
    begin_turn(state)


def refresh_manpower(state: dict, events: list) -> None:
    """9.3 Exhausted Manpower is not available "until Refreshed"; the refresh belongs to a
    phase the seeded sections do not give (Phase 5).  Choice (option refresh_manpower, on by
    default): at the end of each round every realm's exhausted manpower becomes available
    again, the total never above 20 (9.3)."""
    for realm in state["order"]:
        rd = state["realms"][realm]
        n = min(rd["exhausted"], max(0, st.MAX_MANPOWER - rd["manpower"]))
        if rd["exhausted"]:
            rd["manpower"] += n
            rd["exhausted"] = 0
            events.append({"kind": "manpower_refreshed", "realm": realm, "n": n,
                           "reason": "end of the round: the table's Phase 5"})


def start_round(state: dict) -> None:
    state["phase"], state["step"], state["passed"] = "action", None, []
    state["active"] = None
    for rd in state["realms"].values():
        rd["mercs_this_turn"] = 0
    state["active"] = next_realm(state)
    state["action_no"] += 1
    begin_turn(state)


# -- one action ---------------------------------------------------------------------------------

def check_one(state: dict, realm: str, o) -> None:
    a = o.args
    if o.kind == "activate":
        moves.check_activate(state, realm, a["path"], a["siege"], a.get("taking"))
    elif o.kind == "naval":
        moves.check_naval(state, realm, a["from"], a["to"])
    elif o.kind == "recruit":
        moves.check_recruit(state, realm, a["n"], a["unit"], a["where"], a["category"])
    elif o.kind == "siege":
        sieges.check_siege(state, realm, a["area"], a["provinces"])
    elif o.kind == "appoint":
        leaders.check_appoint(state, realm, a["leader"], a["place"])
    elif o.kind == "forge":
        diplomacy.check_forge(state, realm, a["realm"])
    elif o.kind == "influence":
        diplomacy.check_influence(state, realm, a["area"], a["n"])
    elif o.kind == "cut_ties":
        diplomacy.check_cut_ties(state, realm, a["realm"])
    elif o.kind == "subjugate":
        diplomacy.check_subjugate(state, realm, a["realm"])
    elif o.kind == "marriage":
        diplomacy.check_marriage(state, realm, a["realm"])
    elif o.kind == "diplomacy":
        diplomacy.check_deal(state, realm, a["realm"], a["lines"])


#: the military power an action costs that the rules text states, told on the realm's mat
#: (a free action after a declaration costs nothing, 9.1).  9.8: a Siege is "a Land Activation
#: ... for the Siege option" with "the Action cost of 1"; Choice (choices/warfare.md, Monarch
#: power): every Activate Units action costs that 1, an ACTIVATE ... SIEGE once.
ACTION_COST = {"activate": (1, "the Activate Units action, a Land Activation (9.5; 9.8: the Action cost of 1)"),
               "naval": (1, "the Activate Units action, a Naval Activation (9.5)"),
               "siege": (1, "the Siege: a Land Activation for the Siege option, the Action cost of 1 (9.8)")}


def act(state: dict, realm: str, orders: list, events: list) -> None:
    """Carry out the active realm's action, then work through the queue."""
    main = [o for o in orders if o.kind in MAIN]
    if not main or main[0].kind == "pass":
        if realm not in state["passed"]:
            state["passed"].append(realm)
        events.append({"kind": "pass", "realm": realm})
        return
    first = main[0]
    # A deal's terms are the two realms' until both send them (audiences.py): the action
    # everyone reads names the other realm only.
    shown = f"DIPLOMACY {first.args['realm']}" if first.kind == "diplomacy" else first.canonical
    events.append({"kind": "action", "realm": realm, "order": shown})
    if first.kind in ACTION_COST:
        n, why = ACTION_COST[first.kind]
        events.append({"kind": "monarch_power", "realm": realm, "delta": -n, "type": "military", "reason": why})
    try:
        if first.kind == "declare":
            _declare(state, realm, first, orders, events)
        elif first.kind == "recruit":
            queue = []
            for o in [o for o in main if o.kind == "recruit"]:
                queue += _do(state, realm, o, events)
            state["queue"] = queue
        else:
            state["queue"] = _do(state, realm, first, events)
    except Refused as exc:
        # Only reachable when the board changed between the order and its turn.
        events.append({"kind": "refused", "realm": realm, "order": first.canonical, "code": exc.code,
                       "message": str(exc)})


def _do(state: dict, realm: str, o, events: list) -> list[dict]:
    a = o.args
    if o.kind == "activate":
        return moves.activate(state, realm, a["path"], a["siege"], events, a.get("taking"))
    if o.kind == "naval":
        return moves.naval(state, realm, a["from"], a["to"], events)
    if o.kind == "recruit":
        return moves.recruit(state, realm, a["n"], a["unit"], a["where"], a["category"], events)
    if o.kind == "siege":
        return sieges.siege(state, realm, a["area"], a["provinces"], events)
    if o.kind == "appoint":
        leaders.appoint(state, realm, a["leader"], a["place"], events)
    elif o.kind == "forge":
        diplomacy.forge(state, realm, a["realm"], events)
    elif o.kind == "influence":
        diplomacy.influence(state, realm, a["area"], a["n"], events)
    elif o.kind == "cut_ties":
        diplomacy.cut_ties(state, realm, a["realm"], events)
    elif o.kind == "subjugate":
        diplomacy.subjugate(state, realm, a["realm"], events)
    elif o.kind == "marriage":
        diplomacy.marry(state, realm, a["realm"], events)
    elif o.kind == "diplomacy":
        offer(state, realm, a["realm"], a["lines"], events)
    return []


def offer(state: dict, realm: str, other: str, lines: list[str], events: list) -> None:
    """Both sides send the same deal: the second matching text concludes it."""
    diplomacy.check_deal(state, realm, other, lines)
    offers = state.setdefault("offers", {})
    theirs = offers.get(f"{other}|{realm}")
    if theirs is not None and deal_key(theirs) == deal_key(lines):
        del offers[f"{other}|{realm}"]
        diplomacy.carry_out(state, realm, other, lines, events)
        events.append({"kind": "deal", "a": realm, "b": other, "lines": lines})
    else:
        offers[f"{realm}|{other}"] = list(lines)
        events.append({"kind": "deal_offered", "from": realm, "to": other, "lines": lines})


def _declare(state: dict, realm: str, first, orders: list, events: list) -> None:
    """The Declare War action, steps 1-8 (NOTES 3.2)."""
    targets = first.args["targets"]
    war.declare(state, realm, targets, first.args["cb"], events)
    queue: list[dict] = []
    # 3.1 the aggressor's Offensive CtAs, in the order written
    for o in orders:
        if o.kind == "cta":
            queue += _calls(state, realm, o.args["realm"], targets, False, events)
    # 3.2 the Emperor defends the HRE
    for t in targets:
        if hre.defends(state, realm, t):
            queue.append({"kind": "cta", "caller": t, "ally": hre.emperor(state), "enemies": [realm],
                          "defensive": True, "source": "hre"})
    # 3.3 targeted NPRs call their allies; 3.4 targeted PRs may call theirs
    for t in targets:
        for ally in st.allies(state, t):
            if st.is_player(state, ally) and ally != realm and st.kind(state, t) == "NPR":
                queue.append({"kind": "cta", "caller": t, "ally": ally, "enemies": [realm], "defensive": True,
                              "source": "npr"})
    for t in targets:
        if not st.is_player(state, t):
            continue
        call = state["realms"][t]["standing"].get("call", "ALL") if st.is_human(state, t) else "ALL"
        for ally in st.allies(state, t):
            if ally == realm or call == "NONE" or (call == "PLAYERS" and not st.is_player(state, ally)):
                continue
            queue += _calls(state, t, ally, [realm], True, events)
    free = next((o for o in orders if o.kind in ("activate", "recruit")), None)
    queue.append({"kind": "dow_after", "aggressor": realm, "targets": targets,
                  "free": o_json(free) if free else None})
    state["queue"] = queue


def o_json(o) -> dict:
    return {"kind": o.kind, "args": dict(o.args), "canonical": o.canonical}


def _calls(state, caller, ally, enemies, defensive, events) -> list[dict]:
    if st.kind(state, ally) == "NPR":
        try:
            war.call_npr(state, caller, ally, enemies, defensive, events)
        except Refused as exc:
            events.append({"kind": "cta", "from": caller, "to": ally, "defensive": defensive,
                           "answer": "not sent", "why": str(exc)})
        return []
    if not st.alliance(state, caller, ally):
        events.append({"kind": "cta", "from": caller, "to": ally, "defensive": defensive, "answer": "not sent",
                       "why": f"{ally} is not {caller}'s ally"})
        return []
    return [{"kind": "cta", "caller": caller, "ally": ally, "enemies": list(enemies), "defensive": defensive,
             "source": "pr"}]


# -- the queue ------------------------------------------------------------------------------------

def run_queue(state: dict, dice, events: list) -> dict | None:
    """Work through the queue; returns a pending decision, or None when done."""
    while state["queue"]:
        item = state["queue"][0]
        result = _step(state, item, dice, events)
        if isinstance(result, dict):
            return result
        state["queue"].pop(0)
        if isinstance(result, list):
            state["queue"][0:0] = result
    return None


def _step(state: dict, item: dict, dice, events: list):
    kind = item["kind"]
    if kind == "battle":
        return combat.run(state, item, dice, events)
    if kind == "cta":
        return _cta(state, item, events)
    if kind == "dow_after":
        return _dow_after(state, item, events)
    if kind == "siege":
        try:
            return sieges.siege(state, item["realm"], item["area"], item.get("provinces", []), events)
        except Refused as exc:
            events.append({"kind": "siege_skipped", "realm": item["realm"], "area": item["area"], "why": str(exc)})
            return None
    if kind == "free":
        from pbem.kit.gameapi import Order
        o = Order(item["realm"], item["order"]["kind"], item["order"]["args"], item["order"]["canonical"])
        events.append({"kind": "free_action", "realm": item["realm"], "order": o.canonical})
        try:
            return _do(state, item["realm"], o, events)
        except Refused as exc:
            events.append({"kind": "refused", "realm": item["realm"], "order": o.canonical, "code": exc.code,
                           "message": str(exc)})
            return None
    raise ValueError(f"unknown work item {kind}")


def _cta(state: dict, item: dict, events: list):
    if "answer" in item:
        answer = item["answer"]
    else:
        why = war.can_accept(state, item["ally"], item["enemies"], item["defensive"])
        if why:
            if item.get("source") == "hre":
                hre.refuse_defence(state, item, events)
            else:
                war.refuse(state, item, why, events)
            return None
        answer = war.decide_cta(state, item)
        if answer == "ask":
            return {"kind": "cta", "realm": item["ally"], "caller": item["caller"], "enemies": item["enemies"],
                    "defensive": item["defensive"], "default": "ACCEPT" if item["defensive"] else "REFUSE"}
    if answer == "accept":
        war.accept(state, item, item.get("active", war.standing_active(state, item["ally"])), events)
    elif item.get("source") == "hre":
        hre.refuse_defence(state, item, events)
    else:
        war.refuse(state, item, "refused", events)
    return None


def _dow_after(state: dict, item: dict, events: list):
    """Declare War steps 4-8."""
    aggressor, targets = item["aggressor"], item["targets"]
    for t in targets:
        if st.is_player(state, t):
            events.append({"kind": "monarch_power", "realm": t, "delta": 1, "type": "military",
                           "reason": "war declared on you"})
    war.remove_influence(state, aggressor, targets, events)
    fights = []
    for naval in (True, False):   # 9.1: naval battles before land battles
        locs = sorted(state["seas"]) if naval else sorted(state["areas"])
        for loc in locs:
            here = [r for r in st.units_at(state, loc) if st.is_player(state, r)]
            # The aggressor's side attacks: the aggressor, else a realm that joined it.
            side = sorted(here, key=lambda r: (r != aggressor, r))
            for realm in side:
                if realm != aggressor and st.hostile(state, realm, aggressor):
                    continue
                b = bt.start(state, loc, realm, naval=naval, why="declaration of war")
                if b:
                    fights.append(b)
                    break
    if not fights and item.get("free"):
        fights.append({"kind": "free", "realm": aggressor, "order": item["free"]})
    elif fights and item.get("free"):
        events.append({"kind": "free_action", "realm": aggressor, "order": item["free"]["canonical"],
                       "skipped": "the declaration triggered a battle"})
    return fights


def answer_pending(state: dict, orders: list, events: list) -> None:
    """A decision came by mail (or its window ran out: ``orders`` empty)."""
    pending = state["pending"]
    item = state["queue"][0]
    realm = pending["realm"]
    if pending["kind"] == "cta":
        o = next((o for o in orders if o.kind in ("accept", "refuse")), None)
        if o is None:
            item["answer"] = "accept" if pending["default"] == "ACCEPT" else "refuse"
            events.append({"kind": "default_decision", "realm": realm, "decision": pending["default"]})
        else:
            item["answer"] = o.kind
            if o.kind == "accept":
                item["active"] = o.args.get("active", True)
    elif pending["kind"] == "leader":
        combat.answer_leader(state, item, pending, next((o for o in orders if o.kind == "leader"), None), events)
    else:
        o = next((o for o in orders if o.kind in ("retreat", "fight")), None)
        if o is None:
            combat.default_answer(state, item, realm)
            events.append({"kind": "default_decision", "realm": realm, "decision": pending["default"]})
        else:
            combat.answer(item, realm, o)
    state["pending"] = None
