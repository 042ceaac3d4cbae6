"""The Congress of Europe Phase: one order window per step, each with its own deadline.

Rules: CONGRESS OF EUROPE; MINOR POWER/GREAT POWER STATUS CONFLICTS; DECLARATIONS OF WAR ("or
during a Congress of Europe, if a disputant refuses to sign a Treaty or tires of the
proceedings"); EUROPEAN TENSION INCREASES.

Steps: ``attend`` (European players ATTEND or DECLINE; INVITE brings in the United States or
Japan when every European player asks) -> ``propose`` (members PROPOSE treaties) -> ``vote``
-> ``sign`` (the parties SIGN or REFUSE the treaty passed) -> closed; a round without a
treaty passed starts again at ``propose`` until the cap of rounds (option congress_rounds).
A Congress that fails (a refusal, or no treaty within the cap) raises tensions and, where a
Casus Belli marker is still on the map or a Minor Power's defender is bound to fight, holds a
last ``decide`` step: whoever holds a Casus Belli may declare War; the markers of those who
do not are removed.  Any Casus Belli holder may declare War in any step.
"""
from __future__ import annotations

from pbem.kit import treatybook
from pbem.kit.names import key, nearest
from pbem.kit.gameapi import Order, Problem
from pbem.kit.state_copy import copy_state

from ..core import congress_rules as cr, disputes
from . import negotiation, negotiation_checks
from .congress_end import adopt, decide, fail, sign, step_to
from .negotiation import each_order
from ..core.state import by_rules_order

ALLOWED = {"attend": ("attend", "decline", "invite"), "propose": ("propose",), "vote": ("vote",),
           "sign": ("sign", "refuse"), "decide": ()}


# -- who is asked --------------------------------------------------------------------------------
def asked(state: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    c = cr.current(state)
    if not c or c["step"] == "closed" or state.get("great_war") or state.get("game_over"):
        return (), ()
    step = c["step"]
    voices = cr.voices(state, c)
    if step == "attend":
        eu = cr.europeans(state)
        newcomers = [p for p in eu if p not in c["members"]]
        owes = eu if newcomers or cr.invitable(state, c) else []
    elif step == "propose":
        owes = voices
    elif step == "vote":
        owes = cr.voters(state, c)
    elif step == "sign":
        owes = c.get("signers", [])
    else:
        owes = deciders(state, c)
    owes = list(owes)
    may = [p for p in by_rules_order(set(voices) | holders_speaking(state)) if p not in owes]
    return tuple(owes), tuple(may) if owes else ()


def holders_speaking(state: dict) -> set[str]:
    return set(cr.speakers(state, {cb["holder"] for cb in disputes.current(state)}))


def deciders(state: dict, c: dict) -> list[str]:
    """Who may still declare War when the Congress has failed: the holders of a Casus Belli
    against a party, and defenders of a Minor Power bound to fight."""
    parties = set(c["parties"]) | set(c.get("refusals", []))
    holders = {cb["holder"] for cb in disputes.current(state) if cb["against"] in parties}
    holders |= {o["power"] for o in c.get("obligated", [])}
    return cr.speakers(state, holders)


# -- validation ----------------------------------------------------------------------------------
def validate(state: dict, power: str, orders: list[Order], data) -> list[Problem]:
    c = cr.current(state)
    problems: list[Problem] = []
    if not cr.sitting(state):
        return [Problem("no-congress", "no Congress of Europe is sitting", o.line) for o in orders]
    step = c["step"]
    seen: set[str] = set()
    for o in orders:
        who = o.power or power
        first = o.canonical.splitlines()[0]
        if o.kind == "done":
            continue
        if o.kind == "declare_war":
            fail = negotiation_checks.check(state, data, who, o, {})
        elif o.kind not in ALLOWED[step]:
            problems.append(Problem("wrong-step", f"{first} is not an order of the Congress's "
                                    f"{cr.STEP_TITLES[step]} step", o.line))
            continue
        else:
            fail = STEP_CHECKS[o.kind](state, data, c, who, o, seen)
        if fail:
            problems.append(Problem(fail[0], fail[1], o.line, fail[2] if len(fail) > 2 else None))
    return problems


def _attend(state, data, c, who, o, seen):
    if who not in cr.europeans(state):
        return "not-european", ("only European players attend at will (the United States and Japan "
                                "by invitation)")
    if who in c["members"]:
        return "already-member", f"{who} is a member of the Congress already"
    return None


def _invite(state, data, c, who, o, seen):
    if who not in cr.europeans(state) and who != "Austria-Hungary":
        return "not-european", "only the European Great Powers invite"
    if o.args["power"] not in cr.invitable(state, c):
        return "bad-invite", f"{o.args['power']} cannot be invited", ", ".join(cr.invitable(state, c))
    return None


def _taken(state: dict, c: dict, who: str | None) -> set[str]:
    """The ids a proposal may not take: the Congress's proposals and the treaties ``who`` (None:
    the public) may see.  A secret treaty of that id is no clash (the treaty the Congress passes
    gets a key of its own), so a proposal never tells of a treaty its proposer may not see."""
    return {p["id"].lower() for p in c["proposals"]} | {str(t["id"]).lower() for t in treatybook.visible(state, who)}


def _propose(state, data, c, who, o, seen):
    if who not in cr.voices(state, c):
        return "not-member", f"{who} is not a member of the Congress"
    pid = o.args["id"]
    if pid.lower() in _taken(state, c, who) or pid.lower() in seen:
        return "proposal-exists", f"the id {pid} is taken; choose another"
    seen.add(pid.lower())
    trouble = cr.proposal_problems(state, data, c, o.args["terms"])
    if trouble:
        where = [f"line {t[2]}: {t[1]}" if t[2] else t[1] for t in trouble]
        return trouble[0][0], f"proposal {pid} not taken: " + "; ".join(where)
    return None


def _vote(state, data, c, who, o, seen):
    if who not in cr.voters(state, c) and who != "Austria-Hungary":
        return "not-voter", f"{who} has no vote in this Congress"
    if who == "Austria-Hungary" and "Austria-Hungary" not in c["members"]:
        return "not-voter", "Austria-Hungary is not a member of this Congress"
    if not _open(c, o.args["id"]):
        ids = [p["id"] for p in c["proposals"] if p["status"] == "open"]
        return "unknown-proposal", f"no open proposal {o.args['id']} (open: {', '.join(ids) or 'none'})", \
            nearest(o.args["id"], ids)
    return None


def _sign(state, data, c, who, o, seen):
    adopted = c.get("adopted")
    if not adopted or key(o.args["id"]) != key(adopted):
        return "unknown-proposal", f"the treaty to sign is {adopted}", adopted
    if who not in c.get("signers", []) and cr.speaker(state, who) not in c.get("signers", []):
        return "not-asked", f"{who} is not asked to sign {adopted}"
    return None


STEP_CHECKS = {"attend": _attend, "decline": _attend, "invite": _invite, "propose": _propose,
               "vote": _vote, "sign": _sign, "refuse": _sign}


def _open(c: dict, pid: str) -> dict | None:
    # ids compare as names do: "burma_2" is burma2
    return next((p for p in c["proposals"] if key(p["id"]) == key(pid) and p["status"] == "open"), None)


def defaults(state: dict, power: str) -> list[Order]:
    """Choice: a European player who does not answer stays away (DECLINE); a party that does
    not answer signs the treaty passed (defying a Congress takes a REFUSE); other silences
    abstain."""
    c = cr.current(state)
    if not c:
        return []
    if c["step"] == "attend" and power not in c["members"] and power in cr.europeans(state):
        return [Order(power, "decline", {}, "DECLINE")]
    if c["step"] == "sign" and power in cr.disputants(state, c) and c.get("adopted"):
        return [Order(power, "sign", {"id": c["adopted"]}, f"SIGN {c['adopted']}")]
    return []


# -- resolution ------------------------------------------------------------------------------------
def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    c = cr.current(state)
    if not c or c["step"] == "closed":
        return []
    orders = {p: [o if isinstance(o, Order) else Order.from_json(o) for o in os]
              for p, os in (orders or {}).items()}
    step = c["step"]
    events = war(state, data, c, orders, step)
    if c["step"] != "closed" and not state.get("great_war"):
        events += {"attend": attend, "propose": propose, "vote": vote, "sign": sign,
                   "decide": decide}[step](state, data, c, orders)
    if c["step"] == "closed":
        # Rules: CONGRESS OF EUROPE - "any Military Units illegally in the Area are removed
        # to their Home Countries"
        events += disputes.send_strays_home(state, data, "no Control marker of its own there")
    return events


def war(state: dict, data, c: dict, orders: dict, step: str) -> list[dict]:
    """Declarations of War made in this step.  Rules: CONGRESS OF EUROPE - the Congress
    continues "until a Treaty is finally accepted, or one party to the original dispute who has
    a legitimate Casus Belli tires of the proceedings and declares War": a dispute gone to War
    leaves the Congress, which closes when none is left."""
    events = negotiation.declare(state, orders, f"congress/{step}")
    if events and step != "decide" and not cr.live_disputes(state, c) and not c.get("defended"):
        declarers = [e["by"] for e in events if e.get("kind") == "declaration"]
        events += fail(state, data, c, "the disputes went to War", [], declarers, hold=False)
    return events


def attend(state: dict, data, c: dict, orders: dict) -> list[dict]:
    """Rules: CONGRESS OF EUROPE - "All other European players ... may attend the Congress if they
    wish. The United States and Japan are members of a Congress only if they are party to the
    dispute, or if they are unanimously invited to the Congress by all European Great Powers, or
    if the Congress is held in the United States or Japan"."""
    events = []
    answered = set()
    for who, o in each_order(orders, ("attend", "decline")):
        if who in c["members"] or who in answered or who not in cr.europeans(state):
            continue
        answered.add(who)
        if o.kind == "attend":
            c["members"] = by_rules_order(set(c["members"]) | {who})
            c["attending"].append(who)
        else:
            c["declined"].append(who)
        events.append({"kind": "congress_attendance", "power": who, "attends": o.kind == "attend"})
    for who in cr.europeans(state):
        if who not in c["members"] and who not in answered:
            c["declined"].append(who)
            events.append({"kind": "congress_attendance", "power": who, "attends": False})
    for who, o in each_order(orders, ("invite",)):
        inviters = c["invites"].setdefault(o.args["power"], [])
        if who not in inviters:
            inviters.append(who)
    for guest, inviters in sorted(c["invites"].items()):
        if guest in cr.invitable(state, c) and set(cr.europeans(state)) <= set(inviters):
            c["members"] = by_rules_order(set(c["members"]) | {guest})
            events.append({"kind": "congress_attendance", "power": guest, "attends": True,
                           "invited": True})
    events.append(step_to(c, "propose", 1))
    return events


def propose(state: dict, data, c: dict, orders: dict) -> list[dict]:
    events = []
    voices = cr.voices(state, c)
    for who, o in each_order(orders, ("propose",)):
        if cr.speaker(state, who) not in voices or cr.proposal_problems(state, data, c, o.args["terms"]):
            events.append(negotiation.failed(who, o, "bad-proposal", "not a lawful proposal now"))
            continue
        pid, n = o.args["id"], 1
        taken = _taken(state, c, None)
        while pid.lower() in taken:
            n += 1
            pid = f"{o.args['id']}-{n}"
        proposal = {"id": pid, "by": who, "round": c["round"], "terms": copy_state(o.args["terms"]),
                    "text": o.args.get("text", ""), "status": "open", "votes": {}}
        c["proposals"].append(proposal)
        events.append({"kind": "proposal", "id": pid, "by": who, "round": c["round"],
                       "clauses": [t["text"] for t in proposal["terms"]], "text": proposal["text"],
                       "status": "open"})
    if any(p["round"] == c["round"] for p in c["proposals"]):
        events.append(step_to(c, "vote"))
    else:
        events += next_round(state, data, c, "no proposal was made")
    return events


def next_round(state: dict, data, c: dict, why: str) -> list[dict]:
    if c["round"] >= cr.rounds_cap(state):
        return fail(state, data, c, f"{why} within {cr.rounds_cap(state)} rounds", [], [])
    return [step_to(c, "propose", c["round"] + 1)]


def vote(state: dict, data, c: dict, orders: dict) -> list[dict]:
    """Votes on this round's proposals.  Choice: when several pass, the one with most YES (then
    fewest NO, then the first proposed) goes to the parties for signature."""
    votes: dict[str, dict[str, str]] = {}
    for who, o in each_order(orders, ("vote",)):
        votes.setdefault(key(o.args["id"]), {})[who] = o.args["ballot"]
    events, passed = [], []
    for p in [p for p in c["proposals"] if p["round"] == c["round"] and p["status"] == "open"]:
        ok, record = cr.tally(state, c, p, votes.get(key(p["id"]), {}))
        p["votes"], p["status"] = record, "passed" if ok else "defeated"
        events.append({"kind": "congress_vote", "id": p["id"], "result": p["status"], "yes": record["yes"],
                       "no": record["no"], "by": record["by"], "tie": record["tie"],
                       "host": record.get("host"), "austria_hungary": record.get("Austria-Hungary")})
        if ok:
            passed.append(p)
    if not passed:
        return events + next_round(state, data, c, "no treaty passed")
    best = sorted(passed, key=lambda p: (-p["votes"]["yes"], p["votes"]["no"], c["proposals"].index(p)))[0]
    return events + adopt(state, c, best)




















