"""What each GM edit of gm.lark does to the state (gm.py reads the line).

Each function takes the state (a copy the caller owns) and the edit's values in
the order gm.lark gives them; a sub-rule's values come as ``(rule, values)``.
Returns the events it makes, if any.
"""
from __future__ import annotations

from pbem.kit.gameapi import GMError

from . import scenario
from . import state as st

RELIGIONS = ("catholic", "protestant", "orthodox", "christian", "muslim", "revolutionary", "other")


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

def map_area(state, name, *features):
    area = state["areas"].setdefault(name, {"seas": [], "distant": False, "hre": False, "religion": None})
    state["adj"].setdefault(name, {})
    for feature, values in features:
        if feature == "area_sea":
            sea = values[0]
            state["seas"].setdefault(sea, {"adj": []})
            if sea not in area["seas"]:
                area["seas"].append(sea)
        elif feature == "area_religion":
            area["religion"] = values[0]
        else:
            area[feature] = True


def map_adjacent(state, a, b, mountain=None):
    kind = "mountain" if mountain else "land"
    state["adj"][a][b] = kind
    state["adj"][b][a] = kind


def map_sea(state, name, other=None):
    state["seas"].setdefault(name, {"adj": []})
    if other is not None:
        scenario.link_seas(state, name, other)


def map_province(state, name, area, tax, *features):
    prov = {"area": area, "tax": tax, "port": None, "large": tax >= 2, "owner": None, "controller": None,
            "cores": [], "unrest": 0, "inactive": False}
    for feature, values in features:
        if feature == "port":
            prov["port"] = values[0]
        elif feature == "inactive":
            prov["inactive"] = True
        elif feature == "island":
            prov["island"] = True   # 9.8 step 3: a blue Port, sieged only with ships off it
        else:
            prov["large"] = feature == "large"
    old = state["provinces"].get(name)
    if old:
        prov.update({k: old[k] for k in ("owner", "controller", "cores", "unrest")})
    state["provinces"][name] = prov


# -- realms and provinces -----------------------------------------------------------

def set_realm(state, name, kind, *features):
    found = state["realms"].get(name) or next((v for k, v in state["realms"].items()
                                               if k.lower() == name.lower()), None)
    if found is None:
        found = state["realms"][name] = st.new_realm("NPR")
    name = next(k for k, v in state["realms"].items() if v is found)
    found["kind"] = kind[1][0]
    for feature, values in features:
        found["religion" if feature == "realm_religion" else "capital"] = values[0]
    if found["kind"] in ("PR", "BOT") and name not in state["order"]:
        state["order"].append(name)
    if found["kind"] == "NPR" and name in state["order"]:
        state["order"].remove(name)


def set_province(state, name, *holders):
    prov = state["provinces"][name]
    for _, (kw, who) in holders:
        if kw == "OWNER":
            prov["owner"] = who
            prov["controller"] = who
            if not prov["cores"]:
                prov["cores"] = [who]
        elif kw == "CONTROLLER":
            prov["controller"] = who
        elif who not in prov["cores"]:
            prov["cores"].append(who)


def set_units(state, realm, loc, *items):
    """A realm's land units at an Area (units stand at Areas; ships in a port: SET SHIPS)."""
    if loc not in state["areas"]:
        raise GMError(f"units stand at areas, and {loc} is a province of the area {state['provinces'][loc]['area']}: "
                      f"SET UNITS {realm} {state['provinces'][loc]['area']} ...", "units-at-areas")
    counts, prefix = {}, ""
    for _, values in items:
        kw = values[0]
        if kw in ("MERC", "ALLIED"):
            prefix = kw.lower() + "_"
        elif kw == "REGULAR":
            prefix = ""
        else:
            counts[kw.lower()] = values[1]
    if realm == st.REBELS:
        state["rebels"][loc] = sum(counts.values())
        return
    for key, n in counts.items():
        st.remove_units(state, loc, realm, prefix + key, 10**6)
        st.add_units(state, loc, realm, prefix + key, n)


def set_ships(state, realm, loc, *items):
    """A realm's ships in a Sea Zone, or in the port of a Province that has one."""
    if loc not in state["seas"] and not state["provinces"][loc].get("port"):
        raise GMError(f"{loc} has no port: ships stand in Sea Zones or in a port", "no-port-there")
    loc = loc if loc in state["seas"] else st.PORT + loc
    for _, (kw, n) in items:
        key = kw.lower()
        if key == "damaged":
            state["units"].setdefault(loc, {}).setdefault(realm, {})["damaged"] = n
            continue
        st.remove_units(state, loc, realm, key, 10**6)
        st.add_units(state, loc, realm, key, n)


def _two(a: str, b: str, what: str) -> None:
    if a == b:
        raise GMError(f"{what} is between two realms, not {a} and itself", "same-realm")


def set_war(state, left, right):
    left, right = left[1], right[1]
    if not left or not right:
        raise GMError("SET WAR <realm> ... VS <realm> ...")
    for a in left:
        if a in right:
            _two(a, a, "a war")
    for a in left:
        for b in right:
            if not st.at_war(state, a, b):
                state["wars"].append({"pair": st.pair(a, b), "attacker": a, "since": state["round"]})
            if st.pair(a, b) in state["truces"]:
                state["truces"].remove(st.pair(a, b))


def set_truce(state, a, b):
    _two(a, b, "a truce")
    if st.pair(a, b) not in state["truces"]:
        state["truces"].append(st.pair(a, b))


def set_alliance(state, a, b, active=None):
    _two(a, b, "an alliance")
    rec = {"active": bool(active), "strength": st.npr_strength(state, b) if active else 0}
    state["alliances"][st.pair(a, b)] = rec


def set_marriage(state, a, b, disputed=None):
    _two(a, b, "a royal marriage")
    state["marriages"][f"{a}|{b}"] = "disputed" if disputed else "yes"


def set_influence(state, realm, area, n):
    st.set_influence(state, area, realm, n)


def set_vassal(state, vassal, lord):
    state["realms"][vassal]["overlord"] = lord


def set_cb(state, a, b, kind=None):
    _two(a, b, "a Casus Belli")
    state["cbs"].append({"holder": a, "target": b, "type": (kind[1][0] if kind else "TOKEN").lower()})


def set_claim(state, realm, area):
    if realm not in state["claims"].setdefault(area, []):
        state["claims"][area].append(realm)


def set_figure(state, figure, realm, n):
    key = figure[1][0].lower()
    if key == "stability":
        n = st.cap_stability(n)
    if key == "manpower":
        n = min(n, st.MAX_MANPOWER)
    state["realms"][realm][key] = n


def set_unrest(state, prov, n):
    state["provinces"][prov]["unrest"] = n


def set_rebels(state, area, n):
    if n > 0:
        state["rebels"][area] = n
    else:
        state["rebels"].pop(area, None)


def set_ruler(state, realm, ruler):
    state["realms"][realm]["ruler"] = ruler[1][0] == "YES"


def set_leader(state, realm, name, *rest):
    # Without AT the leader is a card in hand, appointed later (APPOINT, or as a battle begins).
    at = next((x for x in rest if isinstance(x, str)), None)
    if at is not None and at not in state["areas"] and at not in state["seas"]:
        raise GMError(f"a leader stands with its army at an Area or its fleet at a Sea Zone; {at} is a province "
                      f"of the area {state['provinces'][at]['area']}", "units-at-areas")
    dice, ruler = [], False
    for x in rest:
        if isinstance(x, tuple) and x[0] == "dice":
            dice, ruler = x[1][0]
        elif isinstance(x, tuple) and x[0] == "ruler_flag":
            ruler = True
    leaders = state["leaders"].setdefault(realm, [])
    leaders[:] = [ld for ld in leaders if ld["name"].lower() != name.lower()]
    leaders.append({"name": name, "dice": dice, "at": at, "wounds": 0, "ruler": ruler})


def set_idea(state, realm, idea):
    if idea and idea not in state["realms"][realm]["ideas"]:
        state["realms"][realm]["ideas"].append(idea)


def set_emperor(state, realm=None):
    state["emperor"] = realm


def set_authority(state, n):
    state["imperial_authority"] = n


def set_discovered(state, a, b):
    if b not in state["realms"][a]["discovered"]:
        state["realms"][a]["discovered"].append(b)


def set_bonus(state, realm, dice):
    """A battle action card the GM rules on: its extra dice go to the realm's next battle."""
    state["bonus"][realm] = dice


def set_step(state, step):
    state["phase"] = "p3"
    state["step"] = step
    state["active"] = None


def set_active(state, realm):
    state["phase"], state["active"], state["pending"] = "action", realm, None


def set_passed(state, realm):
    if realm not in state["passed"]:
        state["passed"].append(realm)


def set_standing(state, realm, standing):
    topic, value = standing
    state["realms"][realm]["standing"][topic] = value


def set_rules(state, version):
    """The rules version, as OPTION rules= sets it when a game is created."""
    state["version"] = version


#: SET OPTION's names for the game options of the rules (OPTION advanced=, npr_invasions= ...)
OPTIONS = {"ADVANCED": "advanced", "NPR_INVASIONS": "npr_invasions", "NO_SURRENDER": "no_surrender",
           "REFRESH_MANPOWER": "refresh_manpower"}


def set_option(state, option, value):
    state[OPTIONS[option[1][0]]] = value[1][0] == "ON"


# -- removals -------------------------------------------------------------------------

def remove_units(state, realm, *rest):
    """Take a realm's units off a place, or refuse with the reason: units stand at Areas
    and Sea Zones, ships in port at a Province's port (REMOVE UNITS <realm> PORT <province>)."""
    port, loc = (True, rest[1]) if len(rest) > 1 else (False, rest[0])
    if realm == st.REBELS:
        if loc not in state["rebels"]:
            raise GMError(f"there are no rebels at {loc} (rebels stand at: "
                          f"{', '.join(sorted(state['rebels'])) or 'nowhere'})", "nothing-to-remove")
        state["rebels"].pop(loc)
        return
    key = st.PORT + loc if port else st.place_key(state, loc)
    if not state["units"].get(key, {}).get(realm):
        where = [st.place_name(k) for k, here in state["units"].items() if here.get(realm)]
        hint = ""
        if not port and loc in state["provinces"] and loc not in state["areas"]:
            hint = (f"; units stand at areas, and {loc} is a province of the area "
                    f"{state['provinces'][loc]['area']} (ships in its port: REMOVE UNITS {realm} PORT {loc})")
        raise GMError(f"{realm} has no units at {st.place_name(key)}{hint}; {realm}'s units are at: "
                      f"{', '.join(sorted(where)) or 'nowhere'}", "nothing-to-remove")
    state["units"][key].pop(realm)
    st.tidy(state, key)


def remove_pair(state, _remove, what, a, b):
    key = st.pair(a, b)
    before = (len(state["wars"]), len(state["truces"]), len(state["alliances"]), len(state["marriages"]),
              len(state["cbs"]))
    if what == "WAR":
        state["wars"] = [w for w in state["wars"] if w["pair"] != key]
    elif what == "TRUCE":
        state["truces"] = [t for t in state["truces"] if t != key]
    elif what == "ALLIANCE":
        state["alliances"].pop(key, None)
    elif what == "MARRIAGE":
        state["marriages"].pop(f"{a}|{b}", None)   # a token of the PR a on b (SET MARRIAGE a b)
    else:
        state["cbs"] = [c for c in state["cbs"] if (c["holder"], c["target"]) != (a, b)]
    after = (len(state["wars"]), len(state["truces"]), len(state["alliances"]), len(state["marriages"]),
             len(state["cbs"]))
    if before == after:
        whose = f"{a} holds no CB on {b}" if what == "CB" else f"there is no {what.lower()} between {a} and {b}"
        raise GMError(f"{whose}: nothing to remove", "nothing-to-remove")


def remove_claim(state, realm, area):
    if realm not in state["claims"].get(area, []):
        raise GMError(f"{realm} has no claim on {area}: nothing to remove", "nothing-to-remove")
    state["claims"][area].remove(realm)


def remove_leader(state, realm, name):
    kept = [ld for ld in state["leaders"].get(realm, []) if ld["name"].lower() != name]
    if len(kept) == len(state["leaders"].get(realm, [])):
        names = ", ".join(ld["name"] for ld in state["leaders"].get(realm, [])) or "none"
        raise GMError(f"{realm} has no leader {name!r} (its leaders: {names})", "nothing-to-remove")
    state["leaders"][realm] = kept


#: every rule of gm.lark -> the function that applies it
EDITS = {name: fn for name, fn in globals().items() if callable(fn) and name.split("_")[0] in ("map", "set", "remove")}
EDITS["surrender"] = surrender
