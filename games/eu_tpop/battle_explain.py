"""Why a battle round went as it did, told to those who fought it (9.6-9.9).

A round is told three ways (audiences.py):

- ``battle_round``, public: what the table sees, the dice as rolled, the hits, the units taken
  off the board and the leaders wounded;
- ``battle_detail``, to the realms that fought in it: each side's units and strength, every
  Battle Die with its cause (the 3 base dice, the leader's, a battle action the GM ruled on),
  the icons rolled and the units they were matched to (9.7 steps 3-4, 9.9 steps 3-4), and
  the NPR units defending with the capacity they came from (9.7, 11.3, 13.4);
- ``casualties_chosen``, to each realm that lost units: which of its orders chose them
  (``STANDING CASUALTIES`` or its default, 9.7 step 4; 9.9 step 4 at sea).

Choice (choices/warfare.md, Battle reports): a realm that did not fight reads the public round
only; a realm's casualty order is its own, as its standing orders are.
"""
from __future__ import annotations

from pbem.kit import audience

from . import state as st

#: what a die shows, in words (the scenario's dice table maps each number to one of these)
FACE_WORD = {"f": "infantry", "g": "infantry (outlined)", "h": "cavalry", "i": "artillery", "blank": "nothing"}


def parties(state: dict, item: dict, sides: dict) -> list[str]:
    """The realms that fought this round: every realm with units on either side."""
    out = []
    for side in ("attacker", "defender"):
        for r in sides[side]["forces"]:
            name = r.removeprefix("npr:")
            if r != st.REBELS and name in state["realms"] and name not in out:
                out.append(name)
    return out


def _npr_note(state: dict, npr: str, naval: bool) -> str:
    cap = "Naval Capacity" if naval else "Military Capacity"
    halved = ", halved: an Active Ally (11.3)" if st.active_ally_of(state, npr) else ""
    return f"defending with its {cap} here (13.4){halved}"


def round_events(state: dict, item: dict, sides: dict, lost: dict) -> list[dict]:
    """The party-only explanation of one round and each loser's casualty order."""
    naval = item["naval"]
    who = parties(state, item, sides)
    detail = {"kind": "battle_detail", "area": item["loc"], "round": item["round"], "naval": naval,
              "attacker": item["attacker"], "defender": item.get("main_defender") or "none", "sides": {}}
    for side, d in sides.items():
        detail["sides"][side] = {
            "forces": {r.removeprefix("npr:"): dict(t) for r, t in d["forces"].items()},
            "npr": {r.removeprefix("npr:"): _npr_note(state, r.removeprefix("npr:"), naval)
                    for r in d["forces"] if r.startswith("npr:")},
            "types": dict(d["types"]), "icons": dict(d["icons"]), "hits": d["hits"],
            "dice": [[kind, why, n, face] for (kind, why), n, face in zip(d["dice"], d["rolls"], d["faces"])]}
    audience.tag(detail, audience.powers(who))
    out = [detail]
    for realm, keys in sorted(lost.items()):
        if realm not in state["realms"] or st.kind(state, realm) == "NPR":
            continue
        chosen = {"kind": "casualties_chosen", "realm": realm, "area": item["loc"], "round": item["round"],
                  "lost": list(keys), "by": _casualty_order(state, realm, naval)}
        audience.tag(chosen, audience.powers([realm]))
        out.append(chosen)
    return out


def _casualty_order(state: dict, realm: str, naval: bool) -> str:
    standing = state["realms"][realm].get("standing", {}).get("casualties", "")
    if standing:
        return f"your standing order STANDING CASUALTIES {standing}"
    if naval:
        return "the default order (no STANDING CASUALTIES): Light Ships before Heavy (9.9 step 4)"
    return ("the default order (no STANDING CASUALTIES): infantry, then cavalry, then artillery, Mercenary, "
            "Regular and Allied units in turn (9.7 step 4)")


# -- words (sentences.py tells these events) ---------------------------------------------

def units_words(types: dict, naval: bool) -> str:
    if naval:
        heavy = f", {types.get('heavy', 0)} Heavy" if types.get("heavy") else ""
        return f"{_n(types.get('ships', 0), 'ship')}{heavy}"
    return ", ".join(f"{n} {t}" for t, n in types.items() if n) or "no units"


def dice_words(dice: list) -> str:
    """'3 infantry (base), infantry and cavalry (leader Turenne)': the dice grouped by cause."""
    groups: dict[str, list[str]] = {}
    for kind, why, *_ in dice:
        groups.setdefault(why, []).append(kind)
    parts = []
    for why, kinds in groups.items():
        same = len(set(kinds)) == 1
        parts.append(f"{len(kinds)} {kinds[0]}" if same else " and ".join(kinds))
        parts[-1] += f" ({why})"
    return ", ".join(parts)


def hits_words(d: dict, naval: bool) -> str:
    """The icons rolled matched to the side's units: one hit per unit (9.7 step 4), and each Heavy
    Ship's sure hit at sea (9.9 step 3)."""
    got, have = d["icons"], d["types"]
    if naval:
        sure = f" + {have.get('heavy', 0)} from Heavy Ships" if have.get("heavy") else ""
        return (f"{_n(got['ships'], 'artillery icon')} against {_n(have['ships'], 'ship')}: "
                f"{min(got['ships'], have['ships'])}{sure} = {_n(d['hits'], 'hit')}")
    words = {"inf": "infantry", "cav": "cavalry", "art": "artillery"}
    used = ", ".join(f"{_n(got[t], words[t] + ' icon')} against {have[t]} {t}: {min(got[t], have[t])}"
                     for t in ("inf", "cav", "art") if got[t] or have[t])
    return f"{used or 'no icons'} = {_n(d['hits'], 'hit')}"


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def side_words(name: str, role: str, d: dict, naval: bool) -> str:
    alone = list(d["forces"]) == [name]
    forces = "; ".join(("" if alone else f"{r} ") + units_words(t, naval)
                       + (f" ({d['npr'][r]})" if r in d["npr"] else "") for r, t in d["forces"].items())
    rolls = " ".join(f"{n} ({FACE_WORD.get(face, face)})" for _, _, n, face in d["dice"])
    return (f"{name} {role} with {forces or 'no units'}; {len(d['dice'])} dice: {dice_words(d['dice'])}; "
            f"rolled {rolls}; {hits_words(d, naval)}")


def _land(t: dict) -> str:
    return units_words(t, False)
