"""What a realm may send now (the reports' "what you may do now") and HELP on
each order.

Nothing here is a rule of its own: a choice is offered only when the game's
own checks accept it on the board as it stands.  Each candidate line is read
(:func:`.orders.parse_line`) and checked (:func:`.validate.validate`) as if
the realm had sent it alone, and kept when nothing refuses it.  Forms whose
values are too many to list (an ACTIVATE path, RECRUIT, NAVAL, APPOINT) are
listed with their form only; ``HELP <order>`` gives it again.
"""
from __future__ import annotations

import textwrap

from pbem.kit.gameapi import GMError, OrderOption

from . import orders
from .phases import peace_resolution
from . import state as st
from . import validate as vd
from . import victory as vc

#: what each order verb does, in a few words (the README has the whole of it)
NOTES = {
    "DECLARE": "declare war, with a CB you hold (else -2 stability per target); CALL TO ARMS lines and one free "
               "ACTIVATE or RECRUIT may follow",
    "CALL": "call an ally to arms, with your DECLARE WAR",
    "ACTIVATE": "move the army in the first Area and its leader (WITH: only the units named); SIEGE besieges where "
                "it stops",
    "NAVAL": "move a fleet",
    "RECRUIT": "raise units; several lines share one action's Military Capacity",
    "SIEGE": "besiege provinces where your army stands (largest first unless named)",
    "APPOINT": "put a leader at the head of your army or fleet there",
    "FORGE": "forge an alliance",
    "INFLUENCE": "place diplomatic influence in an Area",
    "CUT": "cut ties with a realm",
    "SUBJUGATE": "make a realm your vassal",
    "ROYAL": "arrange a royal marriage",
    "DIPLOMACY": "offer another player a deal (ALLIANCE, MARRIAGE, PAYS, SELLS); both send the same text",
    "PASS": "no action this turn; once every realm has passed, Phase 3 follows",
    "STANDING": "an order kept for the decisions others' actions ask of you, until replaced",
    "ACCEPT": "join the war you are called to",
    "REFUSE": "stay out of the war you are called to",
    "RETREAT": "leave the battle you are asked about",
    "FIGHT": "fight on in the battle you are asked about",
    "LEADER": "name the leader who commands your side in the battle you are asked about",
    "ENFORCE": "impose a peace term on a realm you are at war with",
    "OFFER": "offer a white peace",
    "SURRENDER": "give in to a realm you are at war with",
    "NEGOTIATE": "agree a peace with a player you are at war with; both send the same text",
    "KEEP": "carry on the war",
}
REALM_ACTIONS = (("DECLARE WAR ON <realm>", "DECLARE WAR ON {}"),
                 ("FORGE ALLIANCE <realm>", "FORGE ALLIANCE {}"),
                 ("CUT TIES <realm>", "CUT TIES {}"),
                 ("SUBJUGATE <realm>", "SUBJUGATE {}"),
                 ("ROYAL MARRIAGE <realm>", "ROYAL MARRIAGE {}"))
AREA_ACTIONS = (("INFLUENCE <area>", "INFLUENCE {}"), ("SIEGE <area>", "SIEGE {}"))
OPEN_ACTIONS = ("ACTIVATE <area> [WITH <n> INF|CAV|ART ...] TO <area> [TO <area>] [SIEGE]",
                "RECRUIT <n> INF|CAV|ART|LIGHT|HEAVY IN <area or sea> [MERC|ALLIED]", "NAVAL <sea> TO <sea or port>",
                "APPOINT <leader> TO <area or sea>")
STANDING = tuple(f for f in orders.FORMS if f.startswith("STANDING"))


#: what each standing order decides, with its default (told by HELP STANDING)
STANDING_NOTES = {"CTA": "how you answer a Call to Arms (default ASK)",
                  "RETREAT": "when you retreat from a battle (default IF OUTNUMBERED)",
                  "CASUALTIES": "the order your units are lost in: by type (default INF,CAV,ART) and at sea "
                                "(default LIGHT: Light Ships before Heavy); Mercenary, Regular and Allied "
                                "units are lost in turn (9.7 step 4)",
                  "CALL": "which allies you call when attacked (default ALL)",
                  "LEADER": "which leader commands your side as a battle begins (default ASK)"}


def _note(form: str) -> str:
    words = form.split()
    if words[0] == "STANDING":
        return STANDING_NOTES.get(words[1], NOTES["STANDING"])
    return NOTES.get(words[0], "")


def _legal(state: dict, power: str, text: str) -> bool:
    """Whether the line would be taken if ``power`` sent it now, as its action (warnings allowed)."""
    try:
        order = orders.parse_line(state, power, text, 1)
    except GMError:
        return False
    if order is None:
        return False
    return not [p for p in vd.validate(state, power, [order], vd.action) if p.kind != "warning"]


def action_options(state: dict, power: str) -> list[OrderOption]:
    """The Action Phase: the acting realm's actions; the others' standing orders and offers."""
    return actions(state, power) if power == state["active"] else standing(state, power)


def reaction_options(state: dict, power: str) -> list[OrderOption]:
    """A decision: its answers for the realm asked; the others' standing orders and offers."""
    return reaction(state, power) if power == state["pending"]["realm"] else standing(state, power)


def peace_options(state: dict, power: str) -> list[OrderOption]:
    """Phase 3: the peace orders of step D for a realm with a war to decide."""
    if state.get("step") != "D" or power not in peace_resolution.owes(state):
        return []
    if peace_resolution.reopened(state):
        # the second window: a surrender's term (10.2) or a negotiation retried, those wars only
        surrendered = [loser for v, loser in state.get("peace_asked", []) if v == power]
        asked = peace_resolution.asked_of(state, power)
        first = dict(state, peace_asked=[], negotiating=[])
        out = []
        for o in peace(first, power):
            keep = tuple(c for c in o.choices if c.split(" ON ")[-1] in asked and (
                o.form.startswith("ENFORCE") or (c not in surrendered and not o.form.startswith("SURRENDER"))))
            if keep:
                out.append(OrderOption(o.form, o.note, keep))
        return out
    return peace(state, power)


def no_options(state: dict, power: str) -> list[OrderOption]:
    return []


def actions(state: dict, power: str) -> list[OrderOption]:
    """One action of the realm whose turn it is (Warfare, Diplomatic Relations)."""
    others = [r for r in state["realms"] if r != power]
    out = []
    for form, line in REALM_ACTIONS:
        found = tuple(r for r in others if _legal(state, power, line.format(r)))
        if found:
            out.append(OrderOption(form, _note(form), found))
    for form, line in AREA_ACTIONS:
        found = tuple(a for a in state["areas"] if _legal(state, power, line.format(a)))
        if found:
            out.append(OrderOption(form, _note(form), found))
    out += [OrderOption(form, _note(form)) for form in OPEN_ACTIONS]
    out.append(OrderOption("PASS", _note("PASS")))
    return out


def reaction(state: dict, power: str) -> list[OrderOption]:
    """The decision asked of the realm in the middle of another's action."""
    pending = state["pending"]
    if pending["kind"] == "cta":
        return [OrderOption("ACCEPT [ACTIVE|INACTIVE]", _note("ACCEPT")), OrderOption("REFUSE", _note("REFUSE"))]
    if pending["kind"] == "leader":
        return [OrderOption("LEADER <leader>|BEST|NONE", _note("LEADER"), tuple(pending["choices"]) + ("NONE",))]
    from . import combat
    places = tuple(combat.retreat_options(state, state["queue"][0], power)) if state.get("queue") else ()
    return [OrderOption("RETREAT [TO <area>]", _note("RETREAT"), places), OrderOption("FIGHT", _note("FIGHT"))]


def peace(state: dict, power: str) -> list[OrderOption]:
    """Peace Resolution (Phase 3 step D), for each war the realm has to decide: only what may be
    chosen.  A war ending in an Automatic White Peace takes no order (10.1 step 1); terms are
    enforced by a victor only (10.2); a Total Victory must be enforced (10.1 step 2)."""
    cond = {e: vc.condition(state, power, e) for e in st.enemies(state, power)}
    open_wars = [e for e, c in cond.items() if c not in ("white_peace", "none")]
    terms = tuple(f"{t} ON {e}" for e in open_wars if cond[e] in ("partial", "total")
                  for t in vc.terms(state, power, e) if t != "negotiated_peace")
    out = []
    if terms:
        out.append(OrderOption("ENFORCE <term> ON <realm> [details]", _note("ENFORCE"), terms))
    going_on = tuple(e for e in open_wars if cond[e] != "total")
    if going_on:
        out.append(OrderOption("OFFER WHITE PEACE TO <realm>", _note("OFFER"), going_on))
    if open_wars and not state.get("no_surrender"):
        out.append(OrderOption("SURRENDER TO <realm>", _note("SURRENDER"), tuple(open_wars)))
    humans = tuple(e for e in open_wars if st.is_human(state, e) and st.is_human(state, power))
    if humans:
        out.append(OrderOption("NEGOTIATE <realm> ... ENDNEGOTIATE", _note("NEGOTIATE"), humans))
    if going_on:
        out.append(OrderOption("KEEP WAR <realm>", _note("KEEP"), going_on))
    return out


def standing(state: dict, power: str) -> list[OrderOption]:
    """Another realm's turn: standing orders and offers only."""
    others = tuple(r for r in state["order"] if r != power and st.is_human(state, r))
    out = [OrderOption(form, _note(form)) for form in STANDING]
    if others:
        out.append(OrderOption("DIPLOMACY <realm> ... ENDDIPLOMACY", _note("DIPLOMACY"), others))
    return out


# -- HELP -----------------------------------------------------------------------------------

def topics() -> list[str]:
    verbs = []
    for form in orders.FORMS:
        word = form.split()[0]
        if word not in verbs:
            verbs.append(word)
    return verbs + ["TERMS"]


def answer(topic: str) -> str | None:
    word = " ".join(topic.upper().split())
    if word in ("TERMS", "TERM", "PEACE"):
        return "\n".join(textwrap.wrap("Peace terms (ENFORCE <term> ON <realm>): " + ", ".join(orders.TERMS)
                                       + ". Each report's \"what you may do now\" lists the terms you may "
                                       "enforce now.", 76, subsequent_indent="  ")) + "\n"
    alias = orders.ALIAS_VERBS.get(word)
    verb = (alias or word).split()[0]
    forms = [f for f in orders.FORMS if f.split()[0] == verb]
    if not forms:
        return None
    lines = textwrap.wrap(f"{verb}: {NOTES[verb]}" if verb in NOTES else verb, 76, subsequent_indent="  ")
    for f in forms:
        lines.append(f"  {f}")
        if verb == "STANDING":
            lines += textwrap.wrap(STANDING_NOTES.get(f.split()[1], ""), 72, initial_indent="      ",
                                   subsequent_indent="      ")
    lines += ["  (HELP ORDERS lists every order; each report's \"what you may do now\"",
              "  lists those you may send now)"]
    return "\n".join(lines) + "\n"
