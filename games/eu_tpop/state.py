"""The state of a Europa Universalis: The Price of Power game, and the
questions every rule asks of it (who owns, who is at war, who is friendly).

State is plain JSON.  Provinces keep their lawful ``owner`` and their
``controller`` apart (9.8 Occupied Provinces: a province is *owned* only when
both are the same realm).  Relations between two realms are stored once, under
the pair's sorted key (``"A|B"``).
"""
from __future__ import annotations

from typing import Any, Iterable

State = dict[str, Any]

REBELS = "Rebels"
PORT = "port:"   # ships in port are kept under "port:<Province>" (an Area may share a province's name)


def place_key(state: dict, place: str) -> str:
    """Where units at a named place are kept: Areas and Sea Zones by name, a port by its key."""
    if place in state["areas"] or place in state["seas"] or place.startswith(PORT):
        return place
    return PORT + place if place in state["provinces"] else place


def place_name(key: str) -> str:
    return f"port of {key[len(PORT):]}" if key.startswith(PORT) else key
LAND = ("inf", "cav", "art")
CATEGORIES = ("merc", "regular", "allied")        # 9.7 Assign Casualties: this order
SHIPS = ("light", "heavy")
CHRISTIAN = ("catholic", "protestant", "orthodox", "christian")
MAX_MANPOWER = 20   # 9.3: manpower never rises above 20


def empty_state(version: str, rounds: int, dice_tables: dict, advanced: bool = True) -> State:
    return {
        "version": version, "advanced": advanced, "rounds": rounds, "round": 1,
        "phase": "action", "step": None, "order": [], "active": None, "passed": [],
        "action_no": 0, "areas": {}, "adj": {}, "seas": {}, "provinces": {}, "realms": {},
        "influence": {}, "marriages": {}, "alliances": {}, "claims": {}, "cbs": [], "truces": [],
        "wars": [], "surrendered": [], "units": {}, "moved_from": {}, "leaders": {}, "bonus": {},
        "rebels": {}, "present": {}, "used_mc": {}, "used_nc": {}, "npr_used": {"mc": [], "nc": []},
        "queue": [], "pending": None, "treaties": {}, "questions": {}, "emperor": None,
        "c_gained": False, "treaty_seq": 0, "dice_tables": dice_tables, "over": False,
        "history": [], "peace_orders": {},
    }


def new_realm(kind: str = "PR", religion: str = "catholic", capital: str | None = None) -> dict:
    return {"kind": kind, "religion": religion, "capital": capital, "overlord": None,
            "prestige": 0, "stability": 0, "ducats": 0, "manpower": 0, "exhausted": 0,
            "allied": 0, "ruler": True, "ideas": [], "standing": {}, "mercs_this_turn": 0,
            "discovered": [], "loans": 0, "colonists": 0}


# -- pairs -------------------------------------------------------------------

def pair(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def at_war(state: State, a: str, b: str) -> bool:
    return any(w["pair"] == pair(a, b) for w in state["wars"])


def enemies(state: State, realm: str) -> list[str]:
    out = []
    for w in state["wars"]:
        x, y = w["pair"].split("|")
        if realm == x:
            out.append(y)
        elif realm == y:
            out.append(x)
    return sorted(out)


def has_truce(state: State, a: str, b: str) -> bool:
    return pair(a, b) in state["truces"]


def alliance(state: State, a: str, b: str) -> dict | None:
    return state["alliances"].get(pair(a, b))


def allies(state: State, realm: str) -> list[str]:
    out = []
    for key in state["alliances"]:
        x, y = key.split("|")
        if realm in (x, y):
            out.append(y if x == realm else x)
    return sorted(out)


def active_allies(state: State, pr: str) -> list[str]:
    """NPRs whose alliance token with ``pr`` shows the Active Ally side (11.3)."""
    return [r for r in allies(state, pr)
            if state["alliances"][pair(pr, r)].get("active") and kind(state, r) == "NPR"]


def active_ally_of(state: State, npr: str) -> str | None:
    for r in allies(state, npr):
        rec = state["alliances"][pair(npr, r)]
        if rec.get("active") and kind(state, r) in ("PR", "BOT"):
            return r
    return None


def marriage(state: State, pr: str, realm: str) -> str:
    return state["marriages"].get(f"{pr}|{realm}", "none")


def marriages_on(state: State, realm: str) -> dict[str, str]:
    """PR -> yes/disputed for every marriage token on ``realm``."""
    return {k.split("|")[0]: v for k, v in state["marriages"].items() if k.split("|")[1] == realm}


# -- realms ----------------------------------------------------------------------

def kind(state: State, realm: str) -> str:
    if realm == REBELS:
        return "REBELS"
    return state["realms"][realm]["kind"]


def is_player(state: State, realm: str) -> bool:
    """A player realm: human (PR) or run by the bot rules (BOT)."""
    return realm in state["realms"] and state["realms"][realm]["kind"] in ("PR", "BOT")


def is_human(state: State, realm: str) -> bool:
    return realm in state["realms"] and state["realms"][realm]["kind"] == "PR"


def vassals(state: State, realm: str) -> list[str]:
    return sorted(r for r, d in state["realms"].items() if d.get("overlord") == realm)


def overlord(state: State, realm: str) -> str | None:
    return state["realms"].get(realm, {}).get("overlord")


def top(state: State, realm: str) -> str:
    """The realm that acts for ``realm`` in wars and peace (a vassal's overlord, 11.4)."""
    seen = set()
    while overlord(state, realm) and realm not in seen:
        seen.add(realm)
        realm = overlord(state, realm)
    return realm


def family(state: State, realm: str) -> list[str]:
    """A realm with its vassals: 'treated as part of their Overlord's Realm' (10, 11.4)."""
    return [realm, *vassals(state, realm)]


def provinces_of(state: State, realm: str) -> list[str]:
    """De jure provinces (lawful owner), occupied or not."""
    return sorted(p for p, d in state["provinces"].items() if d["owner"] == realm)


def owned(state: State, realm: str) -> list[str]:
    """Provinces both lawfully owned and controlled (9.8: only these are 'Owned')."""
    return sorted(p for p, d in state["provinces"].items() if d["owner"] == realm and d["controller"] == realm)


def occupied(state: State, province: str) -> bool:
    d = state["provinces"][province]
    return d["controller"] != d["owner"]


def tax_income(state: State, realm: str) -> int:
    """Tax value of the provinces a realm owns (occupied ones pay nothing, 9.8)."""
    return sum(state["provinces"][p]["tax"] for p in owned(state, realm))


def base_tax(state: State, realm: str) -> int:
    """Tax value of every de jure province: the Base Tax the Subjugate and
    Forge Alliance rules compare (Choice: de jure, occupied or not)."""
    return sum(state["provinces"][p]["tax"] for p in provinces_of(state, realm))


def npr_strength(state: State, realm: str) -> int:
    """Tax value of an NPR's and its vassals' provinces (1.2 'NPR Strength')."""
    return sum(base_tax(state, r) for r in family(state, realm))


def areas_of(state: State, realm: str) -> list[str]:
    """Areas holding a de jure province of the realm or of its vassals."""
    return sorted({state["provinces"][p]["area"] for r in family(state, realm) for p in provinces_of(state, r)})


def capital_area(state: State, realm: str) -> str | None:
    cap = state["realms"][realm].get("capital")
    return state["provinces"][cap]["area"] if cap in state["provinces"] else None


def is_distant_realm(state: State, realm: str) -> bool:
    area = capital_area(state, realm)
    return bool(area and state["areas"][area].get("distant"))


def hre_member(state: State, realm: str) -> bool:
    area = capital_area(state, realm)
    return bool(area and state["areas"][area].get("hre"))


def christian(religion: str) -> bool:
    return religion in CHRISTIAN


# -- sides and hostility -------------------------------------------------------------

def hostile(state: State, a: str, b: str) -> bool:
    """Rebels are hostile to every player realm (9.7); otherwise war makes hostile,
    vassals standing with their overlord."""
    if a == b:
        return False
    if REBELS in (a, b):
        other = b if a == REBELS else a
        return other != REBELS and is_player(state, other)
    return at_war(state, top(state, a), top(state, b))


def friendly(state: State, a: str, b: str) -> bool:
    """Oneself, one's vassals and overlord, and allies (11.3: an ally's units,
    areas and ports are friendly)."""
    if a == b or REBELS in (a, b):
        return a == b
    ta, tb = top(state, a), top(state, b)
    return ta == tb or alliance(state, ta, tb) is not None


def area_provinces(state: State, area: str) -> list[str]:
    return sorted(p for p, d in state["provinces"].items() if d["area"] == area)


def units_at(state: State, loc: str) -> dict[str, dict[str, int]]:
    return state["units"].get(loc, {})


def land_count(units: dict[str, int]) -> int:
    return sum(n for k, n in units.items() if k.split("_")[-1] in LAND)


def ship_count(units: dict[str, int]) -> int:
    return units.get("light", 0) + units.get("heavy", 0)


def realms_with_land(state: State, loc: str) -> list[str]:
    out = [r for r, u in units_at(state, loc).items() if land_count(u) > 0]
    if state["rebels"].get(loc, 0) > 0:
        out.append(REBELS)
    return sorted(out)


def realms_with_ships(state: State, loc: str) -> list[str]:
    return sorted(r for r, u in units_at(state, loc).items() if ship_count(u) > 0)


def area_status(state: State, realm: str, area: str) -> str:
    """hostile, friendly or neutral, as the movement rules read them (9.5):
    hostile when enemy units or enemy-controlled provinces are there."""
    for r in realms_with_land(state, area):
        if hostile(state, realm, r):
            return "hostile"
    provs = area_provinces(state, area)
    if any(hostile(state, realm, state["provinces"][p]["controller"]) for p in provs):
        return "hostile"
    if any(friendly(state, realm, state["provinces"][p]["controller"]) for p in provs):
        return "friendly"
    return "neutral"


def sea_hostile(state: State, realm: str, sea: str) -> bool:
    return any(hostile(state, realm, r) for r in realms_with_ships(state, sea))


def land_neighbours(state: State, area: str) -> dict[str, str]:
    return state["adj"].get(area, {})


def add_units(state: State, loc: str, realm: str, key: str, n: int) -> None:
    if n <= 0:
        return
    here = state["units"].setdefault(loc, {}).setdefault(realm, {})
    here[key] = here.get(key, 0) + n


def remove_units(state: State, loc: str, realm: str, key: str, n: int) -> int:
    here = state["units"].get(loc, {}).get(realm, {})
    taken = min(n, here.get(key, 0))
    if taken:
        here[key] -= taken
        if key == "heavy":
            here["damaged"] = min(here.get("damaged", 0), here["heavy"])
    tidy(state, loc)
    return taken


def tidy(state: State, loc: str) -> None:
    here = state["units"].get(loc)
    if here is None:
        return
    for realm in list(here):
        here[realm] = {k: n for k, n in here[realm].items() if n > 0}
        if not any(n for k, n in here[realm].items() if k != "damaged"):
            del here[realm]
    if not here:
        del state["units"][loc]


def deployed_land(state: State, realm: str, count_in: Iterable[str] | None = None) -> int:
    """Land units a realm has on the board (10.2: an NPR always counts 0)."""
    if kind(state, realm) == "NPR":
        return 0
    places = set(count_in) if count_in is not None else None
    return sum(land_count(u.get(realm, {})) for loc, u in state["units"].items()
               if (places is None or loc in places))


def regulars_deployed(state: State, realm: str) -> int:
    return sum(u.get(realm, {}).get(k, 0) for u in state["units"].values() for k in LAND)


def ships_total(state: State, realm: str) -> int:
    return sum(ship_count(u.get(realm, {})) for u in state["units"].values())


def cap_stability(value: int) -> int:
    return max(-3, min(3, value))


def influence(state: State, area: str, realm: str) -> int:
    return state["influence"].get(area, {}).get(realm, 0)


def set_influence(state: State, area: str, realm: str, n: int) -> None:
    here = state["influence"].setdefault(area, {})
    if n > 0:
        here[realm] = n
    else:
        here.pop(realm, None)
    if not here:
        state["influence"].pop(area, None)


def has_claim(state: State, realm: str, area: str) -> bool:
    return realm in state["claims"].get(area, [])


def new_treaty_id(state: State, a: str, b: str) -> str:
    state["treaty_seq"] += 1
    return f"peace-{state['round']}-{state['treaty_seq']}"
