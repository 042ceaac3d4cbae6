"""The GM's edits of the play: Wars and who moves a Minor Power, Chinese Rebellions, defeats
and conquests, treaties and a party's treaty commands, the Congress of Europe, the options
and the last turn."""
from __future__ import annotations

import re

from pbem.kit import treatybook
from pbem.kit.gameapi import GMError, Refused, TreatyAction

from ..core import board, clauses, congress_rules as cr, options, treaties
from ..core.state import check_last_turn
from ..war import model
from .args import TREATY_ACTIONS

def set_war(state, a, data):
    """``SET WAR <Power> ... VS <Power> ... [VS <Power> ...]``: a war under way, the first side
    the First Alliance (a third side makes a three-cornered war); its first power started it."""
    sides: list[list[str]] = [[]]
    while a.more():
        if a.opt("VS"):
            sides.append([])
            continue
        sides[-1].append(a.power(natives=True))
    if len(sides) < 2 or not all(sides):
        raise GMError("SET WAR needs powers on both sides of VS")
    for p in (p for s in sides for p in s):
        if model.war_of(state, p, model.open_wars(state)):
            raise GMError(f"{p} is already in a war")
    kind = model.kind_for(sides)
    firsts = [] if kind == "rebellion" else [p for p in sides[0] if not model.is_native(p)][:1] \
        or [p for p in sides[1] if not model.is_native(p)][:1]
    war = model.new_war(state, sides, kind, firsts=firsts)
    if kind == "ottoman":
        war["placer"] = firsts[0] if firsts else None
    state.setdefault("war_cb_from", state.get("next_cb", 1))
    return [{"kind": "war_declared", "war": war["id"], "sides": sides}]


def assign(state, a, data):
    """``ASSIGN <Minor Power> TO <Power>``: the player who moves a Minor Power's units in its
    War (Rules: WAR AGAINST MINOR POWERS - "choose one neutral player to control its forces")."""
    minor = a.power(natives=True)
    a.kw("TO")
    player = a.power()
    if player not in state.get("players", []):
        raise GMError(f"{player} is not played")
    if board.is_great(state, minor):
        raise GMError(f"{minor} is a Great Power: its player moves it")
    war = model.war_of(state, minor, model.open_wars(state))
    if war is None:
        raise GMError(f"{minor} is not at War")
    war.setdefault("assigned", {})[minor] = player
    return [{"kind": "gm", "text": f"{minor}'s units in War {war['id']} are moved by {player}"}]


def set_rebellion(state, a, data):
    """``SET REBELLION``: a Chinese Rebellion occurs in this turn's War Phase."""
    state.setdefault("pending", {})["chinese_rebellion"] = True
    return [{"kind": "gm", "text": "a Chinese Rebellion occurs in this War Phase"}]


def set_defeated(state, a, data):
    """``SET DEFEATED <Area>``: the Area has lost its own Combat Strength in the Rebellion or
    the Ottoman war under way."""
    area = a.place("area")
    war = next((w for w in model.open_wars(state) if w.get("kind") in ("rebellion", "ottoman")), None)
    if war is None:
        raise GMError("no Chinese Rebellion or Ottoman war is under way")
    if area not in war["defeated"]:
        war["defeated"].append(area)
    return [{"kind": "gm", "text": f"{area} defeated in War {war['id']}"}]


def set_conquered(state, a, data):
    """``SET CONQUERED <Area> <Power>``: the Area is held by the Power's alliance in its war."""
    area, power = a.place("area"), a.power()
    war = model.war_of(state, power, model.open_wars(state))
    if war is None:
        raise GMError(f"{power} is not at War")
    war["conquered"][area] = sorted(war["sides"][model.side_index(war, power)])
    return [{"kind": "gm", "text": f"{area} conquered by {power}'s alliance"}]


def set_treaty(state, a, data):
    """``SET TREATY <id> <Power> ... [SECRET] [STATUS <status>] [CLAUSES <clause>; ...]``: a
    treaty in force (or in the status named) with the clauses the moderator checks."""
    tid = a.name()
    parties = []
    while a.more() and not a.peek_kw("SECRET", "STATUS"):
        parties.append(a.power())
    secret = a.opt("SECRET")
    status = "in_force"
    if a.opt("STATUS"):
        status = a.name().lower()
    terms, free, problems = clauses.parse_text("\n".join(a.clauses.split(";")), data)
    messages = [p.message for p in problems] + treaties.check_terms(state, data, terms, parties)
    if messages:
        raise GMError("SET TREATY: " + "; ".join(messages))
    text = "\n".join([t["text"] for t in terms] + free)
    record = treatybook.new_record(tid, parties[0] if parties else "", parties, text, secret, "", status)
    record["signatures"] = {p: "" for p in parties} if status == "in_force" else record["signatures"]
    seats = {p: seat for p, seat in treaties.seats(state).items() if p in parties}
    if seats:  # Rules: AUSTRIA-HUNGARY - the German player signs and reads for it
        record["seats"] = seats
    record.update({"terms": terms, "clauses": [t["text"] for t in terms], "turn": state.get("turn")})
    state.setdefault("treaties", {})[tid] = record
    return [{"kind": "treaty", "id": tid, "parties": parties, "status": status, "secret": secret}]


def treaty_action(state, a, data):
    """``TREATY <Power> SIGN|REFUSE|WITHDRAW|REVEAL <id>`` or ``TREATY <Power> BREACH <id>
    <Power> [<text>]``: the party's treaty command, as if it had mailed it (scenarios, and a
    GM acting for a player who wrote it in press)."""

    power = a.power()
    verb = a.kw(*TREATY_ACTIONS).lower()
    against, text = None, ""
    if verb == "breach":
        # the claim's free text follows the power: read the raw words, not the name tokens
        words = re.split(r"\s+BREACH\s+", a.text, 1, flags=re.I)[1].split()
        tid, rest = words[0], words[1:]
        n = next((n for n in range(min(3, len(rest)), 0, -1) if data.resolve_power(" ".join(rest[:n]))), 0)
        if not n:
            raise GMError(f"TREATY {power} BREACH {tid}: name the power that broke it")
        against, text = data.resolve_power(" ".join(rest[:n])), " ".join(rest[n:])
        a.i = len(a.toks)
    else:
        tid = a.name()
    try:
        return treaties.act(state, data, TreatyAction(verb, power, tid, at=f"{state.get('turn')} GM",
                                                       against=against, text=text))
    except Refused as exc:
        raise GMError(str(exc)) from None


def set_option(state, a, data):
    """``SET OPTION <name> <value>``: change a game option (numbers and true/false read as such)."""
    name = a.name().lower()
    if name not in options.options() or name == "data":
        raise GMError(f"{name!r} is not an option that can be changed (options: "
                      f"{', '.join(k for k in options.options() if k != 'data')})")
    raw = " ".join(t.text for t in a.toks[a.i:])
    a.i = len(a.toks)
    value = {"true": True, "false": False, "none": None}.get(raw.lower(), raw)
    if isinstance(value, str) and value.lstrip("-").isdecimal():
        value = int(value)
    state.setdefault("options", {})[name] = value
    return [{"kind": "gm", "text": f"option {name} = {value}"}]


def set_congress(state, a, data):
    """``SET CONGRESS <site> [CALLER <Power>]``: convene a Congress of Europe over this turn's
    Casus Belli at the site named (the call's European Tensions are not added)."""
    site = a.power()
    caller = a.power() if a.opt("CALLER") else None
    holders = [cb["holder"] for cb in state.get("cb", [])]
    state["congress"] = cr.new_congress(state, caller or (holders or state["players"])[0], site)
    return [{"kind": "congress_called", "by": state["congress"]["called_by"], "site": site,
             "members": list(state["congress"]["members"]), "reason": "GM"}]


def set_step(state, a, data):
    """``SET STEP attend|propose|vote|sign|decide``: the Congress's step (a Congress is convened
    at the first lawful site when none sits this turn)."""
    return congress_step(state, a.name())


def congress_step(state, step: str) -> list[dict]:
    """Put the Congress at ``step`` (scenario files' ``PHASE congress STEP <step>`` too)."""
    step = step.lower()
    if step not in cr.STEPS:
        raise GMError(f"a Congress step is one of {', '.join(cr.STEPS)}, not {step!r}")
    if not cr.current(state):
        sites = cr.valid_sites(state, cr.all_parties(state)) or ["Germany"]
        holders = [cb["holder"] for cb in state.get("cb", [])]
        state["congress"] = cr.new_congress(state, (holders or state["players"])[0], sites[0])
    state["congress"]["step"] = step
    return [{"kind": "gm", "text": f"Congress step = {step}"}]


def set_last_turn(state, a, data):
    """The game ends after this turn's Final Record (a shorter game; see state.last_turn)."""
    a.kw("TURN")
    year = a.num()
    try:
        check_last_turn(year, state["turn"])
    except ValueError as exc:
        raise GMError(str(exc)) from None
    state["last_turn"] = year
    return [{"kind": "gm", "text": f"the game ends after {year}"}]
