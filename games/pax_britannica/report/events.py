"""One plain English sentence (or two) for each event the rules emit (their words: ``words.py``).

``sentence(event, viewer)`` never raises: a kind without a sentence of its own gets a
readable generic line.  ``viewer`` is the set of powers whose private figures may be
shown (empty for the public report): another power's treasury never appears.
"""
from __future__ import annotations

from typing import Callable

from . import congress as report_congress, war as report_war
from .words import (HIDDEN_FIELDS, PURPOSES, RANDOM_EVENT_PREFIX, RESULTS, Viewer, a_status, a_unit, because,
                    money, names, poss, signed, status, unit)

# -- markers ---------------------------------------------------------------------
def marker(e: dict, viewer: Viewer) -> str:
    p, area, reason = e.get("power", "?"), e.get("area", "?"), str(e.get("reason") or "")
    old, new = e.get("from") or "none", e.get("to") or "none"
    if reason == "bought":
        text = f"{p} bought {a_status(new)} in {area} ({money(e.get('cost'))})"
        if new in ("protectorate", "possession") and not e.get("established"):
            text += f"; it is established once {area} is defeated in Colonial Combat"
        return text + "."
    if old == new and e.get("established"):
        return f"{poss(p)} {status(new)} in {area} is established" + (
            "." if reason in ("established", "") else f"{because(reason)}.")
    if new == "none":
        return f"{poss(p)} {status(old)} in {area} is removed{because(reason)}."
    # A marker paid for outside a purchase (a Codominion joined by Negotiation: NEGOTIATION 4).
    paid = f", for {money(e['cost'])}" if e.get("cost") else ""
    if old == "none":
        return f"{p} gains {a_status(new)} in {area}{because(reason)}{paid}."
    return f"{poss(p)} {status(old)} in {area} becomes {a_status(new)}{because(reason)}{paid}."


def established_list(events: list[dict]) -> str:
    """Many markers established at once read better as one sentence."""
    return "Markers established: " + names(
        [f"{poss(e.get('power'))} {status(e.get('to'))} in {e.get('area')}" for e in events]) + "."


# -- units -------------------------------------------------------------------------
def unit_built(e: dict, viewer: Viewer) -> str:
    where = e.get("where", "?") + (f" ({e['sea']})" if e.get("sea") else "")
    return f"{e.get('power')} built {a_unit(e)} in {where} ({money(e.get('cost'))})."


def unit_moved(e: dict, viewer: Viewer) -> str:
    to = e.get("to", "?") + (f" ({e['sea']})" if e.get("sea") else "")
    path = [s for s in e.get("path") or [] if s not in (e.get("from"), e.get("to"))]
    via = f" by way of {names(path)}" if path else ""
    return f"{e.get('power')} moved {a_unit(e)} from {e.get('from')} to {to}{via}{because(e.get('reason'))}."


def unit_lost(e: dict, viewer: Viewer) -> str:
    return f"{e.get('power')} lost {a_unit(e)} in {e.get('area', '?')}{because(e.get('reason'))}."


def unit_retreated(e: dict, viewer: Viewer) -> str:
    return (f"{poss(e.get('power'))} {unit(e)} retreated from {e.get('from')} to "
            f"{e.get('to')}{because(e.get('reason'))}.")


def unit_removed(e: dict, viewer: Viewer) -> str:
    return f"{e.get('power')} removed {a_unit(e)} in {e.get('where', '?')}{because(e.get('reason'))}."


# -- combat ------------------------------------------------------------------------
def combat_head(e: dict) -> str:
    side = "+".join(e.get("powers") or [e.get("power", "?")])
    text = f"Colonial Combat in {e.get('area')}: {side} {e.get('attack')} against {e.get('defense')}"
    if e.get("result") == "auto":
        return text + ", no defenders: the Area falls"
    ratio = f" ({e.get('ratio')}, table {e.get('table')})" if e.get("ratio") else ""
    result = e.get("result", "?")
    meaning = RESULTS.get(result)
    return text + f"{ratio}, die {e.get('die')}: {result}" + (f" ({meaning})" if meaning else "")


def colonial_combat(e: dict, viewer: Viewer) -> str:
    purpose = PURPOSES.get(str(e.get("purpose")))
    outcome = "the Area is defeated" if e.get("defeated") else "the Area holds"
    return combat_head(e) + (f"; {outcome}" if "defeated" in e else "") + (
        f" (fought {purpose})." if purpose else ".")


def combat_clause(e: dict) -> str | None:
    """The consequence of a combat, as a clause of the combat's sentence."""
    kind = e.get("kind")
    if kind == "unit_lost":
        return f"{e.get('power')} loses {unit(e)}"
    if kind == "unit_retreated":
        return f"{poss(e.get('power'))} {unit(e)} retreats to {e.get('to')}"
    if kind == "marker" and e.get("to") == "none":
        return f"{poss(e.get('power'))} {status(e.get('from'))} is removed"
    if kind == "marker" and e.get("established"):
        return f"{poss(e.get('power'))} {status(e.get('to'))} is established"
    if kind == "unrest" and e.get("cleared"):
        return "the Unrest is suppressed"
    return None


def combat_area(e: dict) -> str | None:
    kind = e.get("kind")
    return e.get("from") if kind == "unit_retreated" else e.get("area")


# -- money and the sheet ---------------------------------------------------------------
def income(e: dict, viewer: Viewer) -> str:
    # Rules: INCOME RECORD - the Colonial Office die is said with its result.
    die = f" (die {e['roll']})" if e.get("roll") is not None else ""
    text = (f"{poss(e.get('power'))} income: Colonial Office {money(e.get('colonial_office'))}{die} "
            f"+ colonies {money(e.get('markers'))} - maintenance {money(e.get('maintenance'))} "
            f"= {money(e.get('net'))}; treasury {money(e.get('treasury'))}.")
    if e.get("deficit"):
        text += f" A deficit of {money(e['deficit'])} must be met."
    return text


def money_event(e: dict, viewer: Viewer) -> str:
    return f"{e.get('power')} gave {money(e.get('amount'))} to {e.get('to')}."


def deficit(e: dict, viewer: Viewer) -> str:
    return f"{e.get('power')} must meet a deficit of {money(e.get('amount'))}."


def deficit_settled(e: dict, viewer: Viewer) -> str:
    short = e.get("short") or 0
    return f"{poss(e.get('power'))} deficit is settled" + (
        f", {money(short)} short." if short else ".")


def order_failed(e: dict, viewer: Viewer) -> str:
    return (f"{poss(e.get('power'))} order {e.get('order')} failed: {e.get('reason')}"
            + (f" [{e['code']}]." if e.get("code") else "."))


def merchant(e: dict, viewer: Viewer) -> str:
    p, sea, action = e.get("power"), e.get("sea"), e.get("action")
    if action == "moved":
        return f"{p} moved a Merchant Fleet from {e.get('from')} to {sea}."
    if action == "placed":
        return f"{p} placed a Merchant Fleet in {sea}."
    if action == "GM removed":
        return f"The GM removed {poss(p)} Merchant Fleet from {sea}."
    if action == "GM":
        return f"The GM placed a Merchant Fleet of {p} in {sea}."
    return f"{poss(p)} Merchant Fleet in {sea}{because(action)}."


def canal(e: dict, viewer: Viewer) -> str:
    if not e.get("power"):
        return f"A canal now stands in {e.get('area')}{because(e.get('reason'))}."
    return f"{e.get('power')} built a canal in {e.get('area')} ({money(e.get('cost'))})."


def canal_race(e: dict, viewer: Viewer) -> str:
    rolls = e.get("rolls") or {}
    return "Who built the first canal: " + names([f"{p} rolls {r}" for p, r in rolls.items()]) + "."


# -- indices, Casus Belli, Victory Points -----------------------------------------------
def index(name: str, e: dict) -> str:
    reason = RANDOM_EVENT_PREFIX.sub("", str(e.get("reason") or ""))
    text = f"{name} {signed(e.get('delta'))}{because(reason)}: now {e.get('value')}."
    if e.get("blame"):
        blamed = e["blame"] if isinstance(e["blame"], list) else [e["blame"]]
        text = text[:-1] + f"; {names(blamed)} {'is' if len(blamed) == 1 else 'are'} blamed."
    return text


def eti(e: dict, viewer: Viewer) -> str:
    return index("European Tensions", e)


def cri(e: dict, viewer: Viewer) -> str:
    return index("Chinese Resentment", e)


def cb(e: dict, viewer: Viewer) -> str:
    area = f" over {e['area']}" if e.get("area") else ""
    reason = RANDOM_EVENT_PREFIX.sub("", str(e.get("reason") or ""))
    if e.get("removed"):
        return f"{poss(e.get('holder'))} Casus Belli against {e.get('against')}{area} ends{because(reason)}."
    return f"{e.get('holder')} gains a Casus Belli against {e.get('against')}{area}{because(reason)}."


def vp(e: dict, viewer: Viewer) -> str:
    p, reason = e.get("power"), str(e.get("reason") or "")
    delta = e.get("delta", 0)
    verb = "scores" if isinstance(delta, int) and delta >= 0 else "loses"
    amount = abs(delta) if isinstance(delta, int) else delta
    if reason == "funds":
        return f"{p} {verb} {amount} VP from its funds."
    return f"{p} {verb} {amount} VP{because(reason)}."


def funds_vp(e: dict, viewer: Viewer) -> str:
    """Lines 23-24 on the power's own sheet."""
    return (f"{poss(e.get('power'))} treasury ({money(e.get('treasury'))} / {e.get('divisor')}) "
            f"gives {e.get('vp')} VP.")


# -- random events, unrest, minor powers -----------------------------------------------
def random_events(e: dict, viewer: Viewer) -> str:
    n = e.get("count")
    return f"{n} random event{'' if n == 1 else 's'} this turn (die {n})."


def random_event(e: dict, viewer: Viewer) -> str:
    number = f" {e['number']}" if e.get("number") else ""
    return f"Random event{number} ({e.get('roll')}): {e.get('name')}."


def random_unrest(event: dict, unrest_event: dict) -> str:
    """An Unrest random event and the Area its table gave, in one sentence."""
    number = f" {event['number']}" if event.get("number") else ""
    return (f"Random event{number} ({event.get('roll')}): Unrest in {unrest_event.get('area')} "
            f"(table {unrest_event.get('table')}, {unrest_event.get('roll')}).")


def random_event_reroll(e: dict, viewer: Viewer) -> str:
    return f"Random event {e.get('number')}: {e.get('roll')} {e.get('name')} cannot recur; rolled again."


def unrest(e: dict, viewer: Viewer) -> str:
    area = e.get("area", "?")
    if e.get("cleared") and e.get("by"):
        return f"Unrest in {area} is suppressed by {e['by']}."
    if e.get("cleared"):
        return f"Unrest in {area} ends{because(e.get('reason'))}."
    if e.get("table"):
        return f"Unrest breaks out in {area} (table {e['table']}, {e.get('roll')})."
    return f"Unrest in {area}{because(e.get('reason'))}."


def unrest_reroll(e: dict, viewer: Viewer) -> str:
    return (f"Unrest table {e.get('table')} ({e.get('roll')}) gave {e.get('area')}, "
            f"already in Unrest; rolled again.")


def unrest_none(e: dict, viewer: Viewer) -> str:
    return f"Unrest table {e.get('table')}: every Area is already in Unrest; no effect."


def permission(e: dict, viewer: Viewer) -> str:
    action = "establish Control" if e.get("action") == "establish_control" else \
        str(e.get("action") or "act").replace("_", " ")
    areas = e.get("areas") or []
    where = (f"in {e['max_areas']} of {names(areas)}" if e.get("max_areas") else f"in {names(areas)}")
    return f"{e.get('event')}: {e.get('power')} may {action} {where} this turn."


def pressure(e: dict, viewer: Viewer) -> str:
    head = f"{e.get('event')}: "
    if not e.get("possible"):
        return head + f"no effect ({e.get('power')} holds no established Possession in {e.get('area')})."
    return head + (f"{e.get('power')} must make {e.get('area')} {a_status(e.get('status'))} "
                   f"this turn or lose {abs(int(e.get('vp') or 0))} VP.")


def minor_power(e: dict, viewer: Viewer) -> str:
    p, roll = e.get("power"), e.get("roll")
    if not e.get("active"):
        return f"{p} (Minor Power) is inactive (die {roll}){because(e.get('reason'))}."
    if e.get("area"):
        return (f"{p} (Minor Power) is active (die {roll}) and aims at {e['area']} "
                f"(dice {e.get('target_roll')}) with {a_status(e.get('marker'))}.")
    return f"{p} (Minor Power) is active (die {roll}){because(e.get('reason'))}."


def minor_power_reroll(e: dict, viewer: Viewer) -> str:
    return (f"{e.get('power')} (Minor Power) rolled {e.get('roll')} for {e.get('area')}, "
            f"which cannot take a marker; rolled again.")


# -- China, war, the end ----------------------------------------------------------------
def chinese_rebellion(e: dict, viewer: Viewer) -> str:
    if e.get("roll") is None:
        return f"No Chinese Rebellion: {e.get('reason', 'no dice rolled')}."
    dice = "+".join(map(str, e.get("dice") or [])) or "?"
    outcome = "a Chinese Rebellion breaks out!" if e.get("occurs") else "no rebellion."
    return f"Chinese Rebellion check: three dice {dice} = {e.get('roll')} against {e.get('threshold')}: {outcome}"


def great_war(e: dict, viewer: Viewer) -> str:
    blamed = e.get("blamed") or []
    return ("The Great War breaks out: European Tensions reached 100"
            + (f"; {names(blamed)} blamed." if blamed else ".") + " The game ends.")


def game_over(e: dict, viewer: Viewer) -> str:
    return f"The game is over ({e.get('turn')})" + (" after the Great War." if e.get("great_war") else ".")


def final_record(e: dict, viewer: Viewer) -> str:
    ranks = e.get("ranks") or []
    return "Final ranking: " + "; ".join(
        f"{r.get('rank')}. {r.get('power')} {r.get('vp')} VP" for r in ranks) + "."


def gm_notice(e: dict, viewer: Viewer) -> str:
    return f"For the GM: {e.get('text', '')}"


def position_changed(e: dict, viewer: Viewer) -> str:
    return f"The GM changed {e.get('power')}'s position: {'; '.join(e.get('changes') or [])}."


def treaty(e: dict, viewer: Viewer) -> str:
    tid, parties = e.get("id"), names(e.get("parties") or [])
    action = str(e.get("action") or "")
    if action == "passed by the Congress":
        return f"The Congress passes treaty {tid}; {parties} are asked to sign it."
    if action == "in force":
        return f"Treaty {tid} between {parties} comes into force."
    if action == "refused":
        return f"Treaty {tid} is not signed by every party: it fails."
    if e.get("broken_by"):
        return f"Treaty {tid} between {parties} is broken by {e['broken_by']}."
    if action == "ended by War":
        return f"Treaty {tid} between {parties} ends: War was declared between its parties."
    if action == "claim dismissed":
        return f"The GM dismissed the breach claimed on treaty {tid}."
    return f"Treaty {tid} between {parties}: {str(e.get('status') or '').replace('_', ' ')}."


def ruling(e: dict, viewer: Viewer) -> str:
    return f"The GM ruled on {e.get('question')}: {str(e.get('ruling') or '').rstrip('.')}."


def war_declared(e: dict, viewer: Viewer) -> str:
    sides = e.get("sides") or [[], []]
    return f"War {e.get('war')}: {names(sides[0])} against {names(sides[1:])}."


def gm(e: dict, viewer: Viewer) -> str:
    """A GM edit; one of a private figure comes as two events (gm.py): "changed" for all,
    the figure for its power."""
    return f"The GM {'changed' if e.get('changed') else 'set'} {e.get('text', '')}."


def generic(e: dict, viewer: Viewer) -> str:
    """A kind without a sentence of its own: its fields, in words."""
    title = str(e.get("kind") or "event").replace("_", " ").capitalize()
    parts = [f"{str(k).replace('_', ' ')} {names(v) if isinstance(v, list) else v}"
             for k, v in e.items() if k not in HIDDEN_FIELDS and v not in (None, "", [], {})]
    return f"{title}: " + ("; ".join(parts) if parts else "no details") + "."


SENTENCES: dict[str, Callable[[dict, Viewer], str]] = {
    "marker": marker, "unit_built": unit_built, "unit_moved": unit_moved, "unit_lost": unit_lost,
    "unit_retreated": unit_retreated, "unit_removed": unit_removed,
    "colonial_combat": colonial_combat, "income": income, "money": money_event,
    "deficit": deficit, "deficit_settled": deficit_settled, "order_failed": order_failed,
    "merchant": merchant, "canal": canal, "canal_race": canal_race, "eti": eti, "cri": cri,
    "cb": cb, "vp": vp, "funds_vp": funds_vp, "random_events": random_events, "random_event": random_event,
    "random_event_reroll": random_event_reroll, "unrest": unrest, "unrest_reroll": unrest_reroll,
    "unrest_none": unrest_none, "permission": permission, "pressure": pressure,
    "minor_power": minor_power, "minor_power_reroll": minor_power_reroll,
    "chinese_rebellion": chinese_rebellion, "great_war": great_war, "game_over": game_over,
    "final_record": final_record, "gm_notice": gm_notice, "position_changed": position_changed, "treaty": treaty,
    "ruling": ruling,
    "war_declared": war_declared, "gm": gm,
}


SENTENCES.update(report_congress.SENTENCES)
SENTENCES.update(report_war.SENTENCES)


def sentence(e: dict, viewer: Viewer = frozenset()) -> str:
    render = SENTENCES.get(str(e.get("kind")), generic)
    try:
        return render(e, viewer)
    except Exception:  # noqa: BLE001 - an odd event must never stop a report
        return generic(e, viewer)
