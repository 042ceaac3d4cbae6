"""GM state edits: the map vocabulary (``MAP ...``) and the ``SET``/``REMOVE``
vocabulary that scenario files and GM mail share.  Card effects the engine
cannot know (events, ideas, battle actions) enter the game through these."""
from __future__ import annotations

from pbem.kit.gameapi import GMError

from . import scenario
from . import state as st
from .names import Reader, tokens

RELIGIONS = ("catholic", "protestant", "orthodox", "christian", "muslim", "revolutionary", "other")

#: every GM edit, as the README lists them
COMMANDS = (
    "MAP AREA", "MAP ADJACENT", "MAP SEA", "MAP PROVINCE", "SET REALM", "SET PROVINCE", "SET UNITS",
    "SET SHIPS", "SET WAR", "SET TRUCE", "SET ALLIANCE", "SET MARRIAGE", "SET INFLUENCE", "SET VASSAL",
    "SET CB", "SET CLAIM", "SET PRESTIGE", "SET STABILITY", "SET DUCATS", "SET MANPOWER", "SET EXHAUSTED", "SET COLONISTS",
    "SET ALLIED", "SET UNREST", "SET REBELS", "SET RULER", "SET LEADER", "SET IDEA", "SET EMPEROR", "SET AUTHORITY",
    "SET DISCOVERED", "SET BONUS", "SET STEP", "SET ACTIVE", "SET PASSED", "SET STANDING", "SURRENDER",
    "REMOVE UNITS", "REMOVE WAR", "REMOVE TRUCE", "REMOVE ALLIANCE", "REMOVE MARRIAGE", "REMOVE CB",
    "REMOVE CLAIM", "REMOVE LEADER", "SET RULES", "SET OPTION",
)


def apply(state: dict, text: str) -> list[dict]:
    """Apply one edit to ``state`` (a copy the caller owns).  Raises GMError."""
    r = Reader(state, tokens(text))
    head = r.expect("MAP", "SET", "REMOVE", "SURRENDER")
    if head == "SURRENDER":
        loser = r.name("realm")
        r.expect("TO")
        victor = r.name("realm")
        r.done()
        return surrender(state, loser, victor)
    verb = r.words.pop(0).upper() if r.words else ""
    handler = _HANDLERS.get((head, verb))
    if handler is None:
        known = ", ".join(c for c in COMMANDS)
        raise GMError(f"unknown GM command {head} {verb} (known: {known})", "unknown-gm-command")
    events = handler(state, r) or []
    r.done()
    return [{"kind": "gm_edit", "text": text}, *events]


def surrender(state: dict, loser: str, victor: str) -> list[dict]:
    """10.2 Surrendering: the loser loses 2 prestige, the enemy gains 2, and
    may enforce peace as after a Partial Victory."""
    if not st.at_war(state, loser, victor):
        raise GMError(f"{loser} is not at war with {victor}", "not-at-war")
    if state.get("no_surrender"):
        raise GMError("Optional Rule 3 (No Surrender!) is in force", "no-surrender")
    if [loser, victor] not in state["surrendered"]:
        state["surrendered"].append([loser, victor])
    events = []
    for realm, delta in ((loser, -2), (victor, 2)):
        if st.is_player(state, realm) or st.kind(state, realm) == "NPR":
            state["realms"][realm]["prestige"] += delta
            events.append({"kind": "prestige", "realm": realm, "delta": delta, "reason": "surrender"})
    events.append({"kind": "surrender", "loser": loser, "victor": victor})
    return events


# -- map ----------------------------------------------------------------------

def _map_area(state, r):
    name = r.new_name("SEA", "DISTANT", "HRE", "RELIGION")
    area = state["areas"].setdefault(name, {"seas": [], "distant": False, "hre": False, "religion": None})
    state["adj"].setdefault(name, {})
    while r:
        kw = r.expect("SEA", "DISTANT", "HRE", "RELIGION")
        if kw == "SEA":
            sea = r.new_name("SEA", "DISTANT", "HRE", "RELIGION")
            state["seas"].setdefault(sea, {"adj": []})
            if sea not in area["seas"]:
                area["seas"].append(sea)
        elif kw == "RELIGION":
            area["religion"] = _religion(r)
        else:
            area[kw.lower()] = True


def _map_adjacent(state, r):
    a = r.name("area")
    b = r.name("area")
    kind = "mountain" if r.keyword("MOUNTAIN") else "land"
    state["adj"][a][b] = kind
    state["adj"][b][a] = kind


def _map_sea(state, r):
    name = r.new_name("ADJACENT")
    state["seas"].setdefault(name, {"adj": []})
    if r.keyword("ADJACENT"):
        while r:
            scenario.link_seas(state, name, r.new_name())


def _map_province(state, r):
    name = r.new_name("IN")
    r.expect("IN")
    area = r.name("area")
    r.expect("TAX")
    tax = r.number("a tax value")
    if tax not in (1, 2):
        raise GMError("a province's tax value is 1 or 2")
    prov = {"area": area, "tax": tax, "port": None, "large": tax >= 2, "owner": None, "controller": None,
            "cores": [], "unrest": 0, "inactive": False}
    while r:
        kw = r.expect("PORT", "LARGE", "SMALL", "INACTIVE", "ISLAND")
        if kw == "PORT":
            prov["port"] = r.name("sea")
        elif kw == "INACTIVE":
            prov["inactive"] = True
        elif kw == "ISLAND":
            prov["island"] = True   # 9.8 step 3: a blue Port, sieged only with ships off it
        else:
            prov["large"] = kw == "LARGE"
    old = state["provinces"].get(name)
    if old:
        prov.update({k: old[k] for k in ("owner", "controller", "cores", "unrest")})
    state["provinces"][name] = prov


# -- realms and provinces -----------------------------------------------------------

def _religion(r) -> str:
    word = (r.words.pop(0) if r.words else "").lower()
    if word not in RELIGIONS:
        raise GMError(f"unknown religion {word!r} (one of {', '.join(RELIGIONS)})")
    return word


def _set_realm(state, r):
    name = r.new_name("PR", "NPR", "BOT")
    found = r.state["realms"].get(name) or next((v for k, v in state["realms"].items()
                                                 if k.lower() == name.lower()), None)
    if found is None:
        found = state["realms"][name] = st.new_realm("NPR")
    name = next(k for k, v in state["realms"].items() if v is found)
    found["kind"] = r.expect("PR", "NPR", "BOT")
    while r:
        kw = r.expect("RELIGION", "CAPITAL")
        if kw == "RELIGION":
            found["religion"] = _religion(r)
        else:
            found["capital"] = r.name("province")
    if found["kind"] in ("PR", "BOT") and name not in state["order"]:
        state["order"].append(name)
    if found["kind"] == "NPR" and name in state["order"]:
        state["order"].remove(name)


def _set_province(state, r):
    prov = state["provinces"][r.name("province")]
    while r:
        kw = r.expect("OWNER", "CONTROLLER", "CORE")
        who = r.name("realm")
        if kw == "OWNER":
            prov["owner"] = who
            prov["controller"] = who
            if not prov["cores"]:
                prov["cores"] = [who]
        elif kw == "CONTROLLER":
            prov["controller"] = who
        elif who not in prov["cores"]:
            prov["cores"].append(who)


def _set_units(state, r):
    realm = r.name("realm")
    loc = r.name("area", "province")
    counts, prefix = {}, ""
    while r:
        kw = r.expect("INF", "CAV", "ART", "MERC", "ALLIED", "REGULAR")
        if kw in ("MERC", "ALLIED"):
            prefix = kw.lower() + "_"
        elif kw == "REGULAR":
            prefix = ""
        else:
            counts[kw.lower()] = r.number()
    if realm == st.REBELS:
        state["rebels"][loc] = sum(counts.values())
        return
    for key, n in counts.items():
        st.remove_units(state, loc, realm, prefix + key, 10**6)
        st.add_units(state, loc, realm, prefix + key, n)


def _set_ships(state, r):
    realm = r.name("realm")
    loc = r.name("sea", "province")
    loc = loc if loc in state["seas"] else st.PORT + loc
    while r:
        kw = r.expect("LIGHT", "HEAVY", "DAMAGED")
        n = r.number()
        key = kw.lower()
        if key == "damaged":
            state["units"].setdefault(loc, {}).setdefault(realm, {})["damaged"] = n
            continue
        st.remove_units(state, loc, realm, key, 10**6)
        st.add_units(state, loc, realm, key, n)


def _set_war(state, r):
    left = []
    while r and r.peek() != "VS":
        left.append(r.name("realm"))
    r.expect("VS")
    right = []
    while r:
        right.append(r.name("realm"))
    if not left or not right:
        raise GMError("SET WAR <realm> ... VS <realm> ...")
    for a in left:
        for b in right:
            if not st.at_war(state, a, b):
                state["wars"].append({"pair": st.pair(a, b), "attacker": a, "since": state["round"]})
            if st.pair(a, b) in state["truces"]:
                state["truces"].remove(st.pair(a, b))


def _two(r):
    return r.name("realm"), r.name("realm")


def _set_truce(state, r):
    a, b = _two(r)
    if st.pair(a, b) not in state["truces"]:
        state["truces"].append(st.pair(a, b))


def _set_alliance(state, r):
    a, b = _two(r)
    active = bool(r.keyword("ACTIVE"))
    rec = {"active": active, "strength": st.npr_strength(state, b) if active else 0}
    state["alliances"][st.pair(a, b)] = rec


def _set_marriage(state, r):
    a, b = _two(r)
    state["marriages"][f"{a}|{b}"] = "disputed" if r.keyword("DISPUTED") else "yes"


def _set_influence(state, r):
    realm = r.name("realm")
    area = r.name("area")
    st.set_influence(state, area, realm, r.number())


def _set_vassal(state, r):
    vassal = r.name("realm")
    r.expect("OF")
    lord = r.name("realm")
    state["realms"][vassal]["overlord"] = lord


def _set_cb(state, r):
    a, b = _two(r)
    kind = (r.keyword("TOKEN", "EVENT", "EXCOMMUNICATION", "HOLY_WAR", "IMPERIAL_LIBERATION") or "TOKEN").lower()
    state["cbs"].append({"holder": a, "target": b, "type": kind})


def _set_claim(state, r):
    realm = r.name("realm")
    area = r.name("area")
    if realm not in state["claims"].setdefault(area, []):
        state["claims"][area].append(realm)


def _numeric(key):
    def handler(state, r):
        realm = r.name("realm")
        n = r.number()
        if key == "stability":
            n = st.cap_stability(n)
        if key == "manpower":
            n = min(n, st.MAX_MANPOWER)
        state["realms"][realm][key] = n
    return handler


def _set_unrest(state, r):
    prov = r.name("province")
    state["provinces"][prov]["unrest"] = r.number()


def _set_rebels(state, r):
    area = r.name("area")
    n = r.number()
    if n > 0:
        state["rebels"][area] = n
    else:
        state["rebels"].pop(area, None)


def _set_ruler(state, r):
    realm = r.name("realm")
    state["realms"][realm]["ruler"] = r.expect("NONE", "YES") == "YES"


def _set_leader(state, r):
    realm = r.name("realm")
    name = r.new_name("AT", "DICE", "RULER")
    # Without AT the leader is a card in hand, appointed later (APPOINT, or as a battle begins).
    at = r.name("area", "sea", "province") if r.keyword("AT") else None
    dice = []
    if r.keyword("DICE"):
        for word in ",".join(r.words).split(","):
            if word.strip() and word.strip().upper() != "RULER":
                dice.append(scenario.die_name(word.strip()))
        ruler = "RULER" in (w.upper() for w in r.words)
        r.words = []
    else:
        ruler = bool(r.keyword("RULER"))
    leaders = state["leaders"].setdefault(realm, [])
    leaders[:] = [ld for ld in leaders if ld["name"].lower() != name.lower()]
    leaders.append({"name": name, "dice": dice, "at": at, "wounds": 0, "ruler": ruler})


def _set_idea(state, r):
    realm = r.name("realm")
    idea = " ".join(r.rest()).lower()
    if idea and idea not in state["realms"][realm]["ideas"]:
        state["realms"][realm]["ideas"].append(idea)


def _set_emperor(state, r):
    state["emperor"] = None if r.keyword("NONE") else r.name("realm")


def _set_authority(state, r):
    state["imperial_authority"] = r.number("Imperial Authority")


def _set_discovered(state, r):
    a, b = _two(r)
    if b not in state["realms"][a]["discovered"]:
        state["realms"][a]["discovered"].append(b)


def _set_bonus(state, r):
    """A battle action card the GM rules on: its extra dice go to the realm's next battle."""
    realm = r.name("realm")
    dice = [scenario.die_name(w) for w in ",".join(r.rest()).split(",") if w.strip()]
    state["bonus"][realm] = dice


def _set_step(state, r):
    step = (r.words.pop(0) if r.words else "").upper()
    if step not in "ABCDEFGHI" or len(step) != 1:
        raise GMError("SET STEP <A-I>")
    state["phase"] = "p3"
    state["step"] = step
    state["active"] = None


def _set_active(state, r):
    realm = r.name("realm")
    state["phase"], state["active"], state["pending"] = "action", realm, None


def _set_passed(state, r):
    realm = r.name("realm")
    if realm not in state["passed"]:
        state["passed"].append(realm)


def _set_standing(state, r):
    from .orders import parse_line
    realm = r.name("realm")
    order = parse_line(state, realm, " ".join(["STANDING", *r.rest()]), None)
    if order is None or order.kind != "standing":
        raise GMError("SET STANDING <realm> CTA|RETREAT|CASUALTIES|CALL ...")
    state["realms"][realm]["standing"][order.args["topic"]] = order.args["value"]


def _set_rules(state, r):
    """The rules version, as OPTION rules= sets it when a game is created."""
    word = (r.words.pop(0) if r.words else "").lower()
    if word not in ("pre-1.2", "1.2"):
        raise GMError("SET RULES pre-1.2|1.2")
    state["version"] = word


_OPTIONS = {"ADVANCED": "advanced", "NPR_INVASIONS": "npr_invasions", "NO_SURRENDER": "no_surrender",
            "REFRESH_MANPOWER": "refresh_manpower"}


def _set_option(state, r):
    """A game option of the rules (OPTION advanced=, npr_invasions=, no_surrender=)."""
    key = r.expect(*_OPTIONS)
    value = r.expect("ON", "OFF")
    state[_OPTIONS[key]] = value == "ON"


def _remove_units(state, r):
    realm = r.name("realm")
    port = bool(r.keyword("PORT"))
    loc = r.name("area", "sea", "province")
    loc = st.PORT + loc if port else st.place_key(state, loc)
    if realm == st.REBELS:
        state["rebels"].pop(loc, None)
    else:
        state["units"].get(loc, {}).pop(realm, None)
        st.tidy(state, loc)


def _remove_pair(field):
    def handler(state, r):
        a, b = _two(r)
        key = st.pair(a, b)
        if field == "wars":
            state["wars"] = [w for w in state["wars"] if w["pair"] != key]
        elif field == "truces":
            state["truces"] = [t for t in state["truces"] if t != key]
        elif field == "alliances":
            state["alliances"].pop(key, None)
        elif field == "marriages":
            state["marriages"].pop(f"{a}|{b}", None)
        elif field == "cbs":
            state["cbs"] = [c for c in state["cbs"] if (c["holder"], c["target"]) != (a, b)]
    return handler


def _remove_claim(state, r):
    realm = r.name("realm")
    area = r.name("area")
    if realm in state["claims"].get(area, []):
        state["claims"][area].remove(realm)


def _remove_leader(state, r):
    realm = r.name("realm")
    name = " ".join(r.rest()).lower()
    state["leaders"][realm] = [ld for ld in state["leaders"].get(realm, []) if ld["name"].lower() != name]


_HANDLERS = {
    ("MAP", "AREA"): _map_area, ("MAP", "ADJACENT"): _map_adjacent, ("MAP", "SEA"): _map_sea,
    ("MAP", "PROVINCE"): _map_province, ("SET", "REALM"): _set_realm, ("SET", "PROVINCE"): _set_province,
    ("SET", "UNITS"): _set_units, ("SET", "SHIPS"): _set_ships, ("SET", "WAR"): _set_war,
    ("SET", "TRUCE"): _set_truce, ("SET", "ALLIANCE"): _set_alliance, ("SET", "MARRIAGE"): _set_marriage,
    ("SET", "INFLUENCE"): _set_influence, ("SET", "VASSAL"): _set_vassal, ("SET", "CB"): _set_cb,
    ("SET", "CLAIM"): _set_claim, ("SET", "PRESTIGE"): _numeric("prestige"),
    ("SET", "STABILITY"): _numeric("stability"), ("SET", "DUCATS"): _numeric("ducats"),
    ("SET", "MANPOWER"): _numeric("manpower"), ("SET", "EXHAUSTED"): _numeric("exhausted"),
    ("SET", "ALLIED"): _numeric("allied"), ("SET", "COLONISTS"): _numeric("colonists"), ("SET", "UNREST"): _set_unrest, ("SET", "REBELS"): _set_rebels,
    ("SET", "RULER"): _set_ruler, ("SET", "LEADER"): _set_leader, ("SET", "IDEA"): _set_idea,
    ("SET", "EMPEROR"): _set_emperor, ("SET", "AUTHORITY"): _set_authority, ("SET", "DISCOVERED"): _set_discovered, ("SET", "BONUS"): _set_bonus,
    ("SET", "STEP"): _set_step, ("SET", "ACTIVE"): _set_active, ("SET", "PASSED"): _set_passed,
    ("SET", "STANDING"): _set_standing, ("REMOVE", "UNITS"): _remove_units,
    ("REMOVE", "WAR"): _remove_pair("wars"), ("REMOVE", "TRUCE"): _remove_pair("truces"),
    ("REMOVE", "ALLIANCE"): _remove_pair("alliances"), ("REMOVE", "MARRIAGE"): _remove_pair("marriages"),
    ("REMOVE", "CB"): _remove_pair("cbs"), ("REMOVE", "CLAIM"): _remove_claim,
    ("REMOVE", "LEADER"): _remove_leader, ("SET", "RULES"): _set_rules, ("SET", "OPTION"): _set_option,
}
