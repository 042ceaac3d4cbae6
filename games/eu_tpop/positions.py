"""A realm's position as its player reads it, fact by fact: what a GM edit changed is told to the
players whose facts differ after it (pbem.kit.positions), and to no one else.

A position is the realm's mat (figures, ideas, standing orders), its pieces (units, leaders,
provinces it owns, controls or holds a core in), its relations (wars, truces, alliances,
marriages, Casus Belli, claims, Influence, vassals) and where the game stands for it (the round,
phase and step, whose action it is, whether it passed or surrendered, the rules in force).  The
map itself (areas, seas, borders) is no one's position.
"""
from __future__ import annotations

from . import sequence
from . import state as st

#: the mat's figures, with the word a player reads
FIGURES = (("kind", "kind"), ("religion", "religion"), ("capital", "capital"), ("overlord", "overlord"),
           ("prestige", "prestige"), ("stability", "stability"), ("ducats", "Ducats"),
           ("manpower", "manpower pool"), ("exhausted", "exhausted manpower"), ("allied", "allied units"),
           ("ruler", "ruler on the map"), ("loans", "loans"), ("colonists", "colonists"))
UNIT_WORDS = {"inf": "infantry", "cav": "cavalry", "art": "artillery", "light": "light ships",
              "heavy": "heavy ships", "damaged": "damaged ships"}
RULES = ("version", "advanced", "npr_invasions", "no_surrender", "refresh_manpower")


def _units(here: dict) -> str:
    parts = []
    for key, n in sorted(here.items()):
        if not isinstance(n, int) or not n:
            continue
        prefix, _, base = key.rpartition("_")
        word = UNIT_WORDS.get(base, base)
        if n == 1 and word.endswith(" ships"):
            word = word[:-1]
        parts.append(f"{n} {(prefix + ' ') if prefix else ''}{word}")
    return ", ".join(parts) or "none"


def _others(state: dict, keys, realm: str) -> list[str]:
    """The other realm of every ``a|b`` key naming ``realm``."""
    out = []
    for key in keys:
        a, _, b = key.partition("|")
        if realm in (a, b):
            out.append(b if a == realm else a)
    return sorted(out)


def position(state: dict, realm: str) -> dict[str, str]:
    """``realm``'s facts, labelled (an empty dict for a realm the game does not hold)."""
    mat = state["realms"].get(realm)
    if mat is None:
        return {}
    out = {label: str(mat.get(key)) for key, label in FIGURES}
    out["ideas"] = ", ".join(sorted(mat.get("ideas", []))) or "none"
    out["standing orders"] = ", ".join(f"{k} {v}" for k, v in sorted(mat.get("standing", {}).items())) or "none"
    out["discovered"] = ", ".join(sorted(mat.get("discovered", []))) or "none"
    for key, here in sorted(state["units"].items()):
        if here.get(realm):
            out[f"units at {st.place_name(key)}"] = _units(here[realm])
    for ld in state["leaders"].get(realm, []):
        out[f"leader {ld['name']}"] = (f"at {ld['at']}" if ld.get("at") else "in hand") + (
            f", dice {', '.join(ld['dice'])}" if ld.get("dice") else "") + (", the ruler" if ld.get("ruler") else "")
    if state["bonus"].get(realm):
        out["battle bonus"] = str(state["bonus"][realm])
    for name, prov in sorted(state["provinces"].items()):
        if realm in (prov.get("owner"), prov.get("controller")) or realm in prov.get("cores", []):
            out[f"province {name}"] = (f"owner {prov.get('owner') or 'none'}, controller "
                                       f"{prov.get('controller') or 'none'}, cores "
                                       f"{', '.join(prov.get('cores', [])) or 'none'}, unrest {prov.get('unrest', 0)}")
    out["at war with"] = ", ".join(st.enemies(state, realm)) or "no one"
    out["truces with"] = ", ".join(_others(state, state["truces"], realm)) or "no one"
    allies = [f"{o}{' (active)' if state['alliances'][st.pair(realm, o)].get('active') else ''}"
              for o in _others(state, state["alliances"], realm)]
    out["alliances"] = ", ".join(allies) or "none"
    marriages = [f"{k.replace('|', ' with ')}{' (disputed)' if v == 'disputed' else ''}"
                 for k, v in sorted(state["marriages"].items()) if realm in k.split("|")]
    out["royal marriages"] = ", ".join(marriages) or "none"
    out["Casus Belli held"] = ", ".join(sorted(f"on {c['target']} ({c['type']})" for c in state["cbs"]
                                               if c["holder"] == realm)) or "none"
    out["Casus Belli others hold on it"] = ", ".join(sorted(f"{c['holder']} ({c['type']})" for c in state["cbs"]
                                                      if c["target"] == realm)) or "none"
    out["claims"] = ", ".join(sorted(a for a, who in state["claims"].items() if realm in who)) or "none"
    out["Influence"] = ", ".join(f"{a} {here[realm]}" for a, here in sorted(state["influence"].items())
                                 if here.get(realm)) or "none"
    out["vassals"] = ", ".join(sorted(r for r, d in state["realms"].items() if d.get("overlord") == realm)) or "none"
    out["Emperor"] = "yes" if state.get("emperor") == realm else "no"
    out["the game"] = f"round {state['round']}, {sequence.row(state).title}" + (
        f", step {state['step']}" if state.get("step") and state["phase"] == "p3" else "")
    out["acting now"] = "yes" if state.get("active") == realm else "no"
    out["passed"] = "yes" if realm in state["passed"] else "no"
    out["surrendered to"] = ", ".join(sorted(v for lo, v in state["surrendered"] if lo == realm)) or "no one"
    out["rules in force"] = ", ".join(f"{k}={state.get(k)}" for k in RULES if k in state)
    return out
