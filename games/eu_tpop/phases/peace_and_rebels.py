"""Phase 3, Peace & Rebels (4.3), steps A to I; step D is :mod:`.peace_resolution`.
NPR invasions follow 13.4 as summarised in NOTES 3.7, rebels and liberation
NOTES 3.8."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import battle as bt
from .. import combat
from .. import peace as pc
from .. import state as st
from . import peace_resolution


def fight_now(state: dict, item: dict | None, dice, events: list) -> None:
    """A battle of Phase 3: fought to its end (no decision is asked)."""
    if item is not None:
        while combat.run(state, item, dice, events) != "done":
            pass


def step_a(state: dict, orders: dict, dice, events: list) -> None:
    """A. Remove CBs (2 prestige when not at war with the target) and truces."""
    for cb in state["cbs"]:
        holder, target = cb["holder"], cb["target"]
        if holder in state["realms"] and not st.at_war(state, st.top(state, holder), st.top(state, target)):
            state["realms"][holder]["prestige"] -= 2
            events.append({"kind": "prestige", "realm": holder, "delta": -2, "reason": f"unused CB on {target}"})
    if state["cbs"] or state["truces"]:
        events.append({"kind": "tokens_removed", "cbs": len(state["cbs"]), "truces": len(state["truces"])})
    state["cbs"], state["truces"] = [], []


# -- B. NPR invasions ----------------------------------------------------------------------

def step_b(state: dict, orders: dict, dice, events: list) -> None:
    if not state.get("npr_invasions", True):
        return
    for npr in sorted(r for r, d in state["realms"].items() if d["kind"] == "NPR"):
        target = invasion_target(state, npr, dice)
        if target:
            invade(state, npr, target, dice, events)


def _hostile_in(state: dict, realm: str, area: str) -> bool:
    return any(st.hostile(state, realm, r) for r in st.realms_with_land(state, area) if r != st.REBELS)


def invasion_target(state: dict, npr: str, dice) -> str | None:
    if st.overlord(state, npr) or st.active_ally_of(state, npr):
        return None
    if not any(st.is_player(state, e) for e in st.enemies(state, npr)):
        return None
    mine = sorted({state["provinces"][p]["area"] for p in st.provinces_of(state, npr)
                   if state["provinces"][p]["controller"] == npr})
    if not mine:
        return None
    if state["version"] == "1.2":
        if all(_hostile_in(state, npr, a) for a in mine):
            return None
    elif any(_hostile_in(state, npr, a) for a in mine):
        return None
    eligible = []
    for area in sorted({n for a in mine for n in st.land_neighbours(state, a)} | set(mine)):
        towns = [p for p in st.area_provinces(state, area) if state["provinces"][p]["controller"]
                 and st.is_player(state, st.top(state, state["provinces"][p]["controller"]))
                 and st.hostile(state, npr, state["provinces"][p]["controller"])]
        friendly_units = [r for r in st.realms_with_land(state, area) if r != st.REBELS
                          and st.is_player(state, r) and not st.hostile(state, npr, r)]
        if towns and not friendly_units:
            eligible.append(area)
    if not eligible:
        return None
    cap = st.capital_area(state, npr)
    if cap in eligible:
        return cap
    cores = {a: sum(1 for p in st.area_provinces(state, a) if npr in state["provinces"][p]["cores"]) for a in eligible}
    best = max(cores.values())
    if best > 0:
        tops = [a for a in eligible if cores[a] == best]
        if len(tops) == 1:
            return tops[0]
        eligible = tops
    if len(eligible) == 1:
        return eligible[0]
    return eligible[(dice.roll(6, f"NPR invasion by {npr}") - 1) % len(eligible)]


def invade(state: dict, npr: str, area: str, dice, events: list) -> None:
    towns = sorted(p for p in st.area_provinces(state, area) if state["provinces"][p]["controller"]
                   and st.hostile(state, npr, state["provinces"][p]["controller"])
                   and not state["provinces"][p]["unrest"])
    for p in towns[:2]:
        state["provinces"][p]["unrest"] = 1
    if state["version"] == "1.2":
        strength = sum(state["provinces"][p]["tax"] for r in st.family(state, npr) for p in st.provinces_of(state, r)
                       if not _hostile_in(state, npr, state["provinces"][p]["area"]))
    else:
        strength = st.npr_strength(state, npr)
    n = strength // 2
    events.append({"kind": "npr_invasion", "npr": npr, "area": area, "units": n, "unrest": towns[:2]})
    if n <= 0:
        return
    st.add_units(state, area, npr, "inf", n)
    item = bt.start(state, area, npr, naval=False, why="NPR invasion")
    fight_now(state, item, dice, events)
    left = st.land_count(st.units_at(state, area).get(npr, {}))
    if left:   # survivors act as rebels
        state["units"][area].pop(npr)
        st.tidy(state, area)
        state["rebels"][area] = state["rebels"].get(area, 0) + left


# -- C. Rebels siege or move -------------------------------------------------------------------

def _unrest_towns(state: dict, area: str) -> list[str]:
    return [p for p in st.area_provinces(state, area) if state["provinces"][p]["unrest"]
            and state["provinces"][p]["controller"] not in (None, st.REBELS)
            and st.is_player(state, st.top(state, state["provinces"][p]["owner"] or ""))]


def step_c(state: dict, orders: dict, dice, events: list) -> None:
    for area in sorted(state["rebels"], key=lambda a: (-state["rebels"][a], a)):
        n = state["rebels"].get(area, 0)
        if not n:
            continue
        towns = _unrest_towns(state, area)
        if towns:
            rebel_siege(state, area, n, towns, events)
        else:
            rebels_move(state, area, n, dice, events)


def rebel_siege(state: dict, area: str, n: int, towns: list[str], events: list) -> None:
    """Siege strength 1 each; large provinces first, then alphabetical (4.3 C)."""
    total = 0
    for p in sorted(towns, key=lambda p: (not state["provinces"][p]["large"], p)):
        tax = state["provinces"][p]["tax"]
        if total + tax > n:
            continue
        total += tax
        rebel_take(state, p, events)
    events.append({"kind": "rebels", "area": area, "action": "siege", "units": n})


def rebel_take(state: dict, prov: str, events: list) -> None:
    d = state["provinces"][prov]
    if d["owner"] in d["cores"] and d["controller"] == d["owner"]:
        d["controller"] = st.REBELS   # Rebel Town on a core province
        events.append({"kind": "rebel_town", "province": prov, "owner": d["owner"]})
    else:
        pc.liberate(state, prov, events)


def rebels_move(state: dict, area: str, n: int, dice, events: list) -> None:
    movers = n - 1
    options = []
    for nb in sorted(st.land_neighbours(state, area)):
        unrest = len(_unrest_towns(state, nb))
        if not unrest:
            continue
        pr_units = sum(st.land_count(u) for r, u in st.units_at(state, nb).items() if st.is_player(state, r))
        if pr_units > movers:
            continue   # rebels do not move where PR land units outnumber them
        towns = sum(1 for p in st.area_provinces(state, nb) if st.is_player(state, state["provinces"][p]["owner"] or ""))
        options.append((-unrest, -towns, nb))
    if not options or movers <= 0:
        if not options:
            state["rebels"][area] = n - 1
            if not state["rebels"][area]:
                del state["rebels"][area]
            events.append({"kind": "rebels", "area": area, "action": "dwindle", "units": 1})
        return
    dest = min(options)[2]
    state["rebels"][area] = 1
    state["rebels"][dest] = state["rebels"].get(dest, 0) + movers
    events.append({"kind": "rebels", "area": area, "action": "move", "to": dest, "units": movers})
    fight_now(state, bt.start(state, dest, st.REBELS, naval=False, why="rebels"), dice, events)


# -- E to H -----------------------------------------------------------------------------------------

def step_e(state: dict, orders: dict, dice, events: list) -> None:
    for key, how in sorted(state["marriages"].items()):
        if how != "disputed":
            continue
        pr, realm = key.split("|")
        state["marriages"][key] = "yes"
        if state["version"] == "1.2" and st.overlord(state, realm):
            continue   # 1.2: no prestige lost for a Disputed Succession on a Vassal
        if _spared(state, pr, realm):
            continue
        state["realms"][pr]["prestige"] -= 3
        events.append({"kind": "prestige", "realm": pr, "delta": -3, "reason": f"disputed succession in {realm}"})
    for pr in state["order"]:
        lost = [p for p in st.provinces_of(state, pr) if st.occupied(state, p)
                and (state["provinces"][p]["controller"] == st.REBELS
                     or st.hostile(state, pr, state["provinces"][p]["controller"]))]
        n = min(5, sum(state["provinces"][p]["tax"] for p in lost))
        if n:
            state["realms"][pr]["prestige"] -= n
            events.append({"kind": "prestige", "realm": pr, "delta": -n, "reason": "occupied towns"})


def _spared(state: dict, pr: str, realm: str) -> bool:
    """Spared when the only PR with an Alliance on the realm, and for an NPR
    also holding the most Influence there (at least 2)."""
    allied = [r for r in st.allies(state, realm) if st.is_player(state, r)]
    if allied != [pr]:
        return False
    if st.kind(state, realm) != "NPR":
        return True
    from ..war import npr_influence
    mine = npr_influence(state, pr, realm)
    others = [npr_influence(state, r, realm) for r in state["order"] if r != pr]
    return mine >= 2 and all(mine > o for o in others)


def step_f(state: dict, orders: dict, dice, events: list) -> None:
    for pr in state["order"]:
        rd = state["realms"][pr]
        if rd["ruler"]:
            continue
        before = rd["stability"]
        rd["stability"] = st.cap_stability(before - 1)
        events.append({"kind": "stability", "realm": pr, "delta": rd["stability"] - before, "reason": "interregnum",
                       "wanted": -1})
        for key in state["marriages"]:
            if key.endswith("|" + pr):
                state["marriages"][key] = "disputed"


def _add_unrest(state: dict, provs: list[str], n: int) -> list[str]:
    free = sorted(p for p in provs if not state["provinces"][p]["unrest"])
    for p in free[:n]:
        state["provinces"][p]["unrest"] = 1
    return free[:n]


def step_g(state: dict, orders: dict, dice, events: list) -> None:
    for pr in state["order"]:
        religion = state["realms"][pr]["religion"]
        vassal_done = False
        for area in sorted(state["areas"]):
            faith = state["areas"][area].get("religion")
            if not faith or faith == religion:
                continue
            towns = [p for p in st.owned(state, pr) if state["provinces"][p]["area"] == area]
            added = _add_unrest(state, towns, 1)
            vprovs = [p for v in st.vassals(state, pr) for p in st.owned(state, v) if state["provinces"][p]["area"] == area]
            if vprovs and not vassal_done:
                added += _add_unrest(state, vprovs, 1)
                vassal_done = True
            if added:
                events.append({"kind": "unrest", "realm": pr, "provinces": added, "reason": "religious dissent"})


def step_h(state: dict, orders: dict, dice, events: list) -> None:
    for pr in state["order"]:
        towns = st.owned(state, pr)
        rd = state["realms"][pr]
        if st.enemies(state, pr):
            added = _add_unrest(state, towns, 2)
            if added:
                events.append({"kind": "unrest", "realm": pr, "provinces": added, "reason": "at war"})
        if rd["stability"] <= -2:
            added = _add_unrest(state, towns, 1)
            if added:
                events.append({"kind": "unrest", "realm": pr, "provinces": added, "reason": "low stability"})
        if rd["stability"] >= 2:
            calm = sorted(p for r in st.family(state, pr) for p in st.owned(state, r) if state["provinces"][p]["unrest"])
            if calm:
                state["provinces"][calm[0]]["unrest"] = 0
                events.append({"kind": "unrest_removed", "realm": pr, "province": calm[0], "reason": "high stability"})


# -- I. Rebel dice -------------------------------------------------------------------------------------

def step_i(state: dict, orders: dict, dice, events: list) -> None:
    faces = state["dice_tables"]["rebel_die"]["faces"]
    fights = []
    for pr in state["order"]:
        provs = [p for r in st.family(state, pr) for p in st.provinces_of(state, r)
                 if state["provinces"][p]["unrest"] and state["provinces"][p]["controller"] != st.REBELS]
        for area in sorted({state["provinces"][p]["area"] for p in provs}):
            here = sorted(p for p in provs if state["provinces"][p]["area"] == area)
            results = [faces[dice.roll(6, f"rebel die {pr} {area}") - 1] for _ in here]
            events.append({"kind": "rebel_dice", "realm": pr, "area": area, "results": results})
            rebellions = results.count("rebellion")
            for r in results:
                _rebel_result(state, pr, area, r, events)
            if rebellions:
                fight = _rebellion(state, pr, area, here, rebellions, events)
                if fight:
                    fights.append(fight)
    for area in fights:   # pre-1.2: rebels placed with units fight after all rolls
        fight_now(state, bt.start(state, area, st.REBELS, naval=False, why="rebellion"), dice, events)


def _rebel_result(state: dict, pr: str, area: str, result: str, events: list) -> None:
    rd = state["realms"][pr]
    if result == "ducats":
        _pay(state, pr, 2, events, "rebel die")
    elif result == "monarch":
        events.append({"kind": "monarch_power", "realm": pr, "delta": -1, "type": "any", "reason": "rebel die"})
    elif result == "manpower":
        if rd["manpower"] > 0:
            rd["manpower"] -= 1
            rd["exhausted"] += 1
            events.append({"kind": "manpower", "realm": pr, "delta": -1, "reason": "rebel die"})
        else:
            _pay(state, pr, 2, events, "rebel die (no manpower to exhaust)")
    elif result == "calm":
        calm = sorted(p for r in st.family(state, pr) for p in st.provinces_of(state, r)
                      if state["provinces"][p]["area"] == area and state["provinces"][p]["unrest"])
        if calm:
            state["provinces"][calm[0]]["unrest"] = 0
            events.append({"kind": "unrest_removed", "realm": pr, "province": calm[0], "reason": "rebel die"})


def _pay(state: dict, pr: str, n: int, events: list, why: str) -> None:
    rd = state["realms"][pr]
    if rd["ducats"] >= n:
        rd["ducats"] -= n
        events.append({"kind": "ducats", "realm": pr, "delta": -n, "reason": why})
        return
    rd["loans"] += 1   # NOTES 3.8: a Loan when you cannot pay; 5 Interest tokens mean bankruptcy
    events.append({"kind": "loan", "realm": pr, "loans": rd["loans"], "reason": why})
    if rd["loans"] >= 5:
        rd["stability"] = st.cap_stability(rd["stability"] - 3)
        rd["prestige"] -= 5
        rd["loans"] = max(0, rd["loans"] - 3)
        rd["ducats"] = 0
        for loc in list(state["units"]):
            for key in ("merc_inf", "merc_cav", "merc_art"):
                st.remove_units(state, loc, pr, key, 10**6)
        events.append({"kind": "bankrupt", "realm": pr})


def _rebellion(state: dict, pr: str, area: str, provs: list[str], n: int, events: list) -> str | None:
    units = st.units_at(state, area).get(pr, {})
    if st.land_count(units):
        if state["version"] == "1.2":   # 1.2: one casualty per Rebellion result
            item = {"loc": area, "naval": False}
            lost: dict = {}
            bt.apply_casualties(state, item, [(pr, dict(units))], n, lost)
            events.append({"kind": "rebels", "area": area, "action": "casualties", "units": n, "lost": lost})
            return None
        state["rebels"][area] = state["rebels"].get(area, 0) + n
        events.append({"kind": "rebels", "area": area, "action": "rise", "units": n})
        return area
    for p in provs[:n]:
        rebel_take(state, p, events)
    events.append({"kind": "rebels", "area": area, "action": "rebellion", "units": n})
    return None


# -- the steps, in the order 4.3 plays them ----------------------------------------------------
@dataclass(frozen=True)
class Step:
    letter: str
    title: str                                          # 4.3's
    run: Callable[[dict, dict, Any, list], None]        # (state, orders, dice, events)


SEQUENCE: tuple[Step, ...] = (
    Step("A", "Remove Casus Belli and Truces", step_a),
    Step("B", "NPR Invasions", step_b),
    Step("C", "Rebels Siege or Move", step_c),
    Step("D", "Peace Resolution", peace_resolution.resolve),   # 10.1: the only step that takes orders
    Step("E", "Prestige Penalties", step_e),
    Step("F", "Interregnum", step_f),
    Step("G", "Religious Dissent", step_g),
    Step("H", "Gain/Remove Unrest", step_h),
    Step("I", "Roll Rebel Dice", step_i),
)
#: the letters of the steps, in order
STEPS = "".join(step.letter for step in SEQUENCE)


def run_step(state: dict, letter: str, orders: dict, dice, events: list) -> None:
    """Play step ``letter`` of Phase 3 (4.3)."""
    SEQUENCE[STEPS.index(letter)].run(state, orders, dice, events)
