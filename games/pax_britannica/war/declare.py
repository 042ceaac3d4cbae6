"""Declarations of War in the War Phase and during the War, and joining a War: treaty duties
(answered in Alliance Determination), Austria-Hungary, the Ottomans' helpers, a Minor Power's.

Rules: THE WAR SEQUENCE ("At the beginning of the War Phase ..., players with Casus Belli can
declare War"; Alliance Determination Phase); Casus Belli Markers ("Once the War Sequence
begins, all Casus Belli markers are automatically removed"); DECLARATIONS OF WAR (the
defensive-treaty example; "If you have a defensive Treaty with a Power that initiates a War,
you are not obligated"; Austria-Hungary "considered to have a defensive Treaty with Germany");
AUSTRIA-HUNGARY ("They may instead break the German-Austrian Defensive Treaty, increasing the
ETI by 5 ... non-existent until the start of the following year ... the Casus Belli between the
two is immediately waived"); WAR WITH THE OTTOMANS (helpers); WAR AGAINST MINOR POWERS;
EUROPEAN TENSION INCREASES ("+5 points each time a declaration of War is issued by a player").
"""
from __future__ import annotations

import copy

from pbem.kit import audience, treatybook

from ..core import board, declarations, disputes, treaty_records
from . import greatwar, model
from ..core.state import by_rules_order, power_order

Fail = tuple[str, str] | None
#: the duty Austria-Hungary and Germany owe each other (a "kind" of treaty duty)
AUSTRIA = "austria"


# -- which Casus Belli may still be used -------------------------------------------------------
def cb_number(cb: dict) -> int:
    digits = "".join(ch for ch in str(cb.get("id", "")) if ch.isdecimal())
    return int(digits) if digits else 0


def usable(state: dict, holder: str, target: str) -> list[dict]:
    """Casus Belli ``holder`` may declare War with now.  Choice: once the War Sequence has begun
    only those that arose in this War Phase count (the earlier ones are "automatically
    removed"); one "to be used at once" (a Codominion entered, a passage denied) only in the
    window after it arose."""
    found = disputes.against(state, holder, target)
    if state.get("phase") == "war" or "war_cb_from" not in state:
        return [cb for cb in found if "window" not in cb]
    floor, window = state["war_cb_from"], state.get("war_window", 0)
    return [cb for cb in found if cb_number(cb) >= floor and cb.get("window", window) == window]


def started(state: dict, power: str) -> bool:
    """Whether ``power``'s first part in this turn's wars was to declare one (an initiator)."""
    for d in state.get("declarations", []):
        if d.get("turn") != state.get("turn"):
            continue
        if d["by"] == power:
            return True
        if power in d["against"]:
            return False
    return False


def check_declare(state: dict, who: str, target: str) -> Fail:
    if target == who:
        return "same-power", "a power cannot declare War on itself"
    if target not in state.get("powers", {}):
        return "unknown-power", f"{target} cannot be declared War on"
    group = model.current_group(state)
    if state.get("phase") != "war" and group in ("rebellion", "ottoman"):
        return "not-now", ("no War is declared while the Chinese Rebellion or the Ottoman war is "
                           "fought; declare it when the other wars are fought")
    if model.at_war(state, who, target) or disputes.at_war(state, who, target) and state.get("phase") == "war":
        return "already-at-war", f"{who} is already at War with {target}"
    if model.allied(state, who, target) and who != target:
        # Rules: DECLARATIONS OF WAR - a three-cornered War (model.split_check)
        fail = model.split_check(model.war_of(state, who), who, target)
        if fail:
            return fail
    if not usable(state, who, target):
        return "no-casus-belli", f"{who} holds no Casus Belli against {target} it may use now"
    return None


def check_targets(state: dict, who: str, targets: list[str]) -> dict[str, Fail]:
    """Each target of one declaration judged after the ones named before it have joined the
    war records (naming two powers of one alliance may not make a fourth alliance)."""
    if len(targets) < 2:
        return {t: check_declare(state, who, t) for t in targets}
    trial = copy.deepcopy(state)
    fails: dict[str, Fail] = {}
    for t in targets:
        fails[t] = check_declare(trial, who, t)
        if fails[t] is None:
            model.enter(trial, who, t)
    return fails


def declare(state: dict, who: str, targets: list[str], phase: str) -> list[dict]:
    """A player's declaration (one +5 for every power it names), put into the war records."""
    fails = check_targets(state, who, targets)
    ok = [t for t in targets if fails[t] is None]
    if not ok:
        return []
    events = declarations.record(state, who, ok, phase, player=board.is_great(state, who))
    events += fold(state)
    return events + greatwar.check(state)


def fold(state: dict) -> list[dict]:
    """Every declaration of this turn not yet in a war record goes into one (Rules: THE WAR
    SEQUENCE); Austria-Hungary's duty follows a declaration on Germany (and the reverse)."""
    events: list[dict] = []
    for d in state.get("declarations", []):
        if d.get("turn") != state.get("turn") or d.get("war"):
            continue
        for target in d["against"]:
            war = model.enter(state, d["by"], target, d.get("group", "war"))
            d["war"] = war["id"]
            events += austria_duty(state, d["by"], target)
    return events


def austria_duty(state: dict, declarer: str, target: str) -> list[dict]:
    """Rules: DECLARATIONS OF WAR - "If any Power declares War on Germany, Austria-Hungary will
    come to Germany's aid (and vice versa) ... If Germany is the Power to declare War, however,
    Austria-Hungary is not obligated"."""
    pair = {"Germany": "Austria-Hungary", "Austria-Hungary": "Germany"}
    other = pair.get(target)
    if other is None or declarer in pair or not board.is_great(state, "Austria-Hungary"):
        return []
    if state.get("austria_treaty_broken") == state.get("turn") or started(state, target):
        return []
    war = model.war_of(state, target, model.open_wars(state))
    if war is not None and model.side_index(war, other) is not None:
        return []
    duty = {"treaty": "Austria-Hungary", "power": other, "ally": target, "against": declarer,
            "kind": AUSTRIA, "turn": state.get("turn"), "status": "pending"}
    if any(o.get("power") == other and o.get("ally") == target and o.get("status") == "pending"
           for o in state.get("obligations", [])):
        return []
    state.setdefault("obligations", []).append(duty)
    return [{"kind": "war_duty", "power": other, "ally": target, "against": declarer,
             "treaty": "the German-Austrian treaty"}]


# -- treaty duties ---------------------------------------------------------------------------
def pending(state: dict) -> list[dict]:
    """Duties to join a War still to be answered (Alliance Determination)."""
    out = []
    for o in state.get("obligations", []):
        if o.get("turn") != state.get("turn") or o.get("status", "pending") != "pending":
            continue
        ally = o.get("ally")
        wars = [w for w in model.group_wars(state, "war") if w.get("status") == "active"]
        if not ally or model.war_of(state, ally, wars) is None:
            continue
        out.append(o)
    return out


def void(state: dict, duty: dict) -> str | None:
    """Why a duty binds no more (None: it binds)."""
    war = model.war_of(state, duty["ally"], model.group_wars(state, "war"))
    if war is None or war.get("status") != "active":
        return "the War is over"
    if model.side_index(war, duty["power"]) is not None:
        joined = model.side_index(war, duty["power"]) == model.side_index(war, duty["ally"])
        return "already at War beside its ally" if joined else "already at War on the other side"
    if duty.get("kind") in ("defensive", "austria") and started(state, duty["ally"]):
        return f"{duty['ally']} started the War: a defensive treaty does not oblige"
    if duty.get("kind") == AUSTRIA:
        if state.get("austria_treaty_broken") == state.get("turn"):
            return "the German-Austrian treaty was broken this turn"
        return None
    record = treatybook.find(state, duty.get("treaty", ""))
    if record is not None and record.get("status") != treatybook.IN_FORCE:
        # a treaty broken (or ended) since the duty arose asks its parties nothing more
        return f"treaty {record['id']} is {record.get('status', 'no longer in force')}"
    return None


def join(state: dict, who: str, ally: str, phase: str, how: str = "join",
         pulled_by: str | None = None, duty: dict | None = None) -> list[dict]:
    """``who`` enters ``ally``'s alliance at War with all of its opponents (one declaration).
    ``duty``: the treaty duty it keeps.  Choice (choices/diplomacy.md): joining is a declaration
    of War, so everyone learns of it; the treaty it keeps, with its kind, is told to whoever
    may see the treaty (its parties while it is secret)."""
    war = model.war_of(state, ally, model.open_wars(state))
    if war is None:
        return []
    index = model.side_index(war, ally)
    enemies = [p for i, side in enumerate(war["sides"]) if i != index for p in side]
    model.place_in_war(war, who, index)
    model.bond(war, who, ally)
    events = declarations.record(state, who, enemies, phase, player=board.is_great(state, who))
    decl = state["declarations"][-1]
    decl.update({"war": war["id"], "how": how, "with": ally, **({"pulled_by": pulled_by} if pulled_by else {})})
    for enemy in enemies:
        events += austria_duty(state, who, enemy)
    kept = duty is not None and duty.get("kind") in ("defensive", "offensive")
    joined = {"kind": "war_joined", "war": war["id"], "power": who, "ally": ally,
              "against": by_rules_order(enemies)}
    events.append(audience.tag(joined if kept else {**joined, "how": how}, audience.public()))
    if kept:
        record = treatybook.find(state, duty.get("treaty", ""))
        events.append(audience.tag({"kind": "war_duty_kept", "war": war["id"], "power": who, "ally": ally,
                                    "treaty": record["id"] if record else duty.get("treaty"),
                                    "duty": duty["kind"]}, _seen_by(duty)))
    return events


def _seen_by(duty: dict) -> audience.Audience:
    """Who may know of a treaty duty: the treaty's audience (Austria-Hungary's: everyone)."""
    return audience.of(duty) or audience.public()


def answer(state: dict, duty: dict, joins: bool, phase: str) -> list[dict]:
    """Carry out a duty's answer: join, or refuse (a breach of the treaty)."""
    duty["status"] = "joined" if joins else "refused"
    who, ally = duty["power"], duty["ally"]
    if joins:
        pulled = duty.get("against") if duty.get("kind") == "austria" else None
        return join(state, who, ally, phase, how=duty.get("kind", "join"), pulled_by=pulled, duty=duty)
    record = treatybook.find(state, duty.get("treaty", "")) if duty.get("kind") != "austria" else None
    events = [audience.tag({"kind": "war_refused", "power": who, "ally": ally, "duty": duty.get("kind"),
                            "treaty": record["id"] if record else duty.get("treaty")}, _seen_by(duty))]
    if duty.get("kind") == "austria":
        # the treaty is "non-existent until the start of the following year"; no Casus Belli
        state["austria_treaty_broken"] = state.get("turn")
        events.append(board.add_eti(state, 5, f"{who} broke the German-Austrian treaty", who))
        return events
    if record is not None:
        events += treaty_records.break_treaty(state, record, who, f"refused to join {ally}'s War")
    return events


def decide(state: dict, orders: dict, phase: str) -> list[dict]:
    """Alliance Determination: every pending duty is answered (JOIN WAR WITH / REFUSE WAR WITH);
    silence refuses it.  Choice: Austria-Hungary's silence joins (it "will come to Germany's
    aid"; refusing is the German player's act).  Duties are taken in the rules' order; those the
    answers raise are asked in the next Alliance Determination, those that bind nobody are set
    aside at once."""
    said: dict[tuple[str, str], bool] = {}
    for power, items in orders.items():
        for o in items:
            if o.kind in ("join", "refuse"):
                said[(o.power or power, o.args["with"])] = o.kind == "join"
    if model.current_group(state) != "war":
        return []
    events = set_aside(state)
    for duty in sorted(pending(state), key=lambda o: power_order(o["power"])):
        if duty.get("status") != "pending":
            continue
        joins = said.get((duty["power"], duty["ally"]), duty.get("kind") == "austria")
        events += answer(state, duty, joins, phase)
        events += greatwar.check(state)
        if state.get("great_war"):
            return events
    return events + set_aside(state)


def set_aside(state: dict) -> list[dict]:
    events = []
    for duty in pending(state):
        why = void(state, duty)
        if why:
            duty["status"] = "void"
            events.append(audience.tag({"kind": "war_duty_void", "power": duty["power"], "ally": duty["ally"],
                                        "reason": why}, _seen_by(duty)))
    return events


def helpers(state: dict, orders: dict, phase: str) -> list[dict]:
    """JOIN WAR WITH a Minor Power at War or with the Ottomans' enemy, SUPPORT OTTOMANS (Rules:
    WAR WITH THE OTTOMANS - "any player can announce that he is coming to the Empire's aid";
    WAR AGAINST MINOR POWERS - "When ... some player allies with that Minor Power")."""
    events: list[dict] = []
    for power in by_rules_order(orders):
        for o in orders[power]:
            who = o.power or power
            if o.kind == "support":
                ally = model.OTTOMANS
            elif o.kind == "join" and check_helper(state, who, o.args["with"]) is None:
                ally = o.args["with"]
            else:
                continue
            if check_helper(state, who, ally) is None:
                events += join(state, who, ally, phase, how="helper")
                events += greatwar.check(state)
    return events


def check_helper(state: dict, who: str, ally: str) -> Fail:
    """Whether ``who`` may join ``ally``'s War without a treaty duty."""
    war = model.war_of(state, ally, model.open_wars(state))
    if war is None:
        return "not-at-war", f"{ally} is not at War"
    if any(model.side_index(w, who) is not None for w in model.open_wars(state)
           if model.group_of(w) == model.group_of(war)):
        return "already-at-war", f"{who} is already in that War"
    if war.get("kind") == "ottoman":
        return None
    if not board.is_great(state, ally) and not model.is_native(ally):
        return None
    return "no-duty", (f"{who} has no treaty duty to join {ally}: join a War by DECLARE WAR ON with "
                       f"a Casus Belli")
