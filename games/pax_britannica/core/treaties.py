"""Pax Britannica's meaning on top of the shared treaty life cycle (pbem.kit.treatybook): what a
treaty's clauses do (a treaty's record and a breach are treaty_records.py).

Rules: TREATIES; Treaties and Casus Belli; DECLARATIONS OF WAR ("When any Power declares War
on another power, all Treaties between the two powers are immediately ended");
EUROPEAN TENSION INCREASES ("Each time a player breaks a Treaty, the Index increases by 5").

A treaty's text may hold clauses (clauses.py).  They are checked when the treaty is
proposed (every power a clause names must be a party), carried out when it comes into force
(payments, transfers, downgrades, Codominions) and watched while it is in force (treaty_checks.py).
A broken clause breaks the treaty: the breaker is recorded, every other signer gains a Casus
Belli against him and the Index rises by 5.  A breach of free text is claimed by a party
(TREATY BREACH) and ruled by the GM (GM RULE <treaty> UPHELD|DISMISSED).
"""
from __future__ import annotations

from pbem.kit import audience, names, treatybook
from pbem.kit.gameapi import Refused, Ruling, TreatyAction

from ..core.data import load_data
from . import board, clauses, disputes
from .state import by_rules_order, power_order
from .treaty_records import board_reason, break_treaty, grant_pending, in_force, treaty_event


# -- who may be a party ----------------------------------------------------------------------
def seats(state: dict) -> dict[str, str]:
    """Rules: AUSTRIA-HUNGARY - "Austria-Hungary is always controlled by Germany. The German
    player can make defensive (but never offensive) Alliances in the name of Austria-Hungary
    alone, or along with Germany": a treaty may name Austria-Hungary as a party while the
    German player plays; that player signs (and reads) for it."""
    return {"Austria-Hungary": "Germany"} if board.is_great(state, "Austria-Hungary") else {}


def austria_problems(c: dict, parties: list[str], state: dict, where: str) -> list[str]:
    """Rules: AUSTRIA-HUNGARY - its Alliances are defensive, never offensive, and "Austria-
    Hungary can never give £'s to any other player" (so it pays no treaty money)."""
    if "Austria-Hungary" not in parties:
        return []
    if c["type"] == "offensive":
        return [f"{where}{c['text']}: Austria-Hungary makes defensive Alliances only, never offensive"]
    if c["type"] == "pay" and "Austria-Hungary" in binds(c, parties, state):
        return [f"{where}{c['text']}: Austria-Hungary can never give money; name who pays "
                "(Germany: PAY ...)"]
    return []


# -- reading and checking the terms --------------------------------------------------------
def check_terms(state: dict, data, terms: list[dict], parties: list[str], congress: bool = False,
                where_lines: bool = True) -> list[str]:
    """Problems with the clauses themselves (messages).  Outside a Congress every power a
    clause names must be a party: a treaty binds its signers only (Rules: TREATIES).
    ``where_lines``: say the clause's line of the treaty's text in the message (the reply
    gives the mail's line apart)."""
    problems = []
    for c in terms:
        where = f"the treaty's line {c.get('line')}: " if c.get("line") and where_lines else ""
        if not congress:
            outsiders = [p for p in clauses.named_powers(c) if p not in parties]
            if outsiders:
                problems.append(f"{where}{c['text']} names {', '.join(outsiders)}, not a party")
                continue
        if c["type"] == "pay" and (c["amount"] <= 0 or (c.get("until") and c["until"] < state["turn"])):
            problems.append(f"{where}{c['text']}: pay a positive amount, until this turn or later")
        if c["type"] == "codominion":
            problems += [where + p for p in codominion_problems(state, c)]
            # Rules: NEGOTIATION (4) - "All players with Control markers in an Area must agree for
            # a Codominion to be established there": outside a Congress, by signing the treaty.
            unasked = [p for p in board.controllers(state, c["area"]) if p not in parties]
            minors = [p for p in unasked if not board.is_great(state, p)]
            if minors and not congress:  # as the negotiation order (negotiation_checks.codominion_check)
                problems.append(f"{where}{c['text']}: {', '.join(minors)} (a Minor Power) Control"
                                f"{'s' if len(minors) == 1 else ''} {c['area']} and cannot agree to a "
                                "Codominion by negotiation")
            elif unasked and not congress:
                problems.append(f"{where}{c['text']}: {', '.join(unasked)} Control{'s' if len(unasked) == 1 else ''} "
                                f"{c['area']} and must be a party to agree to it")
        if c["type"] == "downgrade" and board.status_of(state, c["area"], c["power"]) is None:
            problems.append(f"{where}{c['text']}: {c['power']} has no marker in {c['area']}")
        problems += austria_problems(c, parties, state, where)
    return problems


def codominion_problems(state: dict, c: dict) -> list[str]:
    """Rules: CODOMINIONS - shared Protectorates or Possessions only ("States and Dominions
    cannot be part of Codominions"); CONGRESS OF EUROPE - granted "anywhere Controls exist"."""
    area = c["area"]
    ctrl = board.controllers(state, area)
    if not ctrl:
        return [f"{c['text']}: nobody Controls {area}, so there is no Codominion to share"]
    if any(board.status_of(state, area, p) in ("dominion", "state") for p in ctrl):
        return [f"{c['text']}: a State or Dominion cannot be part of a Codominion"]
    if len(set(ctrl) | set(c["members"])) < 2:
        return [f"{c['text']}: a Codominion needs a second member"]
    return []


def binds(c: dict, parties: list[str], state: dict | None = None) -> list[str]:
    """The powers that must keep a clause: its subject, else as the clause reads.  Choice:
    without a subject PAY binds every party but the payee, a limit (NO MARKERS, NO UNITS,
    MAX NAVY, MAX ARMY) every party, CB IF every party but the one named."""
    if c.get("subject"):
        return [c["subject"]]
    t = c["type"]
    if t == "pay":
        return [p for p in parties if p != c["to"]]
    if t == "transfer":
        holder = transfer_holder(state or {}, c, parties)
        return [holder] if holder else []
    if t == "downgrade":
        return [c["power"]]
    if t == "codominion":
        ctrl = board.controllers(state, c["area"]) if state else []
        return by_rules_order(set(ctrl) | set(c["members"]))
    if t in ("cb_attacked", "cb_gains"):
        return [p for p in parties if p != c["party"]]
    return list(parties)


def transfer_holder(state: dict, c: dict, parties: list[str]) -> str | None:
    """Who gives the marker: the clause's subject, else the party (not the receiver) holding
    that marker in the Area.  Choice: with none, the first other party in the rules' order."""
    if c.get("subject"):
        return c["subject"]
    others = [p for p in by_rules_order(parties) if p != c["to"]]
    holding = [p for p in others if board.status_of(state, c["area"], p) == c["status"]]
    return (holding or others or [None])[0]


# -- the game's treaty() ---------------------------------------------------------------------
def act(state: dict, data, action: TreatyAction) -> list[dict]:
    """Apply a treaty action to ``state`` (a copy).  Raises Refused."""
    terms: list[dict] = []
    if action.action == "propose":
        terms, free, problems = clauses.parse_text(action.text, data)
        parties = [action.power] + [p for p in action.parties if p != action.power]
        messages = [p.message for p in problems] + check_terms(state, data, terms, parties)
        if messages:
            raise Refused("the treaty was not proposed: " + "; ".join(messages), "treaty-clause")
    before = None if action.action == "propose" else treatybook.find_for(state, action.treaty, action.power)
    if before and before.get("congress") and before.get("status") == treatybook.OPEN:
        # Rules: CONGRESS OF EUROPE - a treaty the Congress passed is signed in its signature step
        raise Refused(f"treaty {before['id']} was passed by the Congress of Europe: answer SIGN "
                      f"{before['id']} or REFUSE {before['id']} in your Congress orders", "congress-treaty")
    was_secret = bool(before and before.get("secret"))
    record, events = treatybook.act(state, action, list(state["players"]), seats(state))
    if action.action == "propose":
        record["terms"] = terms
        record["clauses"] = [c["text"] for c in terms]
        record["turn"] = state["turn"]
    if action.action == "sign" and record["status"] == treatybook.IN_FORCE:
        events += come_into_force(state, data, record)
    if action.action == "reveal" and was_secret:
        events += grant_pending(state, record)
    if action.action == "breach":
        # A question for the GM (the parties read the claim in the treaty's record).
        claim, key = record["breaches"][-1], treatybook.key_of(record)
        events.append(audience.tag({
            "kind": "question", "id": key, "power": claim["by"], "against": claim["against"],
            "text": f"{claim['by']} claims {claim['against']} broke treaty {record['id']}"
                    + (f": {claim['text']}" if claim["text"] else "")
                    + f". Rule with GM RULE {key} UPHELD or GM RULE {key} DISMISSED."}, audience.gm()))
    return events


# -- coming into force: the one-off clauses ----------------------------------------------------
def come_into_force(state: dict, data, record: dict, free_codominions: bool = False,
                    skip: tuple = ()) -> list[dict]:
    """Carry out the clauses due at once, in the order written.  ``skip``: indexes of clauses
    that do not bind (a Congress clause on a power that did not sign)."""
    events: list[dict] = []
    for i, c in enumerate(record.get("terms", [])):
        if i in skip or record["status"] != treatybook.IN_FORCE or state.get("great_war"):
            continue
        if c["type"] == "pay":
            c["last_paid"] = state["turn"]
            events += pay(state, record, c)
        elif c["type"] == "transfer":
            events += transfer(state, record, c)
        elif c["type"] == "downgrade":
            events += disputes.lower(state, c["power"], c["area"], c["to"], board_reason(record))
        elif c["type"] == "codominion":
            events += codominion(state, data, c, board_reason(record), free_codominions, record)
    return events


def pay(state: dict, record: dict, c: dict) -> list[dict]:
    """Rules: TREATIES ("it can require payment of £'s by one player to another").
    Choice: a payer without the whole amount pays nothing and breaks the treaty."""
    events: list[dict] = []
    for payer in binds(c, record["parties"], state):
        if record["status"] != treatybook.IN_FORCE:
            break
        if payer not in state["powers"] or c["to"] not in state["powers"]:
            continue
        if board.treasury(state, payer) < c["amount"]:
            events += break_treaty(state, record, payer, f"{c['text']}: {payer} could not pay")
            continue
        board.add_money(state, payer, -c["amount"])
        board.add_money(state, c["to"], c["amount"])
        events.append({"kind": "money", "power": payer, "from": payer, "to": c["to"],
                       "amount": c["amount"], "reason": f"treaty {record['id']}"})  # the parties' alone
    return events


def transfer(state: dict, record: dict, c: dict) -> list[dict]:
    """Rules: ALTERING EXISTING STATUS MARKERS (Transferring Status) - the marker keeps its
    level.  Choice: a receiver's own lower marker gives way; with an equal or higher one the
    clause is spent; a giver without the marker breaks the treaty."""
    giver = transfer_holder(state, c, record["parties"])
    area, status, to = c["area"], c["status"], c["to"]
    if giver is None or board.status_of(state, area, giver) != status:
        return break_treaty(state, record, giver or to, f"{c['text']}: the marker is not there")
    if board.rank(board.status_of(state, area, to)) >= board.rank(status):
        return []
    return move_marker(state, giver, to, area, board_reason(record))


def move_marker(state: dict, giver: str, to: str, area: str, reason: str) -> list[dict]:
    status = board.status_of(state, area, giver)
    est = board.is_established(state, area, giver)
    return [board.remove_marker(state, giver, area, f"{reason}: transferred to {to}"),
            board.set_marker(state, to, area, status, est, f"{reason}: transferred from {giver}")]


def codominion(state: dict, data, c: dict, reason: str, free: bool, record: dict | None = None,
               paying: bool = True) -> list[dict]:
    """Rules: CODOMINIONS; NEGOTIATION (3, 4) - every member holds a Protectorate or
    Possession; a new member's Protectorate is a new marker and "must be paid for" (from an
    Influence 10£), except in a Congress ("Granting of Codominions at no cost anywhere Controls
    exist"); a power with Influence left outside has a Casus Belli against every member.
    Rules: CHINESE RESENTMENT (clarification) - granting a Codominion raises no Resentment."""
    area = c["area"]
    ctrl = board.controllers(state, area)
    members = by_rules_order(set(ctrl) | set(c["members"]))
    events: list[dict] = []
    for power in members:
        if power in ctrl:
            continue
        price = 0 if free else member_price(data, state, area, power)
        if paying and price > board.treasury(state, power):
            if record is not None:
                events += break_treaty(state, record, power, f"{c['text']}: {power} could not pay {price}")
            else:
                events.append({"kind": "order_failed", "power": power, "order": c["text"],
                               "code": "insufficient-funds", "reason": f"{power} needs {price}"})
            return events
        board.add_money(state, power, -price)
        ev = board.set_marker(state, power, area, "protectorate", True, f"{reason}: Codominion")
        ev["cost"] = price
        events.append(ev)
    events.append({"kind": "codominion", "area": area, "powers": members, "reason": reason})
    for cb in [x for x in disputes.current(state) if x.get("area") == area and x.get("rule") == "CB-02"
               and {x["holder"], x["against"]} <= set(members)]:
        events.append(board.remove_cb(state, cb, "settled: Codominion agreed"))
    for power, marker in sorted(board.markers_in(state, area).items()):
        if power not in members and marker["status"] == "influence":
            for member in members:
                ev = board.add_cb(state, power, member, area, f"Codominion in {area} over its Influence",
                                  cause="codominion", rule="CB-08")
                if ev:
                    events.append(ev)
    return [e for e in events if e]


def member_price(data, state: dict, area: str, power: str) -> int:
    """Rules: NEGOTIATION (4) - "Any new marker placed in this manner must be paid for": what a
    power joining a Codominion pays, a Protectorate less the marker it holds there (nothing for
    a power that Controls the Area already)."""
    if board.has_control(state, power, area):
        return 0
    return max(0, data.markers["protectorate"].buy - held_marker_price(data, state, area, power))


def held_marker_price(data, state: dict, area: str, power: str) -> int:
    """What the marker ``power`` holds in ``area`` cost to buy (0 for none): it counts towards a
    Protectorate in a Codominion."""
    status = board.status_of(state, area, power)
    return data.markers[status].buy if status in data.markers else 0


def rule(state: dict, ruling: Ruling) -> list[dict] | None:
    """GM RULE <treaty> UPHELD|DISMISSED on a breach claim, or BROKEN BY <power>.  None when
    the question is not a treaty."""
    record = treatybook.find(state, ruling.question)
    words = ruling.ruling.split()
    verb = words[0].upper() if words else ""
    if record is None:
        # A slip in a treaty's id would record the ruling as a question of its own, shown to
        # every power (a secret treaty's id among them): refused, with the id meant.
        meant = names.nearest(ruling.question, [str(r["id"]) for r in state.get("treaties", {}).values()])
        if meant or verb in ("UPHELD", "DISMISSED", "BROKEN"):
            raise Refused(f"there is no treaty {ruling.question!r} to rule on", "unknown-question", meant)
        return None
    open_claims = [b for b in record.get("breaches", []) if not b.get("ruled")]
    if verb == "DISMISSED":
        for b in open_claims:
            b["ruled"] = "dismissed"
        return [treaty_event(record, "claim dismissed")]
    if verb in ("UPHELD", "BROKEN"):
        breaker = None
        if len(words) >= 3 and words[1].upper() == "BY":
            breaker = load_data(state).resolve_power(" ".join(words[2:]))
        elif open_claims:
            breaker = open_claims[-1]["against"]
        if breaker not in record["parties"]:
            raise Refused(f"say who broke {record['id']}: GM RULE {record['id']} BROKEN BY <party>",
                          "ruling")
        for b in open_claims:
            b["ruled"] = "upheld" if b["against"] == breaker else "dismissed"
        if record["status"] != treatybook.IN_FORCE:
            raise Refused(f"treaty {record['id']} is {record['status']}, not in force", "treaty-closed")
        return break_treaty(state, record, breaker, "the GM ruled it broken")
    raise Refused(f"rule on treaty {record['id']} with UPHELD, DISMISSED or BROKEN BY <power>", "ruling")


# -- declarations of War ------------------------------------------------------------------------
def on_declaration(state: dict, declarer: str, targets: list[str]) -> list[dict]:
    """Rules: DECLARATIONS OF WAR - treaties between the two powers end; Treaties and Casus
    Belli - a defensive treaty gives the attacked power's co-signers a Casus Belli against the
    declarer, an offensive one the declarer's co-signers a Casus Belli against his enemy
    (clarification: "A power cannot extend a CB by Treaty to another power unless he himself
    is at War" - so it comes with the declaration, not before).  The duty to join the War is
    recorded in ``state["obligations"]`` with the ally it binds to; the War Phase's Alliance
    Determination asks for it (war/declare.py)."""
    events: list[dict] = []
    for record in in_force(state):
        if declarer in record["parties"] and set(targets) & set(record["parties"]):
            record["status"] = "lapsed"
            record.setdefault("history", []).append({"at": str(state["turn"]), "who": declarer,
                                                     "action": "ended by War"})
            events.append(treaty_event(record, "ended by War"))
    for record in in_force(state):
        types = {c["type"]: c for c in record.get("terms", [])}
        parties = record["parties"]
        for target in targets:
            grants = []
            if declarer not in parties and target in parties:
                if "defensive" in types:
                    grants += [(p, declarer, "defensive") for p in parties if p != target]
                grants += [(p, declarer, "cb_attacked") for c in record["terms"]
                           if c["type"] == "cb_attacked" and c["party"] == target
                           for p in parties if p != target]
            if declarer in parties and target not in parties:
                if "offensive" in types:
                    grants += [(p, target, "offensive") for p in parties if p != declarer]
                grants += [(p, target, "cb_gains") for c in record["terms"]
                           if c["type"] == "cb_gains" and c["party"] == declarer
                           and disputes.against(state, declarer, target) for p in parties if p != declarer]
            # Choice (choices/diplomacy.md): a Casus Belli and a duty a treaty gives are known to
            # its parties alone while it is secret; others learn of it when it is acted on.
            seen_by = treatybook.audience_of(record)
            for holder, enemy, kind in grants:
                ev = board.add_cb(state, holder, enemy, None,
                                  f"treaty {record['id']}: {declarer} declared War on {target}",
                                  cause="treaty", rule="CB-06", audience=seen_by)
                if ev:
                    events.append(ev)
                if kind in ("defensive", "offensive"):
                    ally = target if kind == "defensive" else declarer
                    if _owed(state, holder, ally, treatybook.key_of(record)):
                        continue  # one duty to join an ally's War, however many declare on it
                    state.setdefault("obligations", []).append(
                        {"treaty": treatybook.key_of(record), "power": holder, "against": enemy, "kind": kind,
                         "ally": ally, "turn": state["turn"], "status": "pending",
                         "audience": seen_by.to_json()})
    return events


def _owed(state: dict, power: str, ally: str, treaty: str) -> bool:
    """Whether ``power`` already owes ``ally`` an answer under ``treaty`` this turn: joining
    puts it at War with all of the ally's opponents (Rules: DECLARATIONS OF WAR), so a second
    declaration on the ally asks nothing more of it."""
    return any(o.get("power") == power and o.get("ally") == ally and o.get("treaty") == treaty
               and o.get("turn") == state.get("turn") and o.get("status", "pending") == "pending"
               for o in state.get("obligations", []))


# -- the end of the Game Turn ----------------------------------------------------------------------
def end_of_turn(state: dict) -> list[dict]:
    """Rules: TREATIES - "Any lapse withdrawal must be by mutual agreement among all parties
    otherwise, it constitutes breaking the Treaty".  Choice: a TREATY WITHDRAW from a treaty in
    force is a request the other parties answer by withdrawing too (then it lapses); one still
    unanswered when the Game Turn ends breaks the treaty, by the first power that withdrew."""
    events: list[dict] = []
    for record in in_force(state):
        asked = record.get("withdrawals") or {}
        if asked:
            first = sorted(asked.items(), key=lambda kv: (kv[1], power_order(kv[0])))[0][0]
            events += break_treaty(state, record, first, "withdrew without every party's agreement")
    state["obligations"] = [o for o in state.get("obligations", []) if o.get("turn") == state.get("turn")]
    return events
