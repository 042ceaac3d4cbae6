"""What each realm reads after every action and phase, as data the templates draw
(templates/report.txt.j2 for the text, templates/report.html.j2 for HTML mail): what
happened (one sentence per event, sentences.py: battle reports with every round's dice,
hits and casualties), its own sheet (treasury, wars, truces, alliances, units, provinces,
leaders), what it may do now, and the whole public board in words (board_words.py: the same
for every reader)."""
from __future__ import annotations

from . import board_words
from . import state as st
from .phases import peace_resolution
from . import templating
from . import victory as vc
from .sentences import sentence

STANDING = {"white_peace": "nothing occupied: automatic white peace in Phase 3",
            "total": "your Total Victory", "partial": "your Partial Victory", "inconclusive": "inconclusive",
            "none": "at peace"}
NOTHING = "Nothing happened that concerns you."


def report_data(state: dict, events, reader: str | None, next_steps: list[str]) -> dict:
    """Everything a report shows ``reader`` (None: the public or the GM), JSON data: the
    sentences of ``events`` (already only those the reader may see), the reader's sheet
    when it is a realm, and its next steps (the phase's, sequence.py)."""
    said = [line for e in events if (line := sentence(e))]
    return {"reader": reader, "round": state["round"], "over": bool(state.get("over")),
            "events": said, "nothing": bool(events) and not said,
            "sheet": sheet(state, reader) if reader in state["realms"] else None,
            "next_steps": next_steps, "board": board_data(state)}


def board_data(state: dict) -> dict | None:
    """The public board for the reports: its lines in three groups (realms, the tokens
    between them, the places), None before a map is set up."""
    if not state.get("areas"):
        return None
    b = board_words.board(state)
    return {"realms": [board_words.realm_line(r) for r in b["realms"]],
            "relations": board_words.relation_lines(b),
            "places": [board_words.area_line(a) for a in b["areas"]] + [board_words.sea_line(s) for s in b["seas"]]}


def text(data: dict) -> str:
    """The plain-text report: the same data through templates/report.txt.j2."""
    return templating.text("report.txt.j2", data=data).strip() + "\n"


def gm_lines(state: dict) -> list[str]:
    """What the GM's STATUS adds to the public board: every realm's own sheet (its leaders in
    hand among them) and its standing orders, which only the realm and the GM see."""
    out = ["Only the GM sees this part:"]
    named = [r for r in state["order"] if r in state["realms"]]
    for realm in named + sorted(r for r in state["realms"] if r not in named):
        out += [f"  {line}" for line in status(state, realm) if line.strip()]
        standing = state["realms"][realm].get("standing") or {}
        if standing:
            out.append("  standing orders: " + ", ".join(f"{k} {v}" for k, v in sorted(standing.items())))
    return out


def status(state: dict, realm: str) -> list[str]:
    """The realm's sheet in lines, as the text report shows it (templates/status.txt.j2)."""
    return templating.text("status.txt.j2", s=sheet(state, realm)).splitlines()


def sheet(state: dict, realm: str) -> dict:
    """The realm's own figures, wars (with how each stands, 10.1), truces, alliances,
    marriages, provinces, occupations, units, leaders and vassals."""
    rd = state["realms"][realm]
    figures = {k: rd[k] for k in ("prestige", "stability", "ducats", "manpower", "exhausted", "allied", "ruler")}
    married = {k.split("|")[1]: v for k, v in state["marriages"].items() if k.startswith(realm + "|")}
    return {
        "realm": realm, **figures,
        "wars": [{"enemy": e, "standing": STANDING[vc.condition(state, realm, e)]} for e in st.enemies(state, realm)],
        "truces": sorted(t.replace("|", "").replace(realm, "") for t in state["truces"] if realm in t.split("|")),
        "allies": [{"realm": a, "active": bool(st.alliance(state, realm, a).get("active"))}
                   for a in st.allies(state, realm)],
        "marriages": [{"realm": r, "disputed": v == "disputed"} for r, v in sorted(married.items())],
        "provinces": [{"name": p, "occupied": st.occupied(state, p), "held_by": state["provinces"][p]["controller"],
                       "unrest": bool(state["provinces"][p]["unrest"])} for p in st.provinces_of(state, realm)],
        "occupying": [p for p, d in state["provinces"].items() if d["controller"] == realm and d["owner"] != realm],
        "units": [{"place": st.place_name(loc), "pieces": [{"unit": k.replace("_", " "), "n": n}
                                                           for k, n in sorted(u.items()) if n]}
                  for loc in sorted(state["units"]) if (u := state["units"][loc].get(realm))],
        "leaders": [{"name": ld["name"], "dice": list(ld["dice"]), "ruler": bool(ld.get("ruler")),
                     "wounds": ld.get("wounds") or 0, "at": st.place_name(ld["at"]) if ld.get("at") else None,
                     # Choice (choices/warfare.md, Retreats): a leader stays where his army died
                     "alone": bool(ld.get("at")) and not any(
                         n for k, n in st.units_at(state, ld["at"]).get(realm, {}).items() if k != "damaged")}
                    for ld in state["leaders"].get(realm, [])],
        "vassals": list(st.vassals(state, realm)),
    }


def action_steps(state: dict, realm: str | None) -> list[str]:
    """The Action Phase: whose turn it is."""
    if realm == state["active"]:
        return ["It is your turn: send ORDERS with one action (or PASS)."]
    if realm is None:   # the public's report (the archive) and the GM's: no one to tell what to send
        return [f"{state['active']} is acting."]
    return [f"{state['active']} is acting. You may send STANDING orders at any time."]


def reaction_steps(state: dict, realm: str | None) -> list[str]:
    """A decision in the middle of an action: what the realm asked may answer."""
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


def over_steps(state: dict, realm: str | None) -> list[str]:
    """After the last round."""
    return ["The game is over."]


def peace_steps(state: dict, realm: str | None) -> list[str]:
    """Phase 3: in step D, the realm's wars and the terms it may enforce."""
    asked = [loser for v, loser in state.get("peace_asked", []) if v == realm]
    if state.get("step") == "D" and asked:
        # 10.2: the victor of a surrender enforces peace as after a Partial Victory, this round.
        return [f"Peace Resolution: {loser} surrendered to you: send ENFORCE <term> ON {loser} (terms you may "
                f"enforce: {', '.join(t for t in vc.terms(state, realm, loser) if t != 'negotiated_peace')}); "
                f"without an answer, keep_current_board_state applies." for loser in asked]
    if state.get("step") == "D" and peace_resolution.reopened(state):
        return [f"Peace Resolution: your NEGOTIATE texts with {e} differed (see above): send the same "
                f"NEGOTIATE {e} text as {e} does, or OFFER WHITE PEACE, ENFORCE or KEEP WAR for that war."
                for e in peace_resolution.asked_of(state, realm) if e not in asked]
    if state.get("step") == "D" and realm in state["order"] and st.enemies(state, realm):
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
                # 10.2: only a victor enforces terms; a Total Victory must be enforced (10.1 step 2).
                mine = [t for t in vc.terms(state, realm, e) if t != "negotiated_peace"] \
                    if cond in ("partial", "total") else []
                lines.append(f"  {e}: {STANDING[cond]}; terms you may enforce: "
                             f"{', '.join(mine) or 'none (offer a white peace or keep the war)'}"
                             + (" (you must enforce one)" if cond == "total" else ""))
        return lines
    return []
