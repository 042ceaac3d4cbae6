"""Diplomatic relations (11): Influence, Marriages, Alliances and how they
end, Vassals and Subjugate, and player-to-player deals (NOTES 3.4)."""
from __future__ import annotations

from pbem.kit.gameapi import Refused

from . import influence_changes
from . import state as st
from . import war
from .deal_lines import read_term

MAX_INFLUENCE_AREA = 5      # 11.1
MAX_INFLUENCE_PER_TURN = 2  # NOTES 3.4


def limit(state: dict, realm: str) -> int:
    """3 Marriages, 3 Alliances; the Cabinet idea allows 1 more (11.2, 11.3)."""
    return 4 if "cabinet" in state["realms"][realm]["ideas"] else 3


def _total_influence(state: dict, area: str) -> int:
    return sum(state["influence"].get(area, {}).values())


def _near_mine(state: dict, realm: str, area: str) -> bool:
    """Influence goes next to your Towns, Vassals, Alliances, Marriages or
    Influence (NOTES 3.4); Choice: 'next to' includes the Area itself."""
    areas = {area, *st.land_neighbours(state, area)}
    for a in areas:
        if st.influence(state, a, realm):
            return True
        for p in st.area_provinces(state, a):
            owner = state["provinces"][p]["owner"]
            if not owner:
                continue
            if st.top(state, owner) == realm or st.alliance(state, realm, owner) or \
                    st.marriage(state, realm, owner) != "none":
                return True
    return False


def check_influence(state: dict, realm: str, area: str, n: int) -> None:
    if n < 1 or n > MAX_INFLUENCE_PER_TURN:
        raise Refused(f"place 1 or 2 Influence in an Area a turn (not {n})", "influence-limit")
    placed = state.get("influence_turn", {}).get(f"{realm}|{area}", 0)
    if placed + n > MAX_INFLUENCE_PER_TURN:
        raise Refused(f"you placed {placed} Influence in {area} this turn already; 2 is the most", "influence-limit")
    if state["areas"][area].get("distant"):
        raise Refused("no Influence can be placed in Distant Areas (11.1)", "influence-distant")
    owners = [state["provinces"][p]["owner"] for p in st.area_provinces(state, area)]
    if owners and all(o and st.is_player(state, o) for o in owners):
        raise Refused(f"every province of {area} is owned by a player realm: Influence cannot affect PRs (11.1)",
                      "influence-pr-area")
    if _total_influence(state, area) + n > MAX_INFLUENCE_AREA:
        raise Refused(f"{area} holds {_total_influence(state, area)} Influence; 5 is the most (11.1)",
                      "influence-full")
    if not _near_mine(state, realm, area):
        raise Refused(f"{area} is not next to your towns, vassals, allies, marriages or influence",
                      "influence-not-adjacent")


def influence(state: dict, realm: str, area: str, n: int, events: list) -> None:
    check_influence(state, realm, area, n)
    st.set_influence(state, area, realm, st.influence(state, area, realm) + n)
    state.setdefault("influence_turn", {})[f"{realm}|{area}"] = \
        state.get("influence_turn", {}).get(f"{realm}|{area}", 0) + n
    events.append({"kind": "influence", "realm": realm, "area": area, "delta": n, "reason": "Influence action"})
    events.append({"kind": "monarch_power", "realm": realm, "delta": -n, "type": "diplomatic",
                   "reason": "Influence (each one after the first may be paid with 3 Ducats instead)"})


def influence_in_realm(state: dict, realm: str, target: str) -> int:
    """Influence in the target's Areas, a Marriage counting as one (11.2)."""
    n = war.npr_influence(state, realm, target)
    return n + (1 if st.marriage(state, realm, target) != "none" else 0)


# -- alliances ---------------------------------------------------------------------------------

def check_forge(state: dict, realm: str, target: str) -> str | None:
    """11.3 / NOTES 3.4 Forge Alliance; returns the PR whose alliance is replaced."""
    if st.kind(state, target) != "NPR" or st.overlord(state, target):
        raise Refused(f"Forge Alliance is taken with an NPR; {target} is not one (ally a player by DIPLOMACY)",
                      "forge-not-npr")
    if st.alliance(state, realm, target):
        raise Refused(f"{target} is already your ally", "already-allied")
    if st.enemies(state, realm) or st.enemies(state, target):
        raise Refused("both realms must be at peace to forge an alliance (11.3)", "forge-at-war")
    if len(st.allies(state, realm)) >= limit(state, realm):
        raise Refused(f"you have {limit(state, realm)} alliances, the most you may have", "alliance-limit")
    mine = influence_in_realm(state, realm, target)
    if st.is_distant_realm(state, target):
        if not any(st.has_claim(state, realm, a) for a in st.areas_of(state, target)):
            raise Refused(f"{target} is Distant: you need a Claim on one of its Areas", "forge-distant")
        if mine < 2:
            # 11.1: no Influence in Distant Areas; Colonists in the pool count as Influence there.
            raise Refused(f"{target} is Distant: you need 2 Colonists in your pool, which count as Influence "
                          f"there (11.1); you have {mine}", "forge-influence")
    elif mine < 2:
        raise Refused(f"you need at least 2 Influence in {target}'s Areas; you have {mine}", "forge-influence")
    rival = next((r for r in st.allies(state, target) if st.is_player(state, r)), None)
    if rival and influence_in_realm(state, rival, target) >= mine:
        raise Refused(f"{target} is allied to {rival}: you need more Influence there than {rival} "
                      f"({influence_in_realm(state, rival, target)})", "forge-rival")
    return rival


def forge(state: dict, realm: str, target: str, events: list) -> None:
    rival = check_forge(state, realm, target)
    if rival:
        state["alliances"].pop(st.pair(rival, target))
        events.append({"kind": "alliance_ended", "a": rival, "b": target, "reason": f"replaced by {realm}"})
    state["alliances"][st.pair(realm, target)] = {"active": False, "strength": 0}
    area = st.capital_area(state, target)
    if area and _total_influence(state, area) < MAX_INFLUENCE_AREA:
        st.set_influence(state, area, realm, st.influence(state, area, realm) + 1)
    tax = st.base_tax(state, target) if state["version"] == "1.2" else st.tax_income(state, target)
    events.append({"kind": "alliance", "a": realm, "b": target})
    events.append({"kind": "monarch_power", "realm": realm, "delta": -min(3, max(1, (tax + 1) // 2)),
                   "type": "diplomatic", "reason": "Forge Alliance"})


def check_cut_ties(state: dict, realm: str, target: str) -> None:
    if not st.alliance(state, realm, target):
        raise Refused(f"you have no alliance with {target}", "not-allied")


def cut_ties(state: dict, realm: str, target: str, events: list) -> None:
    """11.3 Ending an Alliance by Cut Ties."""
    check_cut_ties(state, realm, target)
    rec = state["alliances"].pop(st.pair(realm, target))
    events.append({"kind": "alliance_ended", "a": realm, "b": target, "reason": "cut ties"})
    areas = st.areas_of(state, target)
    influence = influence_changes.snapshot(state)
    if st.enemies(state, target) or rec.get("active"):
        rd = state["realms"][realm]
        before = rd["stability"]
        rd["stability"] = st.cap_stability(rd["stability"] - 2)
        events.append({"kind": "stability", "realm": realm, "delta": rd["stability"] - before,
                       "reason": f"cut ties with {target} at war"})
        for a in areas:
            st.set_influence(state, a, realm, 0)
        influence_changes.tell(state, influence, f"cut ties with {target} at war (11.3)", events)
        if rec.get("active"):
            war.lose_allied_units(state, realm, rec.get("strength", 0) // 2, events)
            for e in st.enemies(state, realm):
                war.add_war(state, e, target, "former active ally")
    else:
        war.remove_n_influence(state, realm, areas, 5)
        influence_changes.tell(state, influence, f"cut ties with {target} (11.3)", events)
        if st.pair(realm, target) not in state["truces"]:
            state["truces"].append(st.pair(realm, target))
            events.append({"kind": "truce", "a": realm, "b": target})


# -- marriages ---------------------------------------------------------------------------------

def may_marry(a_rel: str, b_rel: str) -> bool:
    """11.2 Eligible Marriage partners by state religion."""
    if a_rel == "revolutionary" or b_rel == "revolutionary":
        return False
    if st.christian(a_rel):
        return st.christian(b_rel)
    if a_rel == "muslim":
        return b_rel == "muslim"
    return a_rel == b_rel


def check_marriage(state: dict, realm: str, target: str, *, deal: bool = False) -> None:
    if target == realm:
        raise Refused("a realm does not marry itself", "marriage-self")
    if st.is_player(state, target) and not deal:
        raise Refused(f"a marriage with {target}, a player realm, is agreed by DIPLOMACY {target}",
                      "marriage-player")
    if st.marriage(state, realm, target) != "none":
        raise Refused(f"you are already married to {target}", "already-married")
    if sum(1 for k in state["marriages"] if k.startswith(realm + "|")) >= limit(state, realm):
        raise Refused(f"you have {limit(state, realm)} marriages, the most you may have", "marriage-limit")
    lord = st.overlord(state, target)
    if lord and lord != realm:
        raise Refused(f"{target} is {lord}'s vassal: a vassal marries only its overlord (11.4)", "marriage-vassal")
    if not state["realms"][realm]["ruler"]:
        raise Refused("no new marriages during an Interregnum (NOTES 3.5)", "marriage-interregnum")
    a, b = state["realms"][realm]["religion"], state["realms"][target]["religion"]
    if not may_marry(a, b):
        raise Refused(f"a {a} realm cannot marry a {b} realm (11.2)", "marriage-religion")


def marry(state: dict, realm: str, target: str, events: list) -> None:
    check_marriage(state, realm, target)
    state["marriages"][f"{realm}|{target}"] = "yes"
    events.append({"kind": "marriage", "a": realm, "b": target})


# -- vassals -------------------------------------------------------------------------------------

def check_subjugate(state: dict, realm: str, target: str) -> dict:
    """11.4 Subjugate: vassalize an NPR ally, or annex one's vassal."""
    annex = st.overlord(state, target) == realm
    if not annex and (st.kind(state, target) != "NPR" or not st.alliance(state, realm, target)):
        raise Refused(f"{target} must be your NPR ally (or your vassal, to annex it)", "subjugate-not-ally")
    if st.is_distant_realm(state, target):
        raise Refused("a Distant Realm cannot be subjugated (11.4)", "subjugate-distant")
    if target == state.get("emperor") or "papal" in target.lower():
        raise Refused("the Papal States and the Emperor can never be vassalized (11.4)", "subjugate-never")
    married = st.marriage(state, realm, target) != "none"
    if st.vassals(state, target) and not married:
        raise Refused(f"{target} has vassals of its own: subjugating it needs a Marriage", "subjugate-marriage")
    areas = st.areas_of(state, target)
    opponents = sum(n for a in areas for r, n in state["influence"].get(a, {}).items() if r != realm)
    mine, theirs = st.base_tax(state, realm), st.base_tax(state, target)
    if married:
        if mine <= theirs + opponents:
            raise Refused(f"your Base Tax {mine} must exceed {target}'s {theirs} plus opponents' Influence "
                          f"{opponents}", "subjugate-tax")
    elif mine < 2 * theirs:
        raise Refused(f"your Base Tax {mine} must be at least twice {target}'s {theirs}", "subjugate-tax")
    cost = st.tax_income(state, target) + opponents - (1 if married else 0)
    have = war.npr_influence(state, realm, target)
    if have < cost:
        raise Refused(f"subjugating {target} discards {cost} Influence from its Areas; you have {have}",
                      "subjugate-influence")
    return {"annex": annex or st.base_tax(state, target) == 1, "cost": cost}


def subjugate(state: dict, realm: str, target: str, events: list) -> None:
    plan = check_subjugate(state, realm, target)
    before = influence_changes.snapshot(state)
    war.pay_influence(state, realm, target, plan["cost"])
    influence_changes.tell(state, before, f"Subjugate {target} (11.4)", events)
    state["alliances"].pop(st.pair(realm, target), None)
    for key in [k for k in state["marriages"] if k.endswith("|" + target) and not k.startswith(realm + "|")]:
        del state["marriages"][key]
    if plan["annex"]:
        annex(state, realm, target, events)
    else:
        make_vassal(state, realm, target, events)


def make_vassal(state: dict, realm: str, target: str, events: list) -> None:
    state["realms"][target]["overlord"] = realm
    for v in st.vassals(state, target):
        state["realms"][v]["overlord"] = None   # Choice: released (the Influence for them is not paid)
    state["wars"] = [w for w in state["wars"] if target not in w["pair"].split("|")]
    state["truces"] = [t for t in state["truces"] if target not in t.split("|")]
    events.append({"kind": "vassal", "realm": target, "overlord": realm})


def annex(state: dict, realm: str, target: str, events: list) -> None:
    for p in st.provinces_of(state, target):
        d = state["provinces"][p]
        d["owner"] = realm
        if d["controller"] == target:
            d["controller"] = realm
    for key in [k for k in state["marriages"] if target in k.split("|")]:
        del state["marriages"][key]
    for key in [k for k in state["alliances"] if target in k.split("|")]:
        del state["alliances"][key]
    state["wars"] = [w for w in state["wars"] if target not in w["pair"].split("|")]
    state["truces"] = [t for t in state["truces"] if target not in t.split("|")]
    state["realms"][target]["overlord"] = None
    state["realms"][target]["annexed_by"] = realm
    events.append({"kind": "annexed", "realm": target, "by": realm})


# -- player-to-player deals -------------------------------------------------------------------------

def check_deal(state: dict, a: str, b: str, lines: list[str]) -> list[tuple]:
    """Deal lines: ALLIANCE, MARRIAGE, <realm> PAYS <n>, <realm> SELLS
    <province> FOR <n> (NOTES 3.4 Player-to-Player Diplomacy)."""
    if not st.is_player(state, b) or a == b:
        raise Refused("a DIPLOMACY deal is made with another player realm", "deal-not-player")
    at_war = bool(st.enemies(state, a) or st.enemies(state, b))
    out = []
    for line in lines:
        form, values = read_term(state, line)
        if form == "alliance":
            if at_war:
                raise Refused("while either side is at war only money may change hands", "deal-at-war")
            if st.alliance(state, a, b):
                raise Refused(f"{a} and {b} are already allied", "already-allied")
            out.append(("alliance",))
        elif form == "marriage":
            if at_war:
                raise Refused("while either side is at war only money may change hands", "deal-at-war")
            check_marriage(state, a, b, deal=True)
            check_marriage(state, b, a, deal=True)
            out.append(("marriage",))
        elif form == "pays":
            payer, n = _who(state, values[0], a, b), values[1]
            if state["realms"][payer]["ducats"] < n:
                raise Refused(f"{payer} has {state['realms'][payer]['ducats']} Ducats, not {n}", "insufficient-ducats")
            out.append(("pay", payer, b if payer == a else a, n))
        else:
            if at_war:
                raise Refused("while either side is at war only money may change hands", "deal-at-war")
            seller = _who(state, values[0], a, b)
            buyer = b if seller == a else a
            prov = next((p for p in state["provinces"] if p.lower() == values[1].lower()), None)
            n = values[2]
            if prov is None or state["provinces"][prov]["owner"] != seller or st.occupied(state, prov):
                raise Refused(f"{values[1]} is not a province {seller} owns", "deal-province")
            if not st.has_claim(state, buyer, state["provinces"][prov]["area"]):
                raise Refused(f"{buyer} needs a Claim in {state['provinces'][prov]['area']} to buy {prov}",
                              "deal-claim")
            if not 3 <= n <= 15 or state["realms"][buyer]["ducats"] < n:
                raise Refused("a province sells for 3 to 15 Ducats the buyer has", "deal-price")
            out.append(("sell", seller, buyer, prov, n))
    if not out:
        raise Refused("the deal is empty", "deal-line")
    return out


def _who(state: dict, word: str, a: str, b: str) -> str:
    for r in (a, b):
        if r.lower() == word.lower().replace("-", " "):
            return r
    raise Refused(f"{word} is not a party to this deal", "deal-party")


def carry_out(state: dict, a: str, b: str, lines: list[str], events: list) -> None:
    for item in check_deal(state, a, b, lines):
        if item[0] == "alliance":
            state["alliances"][st.pair(a, b)] = {"active": False, "strength": 0}
            events.append({"kind": "alliance", "a": a, "b": b})
        elif item[0] == "marriage":
            state["marriages"][f"{a}|{b}"] = "yes"
            state["marriages"][f"{b}|{a}"] = "yes"
            events.append({"kind": "marriage", "a": a, "b": b})
            # 11.2: "both will gain an Action Card of a type chosen by the Active Player"; the cards
            # stay on the table, the report says who draws and who chooses.
            events.append({"kind": "action_cards", "realms": [a, b], "n": 1, "chooser": state.get("active") or a,
                           "reason": f"the Royal Marriage of {a} and {b} (11.2)"})
        elif item[0] == "pay":
            _, payer, payee, n = item
            state["realms"][payer]["ducats"] -= n
            state["realms"][payee]["ducats"] += n
            events.append({"kind": "ducats", "realm": payer, "delta": -n, "reason": f"paid {payee}"})
            events.append({"kind": "ducats", "realm": payee, "delta": n, "reason": f"paid by {payer}"})
        else:
            _, seller, buyer, prov, n = item
            d = state["provinces"][prov]
            if seller in d["cores"]:
                loss = 2 * d["tax"]
                state["realms"][seller]["prestige"] -= loss
                events.append({"kind": "prestige", "realm": seller, "delta": -loss, "reason": f"sold core {prov}"})
            d["owner"] = d["controller"] = buyer
            state["realms"][buyer]["ducats"] -= n
            state["realms"][seller]["ducats"] += n
            events.append({"kind": "province_sold", "province": prov, "from": seller, "to": buyer, "price": n})
