"""What each realm reads after every action and phase: what happened (battle
reports with every round's dice, hits and casualties), its treasury, wars,
truces, alliances, units and provinces, and what it may do now."""
from __future__ import annotations

from . import state as st
from . import victory as vc
from .peace import HOW, TERM_WORDS

STANDING = {"white_peace": "nothing occupied: automatic white peace in Phase 3",
            "total": "your Total Victory", "partial": "your Partial Victory", "inconclusive": "inconclusive",
            "none": "at peace"}
CONDITION = {"total": "{}'s Total Victory", "partial": "{}'s Partial Victory",
             "inconclusive": "an inconclusive war", "white_peace": "nothing occupied"}
FACE = {"f": "inf", "g": "inf+", "h": "cav", "i": "art", "blank": "-"}


def _n(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _lost(cas: dict) -> str:
    return "; ".join(f"{r} lost {len(ks)} ({', '.join(k.replace('_', ' ') for k in ks)})"
                     for r, ks in sorted(cas.items())) or "no casualties"


def event_line(e: dict, reader: str | None) -> str | None:
    k = e.get("kind")
    if k == "action":
        return f"{e['realm']}: {e['order']}"
    if k == "pass":
        return f"{e['realm']} passes."
    if k == "war":
        return f"{e['aggressor']} declares war on {e['target']} (CB: {e['cb']})."
    if k == "cta":
        why = f" ({e['why']})" if e.get("why") and e["answer"] != "accepted" else ""
        kind = "Defensive" if e["defensive"] else "Offensive"
        return f"{kind} Call to Arms from {e['from']} to {e['to']}: {e['answer']}{why}."
    if k == "active_ally":
        return f"{e['npr']} becomes {e['pr']}'s Active Ally ({_n(e['allied_units'], 'allied unit')})."
    if k == "battle_start":
        return f"Battle {'at sea ' if e['naval'] else ''}in {e['area']}: {e['attacker']} attacks ({e['why']})."
    if k == "battle_round":
        d = e["dice"]
        led = [f"{e[side]}'s {e[side + '_leader']}" for side in ("attacker", "defender")
               if e.get(side + "_leader", "none") != "none" and e["round"] == 1]
        return (f"  Round {e['round']}: {e['attacker']} rolled {' '.join(FACE[f] for f in d['attacker'])} "
                f"({_n(e['hits']['attacker'], 'hit')}); {e['defender']} rolled {' '.join(FACE[f] for f in d['defender'])} "
                f"({_n(e['hits']['defender'], 'hit')}). {_lost(e['casualties'])}."
                + (f" Wounded: {', '.join(e['wounds'])}." if e.get("wounds") else "")
                + (f" Leading: {' and '.join(led)}." if led else ""))
    if k == "battle":
        return f"Battle in {e['area']} over after {_n(e['round'], 'round')}: winner {e['winner']}."
    if k == "retreat":
        return f"{e['realm']} retreats from {e['area']} to {e['to']} ({_lost(e['lost'])})."
    if k == "move":
        return f"{e['realm']} moves {e['units']} units: {' -> '.join(e['path'])}."
    if k == "naval_move":
        return f"{e['realm']} sails {e['ships']} ships from {e['from']} to {e['to']}."
    if k == "recruit":
        cat = "" if e["category"] == "regular" else f" {e['category']}"
        return f"{e['realm']} recruits {e['n']}{cat} {e['unit']} in {e['where']} for {e['ducats']} Ducats."
    if k == "siege":
        return f"{e['realm']} besieges {e['area']} (strength {e['strength']}): {', '.join(e['provinces'])}."
    if k in ("occupied", "returned"):
        return f"  {e['province']} {'is occupied by ' + e['by'] if k == 'occupied' else 'returns to ' + str(e['owner'])}."
    if k == "peace":
        return (f"Peace between {e['victor']} and {e['loser']}: {TERM_WORDS.get(e['term'], e['term'])}, "
                f"{HOW.get(e.get('how', ''), e.get('how') or 'concluded')} ({CONDITION.get(e['condition'], '{}').format(e['victor'])})"
                + (f"; treaty record {e['treaty']}" if e.get("treaty") else "") + ".")
    if k == "truce":
        return f"Truce between {e['a']} and {e['b']}" + (
            f" until Phase 3 of round {e['until']}." if e.get("until") else ".")
    if k in ("prestige", "stability", "ducats", "manpower"):
        sign = "+" if e["delta"] > 0 else ""
        return f"{e['realm']}: {sign}{e['delta']} {k} ({e['reason']})."
    if k == "monarch_power":  # the realm's own mat: the moderator shows it to the realm alone
        sign = "+" if e["delta"] > 0 else ""
        return f"{e['realm']}: {sign}{e['delta']} {e['type']} power on your mat ({e['reason']})."
    if k == "alliance":
        return f"Alliance between {e['a']} and {e['b']}."
    if k == "alliance_ended":
        return f"The alliance of {e['a']} and {e['b']} ends ({e['reason']})."
    if k == "marriage":
        return f"Royal marriage: {e['a']} and {e['b']}."
    if k == "influence":
        return f"{e['realm']}: {e['delta']:+d} Influence in {e['area']} ({e['reason']})."
    if k == "vassal":
        return f"{e['realm']} becomes a vassal of {e['overlord']}."
    if k == "annexed":
        return f"{e['realm']} is annexed by {e['by']}."
    if k == "rebels":
        return f"Rebels in {e['area']}: {e['action']}" + (f" to {e['to']}" if e.get("to") else "") + "."
    if k == "rebel_dice":
        return f"Rebel dice for {e['realm']} in {e['area']}: {', '.join(e['results'])}."
    if k == "rebel_town":
        return f"Rebels hold {e['province']}."
    if k == "liberated":
        return f"{e['province']} is liberated and goes to {e['to']}."
    if k == "npr_invasion":
        return f"{e['npr']} invades {e['area']} with {e['units']} units."
    if k == "unrest":
        return f"Unrest in {', '.join(e['provinces'])} ({e['reason']})."
    if k == "refused":
        return f"{e['realm']}'s {e['order']} could not be carried out: {e['message']}"
    if k == "default_decision":
        return f"No answer from {e['realm']}: the default applies ({e['decision']})."
    if k == "peace_refused":
        return f"{e['realm']}'s {e['term'].replace('_', ' ')} with {e['against']} did not happen: {e['why']}."
    if k == "peace_moot":
        return f"{e['realm']}'s {e['order']}: the war with {e['against']} had already ended."
    if k == "deal":
        return f"Deal between {e['a']} and {e['b']}: {'; '.join(e['lines'])}."
    if k == "deal_offered":
        return f"{e['from']} offers {e['to']} a deal: {'; '.join(e['lines'])} (the same text from {e['to']} concludes it)."
    if k == "surrender":
        return f"{e['loser']} surrenders to {e['victor']}."
    if k == "phase":
        return "Every realm has passed: the Peace & Rebels phase begins."
    if k == "free_action":
        return f"Free action: {e['order']}" + (f" not taken ({e['skipped']})." if e.get("skipped") else ".")
    if k == "siege_skipped":
        return f"No siege in {e['area']}: {e['why']}"
    if k == "leader_died":
        return f"{e['realm']}'s leader {e['leader']} dies" + (" (the ruler: Interregnum)." if e.get("ruler") else ".")
    if k == "captured":
        return f"{e['realm']} captures {e['ships']} ships in {e['sea']}."
    if k == "relocated":
        return f"{e['realm']} brings its units home from {e['from']} to {e['to']}."
    if k == "decision_needed":
        what = {"cta": "a Call to Arms", "retreat": "whether to retreat",
                "leader": "which leader commands in the battle"}[e["decision"]]
        return f"{e['realm']} is asked by mail about {what} (no answer: {e['default']})."
    if k == "ships_left_port":
        return f"{e['realm']}'s ships leave the port of {e['port']}, no longer friendly: " + (
            "disbanded." if e["to"] == "disbanded" else f"to {e['to']}.")
    if k == "appointed":
        return f"{e['realm']} appoints {e['leader']} to lead its forces in {e['at']}" + (
            " as the battle begins." if e.get("battle") else ".")
    if k == "repaired":
        return f"{e['realm']}: {_n(e['ships'], 'damaged Heavy Ship')} repaired in the port of {e['port']}."
    if k == "manpower_refreshed":
        return f"{e['realm']}: {e['n']} exhausted manpower refreshed ({e['reason']})."
    if k == "imperial_authority":
        return f"Imperial Authority {e['delta']:+d}, now {e['value']} ({e['reason']})."
    if k == "hre_dissolved":
        return f"{e['by']} annexes the Emperor's realm: the Holy Roman Empire is dissolved."
    if k == "cb" and e.get("reason"):
        return f"{e['holder']} gains a CB token against {e['against']} ({e['reason']})."
    if k == "gm_edit":
        return f"GM: {e['text']}"
    return None


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
