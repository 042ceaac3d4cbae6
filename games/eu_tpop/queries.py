"""Scenario queries (tests/scenarios/eu_tpop): each answers from the state alone.

The forms are in queries.lark, read as the orders are (:mod:`.grammar`); each query's
function below takes the state and the query's values."""
from __future__ import annotations

from pathlib import Path

from pbem.kit.gameapi import GMError

from . import capacity, hre
from . import state as st
from . import victory as vc
from .grammar import Grammar
from .names import NAMES, Reader, tokens

QUERIES = ("prestige", "stability", "ducats", "manpower", "exhausted", "allied", "owner", "controller", "occupied",
           "war", "truce", "alliance", "active_ally", "marriage", "vassal", "influence", "cb", "units", "ships",
           "rebels", "unrest", "mc", "nc", "victory", "terms", "religion", "phase", "step", "round", "active",
           "passed", "claim", "ruler", "leader", "treaty", "treaties", "pending", "game_over", "realm", "cores",
           "loans", "treaty_concluded", "treaty_says", "authority", "emperor", "colonists")


def _first_word(r: Reader) -> str:
    return r.words.pop(0) if r.words else ""


VALUES = {**NAMES, "WORDS": lambda r: " ".join(r.rest()).lower(), "TEXT": lambda r: " ".join(r.rest()),
          "TREATY_ID": _first_word}
GRAMMAR = Grammar(Path(__file__).with_name("queries.lark"), ["query"], VALUES)


def answer(state: dict, text: str):
    words = tokens(text)
    if not words:
        raise GMError("empty query")
    key = words[0].lower()
    if key not in _Q:
        raise GMError(f"unknown query {key!r} (known: {', '.join(QUERIES)})")
    values = [c.value for c in GRAMMAR.read(state, words, "query").children]
    return _Q[key](state, *values[1:])


def _realm_value(field):
    def q(state, realm):
        if realm not in state["realms"]:
            # The realm names take Rebels (units, wars on them); Rebels keep no figures.
            raise GMError(f"{realm} is not a realm: it has no {field}")
        return state["realms"][realm][field]
    return q


def _owner(state, prov):
    return state["provinces"][prov]["owner"] or "none"


def _controller(state, prov):
    return state["provinces"][prov]["controller"] or "none"


def _occupied(state, prov):
    return st.occupied(state, prov)


def _alliance(state, a, b):
    return st.alliance(state, a, b) is not None


def _active(state, a, b):
    rec = st.alliance(state, a, b)
    return bool(rec and rec.get("active"))


def _vassal(state, realm):
    return st.overlord(state, realm) or "none"


def _influence(state, area, realm):
    return st.influence(state, area, realm)


def _cb(state, a, b):
    from . import war
    return bool(war.held_cbs(state, a, b))


def _units(state, place, realm):
    loc = st.place_key(state, place)
    u = st.units_at(state, loc).get(realm, {})
    if loc in state["seas"] or loc.startswith(st.PORT):
        return f"light={u.get('light', 0)} heavy={u.get('heavy', 0)}"
    totals = {t: sum(n for k, n in u.items() if k.split("_")[-1] == t) for t in st.LAND}
    return " ".join(f"{t}={totals[t]}" for t in st.LAND)


def _ships(state, loc, realm):
    loc = loc if loc in state["seas"] else st.PORT + loc
    u = st.units_at(state, loc).get(realm, {})
    return f"light={u.get('light', 0)} heavy={u.get('heavy', 0)} damaged={u.get('damaged', 0)}"


def _rebels(state, area):
    return state["rebels"].get(area, 0)


def _unrest(state, prov):
    return state["provinces"][prov]["unrest"]


def _mc(state, realm, area):
    return capacity.mc(state, realm, area, used=state["used_mc"].get(realm, []))


def _nc(state, realm, sea):
    return capacity.nc(state, realm, sea, used=state["used_nc"].get(realm, []))


def _phase(state):
    return {"p3": "peace_and_rebels"}.get(state["phase"], state["phase"])


def _claim(state, realm, area):
    return st.has_claim(state, realm, area)


def _leader(state, realm, name):
    for ld in state["leaders"].get(realm, []):
        if ld["name"].lower() == name:
            return f"{ld['at']} wounds={ld['wounds']}"
    return "none"


def _treaty(state, tid):
    rec = state["treaties"].get(tid)
    return rec["term"] if rec else "none"


def _treaty_concluded(state, tid):
    """yes when the game concluded the record itself (nobody signs it)."""
    rec = state["treaties"].get(tid)
    return bool(rec and rec.get("concluded"))


def _treaty_says(state, tid, wanted):
    """yes when the record's text holds the words that follow its id (spaces and case aside)."""
    rec = state["treaties"].get(tid)
    return bool(rec) and wanted in " ".join(rec["text"].split()).lower()


def _treaties(state):
    return sorted(state["treaties"])


def _pending(state):
    p = state.get("pending")
    return f"{p['kind']} {p['realm']}" if p else "none"


def _realm(state, realm):
    return state["realms"][realm]["kind"]


def _cores(state, prov):
    return sorted(state["provinces"][prov]["cores"])


_Q = {
    "prestige": _realm_value("prestige"), "stability": _realm_value("stability"), "ducats": _realm_value("ducats"),
    "manpower": _realm_value("manpower"), "exhausted": _realm_value("exhausted"), "allied": _realm_value("allied"),
    "religion": _realm_value("religion"), "ruler": _realm_value("ruler"), "loans": _realm_value("loans"),
    "owner": _owner, "controller": _controller, "occupied": _occupied,
    "war": lambda s, a, b: st.at_war(s, a, b), "truce": lambda s, a, b: st.has_truce(s, a, b),
    "alliance": _alliance, "active_ally": _active,
    "marriage": lambda s, a, b: st.marriage(s, a, b), "vassal": _vassal, "influence": _influence,
    "cb": _cb, "units": _units, "ships": _ships, "rebels": _rebels, "unrest": _unrest, "mc": _mc, "nc": _nc,
    "victory": vc.condition, "terms": vc.terms, "phase": _phase,
    "step": lambda s: s.get("step") or "none", "round": lambda s: s["round"],
    "active": lambda s: s.get("active") or "none", "passed": lambda s: sorted(s["passed"]),
    "claim": _claim, "leader": _leader, "treaty": _treaty, "treaties": _treaties,
    "colonists": _realm_value("colonists"), "authority": lambda s: hre.authority(s),
    "emperor": lambda s: hre.emperor(s) or "none",
    "treaty_concluded": _treaty_concluded, "treaty_says": _treaty_says, "pending": _pending,
    "game_over": lambda s: bool(s.get("over")), "realm": _realm, "cores": _cores,
}
