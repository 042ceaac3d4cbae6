"""The diplomatic part of a report: disputes and Casus Belli, treaties, the Congress of Europe;
and what a power may send in the phase now open (the game's ``options_now``, which the
moderator shows as "what you may do now").

Rules: NEGOTIATION; TREATIES; CONGRESS OF EUROPE (a Congress is a public meeting: its site,
members, proposals, votes and signatures are shown to every player and in the archive).
"""
from __future__ import annotations

from typing import Any

from pbem.kit.gameapi import OrderOption

from .. import sequence as play
from ..core import board, congress_rules as cr, disputes
from ..core.audiences import seen
from ..core.treaty_records import records, revealable
from ..phases.negotiation_checks import claims
from .congress import names

CAUSES = {"placement": "a status marker placed", "treaty_breach": "a treaty broken",
          "congress_refusal": "a Congress treaty refused", "treaty": "a treaty's terms",
          "codominion": "a Codominion over its Influence", "minor_rights": "a Minor Power's rights defended",
          "event": "a Random Event", "gm": "the GM"}


def cb_line(cb: dict) -> str:
    area = f" over {cb['area']}" if cb.get("area") else ""
    return f"{cb['holder']} against {cb['against']}{area} ({CAUSES.get(cb.get('cause'), cb.get('cause'))})"


def data(state: dict, power: str | None, mine: set[str]) -> dict[str, Any]:
    """The structured record: every Casus Belli a power is party to and may know of (all the
    public may know of, for the public),
    the unlawful markers, the treaties it may see, the Congress."""
    cbs = [cb for cb in seen(state, disputes.current(state), power)
           if power is None or mine & {cb["holder"], cb["against"]}]
    c = cr.current(state)
    return {
        "casus_belli": [dict(cb, text=cb_line(cb)) for cb in cbs],
        "unlawful": {a: disputes.illegal_markers(state, a) for a in disputes.troubled_areas(state)},
        "treaties": [dict({k: t.get(k) for k in ("id", "status", "parties", "clauses", "secret", "broken_by")},
                          summary=summary(t)) for t in records(state, power)],
        "congress": congress_view(c) if c else None,
        "declarations": [d for d in state.get("declarations", []) if d.get("turn") == state.get("turn")],
    }


def summary(t: dict) -> str:
    """The first line of a treaty's free text (its clauses are listed apart), shortened."""
    clauses = {c.strip().lower() for c in t.get("clauses") or []}
    first = next((line.strip() for line in str(t.get("text", "")).splitlines()
                  if line.strip() and line.strip().lower() not in clauses), "")
    return first if len(first) <= 70 else first[:67] + "..."


def congress_view(c: dict) -> dict[str, Any]:
    keep = ("site", "called_by", "members", "parties", "attending", "declined", "step", "round",
            "adopted", "signatures", "refusals", "outcome")
    view = {k: c.get(k) for k in keep}
    view["proposals"] = [{"id": p["id"], "by": p["by"], "round": p["round"], "status": p["status"],
                          "clauses": [t["text"] for t in p["terms"]], "text": p["text"],
                          "votes": p.get("votes") or {}} for p in c.get("proposals", [])]
    view["defended"] = c.get("defended", {})
    view["step_title"] = cr.STEP_TITLES.get(c.get("step"), c.get("step"))
    return view


def lines(state: dict, power: str | None, mine: set[str], wrap) -> list[str]:
    d = data(state, power, mine)
    out: list[str] = []
    if d["casus_belli"] or d["unlawful"]:
        out += ["", "Disputes and Casus Belli (this turn):"]
        out += [x for cb in d["casus_belli"] for x in wrap(cb["text"], "  ", "    ")]
        for area, bad in sorted(d["unlawful"].items()):
            if power is None or mine & (set(bad) | set(board.controllers(state, area))):
                out += wrap(f"{area}: " + "; ".join(f"{p}'s {why}" for p, why in sorted(bad.items()))
                            + " - to be settled this turn", "  ", "    ")
    if d["declarations"] and state.get("phase") in ("negotiation", "congress", "chinese_resentment"):
        out += ["", "Declarations of War this turn (the War is played in the War Phase):"]
        out += [f"  {x['by']} on {', '.join(x['against'])}" for x in d["declarations"]]
    if d["treaties"]:
        out += ["", "Treaties" + (" you may see:" if power else " (public):")]
        for t in d["treaties"]:
            head = f"{t['id']} ({t['status'].replace('_', ' ')}"
            head += f", broken by {t['broken_by']}" if t.get("broken_by") else ""
            head += ", secret" if t.get("secret") else ""
            out += wrap(head + f"): {', '.join(t['parties'])}"
                        + (f"; clauses: {'; '.join(t['clauses'])}" if t.get("clauses") else "")
                        + (f"; \"{t['summary']}\"" if t.get("summary") else ""), "  ", "    ")
    if d["congress"]:
        out += congress_lines(d["congress"], wrap)
    return out


def congress_lines(c: dict, wrap) -> list[str]:
    out = ["", f"Congress of Europe in {c['site']} (called by {c['called_by']}): "
               f"{cr.STEP_TITLES.get(c['step'], c['step'])}" + (f", round {c['round']}" if c["step"]
                                                                 not in ("attend", "closed") else "")]
    out += wrap("Members: " + ", ".join(c["members"]) + "; parties to the disputes: "
                + ", ".join(c["parties"]), "  ", "    ")
    if c.get("declined"):
        out += wrap("Stayed away: " + ", ".join(c["declined"]), "  ", "    ")
    for area, d in sorted((c.get("defended") or {}).items()):
        out += wrap(f"{names(d['defenders'])} defend{'s' if len(d['defenders']) == 1 else ''} "
                    f"{d['minor']}'s rights in {area} against {d['placer']}", "  ", "    ")
    for p in c["proposals"]:
        out += wrap(f"Proposal {p['id']} by {p['by']} (round {p['round']}, {p['status']}):", "  ", "    ")
        out += [x for t in p["clauses"] + [s for s in p["text"].splitlines() if s]
                for x in wrap(t, "      ", "    ")]
        v = p.get("votes") or {}
        if v.get("by"):
            ballots = ", ".join(f"{who} {how.upper()}" for who, how in v["by"].items())
            extra = (f"; Austria-Hungary {v['Austria-Hungary'].upper()}"
                     if v.get("Austria-Hungary") else "") + \
                    (f"; the host {v['host'].upper()}" if v.get("host") else "")
            out += wrap(f"votes: {v['yes']} YES, {v['no']} NO ({ballots}{extra})", "      ", "    ")
    if c.get("adopted"):
        signed = ", ".join(c.get("signatures") or {}) or "nobody yet"
        out += wrap(f"Treaty {c['adopted']}: signed by {signed}"
                    + (f"; refused by {', '.join(c['refusals'])}" if c.get("refusals") else ""), "  ", "    ")
    if c.get("outcome"):
        out.append(f"  Outcome: {c['outcome']}")
    return out


def options(state: dict, power: str) -> list[OrderOption]:
    """What the power may send in the Negotiation Phase or the Congress step now open, with
    the real sites, guests, proposals and targets (the reports' "what you may do now")."""
    phase = play.info(state)
    if not phase.takes_orders_from(power) or phase.name not in ("negotiation", "congress"):
        return []
    c = cr.current(state)
    held = [cb for cb in disputes.current(state) if cb["holder"] in (power, "Austria-Hungary"
                                                                     if power == "Germany" else power)]
    targets = tuple(sorted({cb["against"] for cb in held}))
    war = [OrderOption("DECLARE WAR ON <power>[,<power>...]", "you hold a Casus Belli against them",
                       targets)] if held else []
    done = [OrderOption("DONE", "when you have nothing more to send")] if phase.done == "explicit" else []
    if state.get("phase") == "negotiation":
        out = [OrderOption("DOWNGRADE <area> [TO INTEREST|INFLUENCE|NONE]",
                           "give up status to settle a dispute (a bare DOWNGRADE goes one step)"),
               OrderOption("TRANSFER <marker> <area> TO <power>", "they write ACCEPT <marker> <area> FROM you"),
               OrderOption("ACCEPT <marker> <area> FROM <power>", "take a marker transferred to you"),
               OrderOption("GIVE <power> <amount>", "they write ACCEPT <amount> FROM you"),
               OrderOption("ACCEPT <amount> FROM <power>", "take money given to you"),
               OrderOption("CODOMINION <area> WITH <power>[,<power>...]", "every member sends the same order")]
        if held and not c:
            out.append(OrderOption("CALL CONGRESS AT <site>", "the Congress of Europe meets on the disputes; "
                                   "the lawful sites now", tuple(cr.valid_sites(state, cr.all_parties(state)))))
        secret = revealable(state, [power] + (["Austria-Hungary"] if power == "Germany" else []))
        if secret:
            out.append(OrderOption("TREATY REVEAL <id>", "a secret treaty broken this turn: reveal it to gain "
                                   "your Casus Belli against its breaker, then use it here", tuple(secret)))
        defend = tuple(f"{claim['minor']} IN {claim['area']} (against {claim['placer']})"
                       for claim in claims(state) if claim["placer"] != power)
        if defend:
            out.append(OrderOption("DEFEND <minor power> IN <area>", "stand by a Minor Power's rights", defend))
        return out + war + done
    if not c:
        return []
    step, out = c["step"], []
    if step == "attend":
        if power not in c["members"]:
            out += [OrderOption("ATTEND", "take your seat at the Congress"), OrderOption("DECLINE", "stay away")]
        guests = cr.invitable(state, c)
        if guests:
            out.append(OrderOption("INVITE <power>", "every European player must invite", tuple(guests)))
    elif step == "propose":
        out.append(OrderOption("PROPOSE <id> ... ENDPROPOSE",
                               "clauses and free text; it must leave no marker the status rules forbid in "
                               + (", ".join(cr.areas(c)) or "the disputes") + " (HELP CLAUSES)"))
    elif step == "vote":
        open_ids = tuple(p["id"] for p in c["proposals"] if p["status"] == "open")
        out.append(OrderOption("VOTE <id> YES|NO|ABSTAIN", "the proposals open", open_ids))
    elif step == "sign" and power in c.get("signers", []):
        out += [OrderOption(f"SIGN {c['adopted']}", "the treaty the Congress passed"),
                OrderOption(f"REFUSE {c['adopted']}", "defy the Congress: every other member gains a Casus Belli")]
    elif step == "decide":
        out.append(OrderOption("DONE", "you will not go to War (markers of Casus Belli holders who do not "
                               "are removed)"))
        for duty in c.get("obligated", []):
            if duty["power"] == power:
                out.append(OrderOption(f"DECLARE WAR ON {duty['against']}", f"you defend {duty['minor']}, which "
                                       f"is at War with {duty['against']}; otherwise you lose 5 VP and tensions "
                                       "rise 3"))
        done = []
    out += war + done
    if not out and power in phase.owes:  # a member with nothing to choose at this step
        out.append(OrderOption("DONE", "you have nothing to send at this step"))
    return out


def describe_defaults(state: dict, power: str) -> str:
    """What happens when a power that owes an answer sends nothing."""
    c = cr.current(state)
    if state.get("phase") == "negotiation":
        return ("no orders: nothing changes for you; a dispute still unlawful when the phase ends "
                "without a Congress is cleared: its Casus Belli holders' markers are removed")
    if not c:
        return "nothing (no Congress is sitting)"
    step = c["step"]
    if step == "attend":
        return "you stay away from the Congress (DECLINE)" if power not in c["members"] else "nothing"
    if step == "propose":
        return "you make no proposal"
    if step == "vote":
        return "you abstain on every proposal"
    if step == "sign":
        if power in cr.disputants(state, c):
            return f"you sign {c['adopted']} (refusing takes REFUSE {c['adopted']})"
        return f"you do not sign {c['adopted']}: its clauses on you do not bind you"
    if step == "decide":
        return "no War: as a Casus Belli holder your markers in the disputed Area are removed"
    return "nothing"
