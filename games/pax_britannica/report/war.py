"""The War in each report: one sentence per war event, the wars under way, and what a power
may send in the window now open (with its units' moves and the odds of its possible attacks).

Rules: THE WAR SEQUENCE and the War sections it names.  The board is open, so every power
reads every war's moves, combats, supply checks and surrenders.
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.kit import treatybook
from pbem.kit.gameapi import OrderOption

from .. import sequence as play
from ..core import board, combat_table, mapgraph, treaty_records
from ..war import declare, model, moves, natives, resolution, sequence
from .congress import names

FATES = {"eliminated": "eliminated", "surrendered": "surrendered", "retreated": "retreated"}
ENDINGS = {
    "negotiated": "by agreement", "defeat": "in victory", "exhaustion": "with every side beaten",
    "stalemate": "in stalemate (three War Sequences without an attack)",
    "unreachable": "by announcement: the sides can no longer reach each other",
    "rebellion_won": "in Chinese victory: the foreigners are driven out",
    "rebellion_ended": "declared over by the powers (the Chinese cannot reach Formosa)",
    "colonial_victory": "in the colonial powers' victory: no Chinese army remains",
    "ottoman_victory": "in Ottoman victory: no enemy unit remains in the Ottoman Empire",
    "enemy_victory": "in the Ottomans' defeat: no Ottoman army remains",
    "ottoman_unreachable": "at the enemies' demand (the Ottomans cannot reach them)",
}


def unit(e: dict) -> str:
    return f"{str(e.get('type', 'unit')).title()} ({e.get('strength')})"


def losses(items: list[dict]) -> str:
    parts = []
    for x in items or []:
        what = f"{x['power']} {unit(x)} {FATES.get(x['fate'], x['fate'])}"
        parts.append(what + (f" to {x['to']}" if x.get("to") else ""))
    return "; ".join(parts) or "no losses"


def verb(who, word: str) -> str:
    """``conquers`` after one power, ``conquer`` after several."""
    return word if isinstance(who, (list, tuple)) and len(who) > 1 else word + "s"


def war_combat(e: dict, viewer) -> str:
    kind = "Naval combat" if e.get("type") == "navy" else "Combat"
    area = f" with the Area's own {e['area_strength']}" if e.get("area_strength") else ""
    side_a, side_d = names(e.get("attackers") or []), names(e.get("defenders") or []) or e.get("area")
    head = (f"{kind} in {e.get('area')}: {side_a} ({e.get('attack')}) {verb(e.get('attackers'), 'attack')} "
            f"{side_d} ({e.get('defense')}{area})")
    if e.get("die") is None:
        return head + f": nothing resists - {losses(e.get('losses'))}."
    return (head + f": {e.get('attack')} to {e.get('defense')} is {e.get('ratio')}, table {e.get('table')}, "
            f"die {e.get('die')}: {e.get('result')} - {losses(e.get('losses'))}"
            + ("; the Area is defeated." if e.get("defeated") else "."))


def war_begins(e: dict, viewer) -> str:
    sides = e.get("sides") or []
    if e.get("war_kind") == "rebellion":
        return f"The Chinese Rebellion ({e.get('war')}): China against {names(sides[1] if len(sides) > 1 else [])}."
    if e.get("war_kind") == "ottoman":
        return f"The Ottoman Empire goes to War ({e.get('war')}) against {names(sides[1] if len(sides) > 1 else [])}."
    return f"War {e.get('war')}: " + " against ".join(names(s) for s in sides) + "."


def initiative(e: dict, viewer) -> str:
    rolls = e.get("rolls") or {}
    dice = "; dice " + ", ".join(f"{k} {v}" for k, v in rolls.items()) if rolls else ""
    return (f"War {e.get('war')}, sequence {e.get('round')}{dice}: the First Alliance is "
            f"{names(e.get('first'))}" + (f", then {', '.join(names(s) for s in e.get('order', [])[1:])}"
                                           if len(e.get("order", [])) > 1 else "") + ".")


def war_move(e: dict, viewer) -> str:
    why = f" ({e['reason']})" if e.get("reason") else ""
    return f"{e.get('power')}: {unit(e)} moves from {e.get('from')} to {e.get('to')}{why}."


def unit_surrendered(e: dict, viewer) -> str:
    blockade = f"; {e.get('where')} is blockaded by {names(e['blockaded_by'])}" if e.get("blockaded_by") else ""
    return f"{e.get('power')}'s {unit(e)} in {e.get('where')} surrenders ({e.get('reason')}{blockade})."


def supply_check(e: dict, viewer) -> str:
    lost = e.get("areas_lost") or []
    n = e.get("units")
    return (f"Supply of {names(e.get('powers'))}: {n} unit{'' if n == 1 else 's'} abroad checked, "
            f"{e.get('surrendered')} surrendered" + (f"; Areas lost: {', '.join(lost)}" if lost else "") + ".")


def area_surrendered(e: dict, viewer) -> str:
    return f"{e.get('area')} ({names(e.get('from'))}) has no supply and surrenders to {names(e.get('to'))}."


def conquered(e: dict, viewer) -> str:
    if e.get("retaken"):
        return f"{names(e.get('by'))} {verb(e.get('by'), 'win')} back {e.get('area')}."
    when = " at the end of the War (within their reach)" if e.get("at_end") else ""
    return f"{names(e.get('by'))} {verb(e.get('by'), 'conquer')} {e.get('area')} from {names(e.get('from'))}{when}."


def war_end(e: dict, viewer) -> str:
    how = ENDINGS.get(e.get("how"), e.get("how"))
    n = e.get("sequences")
    text = f"War {e.get('war')} ends {how} after {n} War Sequence{'' if n == 1 else 's'}"
    if e.get("victors"):
        text += f": victors {names(e.get('victors'))}"
    if e.get("defeated"):
        text += f"; defeated {names(e.get('defeated'))}"
    if e.get("conquered"):
        text += f"; conquered: {', '.join(e['conquered'])}"
    return text + "."


SENTENCES: dict[str, Callable[[dict, Any], str]] = {
    "war_combat": war_combat, "war_begins": war_begins, "initiative": initiative, "war_move": war_move,
    "unit_surrendered": unit_surrendered, "supply_check": supply_check,
    "area_surrendered": area_surrendered, "conquered": conquered, "war_end": war_end,
    "war_duty": lambda e, v: (f"{e.get('power')} is bound to come to {e.get('ally')}'s aid against "
                              f"{e.get('against')} ({e.get('treaty')})."),
    "war_duty_void": lambda e, v: f"{e.get('power')} need not join {e.get('ally')}: {e.get('reason')}.",
    "war_joined": lambda e, v: (f"{e.get('power')} joins the War beside {e.get('ally')} against "
                                f"{names(e.get('against'))}."),
    "war_refused": lambda e, v: (f"{e.get('power')} refuses to join {e.get('ally')}'s War"
                                 + (f" and breaks {e.get('treaty')}" if e.get("treaty") else "") + "."),
    "war_duty_kept": lambda e, v: (f"{e.get('power')} keeps treaty {e.get('treaty')} ({e.get('duty')} alliance) "
                                   f"and joins {poss(e.get('ally'))} War."),
    "area_defeated": lambda e, v: f"{e.get('area')} is defeated: it loses its own Combat Strength.",
    "area_restored": lambda e, v: f"{e.get('area')} is free of foreign Control again and regains its Combat Strength.",
    "passage_denied": lambda e, v: (f"{e.get('by')} denies {e.get('area')} to {e.get('to')}"
                                    + ("." if e.get("effective") else
                                       f" (it needs {names(e.get('waiting_for'))} too).")),
    "coaling_granted": lambda e, v: f"{e.get('by')} opens {e.get('area')} to {poss(e.get('to'))} fleets for coaling.",
    "peace_asked": lambda e, v: f"{e.get('power')} asks to end the War with {names(e.get('with'))}.",
    "end_delayed": lambda e, v: f"{e.get('power')} asks that the War's end wait (its first two sequences).",
    "separate_peace": lambda e, v: f"{e.get('power')} makes a separate peace with {names(e.get('with'))}.",
    "war_resolved": lambda e, v: f"War {e.get('war')} is settled.",
    "spoils_squabble": lambda e, v: f"The victors ({names(e.get('powers'))}) cannot agree on {e.get('area')}.",
    "reparations": lambda e, v: ("China cedes " + (", ".join(f"{a} to {p}" for p, a in e["ceded"].items())
                                                   or "nothing") + "." if e.get("agreed") else
                                 "The powers do not agree on reparations: China cedes nothing."),
    "units_home": lambda e, v: f"{e.get('power')} brings home: {'; '.join(e.get('units') or [])}.",
    "natives_removed": lambda e, v: (f"The {native(e.get('power'))} {armies(e.get('count'))} "
                                     f"{'leaves' if e.get('count') == 1 else 'leave'} the map."),
    "minor_garrison": lambda e, v: (f"{e.get('power')} garrisons {', '.join(e.get('areas') or []) or 'nothing'}"
                                    + (f" ({e['new_armies']} new Army (1))" if e.get("new_armies") else "")
                                    + "; its other units go home."),
    "chinese_armies": lambda e, v: (f"The Chinese Rebellion: {e.get('count')} Chinese "
                                    f"{armies(e.get('count'))} {'rises' if e.get('count') == 1 else 'rise'} "
                                    f"(die {e.get('count')})."),
    "war_placed": lambda e, v: (f"{e.get('count', 1)} {native(e.get('power'))} {armies(e.get('count', 1))} "
                                f"({e.get('strength')}) {'appears' if e.get('count', 1) == 1 else 'appear'} in "
                                f"{e.get('area')}" + (f" (dice {e['roll']})" if e.get("roll") else "") + "."),
    "great_war": lambda e, v: great_war(e),
}


def native(power: Any) -> str:
    return {"China": "Chinese", "Ottoman Empire": "Ottoman"}.get(str(power), str(power))


def armies(n: Any) -> str:
    return "army" if n == 1 else "armies"


def poss(name: Any) -> str:
    name = str(name)
    return name + ("'" if name.endswith("s") else "'s")


def great_war(e: dict) -> str:
    blamed = e.get("blamed") or []
    cause = (f"{names(e.get('powers'))} are at War" if e.get("cause") == "war"
             else "European Tensions reached 100")
    return f"The Great War breaks out: {cause}" + (f"; {names(blamed)} blamed." if blamed else ".") + \
        " The game ends."


# -- the wars under way --------------------------------------------------------------------------
def data(state: dict) -> list[dict]:
    out = []
    for w in model.open_wars(state):
        out.append({"id": w["id"], "kind": w.get("kind"), "status": w.get("status"), "round": w.get("round", 0),
                    "alliances": [list(s) for s in w["sides"]], "conquered": dict(w.get("conquered", {})),
                    "defeated": list(w.get("defeated", [])),
                    "surrendered": [f"{u['power']} {unit(u)}" for u in w.get("surrendered", [])],
                    "denials": list(w.get("denials", [])), "grants": list(w.get("grants", []))})
    return out


def lines(state: dict, power: str | None, wrap) -> list[str]:
    wars = data(state)
    out: list[str] = []
    if wars:
        out += ["", "Wars under way:"]
    for w in wars:
        kind = {"rebellion": "Chinese Rebellion", "ottoman": "Ottoman war"}.get(w["kind"], "War")
        sides = "; ".join(f"{model.ORDINALS[i].title()} Alliance: {', '.join(s)}"
                          for i, s in enumerate(w["alliances"]) if s)
        out += wrap(f"{w['id']} ({kind}, sequence {w['round']}{', ' + w['status'] if w['status'] != 'active' else ''}): "
                    f"{sides}", "  ", "    ")
        if w["conquered"]:
            out += wrap("Conquered: " + "; ".join(f"{a} by {', '.join(p)}" for a, p in sorted(w["conquered"].items())),
                        "    ", "  ")
        if w["defeated"]:
            out += wrap("Defeated Areas: " + ", ".join(sorted(w["defeated"])), "    ", "  ")
        if w["surrendered"]:
            out += wrap("Surrendered (home when the War ends): " + ", ".join(w["surrendered"]), "    ", "  ")
    return out


def options(state: dict, data, power: str) -> list[OrderOption]:
    """What ``power`` may send in the War window now open, with the real units, places, odds
    and targets (the reports' "what you may do now")."""
    phase = play.info(state)
    if state.get("phase") not in ("war", *sequence.WAR_PHASES) or not phase.takes_orders_from(power):
        return []
    return [option(line) for line in sendable(state, data, power)]


def option(line: str) -> OrderOption:
    """One line of :func:`sendable` as an option: ``... TO one of: A, B`` lists its choices,
    a closing ``(...)`` is its note."""
    if line.startswith("("):   # nothing to order: saying so closes one's part of the window
        return OrderOption("DONE", line.strip("()"))
    if " one of: " in line:
        head, _, rest = line.partition(" one of: ")
        return OrderOption(head + " <place>", "", tuple(x.strip() for x in rest.split(",")))
    if line.endswith(")") and " (" in line:
        form, _, note = line[:-1].partition(" (")
        return OrderOption(form, note)
    return OrderOption(line)


def sendable(state: dict, data, power: str) -> list[str]:
    phase = state.get("phase")
    out: list[str] = []
    if phase == "war":
        targets = sorted({cb["against"] for cb in state.get("cb", []) if model.speaker(state, cb["holder"]) == power
                          and declare.check_declare(state, cb["holder"], cb["against"]) is None})
        secret = treaty_records.revealable(state, [p for p in state.get("powers", {})
                                                   if model.speaker(state, p) == power])
        out = [f"TREATY REVEAL {t} (the secret treaty broken this turn: revealing it gives your Casus Belli "
               "against its breaker)" for t in secret]
        if targets:
            out.append(f"DECLARE WAR ON <power> (you may, against {', '.join(targets)}: +5 European Tensions)")
        return out + ["DONE (if you declare no War)"] if out else []
    if phase == "war_alliances":
        out += duties(state, power)
    found = sequence.step_of(phase or "")
    if phase == "war_resolution":
        out += settling(state, data, power)
    elif found and found[0] == "maneuver":
        out += maneuvers(state, data, power, found[1]) if sequence.asked(state)[0].count(power) else []
    elif found and found[0] == "attack":
        out += attacks(state, data, power, found[1])
    return out + anytime(state, data, power)


def duties(state: dict, power: str) -> list[str]:
    out = []
    for d in declare.pending(state):
        if model.speaker(state, d["power"]) != power or declare.void(state, d):
            continue
        lead = f"FOR {d['power']} then " if d["power"] != power else ""
        if d.get("kind") == "austria":
            out += [f"{lead}JOIN WAR WITH {d['ally']} (the default)",
                    f"{lead}REFUSE WAR WITH {d['ally']} (breaks the German-Austrian treaty: +5 European Tensions)"]
        else:
            record = treatybook.find(state, d["treaty"])
            named = record["id"] if record else d["treaty"]
            out += [f"{lead}JOIN WAR WITH {d['ally']} (treaty {named}, {d['kind']}: +5 European Tensions)",
                    f"{lead}REFUSE WAR WITH {d['ally']} (the default: breaks the treaty, +5, a Casus Belli "
                    f"for its other signers)"]
    for war in model.fighting(state):
        if model.side_index(war, power) is not None:
            continue
        if war.get("kind") == "ottoman":
            foes = [p for p in model.members(war) if model.enemies_in(war, p, model.OTTOMANS)]
            out += ["SUPPORT OTTOMANS (+5 European Tensions)",
                    f"JOIN WAR WITH {' | '.join(foes)} (against the Ottomans: +5 European Tensions)"]
        for minor in model.unallied_minors(state, war):
            out.append(f"JOIN WAR WITH {minor} (ally with it and move its units; +5 European Tensions)")
    return out


def unit_moves(state: dict, data, power: str, unit: dict) -> list[str]:
    return [dst for dst in sorted(moves.steps(state, data, power, unit))
            if moves.check(state, data, power, unit, dst) is None]


def maneuvers(state: dict, data, power: str, index: int) -> list[str]:
    out = []
    for war in model.fighting(state):
        if index >= len(war["sides"]):
            continue
        for p in war["sides"][index]:
            if power not in model.controllers(state, war, p) or model.engine_moved(state, war, p):
                continue
            lead = f"FOR {p}: " if p != power else ""
            for u in sorted(board.units_of(state, p), key=lambda u: (u["where"], u["type"], -u["strength"])):
                dests = unit_moves(state, data, p, u)
                if dests:
                    out.append(f"{lead}MOVE {u['type'].upper()} {u['strength']} {u['where']} TO one of: "
                               + ", ".join(dests))
    return out or ["(no unit of yours can move)"]


def attacks(state: dict, data, power: str, index: int) -> list[str]:
    out = []
    for war in model.fighting(state):
        if index >= len(war["sides"]):
            continue
        side = war["sides"][index]
        places = {u["where"] for p in side for u in board.units_of(state, p)}
        for place in sorted(places):
            for kind in ("army", "navy"):
                mine = [u for p in side for u in board.units_of(state, p, place, kind)
                        if power in model.controllers(state, war, p)]
                foes = [u for u in board.units_of(state, where=place, type=kind) if model.enemies_in(war, side[0], u["power"])]
                extra = natives.area_strength(state, data, war, place) if kind == "army" else 0
                if not mine or not (foes or extra):
                    continue
                a = sum(u["strength"] for u in board.units_of(state, where=place, type=kind) if u["power"] in side)
                d = sum(u["strength"] for u in foes) + extra
                ratio, table = combat_table.odds(a, d)
                out.append(f"ATTACK {kind.upper()} {place} (your alliance {a} against {d}: {ratio}, table {table}"
                           + (", fought whether ordered or not" if extra else "") + ")")
    return out


def settling(state: dict, data, power: str) -> list[str]:
    out = []
    for war in model.group_wars(state):
        if war.get("status") != "ended":
            continue
        for p, areas in resolution.open_spoils(state, data, war).items():
            if power in model.controllers(state, war, p):
                lead = f"FOR {p}: " if p != power else ""
                what = "POSSESSION" if not board.is_great(state, p) else "<marker>"
                out.append(f"{lead}PLACE {what} <area>, free, in: {', '.join(sorted(areas))}")
        for p in resolution.demanders(state, data, war):
            if power in model.controllers(state, war, p):
                lead = f"FOR {p}: " if p != power else ""
                out.append(f"{lead}DEMAND <area> [PROTECTORATE|POSSESSION] (one of the defeated Areas: "
                           f"{', '.join(sorted(war.get('defeated', []))) or 'none'}) or DECLINE")
    return out


def anytime(state: dict, data, power: str) -> list[str]:
    out = []
    war = model.war_of(state, power)
    if war and war.get("kind") == "war" and state.get("phase") != "war_resolution":
        foes = sorted(p for p in model.members(war) if model.enemies_in(war, power, p) and board.is_great(state, p))
        if foes:
            out.append(f"END WAR WITH {', '.join(foes)} (the War ends when every side asks it of the other)")
        if war.get("round", 0) <= 2:
            out.append("DELAY END (the War goes on even if a side has no army abroad, in its first two sequences)")
    if war and war.get("kind") == "rebellion":
        out.append("END REBELLION (when the Chinese cannot reach your remaining armies, e.g. in Formosa)")
    for area in sorted((getattr(data, "straits", {}) or {})):
        if board.has_control(state, power, area) and model.fighting(state) and (
                area not in board.CANAL_AREAS or area in state.get("canals", [])):
            what = "STRAITS" if area == "Anatolia" else "CANAL"
            out.append(f"DENY {what} {area} TO <power> (a power at War)")
    if model.fighting(state) and war is None and any(
            board.has_control(state, power, a) and mapgraph.seas_of(data, a) for a in state.get("markers", {})):
        out.append("GRANT COALING <area> TO <power> (one of your coastal Areas, for the whole War)")
    return out


def describe_defaults(state: dict, power: str) -> str:
    phase = state.get("phase")
    if phase == "war":
        return "no declaration of War"
    if phase == "war_alliances":
        return ("a treaty duty you do not answer is refused (the treaty is broken); Austria-Hungary "
                "comes to Germany's aid unless told not to; you support and join nobody")
    if phase == "war_resolution":
        return "you place no marker and demand nothing"
    found = sequence.step_of(phase or "")
    if found and found[0] == "maneuver":
        return "your units hold where they are"
    if found and found[0] == "attack":
        return "you attack nowhere (armies in an undefeated Chinese or Ottoman Area still fight it)"
    return "nothing"

