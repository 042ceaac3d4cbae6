"""The Holy Roman Empire where the seeded sections and the facts they point to
(NOTES 3.1, 3.2, 3.4, 3.10) touch war and peace: Imperial Authority, the
Emperor's Defensive Call to Arms and its refusal, the Imperial Liberation CB,
declarations of war inside the Empire, and what a peace does to the Emperor.

The HRE chapter itself (pp. 43-45) is not seeded: Electors, Imperial Manpower,
an NPR Emperor's extra defenders and the subjects' contributions are left to
the GM (choices/warfare.md)."""
from __future__ import annotations

from . import state as st

#: Choice: Imperial Authority when a scenario gives none: 1, the least that lets the Emperor
#: defend the Empire (NOTES 3.10), so a scenario with an Emperor works without it.
DEFAULT_AUTHORITY = 1


def emperor(state: dict) -> str | None:
    e = state.get("emperor")
    return e if e in state["realms"] else None


def authority(state: dict) -> int:
    return int(state.get("imperial_authority", DEFAULT_AUTHORITY))


def change_authority(state: dict, delta: int, reason: str, events: list) -> None:
    """Imperial Authority never falls below 0 (Choice: the HRE chapter's bounds are not seeded)."""
    before = authority(state)
    state["imperial_authority"] = max(0, before + delta)
    if state["imperial_authority"] != before:
        events.append({"kind": "imperial_authority", "delta": state["imperial_authority"] - before,
                       "value": state["imperial_authority"], "reason": reason})


def defends(state: dict, aggressor: str, target: str) -> bool:
    """NOTES 3.2 step 3.2 and 3.10: a player Emperor is called to defend an HRE member an
    outsider declares war on, when Imperial Authority is at least 1 and he is at peace with it."""
    e = emperor(state)
    return bool(e and e not in (aggressor, target) and st.hre_member(state, target)
                and not st.hre_member(state, aggressor) and st.is_player(state, e)
                and not st.at_war(state, e, target) and authority(state) >= 1)


def refuse_defence(state: dict, item: dict, events: list) -> None:
    """NOTES 3.10: refusing to defend the HRE costs 1 Imperial Authority and nothing else
    (no alliance ends, no prestige, influence or truce follows: 11.3's refusal is an ally's)."""
    events.append({"kind": "cta", "from": item["caller"], "to": item["ally"], "defensive": True,
                   "answer": "refused", "why": "the Emperor does not defend the HRE"})
    change_authority(state, -1, f"the Emperor {item['ally']} refused to defend {item['caller']}", events)


def liberation_cb(state: dict, realm: str, target: str) -> bool:
    """NOTES 3.1 Imperial Liberation: the Emperor's CB against a non-HRE realm that controls
    provinces, or has vassals, inside the HRE."""
    if realm != emperor(state) or st.hre_member(state, target):
        return False
    family = st.family(state, target)
    for p, d in state["provinces"].items():
        if not state["areas"][d["area"]].get("hre"):
            continue
        if d["controller"] in family or (d["owner"] in family and d["owner"] != target):
            return True
    return False


def declared(state: dict, aggressor: str, target: str, cb: str | None, events: list) -> None:
    """NOTES 3.10 DoW inside the HRE without a CB: the Emperor declaring on a member loses 1
    Imperial Authority and 3 Influence in the HRE; a member declaring on a member gets a CB
    token from a player Emperor."""
    e = emperor(state)
    if not e or cb is not None or not st.hre_member(state, target):
        return
    if aggressor == e:
        change_authority(state, -1, f"the Emperor declared war on {target} without a CB", events)
        lost = _drop_hre_influence(state, e, 3)
        if lost:
            events.append({"kind": "influence", "realm": e, "delta": -lost, "area": "the HRE",
                           "reason": "war on an HRE member without a CB"})
    elif st.hre_member(state, aggressor) and st.is_player(state, e) and e != target:
        state["cbs"].append({"holder": e, "target": aggressor, "type": "token"})
        events.append({"kind": "cb", "holder": e, "against": aggressor,
                       "reason": f"war on the HRE member {target} without a CB"})


def _drop_hre_influence(state: dict, realm: str, n: int) -> int:
    """Influence removed from HRE Areas, largest stacks first, then alphabetically (Choice)."""
    areas = sorted((a for a, d in state["areas"].items() if d.get("hre")),
                   key=lambda a: (-st.influence(state, a, realm), a))
    lost = 0
    for area in areas:
        have = st.influence(state, area, realm)
        take = min(have, n - lost)
        if take:
            st.set_influence(state, area, realm, have - take)
            lost += take
    return lost


def before_peace(state: dict, loser: str) -> dict:
    """What :func:`after_peace` compares: the Emperor's HRE provinces and the loser's standing."""
    e = emperor(state)
    if not e:
        return {}
    mine = [p for p, d in state["provinces"].items()
            if d["owner"] in st.family(state, e) and state["areas"][d["area"]].get("hre")]
    return {"provinces": mine, "member": st.hre_member(state, loser),
            "same_religion": state["realms"][loser]["religion"] == state["realms"][e]["religion"]}


def after_peace(state: dict, victor: str, loser: str, term: str, before: dict, events: list) -> None:
    """NOTES 3.10 Peace with the Emperor: Imperial Authority +1 when the Emperor wins and cedes
    no HRE province, -1 when he loses; a Full Annexation of a member of the Emperor's religion
    costs him 1; fully annexing an NPR Emperor dissolves the HRE."""
    e = emperor(state)
    if not e or not before:
        return
    if term == "full_annexation" and loser == e:
        state["emperor"] = None
        events.append({"kind": "hre_dissolved", "by": victor})
        return
    ceded = [p for p in before["provinces"] if state["provinces"][p]["owner"] not in st.family(state, e)]
    if victor == e and term != "white_peace" and not ceded:
        change_authority(state, 1, f"the Emperor won the war with {loser}", events)
    elif loser == e and term != "white_peace":
        change_authority(state, -1, f"the Emperor lost the war with {victor}", events)
    if term == "full_annexation" and before["member"] and before["same_religion"]:
        change_authority(state, -1, f"{victor} annexed the HRE member {loser}", events)
