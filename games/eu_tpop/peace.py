"""Peace terms and their effects (10.4 Peace Terms), peace with Active Allies
(10.3) and truces (10.4 Truces).  Every concluded peace is a treaty record (peace_records.py)."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import diplomacy, hre, influence_changes
from . import state as st
from . import victory as vc
from . import war
from .peace_records import conclude

DNPR = "Free Provinces"   # Choice: liberated territories join one non-player realm of that name


def _return(state: dict, provs: list[str]) -> list[str]:
    for p in provs:
        d = state["provinces"][p]
        d["controller"], d["unrest"] = d["owner"], 0
    return provs


def _between(state: dict, side_a: list[str], side_b: list[str]) -> list[str]:
    return vc.occupied_by(state, side_a, side_b) + vc.occupied_by(state, side_b, side_a)


def _prestige(state: dict, realm: str, delta: int, why: str, events: list) -> None:
    if delta and realm in state["realms"]:
        state["realms"][realm]["prestige"] += delta
        events.append({"kind": "prestige", "realm": realm, "delta": delta, "reason": why})


def liberate(state: dict, prov: str, events: list) -> str:
    """Liberation (NOTES 3.8): a core of another realm goes back to it, a
    territory becomes a free province."""
    d = state["provinces"][prov]
    to = next((c for c in d["cores"] if c != d["owner"] and c in state["realms"]
               and not state["realms"][c].get("annexed_by")), None)
    if to is None:
        if DNPR not in state["realms"]:
            state["realms"][DNPR] = st.new_realm("NPR", state["areas"][d["area"]].get("religion") or "other")
        to = DNPR
    old = d["owner"]
    d["owner"] = d["controller"] = to
    d["unrest"] = 0
    if old and st.is_player(state, old) and to != old:
        state["cbs"].append({"holder": old, "target": to, "type": "token"})
        if st.pair(old, to) in state["truces"]:
            state["truces"].remove(st.pair(old, to))
    events.append({"kind": "liberated", "province": prov, "to": to, "from": old or "none"})
    return to


# -- the terms ---------------------------------------------------------------------------------

def apply_term(state: dict, v: str, loser: str, term: str, details: list, events: list, *,
               how: str = "enforced", condition: str | None = None) -> dict:
    """Carry out one peace term; returns the treaty record it concluded.  Every Influence it
    gives, takes or displaces is told with the peace as its cause (influence_changes.py)."""
    before = influence_changes.snapshot(state)
    record = _apply_term(state, v, loser, term, details, events, how=how, condition=condition)
    influence_changes.tell(state, before, f"the peace between {v} and {loser}: {term.replace('_', ' ')}", events)
    return record


def _apply_term(state: dict, v: str, loser: str, term: str, details: list, events: list, *,
                how: str, condition: str | None) -> dict:
    cond = condition or vc.condition(state, v, loser)
    # 10.4 Negotiated Peace names its Victor "regardless of whether or not conditions for
    # Victory have been met": its record tells the board's result from either side.
    loser_standing = vc.condition(state, loser, v) if how == "negotiated" else None
    ally_pr = st.active_ally_of(state, loser) if st.kind(state, loser) == "NPR" else None
    ally_rec = dict(st.alliance(state, ally_pr, loser) or {}) if ally_pr else {}
    side_v, side_l = vc.group(state, v), vc.group(state, loser)
    lines = []
    imperial = hre.before_peace(state, loser)
    active_l = st.active_allies(state, loser) if st.is_player(state, loser) else []
    if term == "white_peace":
        back = _return(state, _between(state, side_v, side_l))
        lines.append("White peace: occupied provinces return to their lawful owners"
                     + (f" ({', '.join(back)})" if back else "") + ".")
        for r in (v, loser):
            if st.is_player(state, r):
                _prestige(state, r, -1, "white peace", events)
    elif term == "keep_current_board_state":
        lines += _keep_board(state, v, loser, side_v, side_l, details, events)
    elif term == "humiliation":
        mine = vc.occupied_by(state, side_v, st.family(state, loser))
        gain = min(10, 2 * sum(state["provinces"][p]["tax"] for p in mine))
        _return(state, _between(state, side_v, side_l))
        tax = sum(state["provinces"][p]["tax"] for p in mine)
        why = (f"2 x the tax value {tax} of {', '.join(mine)} returned" + (", at most 10" if gain < 2 * tax else "")
               + " (Humiliation)") if mine else "Humiliation: no province returned"
        _prestige(state, v, gain, why, events)
        _prestige(state, loser, -gain, why, events)
        lines.append(f"Humiliation: every occupied province returns; {v} gains {gain} prestige, "
                     f"{loser} loses {gain}.")
    elif term == "vassalization":
        lines += _vassalize(state, v, loser, side_v, side_l, events)
    elif term == "force_conversion":
        _return(state, _between(state, side_v, side_l))
        religion = state["realms"][v]["religion"]
        state["realms"][loser]["religion"] = religion
        area = st.capital_area(state, loser)
        if area:
            state["areas"][area]["religion"] = religion
            _add_influence(state, v, area, 2)
        _prestige(state, v, 3, "forced conversion", events)
        _prestige(state, loser, -5, "forced to convert", events)
        if st.is_player(state, loser):
            _drop_influence(state, loser, 4)
        lines.append(f"Force Conversion: {loser} takes the {religion} religion.")
    elif term == "secure_desired_succession":
        lines += _succession(state, v, loser, side_v, side_l, events)
    elif term == "full_annexation":
        was_ally_of = st.active_ally_of(state, loser)
        for p in vc.occupied_by(state, side_l, side_v):
            _return(state, [p])
        diplomacy.annex(state, v, loser, events)
        for p in st.provinces_of(state, v):
            state["provinces"][p]["controller"] = v if state["provinces"][p]["controller"] == loser else \
                state["provinces"][p]["controller"]
        if was_ally_of:
            _prestige(state, was_ally_of, -2, f"its active ally {loser} was annexed", events)
        lines.append(f"Full Annexation: {loser}'s provinces join {v}.")
    else:
        raise Refused(f"unknown term {term}", "unknown-term")
    lines += _discard_claims(state, v, term, details)
    if ally_pr:
        # 10.3 Total Victory against an Active Ally: its PR discards allied units equal to half the
        # NPR's pre-war tax value, and the alliance token is removed.
        state["alliances"].pop(st.pair(ally_pr, loser), None)
        n = ally_rec.get("strength", 0) // 2
        war.lose_allied_units(state, ally_pr, n, events)
        lines.append(f"{ally_pr}'s alliance with {loser} ends; {ally_pr} discards {n} allied unit{'' if n == 1 else 's'}.")
    hre.after_peace(state, v, loser, term, imperial, events)
    return conclude(state, v, loser, term, cond, how, lines, events, active_l, loser_standing)


def check_details(state: dict, v: str, loser: str, details: list) -> None:
    """Keep Current Board State choices must fit the board (10.4); raises Refused."""
    side_v, side_l = vc.group(state, v), vc.group(state, loser)
    fam_l = st.family(state, loser)
    for d in details:
        if d[0] == "RETURN" and d[1] not in vc.occupied_by(state, side_v, side_l):
            raise Refused(f"RETURN {d[1]}: not a province your side occupies from {loser}", "bad-detail")
        if d[0] == "EXCHANGE":
            mine, theirs = d[1], d[2]
            if mine not in vc.occupied_by(state, side_v, side_l) or theirs not in vc.occupied_by(state, side_l, side_v):
                raise Refused(f"EXCHANGE {mine} FOR {theirs}: the first must be occupied by you, the second by "
                              f"{loser}", "bad-detail")
            if state["provinces"][mine]["tax"] != state["provinces"][theirs]["tax"]:
                raise Refused("exchanged provinces must have equal tax value", "bad-detail")
        if d[0] == "LIBERATE":
            if d[1] not in vc.occupied_by(state, side_v, fam_l):
                raise Refused(f"LIBERATE {d[1]}: only provinces occupied from {loser} itself", "bad-detail")
            if loser in state["provinces"][d[1]]["cores"]:
                raise Refused(f"{d[1]} is a core province of {loser}: it cannot be liberated", "bad-detail")
        if d[0] == "CLAIM" and not st.has_claim(state, v, d[1]):
            raise Refused(f"CLAIM {d[1]}: you hold no Claim there", "bad-detail")
        if d[0] == "ALLY" and not any(x[0] == "LIBERATE" for x in details):
            raise Refused("ALLY goes with a LIBERATE: an alliance with a liberated realm", "bad-detail")


def _keep_board(state, v, loser, side_v, side_l, details, events) -> list[str]:
    check_details(state, v, loser, details)
    lines, ducats_due, dues, ransoms = [], 0, [], []
    fam_l = st.family(state, loser)
    returned, liberated = [], []
    for d in details:
        if d[0] == "CLAIM":
            continue
        if d[0] == "RETURN":
            p = d[1]
            if p not in vc.occupied_by(state, side_v, side_l):
                raise Refused(f"{p} is not a province {v}'s side occupies from {loser}", "bad-detail")
            _return(state, [p])
            returned.append(p)
            if state["provinces"][p]["owner"] in fam_l:
                ducats_due += 3 * state["provinces"][p]["tax"]
                dues.append(f"{p} (tax {state['provinces'][p]['tax']})")
        elif d[0] == "EXCHANGE":
            mine, theirs = d[1], d[2]
            if mine not in vc.occupied_by(state, side_v, side_l) or theirs not in vc.occupied_by(state, side_l, side_v):
                raise Refused(f"EXCHANGE {mine} FOR {theirs}: the first must be occupied by you, the second by "
                              "the loser", "bad-detail")
            if state["provinces"][mine]["tax"] != state["provinces"][theirs]["tax"]:
                raise Refused("exchanged provinces must have equal tax value", "bad-detail")
            _return(state, [mine, theirs])
            lines.append(f"{mine} is exchanged for {theirs}.")
        elif d[0] == "LIBERATE":
            p = d[1]
            dd = state["provinces"][p]
            if p not in vc.occupied_by(state, side_v, fam_l):
                raise Refused(f"{p}: only provinces occupied from the loser itself can be liberated", "bad-detail")
            if loser in dd["cores"]:
                raise Refused(f"{p} is a core of {loser}: it cannot be liberated", "bad-detail")
            liberated.append(p)
            tax = dd["tax"]
            liberate(state, p, events)
            _prestige(state, v, tax, "liberation", events)
    # Capitals come back with a 10-ducat ransom; everything else occupied is kept (both sides).
    for p in _between(state, side_v, side_l):
        d = state["provinces"][p]
        cap = any(state["realms"][r].get("capital") == p for r in state["realms"])
        if cap:
            payer, payee = d["owner"], d["controller"]
            _return(state, [p])
            if payer in fam_l:
                ducats_due += 10
                ransoms.append(p)
                lines.append(f"The capital {p} returns to {payer}; a ransom of 10 Ducats is due.")
            elif st.is_player(state, payer):
                paid = pay_ducats(state, payer, payee, 10, events, f"ransom for {p}")
                lines.append(f"The capital {p} returns to {payer} against a ransom of 10 Ducats: {payer} pays "
                             f"{payee} {paid}" + (" (all it has)" if paid < 10 else "") + ".")
            else:
                lines.append(f"The capital {p} returns to {payer} (an NPR pays no ransom).")
    lost_areas = set()
    for p in _between(state, side_v, side_l):
        d = state["provinces"][p]
        lost_areas.add((d["owner"], d["area"]))
        lines.append(f"{d['controller']} keeps {p} (from {d['owner']}).")
        d["owner"] = d["controller"]
    cap = 2 * st.tax_income(state, loser)   # after the returns
    pay = min(ducats_due, cap)
    if pay:
        # The record says what was paid: a loser pays what it has (Choice, no debt).
        why = "; ".join(([f"3 Ducats per tax value of {', '.join(dues)} returned"] if dues else [])
                        + [f"a ransom of 10 for the capital {p}" for p in ransoms])
        paid = pay_ducats(state, loser, v, pay, events, f"Keep Current Board State: {why}"
                          + (f", capped at twice {loser}'s tax income ({cap})" if pay < ducats_due else ""))
        lines.append(f"{loser} pays {v} {paid} Ducats" + (f" (capped at twice its tax income, {cap})"
                                                           if pay < ducats_due else "")
                     + (f"; {pay} were due, and {loser} had only {paid}" if paid < pay else "") + ".")
    if returned:
        lines.append(f"Returned: {', '.join(returned)}.")
    if liberated:
        lines.append(f"Liberated: {', '.join(liberated)}.")
    for owner, area in sorted(lost_areas):
        if st.is_player(state, owner) and not st.has_claim(state, owner, area):
            state["claims"].setdefault(area, []).append(owner)
            lines.append(f"{owner} places a Claim in {area}.")
    for d in details:
        if d[0] == "ALLY":
            target = d[1]
            if any(state["provinces"][p]["owner"] == target for p in liberated) and st.kind(state, target) == "NPR":
                state["alliances"][st.pair(v, target)] = {"active": False, "strength": 0}
                for area in st.areas_of(state, target):
                    _add_influence(state, v, area, 2)
                    break
                lines.append(f"{v} allies with the liberated {target}.")
    return lines or ["Nothing changes hands."]


def _discard_claims(state: dict, v: str, term: str, details: list) -> list[str]:
    """10.4 (Keep Current Board State, Vassalization, Full Annexation): a Claim
    discarded in an Area where provinces (or vassals) were gained removes 2
    unrest there."""
    if term not in ("keep_current_board_state", "vassalization", "full_annexation"):
        return []
    out = []
    for d in details:
        if d[0] != "CLAIM" or not st.has_claim(state, v, d[1]):
            continue
        mine = sorted(p for p in st.area_provinces(state, d[1]) if st.top(state, state["provinces"][p]["owner"] or "")
                      == v and state["provinces"][p]["unrest"])
        state["claims"][d[1]].remove(v)
        for p in mine[:2]:
            state["provinces"][p]["unrest"] = 0
        out.append(f"{v} discards its Claim in {d[1]}: unrest removed from {', '.join(mine[:2]) or 'nothing'}.")
    return out


def pay_ducats(state, payer, payee, n, events, why) -> int:
    """Pay up to ``n`` Ducats; returns what was paid."""
    n = min(n, max(0, state["realms"][payer]["ducats"]))   # Choice: a loser pays what it has
    state["realms"][payer]["ducats"] -= n
    state["realms"][payee]["ducats"] += n
    events.append({"kind": "ducats", "realm": payer, "delta": -n, "reason": why})
    events.append({"kind": "ducats", "realm": payee, "delta": n, "reason": why})
    return n


def _add_influence(state: dict, realm: str, area: str, n: int) -> None:
    """Influence gained from peace terms may go in full Areas, displacing others (10.4)."""
    st.set_influence(state, area, realm, st.influence(state, area, realm) + n)
    over = sum(state["influence"].get(area, {}).values()) - diplomacy.MAX_INFLUENCE_AREA
    for other in sorted(state["influence"].get(area, {})):
        if over <= 0:
            break
        if other != realm:
            take = min(over, st.influence(state, area, other))
            st.set_influence(state, area, other, st.influence(state, area, other) - take)
            over -= take


def _drop_influence(state: dict, realm: str, n: int) -> None:
    for area in sorted(state["influence"], key=lambda a: -st.influence(state, a, realm)):
        take = min(n, st.influence(state, area, realm))
        st.set_influence(state, area, realm, st.influence(state, area, realm) - take)
        n -= take


def _vassalize(state, v, loser, side_v, side_l, events) -> list[str]:
    occupied_areas = {state["provinces"][p]["area"] for p in vc.occupied_by(state, st.family(state, v), [loser])}
    _return(state, vc.occupied_by(state, st.family(state, v), st.family(state, loser)))
    _return(state, vc.occupied_by(state, side_l, side_v))
    for key in [k for k in state["alliances"] if loser in k.split("|")]:
        del state["alliances"][key]
    for key in [k for k in state["marriages"] if k.endswith("|" + loser)]:
        del state["marriages"][key]
    diplomacy.make_vassal(state, v, loser, events)
    area = st.capital_area(state, loser)
    if area:
        _add_influence(state, v, area, 2)
    for p in st.provinces_of(state, loser):
        if state["provinces"][p]["area"] not in occupied_areas:
            state["provinces"][p]["unrest"] = 1
    return [f"Vassalization: {loser} becomes {v}'s vassal."]


def _succession(state, v, loser, side_v, side_l, events) -> list[str]:
    """10.4 Secure Desired Succession: "Remove all M/L and A/K from the Loser's Capital other than
    the Victor's. The Victor scores 3 per M/L removed, and the token owners lose 3 each"; an
    Alliance token removed costs its owner 3 and scores nothing for the victor."""
    _return(state, _between(state, side_v, side_l))
    lines = [f"Secure Desired Succession in {loser}."]
    marriages = 0
    for key in [k for k in state["marriages"] if k.endswith("|" + loser) and not k.startswith(v + "|")]:
        owner = key.split("|")[0]
        del state["marriages"][key]
        _prestige(state, owner, -3, f"lost its marriage in {loser}", events)
        lines.append(f"{owner}'s marriage in {loser} is removed: {owner} loses 3 prestige.")
        marriages += 1
    for key in [k for k in state["alliances"] if loser in k.split("|") and v not in k.split("|")]:
        owner = next(x for x in key.split("|") if x != loser)
        del state["alliances"][key]
        _prestige(state, owner, -3, f"lost its alliance with {loser}", events)
        lines.append(f"{owner}'s alliance with {loser} is removed: {owner} loses 3 prestige.")
    if marriages:
        _prestige(state, v, 3 * marriages, "secured the succession", events)
        lines.append(f"{v} scores {3 * marriages} prestige for the marriages removed.")
    if st.marriage(state, v, loser) == "disputed":
        state["marriages"][f"{v}|{loser}"] = "yes"
        gain = min(5, st.tax_income(state, loser))
        _prestige(state, v, gain, "its claimant succeeded", events)
        lines.append(f"{v}'s claimant succeeds: {v} scores {gain} prestige.")
    if st.kind(state, loser) == "NPR":
        lines += _other_wars_end(state, v, loser, events)
        area = st.capital_area(state, loser)
        if area:
            _add_influence(state, v, area, 4)
        if not st.alliance(state, v, loser) and len(st.allies(state, v)) < diplomacy.limit(state, v):
            state["alliances"][st.pair(v, loser)] = {"active": False, "strength": 0}
            lines.append(f"{v} allies with {loser}.")
    return lines


def _other_wars_end(state: dict, v: str, loser: str, events: list) -> list[str]:
    """10.4 Secure Desired Succession: "If the Loser is an NPR, all their other Wars end on White
    Peace terms": each with a White Peace's effects (occupied provinces return, each PR loses 1
    prestige) and its truce (10.4 Truces).  Choice: the enemy of the NPR stands as the victor of
    that White Peace in its record."""
    out = []
    for other in [e for e in st.enemies(state, loser) if e != v]:
        if st.at_war(state, other, loser):
            apply_term(state, other, loser, "white_peace", [], events, how="succession",
                       condition=vc.condition(state, other, loser))
            out.append(f"{loser}'s war with {other} ends on White Peace terms.")
    return out
