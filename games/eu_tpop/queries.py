"""Scenario queries (tests/scenarios/eu_tpop): each answers from the state alone."""
from __future__ import annotations

from pbem.kit.gameapi import GMError

from . import capacity, hre
from . import state as st
from . import victory as vc
from .names import Reader, tokens

QUERIES = ("prestige", "stability", "ducats", "manpower", "exhausted", "allied", "owner", "controller", "occupied",
           "war", "truce", "alliance", "active_ally", "marriage", "vassal", "influence", "cb", "units", "ships",
           "rebels", "unrest", "mc", "nc", "victory", "terms", "religion", "phase", "step", "round", "active",
           "passed", "claim", "ruler", "leader", "treaty", "treaties", "pending", "game_over", "realm", "cores",
           "loans", "treaty_concluded", "treaty_says", "authority", "emperor", "colonists")


def answer(state: dict, text: str):
    r = Reader(state, tokens(text))
    if not r:
        raise GMError("empty query")
    key = r.words.pop(0).lower()
    fn = _Q.get(key)
    if fn is None:
        raise GMError(f"unknown query {key!r} (known: {', '.join(QUERIES)})")
    value = fn(state, r)
    r.done()
    return value


def _realm_value(field):
    def q(state, r):
        return state["realms"][r.name("realm")][field]
    return q


def _owner(state, r):
    return state["provinces"][r.name("province")]["owner"] or "none"


def _controller(state, r):
    return state["provinces"][r.name("province")]["controller"] or "none"


def _occupied(state, r):
    return st.occupied(state, r.name("province"))


def _pairq(fn):
    def q(state, r):
        a, b = r.name("realm"), r.name("realm")
        return fn(state, a, b)
    return q


def _alliance(state, a, b):
    return st.alliance(state, a, b) is not None


def _active(state, a, b):
    rec = st.alliance(state, a, b)
    return bool(rec and rec.get("active"))


def _vassal(state, r):
    return st.overlord(state, r.name("realm")) or "none"


def _influence(state, r):
    area = r.name("area")
    return st.influence(state, area, r.name("realm"))


def _cb(state, a, b):
    from . import war
    return bool(war.held_cbs(state, a, b))


def _units(state, r):
    loc = st.place_key(state, r.name("area", "sea", "province"))
    realm = r.name("realm")
    u = st.units_at(state, loc).get(realm, {})
    if loc in state["seas"] or loc.startswith(st.PORT):
        return f"light={u.get('light', 0)} heavy={u.get('heavy', 0)}"
    totals = {t: sum(n for k, n in u.items() if k.split("_")[-1] == t) for t in st.LAND}
    return " ".join(f"{t}={totals[t]}" for t in st.LAND)


def _ships(state, r):
    loc = r.name("sea", "province")
    loc = loc if loc in state["seas"] else st.PORT + loc
    u = st.units_at(state, loc).get(r.name("realm"), {})
    return f"light={u.get('light', 0)} heavy={u.get('heavy', 0)} damaged={u.get('damaged', 0)}"


def _rebels(state, r):
    return state["rebels"].get(r.name("area"), 0)


def _unrest(state, r):
    return state["provinces"][r.name("province")]["unrest"]


def _mc(state, r):
    realm = r.name("realm")
    return capacity.mc(state, realm, r.name("area"), used=state["used_mc"].get(realm, []))


def _nc(state, r):
    realm = r.name("realm")
    return capacity.nc(state, realm, r.name("sea"), used=state["used_nc"].get(realm, []))


def _phase(state, r):
    return {"p3": "peace_and_rebels"}.get(state["phase"], state["phase"])


def _claim(state, r):
    realm = r.name("realm")
    return st.has_claim(state, realm, r.name("area"))


def _leader(state, r):
    realm = r.name("realm")
    name = " ".join(r.rest()).lower()
    for ld in state["leaders"].get(realm, []):
        if ld["name"].lower() == name:
            return f"{ld['at']} wounds={ld['wounds']}"
    return "none"


def _treaty(state, r):
    tid = " ".join(r.rest())
    rec = state["treaties"].get(tid)
    return rec["term"] if rec else "none"


def _treaty_concluded(state, r):
    """yes when the game concluded the record itself (nobody signs it)."""
    rec = state["treaties"].get(r.words.pop(0) if r.words else "")
    return bool(rec and rec.get("concluded"))


def _treaty_says(state, r):
    """yes when the record's text holds the words that follow its id (spaces and case aside)."""
    rec = state["treaties"].get(r.words.pop(0) if r.words else "")
    wanted = " ".join(r.rest()).lower()
    return bool(rec) and wanted in " ".join(rec["text"].split()).lower()


def _treaties(state, r):
    return sorted(state["treaties"])


def _pending(state, r):
    p = state.get("pending")
    return f"{p['kind']} {p['realm']}" if p else "none"


def _realm(state, r):
    return state["realms"][r.name("realm")]["kind"]


def _cores(state, r):
    return sorted(state["provinces"][r.name("province")]["cores"])


_Q = {
    "prestige": _realm_value("prestige"), "stability": _realm_value("stability"), "ducats": _realm_value("ducats"),
    "manpower": _realm_value("manpower"), "exhausted": _realm_value("exhausted"), "allied": _realm_value("allied"),
    "religion": _realm_value("religion"), "ruler": _realm_value("ruler"), "loans": _realm_value("loans"),
    "owner": _owner, "controller": _controller, "occupied": _occupied,
    "war": _pairq(lambda s, a, b: st.at_war(s, a, b)), "truce": _pairq(lambda s, a, b: st.has_truce(s, a, b)),
    "alliance": _pairq(_alliance), "active_ally": _pairq(_active),
    "marriage": _pairq(lambda s, a, b: st.marriage(s, a, b)), "vassal": _vassal, "influence": _influence,
    "cb": _pairq(_cb), "units": _units, "ships": _ships, "rebels": _rebels, "unrest": _unrest, "mc": _mc, "nc": _nc,
    "victory": _pairq(vc.condition), "terms": _pairq(vc.terms), "phase": _phase,
    "step": lambda s, r: s.get("step") or "none", "round": lambda s, r: s["round"],
    "active": lambda s, r: s.get("active") or "none", "passed": lambda s, r: sorted(s["passed"]),
    "claim": _claim, "leader": _leader, "treaty": _treaty, "treaties": _treaties,
    "colonists": _realm_value("colonists"), "authority": lambda s, r: hre.authority(s), "emperor": lambda s, r: hre.emperor(s) or "none",
    "treaty_concluded": _treaty_concluded, "treaty_says": _treaty_says, "pending": _pending,
    "game_over": lambda s, r: bool(s.get("over")), "realm": _realm, "cores": _cores,
}
