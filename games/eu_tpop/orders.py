"""Reading players' orders: every form, its aliases, and its canonical echo.

Parsing only reads words and names; whether an order is allowed now is
:mod:`.validate`'s question.  Each order's canonical text parses back to the
same order.
"""
from __future__ import annotations

import difflib
import re

from pbem.kit.gameapi import GMError, Order, ParseResult, Problem

from .names import NameError_, Reader, tokens

TERMS = ("white_peace", "negotiated_peace", "keep_current_board_state", "humiliation", "vassalization",
         "force_conversion", "secure_desired_succession", "full_annexation")
TERM_ALIASES = {"wp": "white_peace", "white": "white_peace", "kcbs": "keep_current_board_state",
                "keep": "keep_current_board_state", "keep_board_state": "keep_current_board_state",
                "humiliate": "humiliation", "vassalize": "vassalization", "vassalise": "vassalization",
                "vassalisation": "vassalization", "convert": "force_conversion", "conversion": "force_conversion",
                "succession": "secure_desired_succession", "sds": "secure_desired_succession",
                "annex": "full_annexation", "annexation": "full_annexation", "negotiated": "negotiated_peace"}
CB_TYPES = ("claim", "cta", "token", "event", "disputed", "excommunication", "holy_war", "imperial_liberation")
CB_ALIASES = {"conquest": "claim", "call_to_arms": "cta", "general": "token", "disputed_succession": "disputed",
              "succession": "disputed", "holy": "holy_war", "liberation": "imperial_liberation"}
UNIT_WORDS = {"INF": "inf", "INFANTRY": "inf", "CAV": "cav", "CAVALRY": "cav", "ART": "art",
              "ARTILLERY": "art", "LIGHT": "light", "HEAVY": "heavy"}

FORMS = (
    "DECLARE WAR ON <realm>[,<realm>] [CB <type>]",
    "CALL TO ARMS <realm>",
    "ACTIVATE <area> TO <area> [TO <area>] [SIEGE]",
    "NAVAL <sea> TO <sea or port>",
    "RECRUIT <n> INF|CAV|ART|LIGHT|HEAVY IN <area or sea> [MERC|ALLIED]",
    "SIEGE <area>",
    "APPOINT <leader> TO <area or sea>",
    "FORGE ALLIANCE <realm>",
    "INFLUENCE <area> [<n>]",
    "CUT TIES <realm>",
    "SUBJUGATE <realm>",
    "ROYAL MARRIAGE <realm>",
    "DIPLOMACY <realm> ... ENDDIPLOMACY",
    "PASS",
    "STANDING CTA ACCEPT|REFUSE|ASK [ACTIVE|INACTIVE]",
    "STANDING RETREAT IF OUTNUMBERED|NEVER|ASK",
    "STANDING CASUALTIES MERC,REGULAR,ALLIED [INF,CAV,ART]",
    "STANDING CALL ALL|PLAYERS|NONE",
    "STANDING LEADER ASK|BEST|NONE|<leader>",
    "ACCEPT [ACTIVE|INACTIVE]",
    "REFUSE",
    "RETREAT [TO <area>]",
    "FIGHT",
    "LEADER <leader>|BEST|NONE",
    "ENFORCE <term> ON <realm> [details]",
    "OFFER WHITE PEACE TO <realm>",
    "SURRENDER TO <realm>",
    "NEGOTIATE <realm> ... ENDNEGOTIATE",
    "KEEP WAR <realm>",
)
VERBS = ("DECLARE", "CALL", "ACTIVATE", "NAVAL", "RECRUIT", "SIEGE", "APPOINT", "FORGE", "INFLUENCE", "CUT", "SUBJUGATE",
         "ROYAL", "DIPLOMACY", "PASS", "STANDING", "ACCEPT", "REFUSE", "RETREAT", "FIGHT", "ENFORCE", "OFFER",
         "SURRENDER", "NEGOTIATE", "KEEP", "LEADER")
_ALIAS_VERBS = {"DOW": "DECLARE WAR ON", "CTA": "CALL TO ARMS", "MOVE": "ACTIVATE", "SAIL": "NAVAL",
                "ALLY": "FORGE ALLIANCE", "MARRY": "ROYAL MARRIAGE", "MARRIAGE": "ROYAL MARRIAGE",
                "WHITE": "OFFER WHITE", "CONTINUE": "KEEP WAR"}


def term_name(word: str) -> str | None:
    key = word.lower().replace("-", "_")
    return key if key in TERMS else TERM_ALIASES.get(key)


def parse(state: dict, power: str, lines) -> ParseResult:
    result = ParseResult()
    block = None
    for number, text in lines:
        stripped = text.strip()
        if not stripped:
            continue
        if block is not None:
            end = re.sub(r"\s+", "", stripped.upper())
            if end in (f"END{block['verb']}", "END"):
                if len(block["lines"]) > MAX_DEAL_TERMS:
                    # Choice: a deal holds a handful of terms (NOTES 3.4: alliance, marriage,
                    # payments, sales); thousands of lines would be printed in every report
                    # (choices/diplomacy.md).
                    result.problems.append(Problem(
                        "too-many-terms", f"{block['verb']} {block['realm']} has {len(block['lines'])} "
                        f"lines; a deal has at most {MAX_DEAL_TERMS} terms, and nothing of it was taken",
                        block["line"], None, "invalid"))
                else:
                    result.orders.append(_block_order(power, block))
                block = None
            else:
                block["lines"].append(" ".join(stripped.split()))
            continue
        head = stripped.split()[0].upper()
        if head in ("DIPLOMACY", "NEGOTIATE"):
            try:
                r = Reader(state, tokens(stripped)[1:])
                realm = r.name("realm")
                r.done()
            except GMError as exc:
                result.problems.append(_problem(exc, number))
                continue
            block = {"verb": head, "realm": realm, "lines": [], "line": number}
            continue
        try:
            order = parse_line(state, power, stripped, number)
        except GMError as exc:
            result.problems.append(_problem(exc, number))
            continue
        if order is None:
            near = difflib.get_close_matches(head, VERBS, n=1, cutoff=0.6) if len(head) <= 64 else None
            result.problems.append(Problem("invalid-order", f"cannot read {stripped[:60]!r}; the order forms are "
                                           "in HELP ORDERS", number, near[0] if near else None, "invalid"))
        else:
            result.orders.append(order)
    if block is not None:
        result.problems.append(Problem("unclosed-block", f"{block['verb']} {block['realm']} has no "
                                       f"END{block['verb']}; nothing of it was taken", block["line"],
                                       f"END{block['verb']}", "invalid"))
    return result


#: the most lines (terms) one DIPLOMACY or NEGOTIATE block may hold
MAX_DEAL_TERMS = 12


def _problem(exc: GMError, number) -> Problem:
    return Problem(exc.code if exc.code != "gm-edit" else "invalid-order", str(exc), number,
                   getattr(exc, "suggestion", None), "invalid")


def _block_order(power: str, block: dict) -> Order:
    verb, realm = block["verb"], block["realm"]
    kind = "diplomacy" if verb == "DIPLOMACY" else "negotiate"
    canon = "\n".join([f"{verb} {realm}", *block["lines"], f"END{verb}"])
    return Order(power, kind, {"realm": realm, "lines": block["lines"]}, canon, block["line"])


def parse_line(state: dict, power: str, text: str, number) -> Order | None:
    words = tokens(text)
    if not words:
        return None
    first = words[0].upper()
    if first in _ALIAS_VERBS:
        words = _ALIAS_VERBS[first].split() + words[1:]
    r = Reader(state, words)
    verb = r.words.pop(0).upper()
    fn = _PARSERS.get(verb)
    if fn is None:
        return None
    kind, args, canon = fn(r)
    r.done()
    return Order(power, kind, args, canon, number)


def _realm_list(r: Reader) -> list[str]:
    joined = " ".join(r.words)
    parts, rest = joined, ""
    m = re.search(r"\s+CB(\s|$)", joined, re.I)
    if m:
        parts, rest = joined[:m.start()], joined[m.start():]
    names = []
    for part in parts.split(","):
        if part.strip():
            sub = Reader(r.state, tokens(part))
            name = sub.name("realm")
            sub.done()
            # Choice: a realm named twice in one list is refused, not applied twice (a
            # declaration's stability cost and its war are per enemy: Declare War action, p. 16;
            # choices/warfare.md).
            if name in names:
                raise GMError(f"{name} is named twice; name each realm once", "duplicate-realm")
            names.append(name)
    r.words = tokens(rest)
    if not names:
        raise GMError("name the realm(s) you declare war on")
    return names


def _declare(r):
    r.expect("WAR")
    r.expect("ON")
    targets = _realm_list(r)
    cb = None
    if r.keyword("CB"):
        word = (r.words.pop(0) if r.words else "").lower().replace("-", "_")
        cb = word if word in CB_TYPES else CB_ALIASES.get(word)
        if cb is None:
            raise GMError(f"unknown CB type {word!r} (one of {', '.join(CB_TYPES)})", "unknown-cb")
    canon = f"DECLARE WAR ON {','.join(targets)}" + (f" CB {cb.upper()}" if cb else "")
    return "declare", {"targets": targets, "cb": cb}, canon


def _call(r):
    r.expect("TO")
    r.expect("ARMS")
    realm = r.name("realm")
    return "cta", {"realm": realm}, f"CALL TO ARMS {realm}"


def _activate(r):
    path = [r.name("area")]
    siege = False
    while r:
        if r.keyword("SIEGE"):
            siege = True
            continue
        r.expect("TO")
        path.append(r.name("area"))
    if len(path) < 2:
        raise GMError("ACTIVATE <area> TO <area> [TO <area>] [SIEGE]")
    canon = "ACTIVATE " + " TO ".join(path) + (" SIEGE" if siege else "")
    return "activate", {"path": path, "siege": siege}, canon


def _naval(r):
    start = r.name("sea", "province")
    r.expect("TO")
    dest = r.name("sea", "province")
    return "naval", {"from": start, "to": dest}, f"NAVAL {start} TO {dest}"


def _recruit(r):
    n = r.number("how many units")
    word = r.words.pop(0).upper() if r.words else ""
    unit = UNIT_WORDS.get(word.rstrip("S")) or UNIT_WORDS.get(word)
    if unit is None:
        raise GMError(f"unknown unit {word!r} (INF, CAV, ART, LIGHT or HEAVY)", "unknown-unit")
    r.expect("IN")
    where = r.name("area", "sea", "province")
    cat = (r.keyword("MERC", "MERCENARY", "ALLIED", "REGULAR") or "REGULAR").lower()
    cat = "merc" if cat.startswith("merc") else cat
    canon = f"RECRUIT {n} {unit.upper()} IN {where}" + ("" if cat == "regular" else f" {cat.upper()}")
    return "recruit", {"n": n, "unit": unit, "where": where, "category": cat}, canon


def _siege(r):
    area = r.name("area")
    provs = []
    while r:
        provs.append(r.name("province"))
    canon = f"SIEGE {area}" + "".join(f" {p}" for p in provs)
    return "siege", {"area": area, "provinces": provs}, canon


def _appoint(r):
    name = r.new_name("TO")
    r.expect("TO")
    place = r.name("area", "sea", "province")
    return "appoint", {"leader": name, "place": place}, f"APPOINT {name} TO {place}"


def _forge(r):
    r.expect("ALLIANCE")
    realm = r.name("realm")
    return "forge", {"realm": realm}, f"FORGE ALLIANCE {realm}"


def _influence(r):
    area = r.name("area")
    n = r.number() if r else 1
    return "influence", {"area": area, "n": n}, f"INFLUENCE {area} {n}"


def _cut(r):
    r.expect("TIES")
    realm = r.name("realm")
    return "cut_ties", {"realm": realm}, f"CUT TIES {realm}"


def _subjugate(r):
    realm = r.name("realm")
    return "subjugate", {"realm": realm}, f"SUBJUGATE {realm}"


def _royal(r):
    r.expect("MARRIAGE")
    realm = r.name("realm")
    return "marriage", {"realm": realm}, f"ROYAL MARRIAGE {realm}"


def _pass(r):
    return "pass", {}, "PASS"


def _standing(r):
    topic = r.expect("CTA", "RETREAT", "CASUALTIES", "CALL", "LEADER")
    if topic == "CTA":
        value = r.expect("ACCEPT", "REFUSE", "ASK")
        extra = r.keyword("ACTIVE", "INACTIVE")
        value = value + (f" {extra}" if extra else "")
    elif topic == "RETREAT":
        if r.keyword("IF"):
            r.expect("OUTNUMBERED")
            value = "IF OUTNUMBERED"
        else:
            value = r.expect("NEVER", "ASK", "OUTNUMBERED")
            value = "IF OUTNUMBERED" if value == "OUTNUMBERED" else value
    elif topic == "CALL":
        value = r.expect("ALL", "PLAYERS", "NONE")
    elif topic == "LEADER":
        value = _leader_word(r)
    else:
        items = [w.strip().upper() for w in ",".join(r.rest()).split(",") if w.strip()]
        allowed = {"MERC", "REGULAR", "ALLIED", "INF", "CAV", "ART"}
        bad = [w for w in items if w not in allowed]
        if bad or not items:
            raise GMError(f"STANDING CASUALTIES lists MERC, REGULAR, ALLIED and/or INF, CAV, ART (not {bad})")
        value = ",".join(items)
    return "standing", {"topic": topic.lower(), "value": value}, f"STANDING {topic} {value}"


def _accept(r):
    extra = r.keyword("ACTIVE", "INACTIVE")
    return "accept", {"active": extra != "INACTIVE"}, "ACCEPT" + (f" {extra}" if extra else "")


def _refuse(r):
    return "refuse", {}, "REFUSE"


def _retreat(r):
    to = None
    if r.keyword("TO"):
        to = r.name("area", "sea", "province")
    return "retreat", {"to": to}, "RETREAT" + (f" TO {to}" if to else "")


def _leader_word(r) -> str:
    """BEST, NONE, ASK or a leader's name as written (validation checks the name)."""
    name = r.new_name()
    return name.upper() if name.upper() in ("BEST", "NONE", "ASK") else name


def _leader(r):
    name = _leader_word(r)
    if name == "ASK":
        raise GMError("LEADER names a leader, BEST or NONE (ASK is for STANDING LEADER)", "invalid-order")
    return "leader", {"leader": name}, f"LEADER {name}"


def _fight(r):
    return "fight", {}, "FIGHT"


def _enforce(r):
    word = r.words.pop(0) if r.words else ""
    term = term_name(word)
    if term is None:
        near = difflib.get_close_matches(word.lower(), TERMS, n=1, cutoff=0.5)
        exc = NameError_(f"unknown peace term {word!r} (one of {', '.join(TERMS)})", near[0] if near else None,
                         "term")
        raise exc
    r.expect("ON")
    realm = r.name("realm")
    details = _details(r)
    canon = f"ENFORCE {term} ON {realm}" + "".join(f" {d[0]} {' FOR '.join(d[1:]) if d[0] == 'EXCHANGE' else ' '.join(d[1:])}"
                                                    for d in details)
    return "enforce", {"term": term, "realm": realm, "details": details}, canon.rstrip()


def _details(r: Reader) -> list[list[str]]:
    """Peace term choices: RETURN <prov>, EXCHANGE <prov> FOR <prov>,
    LIBERATE <prov>, ALLY <realm> (after a liberation), CLAIM <area> (discard
    a Claim where provinces were gained, to remove 2 unrest there)."""
    out = []
    while r:
        kw = r.expect("RETURN", "EXCHANGE", "LIBERATE", "ALLY", "CLAIM")
        if kw == "CLAIM":
            out.append([kw, r.name("area")])
        elif kw == "EXCHANGE":
            mine = r.name("province")
            r.expect("FOR")
            out.append([kw, mine, r.name("province")])
        elif kw == "ALLY":
            out.append([kw, r.name("realm")])
        else:
            out.append([kw, r.name("province")])
    return out


def _offer(r):
    r.expect("WHITE")
    r.expect("PEACE")
    r.expect("TO")
    realm = r.name("realm")
    return "offer_white", {"realm": realm}, f"OFFER WHITE PEACE TO {realm}"


def _surrender(r):
    r.expect("TO")
    realm = r.name("realm")
    return "surrender", {"realm": realm}, f"SURRENDER TO {realm}"


def _keep(r):
    r.expect("WAR")
    realm = r.name("realm")
    return "keep_war", {"realm": realm}, f"KEEP WAR {realm}"


_PARSERS = {"DECLARE": _declare, "CALL": _call, "ACTIVATE": _activate, "NAVAL": _naval, "RECRUIT": _recruit,
            "SIEGE": _siege, "APPOINT": _appoint, "FORGE": _forge, "INFLUENCE": _influence, "CUT": _cut, "SUBJUGATE": _subjugate,
            "ROYAL": _royal, "PASS": _pass, "STANDING": _standing, "ACCEPT": _accept, "REFUSE": _refuse,
            "RETREAT": _retreat, "FIGHT": _fight, "LEADER": _leader, "ENFORCE": _enforce, "OFFER": _offer,
            "SURRENDER": _surrender, "KEEP": _keep}
