"""Which orders a realm may send now, checked read-only against the current
state: every refusal carries a stable code, its line and a reason."""
from __future__ import annotations

from typing import Callable

from pbem.kit.gameapi import Problem, Refused

from . import diplomacy, negotiated_peace
from . import obligations as duties
from . import state as st
from . import victory as vc
from . import war
from .phases import action as action_phase
from .phases import peace_resolution

REACTION = {"cta": ("accept", "refuse"), "retreat": ("retreat", "fight"), "leader": ("leader",)}
ANSWERS = ("accept", "refuse", "retreat", "fight", "leader")
PEACE = ("enforce", "offer_white", "surrender", "negotiate", "keep_war")


def _p(code: str, message: str, o, suggestion: str | None = None, kind: str = "illegal") -> Problem:
    return Problem(code, message, o.line, suggestion, kind)


def validate(state: dict, power: str, given: list, by_phase: Callable[[dict, str, list], list[Problem]]) \
        -> list[Problem]:
    """What every phase checks (standing orders, the game's end, the orders a turn is owed),
    then the phase's own check ``by_phase`` (its row of sequence.py), over the orders but
    the standing ones."""
    problems: list[Problem] = _standing(state, power, given)
    phase = state["phase"]
    rest = [o for o in given if o.kind != "standing"]
    if state.get("over"):
        return [_p("game-over", "the game is over", o) for o in rest]
    due = (phase == "action" and power == state["active"]) or (
        phase == "reaction" and power == state["pending"]["realm"])
    if due and given and not rest:
        # Orders that are stored end the window at once: standing orders alone would pass the turn
        # (or take the default answer) without the player meaning to.
        what = "your action (or PASS)" if phase == "action" else "your answer"
        return [_p("no-action", f"it is your turn: send {what} together with your standing orders", given[0])]
    return problems + by_phase(state, power, rest)


def peace_and_rebels(state: dict, power: str, given: list) -> list[Problem]:
    """Phase 3 takes orders in step D (Peace Resolution) only."""
    if state["step"] == "D":
        return peace(state, power, given)
    return [_p("wrong-phase", f"{o.canonical}: no orders are taken in Phase 3 step {state['step']}", o)
            for o in given]


#: 9.7 step 4: "alternate applying Casualties to Units in each category, one at a time and in that
#: order", as STANDING CASUALTIES writes the categories
CATEGORY_ORDER = tuple(c.upper() for c in st.CATEGORIES)


def _standing(state: dict, power: str, given: list) -> list[Problem]:
    """STANDING LEADER <name> must name one of the realm's leaders (9.4); STANDING CASUALTIES
    is told when it puts the unit categories in another order than the rules' (9.7 step 4)."""
    out = []
    for o in given:
        if o.kind == "standing" and o.args["topic"] == "casualties":
            named = [w for w in o.args["value"].split(",") if w in CATEGORY_ORDER]
            if named != sorted(named, key=CATEGORY_ORDER.index):
                out.append(_p("casualty-categories", "kept, but casualties always alternate Mercenary, Regular "
                              "and Allied units, one at a time and in that order (9.7 step 4); your order "
                              "chooses only the unit type within each (INF, CAV, ART) and which ships go "
                              "first (LIGHT, HEAVY)", o, kind="warning"))
    mine = [ld["name"] for ld in state["leaders"].get(power, [])]
    for o in given:
        if o.kind == "standing" and o.args["topic"] == "leader" and o.args["value"] not in ("ASK", "BEST", "NONE") \
                and o.args["value"].lower() not in [n.lower() for n in mine]:
            from pbem.kit.names import nearest
            out.append(_p("unknown-leader", f"you have no leader {o.args['value']!r} (yours: "
                          f"{', '.join(mine) or 'none; the GM adds them with SET LEADER'})", o,
                          nearest(o.args["value"], mine) if mine else None))
    return out


def action(state: dict, power: str, given: list) -> list[Problem]:
    """The Action Phase: one action of the realm whose turn it is; others send offers."""
    out = []
    active = state["active"]
    if power != active:
        for o in given:
            if o.kind == "diplomacy":
                try:
                    diplomacy.check_deal(state, power, o.args["realm"], o.args["lines"])
                except Refused as exc:
                    out.append(_p(exc.code, str(exc), o))
            elif o.kind in ANSWERS:
                out.append(_p("no-open-decision", f"{o.canonical} answers a question, and none is open for you "
                              f"now: it was settled when its window closed (the report says which default "
                              f"applied). It is {active}'s turn; STANDING orders decide the next one", o))
            else:
                out.append(_p("not-your-turn", f"it is {active}'s turn: now you may send only STANDING orders "
                              "and DIPLOMACY offers", o))
        return out
    main = [o for o in given if o.kind in action_phase.MAIN]
    for o in given:
        if o.kind in ANSWERS:
            out.append(_p("no-open-decision", f"{o.canonical} answers a question, and none is open for you now: "
                          "it was settled when its window closed (the report says which default applied). It is "
                          "your turn: send one action (or PASS)", o))
        elif o.kind not in action_phase.MAIN and o.kind != "cta":
            out.append(_p("wrong-phase", f"{o.canonical} is not an action; it belongs to "
                          + ("Peace Resolution" if o.kind in PEACE else "a decision you are asked for"), o))
    declare = main[0] if main and main[0].kind == "declare" else None
    extra = main[1:]
    if main and main[0].kind == "recruit":
        # One Recruit Units action may place units in several places (MC shared, 9.2).
        extra = [o for o in extra if o.kind != "recruit"]
        out += _recruits(state, power, [o for o in main if o.kind == "recruit"])
        main = []
    if declare and extra and extra[0].kind in ("activate", "recruit"):
        trial = _declared(state, power, declare.args["targets"])
        where = _declaration_battle(trial, power)
        if where:
            out.append(_p("free-action-battle", f"your declaration starts a battle in {where} at once (9.1 DoW "
                          "triggering Battles), and a declaration that triggers a battle gives no free ACTIVATE "
                          "or RECRUIT (NOTES 3.2 step 8): this line is not taken", extra[0]))
        elif extra[0].kind == "activate":
            # The free action is carried out after the declaration, so it is checked on the board as the
            # declaration leaves it (at war: Military Access, hostile Areas); one that cannot be carried
            # out is refused now, while the player can still correct it.
            try:
                action_phase.check_one(trial, power, extra[0])
            except Refused as exc:
                out.append(_p(exc.code, f"{exc} (your free action after the declaration)", extra[0],
                              getattr(exc, "suggestion", None)))
        extra = extra[1:]   # the free Activate or Recruit after a Declare War
    for o in extra:
        out.append(_p("one-action", "one action a turn: this line is not taken (a Declare War may add one "
                      "ACTIVATE or RECRUIT as its free action)", o))
    for o in given:
        if o.kind != "cta":
            continue
        if not declare:
            out.append(_p("cta-needs-declare", "a Call to Arms goes with your own DECLARE WAR (the defender's "
                          "calls are sent by the engine: STANDING CALL)", o))
        elif not st.alliance(state, power, o.args["realm"]):
            out.append(_p("cta-not-ally", f"{o.args['realm']} is not your ally", o))
        elif st.kind(state, o.args["realm"]) == "NPR":
            try:
                war.check_call_npr(state, power, o.args["realm"], declare.args["targets"], False)
            except Refused as exc:
                out.append(_p(exc.code, str(exc), o))
    if main:
        try:
            if main[0].kind == "declare":
                war.check_declare(state, power, main[0].args["targets"], main[0].args["cb"])
            elif main[0].kind != "pass":
                action_phase.check_one(state, power, main[0])
        except Refused as exc:
            out.append(_p(exc.code, str(exc), main[0], getattr(exc, "suggestion", None)))
    return out


def _declared(state: dict, power: str, targets: list[str]) -> dict:
    """A copy of the board with the declared wars in place (no Calls to Arms answered yet)."""
    from pbem.kit.state_copy import copy_state
    trial = copy_state(state)
    for t in targets:
        if t in trial["realms"] and t != power and not st.at_war(trial, power, t):
            war.add_war(trial, power, t, "declared")
    return trial


def _declaration_battle(trial: dict, power: str) -> str | None:
    """Where the declarer's own units would fight as soon as the war is declared (9.1), if anywhere.
    Choice: only a battle sure when the orders arrive is refused; one that hangs on an ally's answer to
    a Call to Arms is told when the declaration is carried out (the free action skipped)."""
    from . import battle as bt
    for naval in (True, False):
        for loc in sorted(trial["seas"] if naval else trial["areas"]):
            if power in st.units_at(trial, loc) and bt.start(trial, loc, power, naval=naval):
                return st.place_name(loc)
    return None


def _recruits(state: dict, power: str, lines: list) -> list[Problem]:
    from pbem.kit.state_copy import copy_state

    from . import moves
    trial, out = copy_state(state), []
    for o in lines:
        a = o.args
        try:
            moves.recruit(trial, power, a["n"], a["unit"], a["where"], a["category"], [])
        except Refused as exc:
            out.append(_p(exc.code, str(exc), o))
    return out


def reaction(state: dict, power: str, given: list) -> list[Problem]:
    """A decision in the middle of an action: only its answers, from the realm asked."""
    pending = state["pending"]
    allowed = REACTION[pending["kind"]] if power == pending["realm"] else ()
    out = []
    for o in given:
        if o.kind not in allowed:
            what = (f"{pending['realm']} is deciding" if power != pending["realm"] else
                    f"answer {' or '.join(a.upper() for a in allowed)}")
            out.append(_p("wrong-phase", f"{o.canonical} is not taken now: {what}", o))
        elif o.kind == "leader" and o.args["leader"] not in ("BEST", "NONE"):
            choices = pending.get("choices", [])
            if o.args["leader"].lower() not in [c.lower() for c in choices]:
                from pbem.kit.names import nearest
                out.append(_p("unknown-leader", f"{o.args['leader']} cannot lead in {pending['loc']}; you may "
                              f"name {', '.join(choices)}, BEST or NONE", o, nearest(o.args["leader"], choices)))
        elif o.kind == "retreat" and o.args.get("to"):
            from . import combat
            options = combat.retreat_options(state, state["queue"][0], power)
            if o.args["to"] not in options:
                out.append(_p("bad-retreat", f"you may retreat to {', '.join(options) or 'nowhere'}", o,
                              options[0] if options else None))
    return out


def peace(state: dict, power: str, given: list) -> list[Problem]:
    """Phase 3 step D, Peace Resolution (10.1): the orders for the realm's wars."""
    out = []
    if peace_resolution.reopened(state):
        # The second window of step D asks a surrender's victor for its term (10.2), and two players
        # whose NEGOTIATE texts differed for that war's peace; the other wars were resolved.
        surrendered = [loser for v, loser in state.get("peace_asked", []) if v == power]
        asked = peace_resolution.asked_of(state, power)
        kinds = ("enforce",) if not [e for e in asked if e not in surrendered] else \
            ("enforce", "negotiate", "offer_white", "keep_war")
        fits = [o for o in given if o.kind in kinds and o.args.get("realm") in asked
                and (o.kind == "enforce" or o.args["realm"] not in surrendered)]
        first = dict(state, peace_asked=[], negotiating=[])
        return [_not_asked(state, power, o, asked, surrendered) for o in given if o not in fits] \
            + peace(first, power, fits)
    if power not in peace_resolution.owes(state):
        return [_p("not-at-war", "you have no war to decide (a war where nothing is occupied ends by itself "
                      "in an automatic white peace)", o) for o in given]
    for o in given:
        if o.kind not in PEACE:
            out.append(_p("wrong-phase", f"{o.canonical}: Peace Resolution takes ENFORCE, OFFER WHITE PEACE, "
                          "SURRENDER, NEGOTIATE and KEEP WAR", o))
            continue
        enemy = o.args["realm"]
        if not st.at_war(state, power, enemy):
            out.append(_p("not-at-war", f"you are not at war with {enemy}", o,
                          ", ".join(st.enemies(state, power)) or None))
            continue
        cond = vc.condition(state, power, enemy)
        if cond == "white_peace":
            # 10.1 step 1: "these Wars all end immediately"; nothing is left to decide in them.
            out.append(_p("automatic-white-peace", f"nothing is occupied in your war with {enemy}: it ends by "
                          "itself in an Automatic White Peace (10.1 step 1), so it takes no order", o))
            continue
        pr = vc.peace_party(state, enemy, power)
        if o.kind in ("keep_war", "offer_white", "surrender") and cond != "total" and pr != enemy:
            # 10.3 "PRs must negotiate Peace on behalf of their Active NPR Allies"; 10.1 step 1 "Such a
            # Peace cannot be concluded separately with an Active Ally": the war with the PR decides it.
            out.append(_p("active-ally-peace", f"{enemy} is {pr}'s Active Ally: its peace is made with {pr} "
                          f"(10.3), so send this order for your war with {pr}", o))
            continue
        if o.kind == "enforce":
            why = vc.why_not(state, power, enemy, o.args["term"])
            if cond == "inconclusive" and o.args["term"] == "white_peace":
                # 10.2: with no victor, a white peace is offered and accepted, not enforced.
                why = (f"you are not the victor of your war with {enemy} (no side is victorious): a white "
                       f"peace is offered (OFFER WHITE PEACE TO {enemy}) and must be accepted (10.2)")
            if o.args["term"] == "negotiated_peace":
                why = "a negotiated peace is agreed with NEGOTIATE <realm> ... ENDNEGOTIATE from both sides"
            if why and _after_surrender(state, power, enemy, o.args["term"]):
                out.append(_p("term-if-surrender", f"{why}; kept: it applies if {enemy} surrenders to you in "
                              "this window", o, kind="warning"))
            elif why:
                allowed = vc.terms(state, power, enemy)
                out.append(_p("term-not-allowed", why, o, allowed[0] if allowed else None))
            else:
                from . import peace as peace_terms
                try:
                    peace_terms.check_details(state, power, enemy, o.args["details"])
                except Refused as exc:
                    out.append(_p(exc.code, str(exc), o))
        elif o.kind in ("keep_war", "offer_white") and duties.must_enforce(state, power, enemy):
            # 10.1 step 2: "The Victor -must- enforce Peace Terms of their choosing unless a Negotiated
            # Peace is agreed with the Loser": the war cannot go on.
            # A Negotiated Peace needs "Both parties ... human players" (Peace Terms): named only then.
            talk = " (or NEGOTIATE with it)" if st.is_human(state, power) and st.is_human(state, enemy) else ""
            out.append(_p("total-victory", f"you have a Total Victory over {enemy}: you must enforce a term "
                          "(10.1 step 2): send ENFORCE <term> ON " + enemy + talk, o,
                          "ENFORCE keep_current_board_state ON " + enemy))
        elif o.kind == "surrender" and state.get("no_surrender"):
            out.append(_p("no-surrender", "Optional Rule 3 (No Surrender!) is in force", o))
        elif o.kind == "negotiate":
            try:
                if not (st.is_human(state, power) and st.is_human(state, enemy)):
                    raise Refused("a negotiated peace needs two human players", "negotiation-term")
                negotiated_peace.read_negotiation(state, power, enemy, o.args["lines"])
            except Refused as exc:
                out.append(_p(exc.code, str(exc), o, getattr(exc, "suggestion", None)))
    refused = {p.line for p in out if p.kind != "warning"}
    decided: dict[tuple[str, str], object] = {}
    for o in given:
        if o.kind in PEACE and o.line not in refused:
            twice = _second_decision(state, power, o, decided)
            if twice:
                out.append(twice)
    return out


def _not_asked(state: dict, power: str, o, asked: list[str], surrendered: list[str]) -> Problem:
    """Why an order is not taken in step D's second window: a war it does not ask about, or an order
    that window does not take for this war (it asks a surrender's victor for its term, and the two
    sides of a negotiation whose texts differed to agree or decide otherwise)."""
    enemy = o.args.get("realm") if hasattr(o, "args") else None
    if enemy in surrendered:
        why = f"{enemy} surrendered to you: this window takes your term, ENFORCE <term> ON {enemy} (10.2)"
    elif enemy in asked:
        victor = vc.condition(state, power, enemy) in ("partial", "total")
        why = (f"this window, opened because your NEGOTIATE texts with {enemy} differed, takes NEGOTIATE "
               f"again, OFFER WHITE PEACE" + (", ENFORCE" if victor else "") + " or KEEP WAR for that war "
               "(a surrender belonged to the first window)")
    else:
        why = ("this window asks only about " + (", ".join(f"your war with {e}" for e in asked)
                                                 or "wars that are not yours") + "; the other wars were resolved")
    return _p("not-asked", f"{o.canonical}: {why}", o)


def _second_decision(state: dict, power: str, o, decided: dict) -> Problem | None:
    """10.1: "only 1 Peace Term may be chosen per War/Enemy": a second ENFORCE on the same enemy, or a
    second order of one kind, would be ignored when the step runs, so it is refused now.  KEEP WAR
    beside an order that ends that war contradicts it.  Choice: a term kept for the enemy's
    surrender (a warning, 10.2) may stand beside OFFER WHITE PEACE or KEEP WAR."""
    enemy = o.args["realm"]
    first = decided.get((o.kind, enemy))
    if first is None and o.kind == "enforce":
        first = decided.get(("enforce", enemy))
    if first is not None:
        why = ("only 1 Peace Term may be chosen per War/Enemy (10.1)" if o.kind == "enforce"
               else "one such order per war")
        return _p("one-decision-per-war", f"{o.canonical}: {first.canonical} already decides your war with "
                  f"{enemy}: {why}; this line is not taken", o)
    ends = [x for (k, e), x in decided.items() if e == enemy and k in ("surrender", "negotiate")
            or (k == "enforce" and e == enemy and not _conditional(state, power, x))]
    keep = decided.get(("keep_war", enemy))
    clash = (o.kind == "keep_war" and ends) or (keep is not None and o.kind in ("surrender", "negotiate") or (
        keep is not None and o.kind == "enforce" and not _conditional(state, power, o)))
    if clash:
        other = ends[0] if o.kind == "keep_war" else keep
        return _p("one-decision-per-war", f"{o.canonical} contradicts {other.canonical}: one decision per war "
                  f"with {enemy} (10.1 step 3); this line is not taken", o)
    decided[(o.kind, enemy)] = o
    return None


def _conditional(state: dict, power: str, o) -> bool:
    """An ENFORCE kept for the enemy's surrender (10.2), not a term that applies now."""
    return vc.condition(state, power, o.args["realm"]) == "inconclusive"


def _after_surrender(state: dict, power: str, enemy: str, term: str) -> bool:
    """Would the term be allowed were the enemy to surrender now (10.2)?"""
    from pbem.kit.state_copy import copy_state
    if vc.condition(state, power, enemy) != "inconclusive" or state.get("no_surrender"):
        return False
    trial = copy_state(state)
    trial["surrendered"].append([enemy, power])
    return vc.why_not(trial, power, enemy, term) is None


def keep_standing(state: dict, given: dict, events: list) -> None:
    """Standing orders from any realm take effect whenever its orders are resolved."""
    for realm, os in sorted(given.items()):
        for o in os:
            if o.kind == "standing" and realm in state["realms"]:
                state["realms"][realm]["standing"][o.args["topic"]] = o.args["value"]
                events.append({"kind": "standing", "realm": realm, "order": o.canonical})
