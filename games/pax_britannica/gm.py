"""The GM's state edits: the scenario ``GM`` vocabulary, as a GM sends it by email.

Each command edits the state copy it is given and returns events describing
the edit.  Bad commands raise :class:`pbem.gameapi.GMError` with a message a
human understands.
"""
from __future__ import annotations

import difflib
import re

from pbem import audience, treatybook
from pbem.gameapi import GMError, Refused, TreatyAction

from .core import board, clauses as clause_text, congress_rules as cr, options, treaties
from .core.audiences import players_of
from .core.reading import Tok, tokenize
from .core.state import check_last_turn
from .report.events import poss
from .war import model

STATUS_WORDS = {"INTEREST", "INFLUENCE", "PROTECTORATE", "POSSESSION", "DOMINION", "STATE"}
KEYWORDS = {"SET", "REMOVE", "CLEAR", "TREASURY", "VP", "MARKER", "UNESTABLISHED", "ESTABLISHED",
            "ARMY", "NAVY", "MERCHANT", "UNREST", "ETI", "CRI", "CB", "AREA", "WAR", "VS",
            "TREATY", "SECRET", "CANAL", "POOL", "DEFICIT", "HEADLINE", "PERMISSION",
            "SPENDCAP", "FORCED", "NAVAL", "ONCE", "STATUS", "MAX", "LAST", "TURN", "ADD", "BLAME", "STEP",
            "CONGRESS", "CALLER", "OPTION", "SIGN", "REFUSE", "WITHDRAW", "REVEAL",
            "BREACH", "ASSIGN", "TO", "REBELLION", "DEFEATED", "CONQUERED", "AT", "SEA"} | STATUS_WORDS
#: GM TREATY <Power> <action> <id> acts for a party, as its TREATY command would
TREATY_ACTIONS = ("SIGN", "REFUSE", "WITHDRAW", "REVEAL", "BREACH")
_CLAUSES = re.compile(r"\s+CLAUSES\s+", re.I)
UNIT_STRENGTHS = (1, 3, 10)
NATIVE_STRENGTH = 5  # Rules: PLAYING PIECES - Chinese and Ottoman armies are 5s
NATIVE_ARMIES = ("China", "Ottoman Empire")
#: the names players and GMs use for the native armies' powers
NATIVE_ALIASES = {"china": "China", "chinese": "China", "ottoman empire": "Ottoman Empire",
                  "ottoman": "Ottoman Empire", "ottomans": "Ottoman Empire"}


def native_name(text: str) -> str | None:
    return NATIVE_ALIASES.get(text.lower())


class _Args:
    """A cursor over the tokens of one command."""

    def __init__(self, toks: list[Tok], data, text: str):
        self.toks, self.data, self.text, self.i = toks, data, text, 0
        self.clauses = ""

    def more(self) -> bool:
        return self.i < len(self.toks)

    def peek_kw(self, *words: str) -> bool:
        return self.more() and self.toks[self.i].kind == "kw" and self.toks[self.i].text in words

    def kw(self, *words: str) -> str:
        if not self.peek_kw(*words):
            raise GMError(f"expected {' or '.join(words)} in: {self.text}")
        self.i += 1
        return self.toks[self.i - 1].text

    def opt(self, word: str) -> bool:
        if self.peek_kw(word):
            self.i += 1
            return True
        return False

    def num(self) -> int:
        if not self.more() or self.toks[self.i].kind != "num":
            raise GMError(f"expected a number in: {self.text}")
        self.i += 1
        return int(self.toks[self.i - 1].text)

    def name(self) -> str:
        if not self.more() or self.toks[self.i].kind != "name":
            raise GMError(f"expected a name in: {self.text}")
        self.i += 1
        return self.toks[self.i - 1].text

    def power(self, natives: bool = False) -> str:
        text = self.name()
        if natives and native_name(text):
            return native_name(text)
        power = self.data.resolve_power(text)
        if power is None:
            hint = self.data.suggest(text, "power")
            raise GMError(f"unknown power {text!r}" + (f" (did you mean {hint}?)" if hint else ""))
        return power

    def place(self, kinds: str = "area", home_power: str | None = None) -> str:
        text = self.name()
        found = self.data.resolve_place(text, home_power)
        ok = found and (found in self.data.areas or "home" in kinds and self.data.home_of(found)
                        or "sea" in kinds and (found in self.data.seas or found in self.data.capes))
        if not ok:
            hint = self.data.suggest(text, "area" if kinds == "area" else "sea" if kinds == "sea" else "place")
            raise GMError(f"unknown {kinds.replace('|', ' or ')} {text!r}"
                          + (f" (did you mean {hint}?)" if hint else ""))
        return found

    def end(self) -> None:
        if self.more():
            raise GMError(f"unexpected {self.toks[self.i].text!r} in: {self.text}")


def apply(state: dict, text: str, dice, data) -> list[dict]:
    """Apply one GM command to ``state`` (mutated); returns the events."""
    # The clauses of SET TREATY are read by the clause grammar, not as edit words.
    parts = _CLAUSES.split(text, 1)
    text, clause_text = parts[0], (parts[1] if len(parts) > 1 else "")
    toks = tokenize(text, data, KEYWORDS)
    # HOME needs the power named in the command: tokenize again once it is known.
    a = _Args(toks, data, text)
    a.clauses = clause_text
    if a.peek_kw("TREATY"):
        a.kw("TREATY")
        return [e for e in _treaty_action(state, a, data) if e]
    if a.peek_kw("ASSIGN"):
        a.kw("ASSIGN")
        events = _assign(state, a, data)
        a.end()
        return events
    verb = a.kw("SET", "REMOVE", "CLEAR", "ADD")
    whats = sorted(w for v, w in _HANDLERS if v == verb)
    if not a.peek_kw(*whats):
        word = a.toks[a.i].text if a.more() else ""
        near = difflib.get_close_matches(f"{verb} {word.upper()}", COMMANDS, n=1, cutoff=0.6)
        raise GMError(f"unknown GM command {verb} {word}".rstrip() + f": {verb} is followed by one of "
                      f"{', '.join(whats)}" + (f" (did you mean {near[0]}?)" if near and word else ""))
    what = a.kw(*whats)
    handler = _HANDLERS.get((verb, what))
    if handler is None:
        raise GMError(f"unknown GM command: {text}")
    events = handler(state, a, data) or []
    a.end()
    return [e for e in events if e]


def _private(state: dict, power: str, what: str, n: int) -> list[dict]:
    """An edit of a figure on ``power``'s own sheet (Rules: ADMINISTRATIVE RECORD SHEETS):
    everyone learns the GM changed it, its player alone the new figure."""
    return [{"kind": "gm", "text": f"{poss(power)} {what}", "changed": True},
            audience.tag({"kind": "gm", "text": f"{what} {power} = {n}"},
                         audience.powers(players_of(state, [power])))]


def _home_aware(a: _Args, power: str) -> None:
    """Resolve a following HOME as ``power``'s Home Country."""
    if a.more() and a.toks[a.i].kind == "name" and a.toks[a.i].text.lower() == "home":
        a.toks[a.i] = Tok("name", board.home_name(a.data, power) or "HOME", True)


def _set_treasury(state, a, data):
    p, n = a.power(), a.num()
    state["powers"][p]["treasury"] = n
    return _private(state, p, "treasury", n)


def _set_vp(state, a, data):
    p, n = a.power(), a.num()
    state["powers"][p]["vp"] = n
    return [{"kind": "gm", "text": f"vp {p} = {n}"}]


def _set_marker(state, a, data):
    p = a.power()
    status = a.kw(*STATUS_WORDS).lower()
    area = a.place("area")
    established = not a.opt("UNESTABLISHED")
    a.opt("ESTABLISHED")
    if status in ("dominion", "state"):
        status = "state" if p == "United States" else "dominion"
    return [board.set_marker(state, p, area, status, established, "GM")]


def _remove_marker(state, a, data):
    p, area = a.power(), a.place("area")
    if board.status_of(state, area, p) is None:
        raise GMError(f"{p} has no marker in {area}")
    return [board.remove_marker(state, p, area, "GM")]


def _unit_where(state, a, data, power: str) -> tuple[str, str | None]:
    _home_aware(a, power)
    place = a.place("area|home|sea", power)
    home = board.home_name(data, power)
    if place in data.seas and home and place in data.homes[power].seas:
        return home, place  # a navy in its Home Area sea box
    return place, None


def _set_unit(kind):
    def handler(state, a, data):
        p = a.power(natives=(kind == "army"))
        strength = a.num()
        allowed = (NATIVE_STRENGTH,) if p in NATIVE_ARMIES else UNIT_STRENGTHS
        if strength not in allowed:
            raise GMError(f"strength must be one of {allowed}, not {strength}")
        if p in NATIVE_ARMIES:
            where, sea = a.place("area"), None
        elif kind == "army":
            _home_aware(a, p)
            where, sea = a.place("area|home|sea", p), None
        else:
            where, sea = _unit_where(state, a, data, p)
            if a.opt("AT"):
                # ``... <Sea> AT SEA``: at sea in a War, not in the Home Area box of that sea
                a.kw("SEA")
                where, sea = sea or where, None
                if where not in data.seas and where not in data.capes:
                    raise GMError("AT SEA follows a Sea Zone or Cape Zone")
        if kind == "navy" and sea is None and where == board.home_name(data, p):
            sea = sorted(data.homes[p].seas)[0] if data.homes[p].seas else None
        if kind == "army" and where in data.seas and p not in state.get("merchants", {}).get(where, []):
            # Rules: Army Unit Movement - an army stands at sea only on its own Merchant Fleet.
            raise GMError(f"an army stands in a Sea Zone only with its own Merchant Fleet there "
                          f"(SET MERCHANT {p} {where} first)")
        unit = board.add_unit(state, p, kind, strength, where, sea)
        return [{"kind": "gm", "text": f"{kind} {p} {strength} at {where}", "unit": unit["id"]}]
    return handler


def _remove_unit(kind):
    def handler(state, a, data):
        p = a.power(natives=(kind == "army"))
        strength = a.num()
        if p in NATIVE_ARMIES:
            where = a.place("area")
        elif kind == "army":
            _home_aware(a, p)
            where = a.place("area|home|sea", p)
        else:
            where = _unit_where(state, a, data, p)[0]
        unit = board.find_unit(state, p, kind, strength, where)
        if unit is None:
            raise GMError(f"{p} has no {kind} of strength {strength} at {where}")
        board.remove_unit(state, unit["id"])
        return [{"kind": "gm", "text": f"removed {kind} {p} {strength} at {where}"}]
    return handler


def _set_merchant(state, a, data):
    p, sea = a.power(), a.place("sea")
    if sea in data.capes:
        raise GMError("the Cape Zones cannot hold Merchant Fleets")
    fleets = state.setdefault("merchants", {}).setdefault(sea, [])
    if p not in fleets:
        fleets.append(p)
        fleets.sort()
    return [{"kind": "merchant", "power": p, "sea": sea, "action": "GM"}]


def _remove_merchant(state, a, data):
    p, sea = a.power(), a.place("sea")
    fleets = state.get("merchants", {}).get(sea, [])
    if p not in fleets:
        raise GMError(f"{p} has no Merchant Fleet in {sea}")
    fleets.remove(p)
    return [{"kind": "merchant", "power": p, "sea": sea, "action": "GM removed"}]


def _set_unrest(state, a, data):
    area = a.place("area")
    if area not in state.setdefault("unrest", []):
        state["unrest"].append(area)
        state["unrest"].sort()
    return [{"kind": "unrest", "area": area}]


def _clear_unrest(state, a, data):
    area = a.place("area")
    if area in state.get("unrest", []):
        state["unrest"].remove(area)
    return [{"kind": "gm", "text": f"unrest cleared in {area}"}]


def _set_index(key):
    def handler(state, a, data):
        state[key] = a.num()
        return [{"kind": "gm", "text": f"{key} = {state[key]}"}]
    return handler


def _set_cb(state, a, data):
    holder, against = a.power(natives=True), a.power(natives=True)
    area = a.place("area") if a.opt("AREA") else None
    once = a.opt("ONCE")
    return [board.add_cb(state, holder, against, area, "GM", once, cause="gm")]


def _set_war(state, a, data):
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


def _assign(state, a, data):
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


def _set_rebellion(state, a, data):
    """``SET REBELLION``: a Chinese Rebellion occurs in this turn's War Phase."""
    state.setdefault("pending", {})["chinese_rebellion"] = True
    return [{"kind": "gm", "text": "a Chinese Rebellion occurs in this War Phase"}]


def _set_defeated(state, a, data):
    """``SET DEFEATED <Area>``: the Area has lost its own Combat Strength in the Rebellion or
    the Ottoman war under way."""
    area = a.place("area")
    war = next((w for w in model.open_wars(state) if w.get("kind") in ("rebellion", "ottoman")), None)
    if war is None:
        raise GMError("no Chinese Rebellion or Ottoman war is under way")
    if area not in war["defeated"]:
        war["defeated"].append(area)
    return [{"kind": "gm", "text": f"{area} defeated in War {war['id']}"}]


def _set_conquered(state, a, data):
    """``SET CONQUERED <Area> <Power>``: the Area is held by the Power's alliance in its war."""
    area, power = a.place("area"), a.power()
    war = model.war_of(state, power, model.open_wars(state))
    if war is None:
        raise GMError(f"{power} is not at War")
    war["conquered"][area] = sorted(war["sides"][model.side_index(war, power)])
    return [{"kind": "gm", "text": f"{area} conquered by {power}'s alliance"}]


def _set_treaty(state, a, data):
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
    terms, free, problems = clause_text.parse_text("\n".join(a.clauses.split(";")), data)
    messages = [p.message for p in problems] + treaties.check_terms(state, data, terms, parties)
    if messages:
        raise GMError("SET TREATY: " + "; ".join(messages))
    text = "\n".join([t["text"] for t in terms] + free)
    record = treatybook.new_record(tid, parties[0] if parties else "", parties, text, secret, "", status)
    record["signatures"] = {p: "" for p in parties} if status == "in_force" else record["signatures"]
    record.update({"terms": terms, "clauses": [t["text"] for t in terms], "turn": state.get("turn")})
    state.setdefault("treaties", {})[tid] = record
    return [{"kind": "treaty", "id": tid, "parties": parties, "status": status, "secret": secret}]


def _treaty_action(state, a, data):
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


def _set_option(state, a, data):
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


def _add_eti(state, a, data):
    """``ADD ETI <n> [BLAME <Power>[,<Power>]]``: a GM ruling that raises tensions, with the
    blame the Great War penalty reads (Rules: EUROPEAN TENSIONS AND THE GREAT WAR)."""
    n = a.num()
    blame = []
    if a.opt("BLAME"):
        while a.more():
            blame.append(a.power())
    return [board.add_eti(state, n, "GM ruling", blame or None)]


def _set_congress(state, a, data):
    """``SET CONGRESS <site> [CALLER <Power>]``: convene a Congress of Europe over this turn's
    Casus Belli at the site named (the call's European Tensions are not added)."""
    site = a.power()
    caller = a.power() if a.opt("CALLER") else None
    holders = [cb["holder"] for cb in state.get("cb", [])]
    state["congress"] = cr.new_congress(state, caller or (holders or state["players"])[0], site)
    return [{"kind": "congress_called", "by": state["congress"]["called_by"], "site": site,
             "members": list(state["congress"]["members"]), "reason": "GM"}]


def _set_step(state, a, data):
    """``SET STEP attend|propose|vote|sign|decide``: the Congress's step (a Congress is convened
    at the first lawful site when none sits this turn)."""
    step = a.name().lower()
    if step not in cr.STEPS:
        raise GMError(f"a Congress step is one of {', '.join(cr.STEPS)}, not {step!r}")
    if not cr.current(state):
        sites = cr.valid_sites(state, cr.all_parties(state)) or ["Germany"]
        holders = [cb["holder"] for cb in state.get("cb", [])]
        state["congress"] = cr.new_congress(state, (holders or state["players"])[0], sites[0])
    state["congress"]["step"] = step
    return [{"kind": "gm", "text": f"Congress step = {step}"}]


def _set_canal(state, a, data):
    area = a.place("area")
    if area not in board.CANAL_AREAS:
        raise GMError(f"a canal can only be in {' or '.join(board.CANAL_AREAS)}")
    if area not in state.setdefault("canals", []):
        state["canals"].append(area)
    return [{"kind": "canal", "area": area, "power": None, "reason": "GM"}]


def _set_pool(state, a, data):
    p, n = a.power(), a.num()
    state.setdefault("merchant_pool", {})[p] = n
    state.setdefault("merchants_taken", {})[p] = state["turn"]
    return _private(state, p, "merchant pool", n)


def _set_deficit(state, a, data):
    p, n = a.power(), a.num()
    state.setdefault("pending", {}).setdefault("deficit", {})[p] = n
    return _private(state, p, "deficit", n)


def _set_headline(state, a, data):
    name = a.name()
    state.setdefault("turn_effects", {}).setdefault("headlines", []).append(name)
    return [{"kind": "gm", "text": f"headline {name}"}]


def _set_permission(state, a, data):
    p = a.power()
    areas = []
    while a.more() and not a.peek_kw("MAX"):
        areas.append(a.place("area"))
    limit = a.num() if a.opt("MAX") else None
    state.setdefault("turn_effects", {}).setdefault("permissions", []).append(
        {"power": p, "areas": areas, "action": "establish_control", "max_areas": limit,
         "event": "GM"})
    return [{"kind": "gm", "text": f"permission {p}: {', '.join(areas)}"}]


def _set_spendcap(state, a, data):
    p, n = a.power(), a.num()
    state.setdefault("turn_effects", {}).setdefault("spend_cap", {})[p] = n
    return _private(state, p, "spend cap", n)


def _set_forced(state, a, data):
    p, n = a.power(), a.num()
    naval = a.opt("NAVAL")
    state.setdefault("turn_effects", {}).setdefault("forced", {})[p] = {"amount": n,
                                                                       "naval_only": naval}
    return _private(state, p, "forced expenditure", n)


def _set_last_turn(state, a, data):
    """The game ends after this turn's Final Record (a shorter game; see state.last_turn)."""
    a.kw("TURN")
    year = a.num()
    try:
        check_last_turn(year, state["turn"])
    except ValueError as exc:
        raise GMError(str(exc)) from None
    state["last_turn"] = year
    return [{"kind": "gm", "text": f"the game ends after {year}"}]


_HANDLERS = {
    ("SET", "TREASURY"): _set_treasury, ("SET", "VP"): _set_vp,
    ("SET", "MARKER"): _set_marker, ("REMOVE", "MARKER"): _remove_marker,
    ("SET", "ARMY"): _set_unit("army"), ("SET", "NAVY"): _set_unit("navy"),
    ("REMOVE", "ARMY"): _remove_unit("army"), ("REMOVE", "NAVY"): _remove_unit("navy"),
    ("SET", "MERCHANT"): _set_merchant, ("REMOVE", "MERCHANT"): _remove_merchant,
    ("SET", "UNREST"): _set_unrest, ("CLEAR", "UNREST"): _clear_unrest,
    ("SET", "ETI"): _set_index("eti"), ("SET", "CRI"): _set_index("cri"),
    ("SET", "CB"): _set_cb, ("SET", "WAR"): _set_war, ("SET", "TREATY"): _set_treaty,
    ("SET", "CANAL"): _set_canal, ("SET", "POOL"): _set_pool, ("SET", "DEFICIT"): _set_deficit,
    ("SET", "HEADLINE"): _set_headline, ("SET", "PERMISSION"): _set_permission,
    ("SET", "SPENDCAP"): _set_spendcap, ("SET", "FORCED"): _set_forced,
    ("SET", "LAST"): _set_last_turn,
    ("ADD", "ETI"): _add_eti, ("SET", "CONGRESS"): _set_congress, ("SET", "STEP"): _set_step,
    ("SET", "OPTION"): _set_option, ("SET", "REBELLION"): _set_rebellion,
    ("SET", "DEFEATED"): _set_defeated, ("SET", "CONQUERED"): _set_conquered,
}

#: every command, for the help text and the documentation test
COMMANDS = sorted([f"{v} {w}" + (" TURN" if w == "LAST" else "") for v, w in _HANDLERS] + ["TREATY", "ASSIGN"])
