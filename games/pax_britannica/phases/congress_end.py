"""The end of a Congress of Europe: a treaty adopted by the vote, signed or refused, and the
Congress succeeding or failing; after a failure the decision on War.

Rules: CONGRESS OF EUROPE; MINOR POWER/GREAT POWER STATUS CONFLICTS; TREATIES.
"""
from __future__ import annotations

from pbem.kit import treatybook
from pbem.kit.state_copy import copy_state

from ..core import board, congress_rules as cr, declarations, disputes, treaties, treaty_records
from ..core.clauses import named_powers
from .negotiation import each_order
from ..core.state import by_rules_order

MINOR_SUPPORT_VP, MINOR_SUPPORT_ETI = -5, 3  # Rules: MINOR POWER/GREAT POWER STATUS CONFLICTS


def step_to(c: dict, step: str, round_no: int | None = None) -> dict:
    c["step"] = step
    if round_no is not None:
        c["round"] = round_no
    return {"kind": "congress_step", "step": step, "round": c["round"], "site": c["site"]}


def adopt(state: dict, c: dict, proposal: dict) -> list[dict]:
    """Rules: CONGRESS OF EUROPE - "If a Treaty is passed, all parties to the original dispute are
    asked to sign"; clauses on other powers bind them only if they sign (the Kongo/Korea
    example), so they are asked too."""
    parties = cr.disputants(state, c)
    asked = set(parties)
    for clause in proposal["terms"]:
        asked |= set(cr.speakers(state, treaties.binds(clause, parties, state)))
        asked |= set(cr.speakers(state, [p for p in _named(clause)]))
    signers = by_rules_order(asked)
    at = f"{state['turn']} Congress"
    text = "\n".join([t["text"] for t in proposal["terms"]] + ([proposal["text"]] if proposal["text"] else []))
    record = treatybook.new_record(proposal["id"], proposal["by"], signers, text, False, at,
                                   key=treatybook.free_key(state, proposal["id"], "Congress"))
    record.update({"signatures": {}, "terms": copy_state(proposal["terms"]), "congress": True,
                   "answer_with": f"ORDERS / SIGN {proposal['id']} or REFUSE {proposal['id']} / ENDORDERS "
                                  "(the Congress's signature step)",
                   "clauses": [t["text"] for t in proposal["terms"]], "turn": state["turn"]})
    record["history"].append({"at": at, "who": "the Congress", "action": "passed"})
    treatybook.store(state, record)
    # the id everyone reads, and the key the treaty is kept under (its own, should a secret
    # treaty have that id)
    c["adopted"], c["adopted_key"], c["signers"] = proposal["id"], treatybook.key_of(record), signers
    return [treaty_records.treaty_event(record, "passed by the Congress"), step_to(c, "sign")]


def _named(clause: dict) -> list[str]:
    return named_powers(clause)


def sign(state: dict, data, c: dict, orders: dict) -> list[dict]:
    record = state["treaties"][c.get("adopted_key") or c["adopted"]]
    at = f"{state['turn']} Congress"
    answers: dict[str, str] = {}
    for who, o in each_order(orders, ("sign", "refuse")):
        answers.setdefault(cr.speaker(state, who) or who, o.kind)
    for p in cr.disputants(state, c):
        answers.setdefault(p, "sign")
    events = []
    for p in c["signers"]:
        if answers.get(p) == "sign":
            record["signatures"][p] = at
        elif answers.get(p) == "refuse":
            record["refusals"][p] = at
        if p in answers:
            record["history"].append({"at": at, "who": p, "action": answers[p]})
            events.append({"kind": "congress_signature", "id": record["id"], "power": p,
                           "signed": answers[p] == "sign"})
    c["signatures"], refusers = dict(record["signatures"]), [p for p in cr.disputants(state, c)
                                                              if answers.get(p) == "refuse"]
    c["refusals"] = refusers
    if refusers:
        record["status"] = "refused"
        events.append(treaty_records.treaty_event(record, "refused"))
        _status(c, record["id"], "refused")
        return events + fail(state, data, c, f"{', '.join(refusers)} refused to sign", refusers, refusers)
    return events + succeed(state, data, c, record)


def _status(c: dict, pid: str, status: str) -> None:
    for p in c["proposals"]:
        if p["id"] == pid:
            p["status"] = status


def succeed(state: dict, data, c: dict, record: dict) -> list[dict]:
    """Every party signed: the treaty comes into force, markers are altered as it says, and the
    disputes before the Congress are settled."""
    record["status"] = treatybook.IN_FORCE
    _status(c, record["id"], "signed")
    disputants = set(cr.disputants(state, c))
    skip = tuple(i for i, clause in enumerate(record["terms"])
                 if any(s not in disputants and s not in record["signatures"]
                        for s in cr.speakers(state, treaties.binds(clause, record["parties"], state))))
    before = copy_state(state)
    events = [treaty_records.treaty_event(record, "in force")]
    events += treaties.come_into_force(state, data, record, free_codominions=True, skip=skip)
    for i in skip:
        events.append({"kind": "clause_void", "id": record["id"], "clause": record["terms"][i]["text"],
                       "reason": "a power it binds, not a party to the dispute, did not sign"})
    events += restore_minor_rights(state, before, c)
    for cb_id in c["cbs"]:
        cb = disputes.find(state, cb_id)
        if cb and not disputes.at_war(state, cb["holder"], cb["against"]):
            events.append(board.remove_cb(state, cb, f"settled by the Congress ({record['id']})"))
    c["outcome"] = "resolved"
    events += disputes.clear_all(state, data, "settled by the Congress", cr.areas(c))
    return [e for e in events if e] + [step_to(c, "closed")]


def restore_minor_rights(state: dict, before: dict, c: dict) -> list[dict]:
    """Rules: MINOR POWER/GREAT POWER STATUS CONFLICTS - a Congress that rules against the Great
    Power protects the Minor Power.  Choice: when the treaty removes the Control marker that
    displaced a defended Minor Power's Influence, that Influence comes back (no tension)."""
    events = []
    for area, d in sorted(c.get("defended", {}).items()):
        if board.has_control(before, d["placer"], area) and not board.has_control(state, d["placer"], area) \
                and not board.controllers(state, area) \
                and board.rank(board.status_of(state, area, d["minor"])) < board.rank("influence"):
            events.append(board.set_marker(state, d["minor"], area, "influence", True,
                                           "rights upheld by the Congress"))
    return events


def rules_against(state: dict, data, c: dict, placer: str, area: str) -> bool:
    """Whether the treaty passed takes the placer's Control of a defended Area away."""
    pid = c.get("adopted")
    proposal = next((p for p in c["proposals"] if p["id"] == pid), None)
    if proposal is None:
        return False
    sim = cr.simulate(state, data, proposal["terms"])
    return board.has_control(state, placer, area) and not board.has_control(sim, placer, area)


def fail(state: dict, data, c: dict, why: str, refusers: list[str], blamed: list[str],
         hold: bool = True) -> list[dict]:
    """Rules: EUROPEAN TENSION INCREASES - an unresolved Congress adds 3 for each Casus Belli put
    before it that remains unresolved, then 2 for each power that refused to sign; CONGRESS OF
    EUROPE - a refusal gives every other member a Casus Belli against the refuser.
    Choice: the 3s are blamed on the refusers (or the powers that went to War), else nobody."""
    c["outcome"] = "failed"
    events = [{"kind": "congress_failed", "reason": why, "refused": list(refusers), "site": c["site"]}]
    unresolved = [i for i in c["cbs"] if disputes.find(state, i)]
    c["unresolved"] = unresolved
    if unresolved:
        events.append(board.add_eti(state, 3 * len(unresolved),
                                    f"the Congress failed: {len(unresolved)} Casus Belli unresolved",
                                    by_rules_order(blamed) or None))
    for p in refusers:
        events.append(board.add_eti(state, 2, f"{p} defied the Congress by refusing to sign", p))
        for member in c["members"]:
            if member not in (p, "Austria-Hungary" if p == "Germany" else p) and board.is_great(state, member):
                events.append(board.add_cb(state, member, p, None, f"{p} refused the Congress's treaty",
                                           cause="congress_refusal", rule="CB-07"))
        for area, d in sorted(c.get("defended", {}).items()):
            if d["placer"] == p and rules_against(state, data, c, p, area):
                events += declarations.record(state, d["minor"], [p], "congress/sign", player=False)
                c.setdefault("obligated", []).extend(
                    {"power": dfd, "against": p, "minor": d["minor"], "area": area} for dfd in d["defenders"])
    events = [e for e in events if e]
    # Choice: the rules' "if all players who have a Casus Belli decide not to declare War" needs
    # a moment to decide after the failure: a last order window, when something hangs on it.
    if hold and not state.get("great_war") and (c.get("obligated") or any(
            disputes.illegal_markers(state, a) for a in cr.areas(c))):
        return events + [step_to(c, "decide")]
    events += disputes.clear_all(state, data, "the Congress failed", cr.areas(c))
    return events + [step_to(c, "closed")]


def decide(state: dict, data, c: dict, orders: dict) -> list[dict]:
    """After a failed Congress: "If all players who have a Casus Belli decide not to declare War
    ... the markers of the players who originally had Casus Belli, but refuse to use them to
    declare war, are removed from the Area, any Military Units illegally in the Area are removed
    to their Home Countries"; a defender of a Minor Power that does not join its War "loses 5
    Victory Points and the European Tensions Index is immediately increased by 3"."""
    events = []
    for o in c.get("obligated", []):
        if state.get("great_war"):
            break
        if disputes.at_war(state, o["power"], o["against"]):
            continue
        if o["power"] in state.get("players", []):
            events.append(board.add_vp(state, o["power"], MINOR_SUPPORT_VP,
                                       f"did not defend {o['minor']} against {o['against']}"))
        events.append(board.add_eti(state, MINOR_SUPPORT_ETI, f"{o['power']} failed to defend "
                                    f"{o['minor']}", o["power"]))
    # "A player can declare War against him, in which case the dispute will be resolved on
    # the field of battle": an Area whose parties went to War (with anyone) is left for it.
    fighting = {p for d in state.get("declarations", []) if d.get("turn") == state["turn"]
                for p in [d["by"], *d["against"]]}
    calm = [a for a in cr.areas(c)
            if not (set(board.markers_in(state, a)) | area_parties(state, a)) & fighting]
    events += disputes.clear_all(state, data, "no War over the failed Congress", calm)
    return events + [step_to(c, "closed")]


def area_parties(state: dict, area: str) -> set[str]:
    return disputes.parties(state, [cb for cb in disputes.current(state) if cb.get("area") == area])
