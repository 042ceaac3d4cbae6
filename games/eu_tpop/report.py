"""What each realm reads after every action and phase: what happened (battle
reports with every round's dice, hits and casualties), its treasury, wars,
truces, alliances, units and provinces, and what it may do now."""
from __future__ import annotations

from . import state as st
from . import victory as vc
from .sentences import plural as _n

STANDING = {"white_peace": "nothing occupied: automatic white peace in Phase 3",
            "total": "your Total Victory", "partial": "your Partial Victory", "inconclusive": "inconclusive",
            "none": "at peace"}


def status(state: dict, realm: str) -> list[str]:
    rd = state["realms"][realm]
    out = [f"{realm}: prestige {rd['prestige']}, stability {rd['stability']:+d}, {rd['ducats']} Ducats, "
           f"manpower {rd['manpower']} available / {rd['exhausted']} exhausted"
           + (f", {_n(rd['allied'], 'allied unit')}" if rd["allied"] else "")
           + ("" if rd["ruler"] else ", INTERREGNUM")]
    wars = st.enemies(state, realm)
    if wars:
        out.append("At war with: " + ", ".join(f"{e} ({STANDING[vc.condition(state, realm, e)]})" for e in wars))
    truces = [t.replace("|", "").replace(realm, "") for t in state["truces"] if realm in t.split("|")]
    if truces:
        out.append("Truces: " + ", ".join(sorted(truces)))
    allies = st.allies(state, realm)
    if allies:
        out.append("Allies: " + ", ".join(a + (" (active)" if st.alliance(state, realm, a).get("active") else "")
                                         for a in allies))
    married = {k.split("|")[1]: v for k, v in state["marriages"].items() if k.startswith(realm + "|")}
    if married:
        out.append("Marriages: " + ", ".join(f"{r}{' (disputed)' if v == 'disputed' else ''}"
                                            for r, v in sorted(married.items())))
    provs = st.provinces_of(state, realm)
    out.append("Provinces: " + (", ".join(p + ("" if not st.occupied(state, p) else
                                               f" (held by {state['provinces'][p]['controller']})")
                                          + (" [unrest]" if state["provinces"][p]["unrest"] else "")
                                          for p in provs) or "none"))
    held = [p for p, d in state["provinces"].items() if d["controller"] == realm and d["owner"] != realm]
    if held:
        out.append("Occupying: " + ", ".join(held))
    units = []
    for loc in sorted(state["units"]):
        u = state["units"][loc].get(realm)
        if u:
            units.append(f"{st.place_name(loc)} " + " ".join(f"{k.replace('_', ' ')} {n}" for k, n in sorted(u.items()) if n))
    out.append("Units: " + ("; ".join(units) or "none"))
    leaders = [f"{ld['name']} ({', '.join(ld['dice']) or 'no dice'}"
               + (", ruler" if ld.get("ruler") else "") + (f", {ld['wounds']} wound" if ld.get("wounds") else "")
               + f") {'with your forces in ' + st.place_name(ld['at']) if ld.get('at') else 'in hand'}"
               for ld in state["leaders"].get(realm, [])]
    if leaders:
        out.append("Leaders: " + "; ".join(leaders))
    vs = st.vassals(state, realm)
    if vs:
        out.append("Vassals: " + ", ".join(vs))
    return out


def next_steps(state: dict, realm: str | None) -> list[str]:
    phase = state["phase"]
    if state.get("over"):
        return ["The game is over."]
    if phase == "action":
        if realm == state["active"]:
            return ["It is your turn: send ORDERS with one action (or PASS)."]
        return [f"{state['active']} is acting. You may send STANDING orders at any time."]
    if phase == "reaction":
        p = state["pending"]
        if realm == p["realm"]:
            if p["kind"] == "cta":
                return [f"{p['caller']} calls you to arms against {', '.join(p['enemies'])}: send ACCEPT [ACTIVE|INACTIVE] "
                        f"or REFUSE (no answer: {p['default']})."]
            if p["kind"] == "leader":
                side = "you attack" if p["attacker"] else "you defend"
                where = {ld["name"]: ("with your forces there" if ld.get("at") == p["loc"] else "in hand")
                         for ld in state["leaders"].get(realm, [])}
                choices = ", ".join(f"{c} ({where.get(c, 'in hand')})" for c in p["choices"])
                return [f"Battle in {p['loc']} ({side}): which leader commands? Send LEADER <name>, BEST or NONE; "
                        f"you may choose {choices}. A leader in hand is appointed now (9.7 step 1: 1 or 2 "
                        f"military power, a Ruler free). No answer: {p['default']}."]
            return [f"Battle in {p['loc']} after round {p['round']}: send RETREAT [TO <area>] or FIGHT "
                    f"(no answer: {p['default']})."]
        return [f"Waiting for {p['realm']}'s decision."]
    if phase == "p3" and state.get("step") == "D" and realm in state["order"] and st.enemies(state, realm):
        lines = ["Peace Resolution: send ENFORCE, OFFER WHITE PEACE, SURRENDER, NEGOTIATE or KEEP WAR for each war."]
        for e in st.enemies(state, realm):
            cond = vc.condition(state, realm, e)
            if cond == "white_peace":
                lines.append(f"  {e}: {STANDING[cond]} (nothing to send)")
            elif vc.peace_party(state, e, realm) != e:
                lines.append(f"  {e}: {vc.peace_party(state, e, realm)}'s Active Ally: its peace is made with "
                             f"{vc.peace_party(state, e, realm)}" + (f" (or {', '.join(vc.terms(state, realm, e))} "
                                                                     "on it alone)" if vc.terms(state, realm, e) else ""))
            else:
                lines.append(f"  {e}: {STANDING[cond]}; terms you may enforce: "
                             f"{', '.join(vc.terms(state, realm, e)) or 'none (offer a white peace or keep the war)'}")
        return lines
    return []
