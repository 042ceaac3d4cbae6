"""Sentences for the events of the Negotiation Phase, the Congress of Europe and treaties
(merged into report_events.SENTENCES)."""
from __future__ import annotations

from typing import Callable

from ..core.congress_rules import STEP_TITLES


def names(items) -> str:
    items = [str(i) for i in (items or [])]
    if len(items) > 1:
        return ", ".join(items[:-1]) + " and " + items[-1]
    return items[0] if items else "nobody"


def poss(name) -> str:
    name = str(name)
    return name + ("'" if name.endswith("s") else "'s")


def congress_called(e: dict, viewer) -> str:
    return (f"{e.get('by')} calls a Congress of Europe in {e.get('site')}; its members so far: "
            f"{names(e.get('members'))}.")


def congress_attendance(e: dict, viewer) -> str:
    if e.get("invited"):
        return f"{e.get('power')} is invited to the Congress by every European Great Power."
    what = "attends the Congress." if e.get("attends") else "stays away from the Congress."
    return f"{e.get('power')} {what}"


def congress_step(e: dict, viewer) -> str:
    step = e.get("step")
    if step == "closed":
        return f"The Congress of Europe in {e.get('site')} closes."
    title = STEP_TITLES.get(step, str(step))
    rnd = f" (round {e.get('round')})" if step in ("propose", "vote", "sign") else ""
    return f"The Congress of Europe in {e.get('site')} turns to {title}{rnd}."


def proposal(e: dict, viewer) -> str:
    terms = list(e.get("clauses") or []) + [t for t in str(e.get("text") or "").splitlines() if t]
    body = "; ".join(terms).rstrip(".") or "no terms"
    return f"{e.get('by')} proposes treaty {e.get('id')}: {body}."


def congress_vote(e: dict, viewer) -> str:
    ballots = ", ".join(f"{p} {str(v).upper()}" for p, v in (e.get("by") or {}).items())
    extra = ""
    if e.get("austria_hungary"):
        extra += f"; tied, Austria-Hungary votes {str(e['austria_hungary']).upper()}"
    if e.get("host"):
        extra += f"; the host breaks the tie with {str(e['host']).upper()}"
    verdict = "passes" if e.get("result") == "passed" else "is defeated"
    return (f"Proposal {e.get('id')} {verdict}: {e.get('yes')} YES, {e.get('no')} NO"
            + (f" ({ballots}{extra})" if ballots or extra else "") + ".")


def congress_signature(e: dict, viewer) -> str:
    what = f"signs {e.get('id')}." if e.get("signed") else f"refuses to sign {e.get('id')}."
    return f"{e.get('power')} {what}"


def congress_failed(e: dict, viewer) -> str:
    return f"The Congress of Europe in {e.get('site')} fails: {e.get('reason')}."


def declaration(e: dict, viewer) -> str:
    return f"{e.get('by')} declares War on {names(e.get('against'))}."


def defend(e: dict, viewer) -> str:
    return (f"{e.get('power')} will defend {poss(e.get('minor'))} rights in {e.get('area')} "
            f"against {e.get('against')}: a Congress of Europe must be called.")


def codominion(e: dict, viewer) -> str:
    return f"{e.get('area')} becomes a Codominion of {names(e.get('powers'))} ({e.get('reason')})."


def clause_void(e: dict, viewer) -> str:
    return f"Treaty {e.get('id')}: {e.get('clause')} does not bind ({e.get('reason')})."


def question(e: dict, viewer) -> str:
    return f"For the GM: {e.get('text')}"


SENTENCES: dict[str, Callable] = {
    "congress_called": congress_called, "congress_attendance": congress_attendance,
    "congress_step": congress_step, "proposal": proposal, "congress_vote": congress_vote,
    "congress_signature": congress_signature, "congress_failed": congress_failed,
    "declaration": declaration, "defend": defend, "codominion": codominion,
    "clause_void": clause_void, "question": question,
}
