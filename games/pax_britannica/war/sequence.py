"""The War Sequence as order windows: which phase comes next, who owes orders in it, and what
each phase does.

Rules: THE WAR SEQUENCE (Alliance Determination, Initiative Determination, the Alliance
Maneuver, Attack and Supply Phases, War End Determination, Resolution; a third alliance's
phases "as necessary"); DECLARATIONS OF WAR.

Only the alliance whose phase it is owes orders (the players who move its powers); the window
closes early once they have sent them.  While it is open, the other players may write the
decisions the rules give them at any time of a War (END WAR WITH, DELAY END, END REBELLION,
GRANT COALING, DENY CANAL|STRAITS, a DECLARE WAR ON with a Casus Belli that arose in the War).
A window whose alliance owes nothing (China, the Ottomans alone, an alliance with no combat to
fight) resolves at once.  Whenever a treaty duty to join a War is waiting, an Alliance
Determination window comes first, then the sequence goes on where it was.
"""
from __future__ import annotations

from pbem.kit.gameapi import DONE_ON_ORDERS, Order, PhaseInfo

from ..core import board, treaty_records
from ..core.data import load_data
from ..core.state import by_rules_order, label, power_order
from . import (combat, decisions, declare, ending, greatwar, minors, model, moves, natives, orders_of, outset,
               resolution, supply)

WINDOW = "war"
#: Rules: THE WAR SEQUENCE - the windows of a War in the order the rules play them (a third
#: alliance's phases "as necessary"), after the War Phase's declarations ("war").
WAR_PHASES = ["war_alliances", "war_initiative", "war_maneuver_1", "war_attack_1",
              "war_supply_1", "war_maneuver_2", "war_attack_2", "war_supply_2",
              "war_maneuver_3", "war_attack_3", "war_supply_3", "war_end", "war_resolution"]
#: each alliance's three phases, in their order
STEP_NAMES = ("maneuver", "attack", "supply")


def step_of(phase: str) -> tuple[str, int] | None:
    """("maneuver" | "attack" | "supply", alliance index) for an alliance's phase."""
    for step in STEP_NAMES:
        prefix = f"war_{step}_"
        if phase.startswith(prefix) and phase[len(prefix):].isdecimal():
            return step, int(phase[len(prefix):]) - 1
    return None


#: the few words a subject line gives a war's group and its phases
SHORT_GROUP = {"rebellion": "Rebellion", "ottoman": "Ottoman"}
SHORT_NAMES = {"war_alliances": "Alliances", "war_initiative": "Initiative", "war_end": "End",
               "war_resolution": "Resolution"}
#: the longest short label (a mail's subject names the phase by it)
SHORT = 28


def _sequence(state: dict) -> int:
    """The number of the war's sequence a phase belongs to: an Initiative Determination opens
    the next one, an Alliance Determination before the first belongs to none (0)."""
    rnd = max([w.get("round", 0) for w in model.fighting(state)] or [0])
    return rnd + 1 if state["phase"] == "war_initiative" else rnd


def title(state: dict) -> str:
    """The phase's own title: no two windows of a turn have the same one (a GM names them by it),
    but an Alliance Determination called again in one sequence by a new declaration."""
    phase = state["phase"]
    found = step_of(phase)
    group = model.current_group(state)
    what = {"rebellion": "Chinese Rebellion", "ottoman": "Ottoman War"}.get(group, "War")
    if phase == "war":
        return "War Phase: declarations of War"
    rnd = _sequence(state)
    if found:
        step, i = found
        powers = sorted({p for w in model.fighting(state) if i < len(w["sides"]) for p in w["sides"][i]},
                        key=power_order)
        return (f"{what}, sequence {rnd}: {model.ORDINALS[i].title()} Alliance {step.title()}"
                + (f" ({', '.join(powers)})" if powers else ""))
    names = {"war_alliances": "Alliance Determination", "war_initiative": "Initiative Determination",
             "war_end": "War End Determination", "war_resolution": "Resolution"}
    if rnd and phase != "war_resolution":
        return f"{what}, sequence {rnd}: {names.get(phase, label(phase))}"
    return f"{what}: {names.get(phase, label(phase))}"


def short(state: dict) -> str:
    """The phase in a mail's subject: "1884 War 1: Attack 2" (the second alliance's Attack
    Phase of the first sequence), "1884 Rebellion: Resolution"."""
    phase, turn = state["phase"], state["turn"]
    if phase == "war":
        return f"{turn} War declarations"
    what = SHORT_GROUP.get(model.current_group(state), "War")
    rnd = _sequence(state) if phase != "war_resolution" else 0
    found = step_of(phase)
    name = f"{found[0].title()} {found[1] + 1}" if found else SHORT_NAMES.get(phase, label(phase))
    text = f"{turn} {what}" + (f" {rnd}" if rnd else "") + f": {name}"
    return text if len(text) <= SHORT else text.replace(": ", " ")[:SHORT]


def info(state: dict) -> PhaseInfo:
    phase, turn = state["phase"], state["turn"]
    owes, may = asked(state)
    key = f"{turn}/war" if phase == "war" else f"{turn}/{phase}/{state.get('war_window', 0)}"
    return PhaseInfo(key=key, name=phase, turn=turn, owes=tuple(owes), may=tuple(may),
                     label=f"{turn} {title(state)}", window=WINDOW, done=DONE_ON_ORDERS,
                     short=short(state))


# -- who is asked ------------------------------------------------------------------------------
def cb_holders(state: dict) -> list[str]:
    """Players who may declare War at the outset of the War Phase: Casus Belli holders, and
    the signers of a secret treaty broken this turn who may still reveal it to gain theirs
    (Rules: TREATIES - "a signer who wishes to use that fact to obtain a Casus Belli must make
    the Treaty public"; clarification - after the Negotiation and Congress "the player with
    the new CB cannot call a new Congress", but may declare War).  Choice: a signer a
    Negotiation window asked already is not asked again (it may still reveal the treaty and
    then holds a Casus Belli)."""
    out = set()
    for cb in state.get("cb", []):
        speaker = model.speaker(state, cb["holder"])
        if speaker and declare.check_declare(state, cb["holder"], cb["against"]) is None:
            out.add(speaker)
    for _, pending in treaty_records.unoffered(state):
        speaker = model.speaker(state, pending["holder"])
        if speaker and not model.at_war(state, pending["holder"], pending["against"]):
            out.add(speaker)
    return by_rules_order(out)


def immediate(state: dict) -> list[str]:
    """Players holding a Casus Belli they may use only in this window (a Codominion entered,
    a passage denied): they are asked whether they declare War."""
    window = state.get("war_window", 0)
    return by_rules_order(s for cb in state.get("cb", []) if cb.get("window") == window
                                for s in [model.speaker(state, cb["holder"])] if s)


def duty_speakers(state: dict) -> list[str]:
    """Players asked to answer a treaty duty: only while the wars it concerns are fought."""
    if model.current_group(state) != "war":
        return []
    return by_rules_order(s for o in declare.pending(state) if declare.void(state, o) is None
                                for s in [model.speaker(state, o["power"])] if s)


def alliance_owes(state: dict) -> list[str]:
    out = set(duty_speakers(state))
    group = model.current_group(state)
    players = list(state.get("players", []))
    for war in model.fighting(state):
        if group == "ottoman" and war.get("round", 0) == 0:
            out |= set(players)   # any player may come to the Empire's aid, or be asked to help
        for minor in model.unallied_minors(state, war):
            out |= {p for p in players if model.war_of(state, p) is None}
    return by_rules_order(out)


def can_fight(state: dict, war: dict, power: str) -> bool:
    for u in board.units_of(state, power):
        foes = [x for x in board.units_of(state, where=u["where"], type=u["type"])
                if model.enemies_in(war, power, x["power"])]
        if foes:
            return True
    return False


def asked(state: dict) -> tuple[list[str], list[str]]:
    if state.get("game_over") or state.get("great_war"):
        return [], []
    phase = state["phase"]
    players = list(state.get("players", []))
    if phase == "war":
        return cb_holders(state), []
    if phase == "war_alliances":
        return alliance_owes(state), []
    if phase == "war_resolution":
        return by_rules_order(resolution.deciders(state, load_data(state))), []
    found = step_of(phase)
    owes: set[str] = set(immediate(state))
    if not found or found[0] == "supply":
        return by_rules_order(owes), []
    step, i = found
    for war in model.fighting(state):
        if i >= len(war["sides"]):
            continue
        for power in war["sides"][i]:
            if model.engine_moved(state, war, power) or not board.units_of(state, power):
                continue
            if step == "attack" and not can_fight(state, war, power):
                continue
            owes |= set(model.controllers(state, war, power))
    if not owes:
        return [], []
    return by_rules_order(owes), [p for p in players if p not in owes]


# -- what comes next -------------------------------------------------------------------------------
def natural_next(state: dict, phase: str) -> str:
    if phase == "war":
        return "war_alliances" if model.current_group(state) else "victory_points"
    if phase == "war_alliances":
        return state.pop("war_resume", None) or ("war_initiative" if model.fighting(state) else after(state))
    if phase == "war_initiative":
        return "war_maneuver_1"
    found = step_of(phase)
    if found:
        step, i = found
        if step == "maneuver":
            return f"war_attack_{i + 1}"
        if step == "attack":
            return f"war_supply_{i + 1}"
        more = any(i + 1 < len(w["sides"]) and w["sides"][i + 1] for w in model.fighting(state))
        return f"war_maneuver_{i + 2}" if more and f"war_maneuver_{i + 2}" in WAR_PHASES else "war_end"
    if phase == "war_end":
        if any(w.get("status") == "ended" for w in model.group_wars(state)):
            return "war_resolution"
        return after(state)
    return after(state)


def after(state: dict) -> str:
    if model.fighting(state):
        return "war_initiative"
    return "war_alliances" if model.current_group(state) else "victory_points"


def next_phase(state: dict) -> str:
    """The phase after the current one (may note where to resume after an Alliance
    Determination the treaty duties call for)."""
    phase = state["phase"]
    nxt = natural_next(state, phase)
    if nxt in WAR_PHASES and phase != "war" and model.current_group(state) == "war" \
            and duty_speakers(state):
        if nxt != "war_alliances":
            state["war_resume"] = nxt
        return "war_alliances"
    if nxt == "victory_points":
        state.pop("war_resume", None)
    return nxt


# -- what each phase does -----------------------------------------------------------------------
def resolve(state: dict, orders: dict, dice, data) -> list[dict]:
    """The War window ``state["phase"]`` names.  Every step of the War Sequence takes its
    arguments in one order: ``(state, orders, dice, data)``, then the alliance's index."""
    phase = state["phase"]
    orders = {p: [o if isinstance(o, Order) else Order.from_json(o) for o in os] for p, os in orders.items()}
    if phase == "war":
        events = outset.resolve(state, orders, dice, data)
    else:
        events = decisions.apply(state, data, orders, phase)
        if state.get("great_war"):
            return events
        found = step_of(phase)
        if phase == "war_alliances":
            events += declare.decide(state, orders, phase)
            events += declare.helpers(state, orders, phase)
            events += minor_notices(state)
        elif phase == "war_initiative":
            events += initiative(state, orders, dice, data)
        elif found:
            step, index = found
            events += ALLIANCE_STEPS[step](state, orders, dice, data, index)
        elif phase == "war_end":
            events += ending.resolve(state, orders, dice, data)
        elif phase == "war_resolution":
            events += resolution.resolve(state, orders, dice, data)
    state["war_window"] = state.get("war_window", 0) + 1
    state["cb"] = [cb for cb in state.get("cb", []) if cb.get("window", state["war_window"]) >= state["war_window"]]
    return events + greatwar.check(state)


def initiative(state: dict, orders: dict, dice, data) -> list[dict]:
    """Rules: Initiative Determination Phase - China, and the Ottomans with no Great Power ally,
    are always the First Alliance; otherwise "one player from each Alliance rolls one die. The
    Alliance rolling the higher number becomes the first Alliance".  Choice: tied alliances roll
    again; with three alliances they go in the order of their dice."""
    events = []
    for war in model.fighting(state):
        war["round"] = war.get("round", 0) + 1
        minors.note_fleets(state, data, war)
        sides = [s for s in war["sides"] if s]
        native = [s for s in sides if any(model.engine_moved(state, war, p) for p in s)]
        rolls: dict[int, int] = {}

        def rank(group: list[int]) -> list[int]:
            if len(group) <= 1:
                return group
            got = {i: dice.d6(f"initiative {war['id']}: {', '.join(sides[i])}") for i in group}
            rolls.update(got)
            out: list[int] = []
            for value in sorted(set(got.values()), reverse=True):
                out += rank([i for i in group if got[i] == value])
            return out

        order = [sides.index(s) for s in native] + [i for i in range(len(sides)) if sides[i] not in native] \
            if native else rank(list(range(len(sides))))
        labels = {i: ", ".join(sides[i]) for i in rolls}
        war["sides"] = [sides[i] for i in order]
        events.append({"kind": "initiative", "war": war["id"], "round": war["round"],
                       "first": list(war["sides"][0]), "order": [list(s) for s in war["sides"]],
                       "rolls": {labels[i]: v for i, v in rolls.items()}})
    return events


def maneuver(state: dict, orders: dict, dice, data, index: int) -> list[dict]:
    """Rules: MOVEMENT DURING AN ALLIANCE MANEUVER PHASE.  Choice: the alliance's powers move in
    the rules' order, each power's orders in the order written, each judged on the board the
    moves before it left."""
    events: list[dict] = []
    for war in model.fighting(state):
        if index >= len(war["sides"]):
            continue
        moved: set[int] = set()
        for power in by_rules_order(war["sides"][index]):
            if model.engine_moved(state, war, power):
                events += natives.move_all(state, data, dice, war, power)
                continue
            for o in orders_of.unmatched(state, war, power, orders):
                events.append(failed(power, o, "not-agreed", f"not every ally who moves {power} wrote it"))
            for o in orders_of.chosen(state, war, power, orders):
                if o.kind != "war_move":
                    continue
                a = o.args
                unit = moves.find_unit(state, data, power, a["type"], a["strength"], a["from"], moved, a["to"])
                if unit is None:
                    events.append(failed(power, o, "no-such-unit",
                                         f"{power} has no {a['type']} ({a['strength']}) left to move at {a['from']}"))
                    continue
                fail = moves.check(state, data, power, unit, a["to"])
                if fail:
                    events.append(failed(power, o, *fail))
                    continue
                moved.add(unit["id"])
                events += moves.apply(state, data, power, unit, a["to"])
    return events


def failed(power: str, o: Order, code: str, reason: str) -> dict:
    return {"kind": "order_failed", "power": power, "order": o.canonical, "code": code, "reason": reason}


def minor_notices(state: dict) -> list[dict]:
    """Rules: WAR AGAINST MINOR POWERS - "If no player allies with the power, the players should,
    by mutual agreement, choose one neutral player to control its forces": the GM names him."""
    out = []
    for war in model.fighting(state):
        for minor in model.unallied_minors(state, war):
            out.append({"kind": "gm_notice", "text": f"{minor} is at War with no player to move its units: "
                        f"name one with GM ASSIGN {minor} TO <power> (until then they hold and do not attack)."})
    return out


#: what each of an alliance's phases does: ``(state, orders, dice, data, index)`` -> events
ALLIANCE_STEPS = {"maneuver": maneuver, "attack": combat.resolve, "supply": supply.resolve}
