"""Who has won a war, and which peace terms that allows (10.2, 10.3 and the
Victory/Peace Conditions and Peace Term Eligibility tables of 10.4)."""
from __future__ import annotations

from . import state as st

ALL_TERMS = ("white_peace", "negotiated_peace", "keep_current_board_state", "humiliation", "vassalization",
             "force_conversion", "secure_desired_succession", "full_annexation")
BY_CONDITION = {   # Peace Term Eligibility, rows by victory condition
    "total": set(ALL_TERMS),
    "partial": set(ALL_TERMS) - {"full_annexation"},
    "inconclusive": {"white_peace", "negotiated_peace"},
    "white_peace": set(),
}
BY_ENEMY = {       # Peace Term Eligibility, rows by the kind of enemy
    "PR": {"white_peace", "negotiated_peace", "keep_current_board_state", "humiliation", "force_conversion",
           "secure_desired_succession"},
    "BOT": {"white_peace", "keep_current_board_state", "humiliation", "force_conversion",
            "secure_desired_succession", "full_annexation"},
    "NPR": {"white_peace", "keep_current_board_state", "vassalization", "force_conversion",
            "secure_desired_succession", "full_annexation"},
}
ADVANCED_12 = {"vassalization", "force_conversion", "secure_desired_succession", "negotiated_peace"}


def group(state: dict, realm: str, *, with_active: bool = True) -> list[str]:
    """A realm with its vassals and, for a player, its Active Allies (10.1: counted
    as part of that realm for Automatic White Peace)."""
    out = list(st.family(state, realm))
    if with_active and st.is_player(state, realm):
        for npr in st.active_allies(state, realm):
            out += st.family(state, npr)
    return out


def peace_party(state: dict, realm: str, enemy: str) -> str:
    """Who makes peace for ``realm`` against ``enemy``: an Active Ally's PR when
    that PR is at war with the enemy too (10.1, 10.3), else the realm itself
    (its overlord for a vassal)."""
    realm = st.top(state, realm)
    if st.kind(state, realm) == "NPR":
        pr = st.active_ally_of(state, realm)
        if pr and st.at_war(state, pr, st.top(state, enemy)):
            return pr
    return realm


def occupied_by(state: dict, occupiers: list[str], owners: list[str]) -> list[str]:
    return sorted(p for p, d in state["provinces"].items() if d["owner"] in owners and d["controller"] in occupiers)


def automatic_white_peace(state: dict, a: str, b: str) -> bool:
    """Neither side occupies any of the enemy's provinces, vassals' and Active Allies' included."""
    ga, gb = group(state, a), group(state, b)
    return not occupied_by(state, ga, gb) and not occupied_by(state, gb, ga)


def _counted_places(state: dict, other: str) -> list[str]:
    """Units on Distant Continents where the other realm has no town do not count (10.4 table *)."""
    theirs = {state["provinces"][p]["area"] for p in st.provinces_of(state, other)}
    out = []
    for loc in state["units"]:
        area = loc if loc in state["areas"] else None
        if area and state["areas"][area].get("distant") and area not in theirs:
            continue
        out.append(loc)
    return out


def total_victory(state: dict, v: str, loser: str) -> bool:
    """A PR occupies all of one enemy's de jure provinces and that enemy has
    no deployed land units (10.4 table)."""
    if not st.is_player(state, v):
        return False
    provs = [p for r in st.family(state, loser) for p in st.provinces_of(state, r)]
    if not provs:
        return False
    if any(state["provinces"][p]["controller"] not in st.family(state, v) for p in provs):
        return False
    return st.deployed_land(state, loser) == 0


def partial_victory(state: dict, v: str, loser: str) -> bool:
    if not st.is_player(state, v):
        return False
    mine = st.deployed_land(state, v, _counted_places(state, loser))
    theirs = st.deployed_land(state, loser, _counted_places(state, v))
    if st.is_human(state, loser):
        return mine > 0 and mine >= 2 * theirs   # Choice: '2:1' read as at least twice as many
    rebels = sum(n for a, n in state["rebels"].items() if a in st.areas_of(state, loser))
    return mine > rebels + theirs


def condition(state: dict, v: str, loser: str) -> str:
    """total, partial, inconclusive, white_peace or none: v's standing in its war with the loser."""
    if not st.at_war(state, st.top(state, v), st.top(state, loser)):
        return "none"
    surrendered = [loser, v] in state["surrendered"]
    # Choice: a surrender names the victor even where no province is occupied.
    if not surrendered and automatic_white_peace(state, peace_party(state, v, loser), peace_party(state, loser, v)):
        return "white_peace"
    if total_victory(state, v, loser):
        return "total"
    if surrendered:
        return "partial"   # 10.2 Surrendering: as if a Partial Victory
    pr = st.active_ally_of(state, loser) if st.kind(state, loser) == "NPR" else None
    if pr:
        # 10.3: no Partial Victory against an Active Ally unless against its PR too
        return "partial" if partial_victory(state, v, pr) else "inconclusive"
    if partial_victory(state, v, loser):
        return "partial"
    return "inconclusive"


def enemy_kind(state: dict, realm: str) -> str:
    k = st.kind(state, realm)
    return k if k in BY_ENEMY else "NPR"


def capital(state: dict, realm: str) -> str | None:
    return state["realms"][realm].get("capital")


def occupies_capital(state: dict, v: str, loser: str) -> bool:
    cap = capital(state, loser)
    return bool(cap and cap in state["provinces"] and state["provinces"][cap]["controller"] in st.family(state, v))


def requirement(state: dict, v: str, loser: str, term: str) -> str | None:
    """Why a term's own requirements are not met (None when they are)."""
    surrendered = [loser, v] in state["surrendered"]
    if term == "humiliation":
        if not (occupies_capital(state, v, loser) or surrendered):
            return "the victor must occupy the loser's capital, or the loser must have surrendered"
        if state["version"] == "1.2" and not st.is_player(state, loser):
            return "1.2: humiliation needs a player realm as the loser"
    elif term == "vassalization":
        if st.kind(state, loser) != "NPR":
            return "the loser must be an NPR"
        if loser == state.get("emperor") or "papal" in loser.lower():
            return "the Papal States and the Emperor can never be vassalized (11.4)"
        if not occupies_capital(state, v, loser):
            return "the victor must occupy the loser's capital"
        cap_area = st.capital_area(state, loser)
        others = [p for p in st.provinces_of(state, loser) if state["provinces"][p]["area"] != cap_area]
        if others and not any(state["provinces"][p]["controller"] in st.family(state, v) for p in others):
            return "the victor must also occupy a province of the loser in another Area"
    elif term == "force_conversion":
        area = st.capital_area(state, loser)
        if not area or any(state["provinces"][p]["controller"] not in st.family(state, v)
                           for p in st.area_provinces(state, area)):
            return "the victor must control every province in the loser's capital Area"
        if state["realms"][v]["religion"] == state["realms"][loser]["religion"]:
            return "the two realms share a religion"
    elif term == "secure_desired_succession":
        if "disputed" not in st.marriages_on(state, loser).values():
            return "the loser's capital must hold a Disputed Succession"
        if not occupies_capital(state, v, loser):
            return "the victor must occupy the loser's capital"
    elif term == "full_annexation":
        if st.kind(state, loser) not in ("NPR", "BOT"):
            return "the loser must be an NPR or a bot"
    elif term == "negotiated_peace":
        if not (st.is_human(state, v) and st.is_human(state, loser)):
            return "both parties must be human players"
    return None


def terms(state: dict, v: str, loser: str) -> list[str]:
    cond = condition(state, v, loser)
    allowed = BY_CONDITION.get(cond, set()) & BY_ENEMY[enemy_kind(state, loser)]
    if cond != "none" and "negotiated_peace" in BY_CONDITION.get(cond, set()) and requirement(
            state, v, loser, "negotiated_peace") is None:
        allowed = allowed | {"negotiated_peace"}
    if state["version"] == "1.2" and not state.get("advanced", True):
        allowed -= ADVANCED_12
    if cond == "partial" and st.kind(state, loser) == "NPR" and st.active_ally_of(state, loser):
        allowed &= {"secure_desired_succession"}   # 10.3: peace is made with its PR, save this term
    return sorted(t for t in allowed if requirement(state, v, loser, t) is None)


def why_not(state: dict, v: str, loser: str, term: str) -> str | None:
    cond = condition(state, v, loser)
    if cond == "none":
        return f"{v} is not at war with {loser}"
    if term not in BY_CONDITION.get(cond, set()):
        return f"{term} is not allowed after a result of {cond.replace('_', ' ')} (10.4 Peace Term Eligibility)"
    if term not in BY_ENEMY[enemy_kind(state, loser)] and term != "negotiated_peace":
        return f"{term} cannot be enforced on {loser}, a {enemy_kind(state, loser)} (10.4 Peace Term Eligibility)"
    if state["version"] == "1.2" and not state.get("advanced", True) and term in ADVANCED_12:
        return f"{term} is an advanced rule in 1.2, and this game plays without them"
    if cond == "partial" and st.kind(state, loser) == "NPR" and st.active_ally_of(state, loser) \
            and term != "secure_desired_succession":
        return (f"{loser} is {st.active_ally_of(state, loser)}'s Active Ally: peace is made with "
                f"{st.active_ally_of(state, loser)} for both (10.3)")
    return requirement(state, v, loser, term)
