"""Reading players' orders: every form (orders.lark), its aliases, and its canonical echo.

The grammar file gives the forms; :mod:`.grammar` reads a line with it, taking each
value off the line with the readers below; :mod:`.order_shapes` turns the parse tree into
the order and its canonical text.  Parsing only reads words and names; whether an order is
allowed now is :mod:`.validate`'s question.  Each order's canonical text parses back to
the same order.
"""
from __future__ import annotations

from pathlib import Path

from lark.exceptions import VisitError

from pbem.kit import names as kit_names
from pbem.kit.gameapi import GMError, Order, ParseResult, Problem

from .grammar import Grammar
from .order_shapes import Shape
from .names import NAMES, NameError_, Reader, tokens

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
    "ACTIVATE <area> [WITH <n> INF|CAV|ART ...] TO <area> [TO <area>] [SIEGE]",
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
    "STANDING CASUALTIES [INF,CAV,ART] [LIGHT|HEAVY]",
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
#: words a player may write for the first words of an order
ALIAS_VERBS = {"DOW": "DECLARE WAR ON", "CTA": "CALL TO ARMS", "MOVE": "ACTIVATE", "SAIL": "NAVAL",
               "ALLY": "FORGE ALLIANCE", "MARRY": "ROYAL MARRIAGE", "MARRIAGE": "ROYAL MARRIAGE",
               "WHITE": "OFFER WHITE", "CONTINUE": "KEEP WAR"}
#: the keywords a form may have or leave out: a reply about a word after them does not ask for them
OPTIONAL = {"ACTIVATE": frozenset({"SIEGE", "WITH"}), "RETREAT": frozenset({"TO"}),
            "STANDING": frozenset({"IF", "ACTIVE", "INACTIVE"}), "ACCEPT": frozenset({"ACTIVE", "INACTIVE"}),
            "RECRUIT": frozenset({"MERC", "MERCENARY", "ALLIED", "REGULAR"})}
#: the order in which a reply lists the keywords that may come next
LISTED = ("CTA", "RETREAT", "CASUALTIES", "CALL", "LEADER", "NEVER", "ACCEPT", "REFUSE", "ASK", "OUTNUMBERED",
          "ALL", "PLAYERS", "NONE", "RETURN", "EXCHANGE", "LIBERATE", "ALLY", "CLAIM")
#: the most lines (terms) one DIPLOMACY or NEGOTIATE block may hold
MAX_DEAL_TERMS = 12


def term_name(word: str) -> str | None:
    key = word.lower().replace("-", "_")
    return key if key in TERMS else TERM_ALIASES.get(key)


# -- the values the grammar's terminals take off the line -----------------------------------

def _realms(r: Reader) -> list[str]:
    """REALMS: ``<realm>[,<realm>]``, up to the keyword CB (not its first word); each realm
    named once."""
    at = next((i for i, w in enumerate(r.words) if i and w.upper() == "CB"), len(r.words))
    parts, rest = " ".join(r.words[:at]), r.words[at:]
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
    r.words = rest
    if not names:
        raise GMError("name the realm(s) you declare war on")
    return names


def _word(r: Reader) -> str:
    return r.words.pop(0) if r.words else ""


def _cb_type(r: Reader) -> str:
    """CB_TYPE: the kind of Casus Belli (9.1 Casus Belli), or one of its aliases."""
    word = _word(r).lower().replace("-", "_")
    cb = word if word in CB_TYPES else CB_ALIASES.get(word)
    if cb is None:
        raise GMError(f"unknown CB type {word!r} (one of {', '.join(CB_TYPES)})", "unknown-cb")
    return cb


def _unit(r: Reader) -> str:
    word = _word(r).upper()
    unit = UNIT_WORDS.get(word.rstrip("S")) or UNIT_WORDS.get(word)
    if unit is None:
        raise GMError(f"unknown unit {word!r} (INF, CAV, ART, LIGHT or HEAVY)", "unknown-unit")
    return unit


def _term(r: Reader) -> str:
    word = _word(r)
    term = term_name(word)
    if term is None:
        # A misspelt alias ("vasalize") is offered the term it stands for.
        near = kit_names.nearest(word, [*TERMS, *TERM_ALIASES])
        raise NameError_(f"unknown peace term {word!r} (one of {', '.join(TERMS)})", near and term_name(near),
                         "term")
    return term


def _leader_word(r: Reader) -> str:
    """BEST, NONE, ASK or a leader's name as written (validation checks the name)."""
    name = r.new_name()
    return name.upper() if name.upper() in ("BEST", "NONE", "ASK") else name


def _casualties(r: Reader) -> str:
    items = [w.strip().upper() for w in ",".join(r.rest()).split(",") if w.strip()]
    allowed = {"MERC", "REGULAR", "ALLIED", "INF", "CAV", "ART", "LIGHT", "HEAVY"}
    bad = [w for w in items if w not in allowed]
    if bad or not items:
        raise GMError(f"STANDING CASUALTIES lists MERC, REGULAR, ALLIED and/or INF, CAV, ART and/or LIGHT, HEAVY "
                      f"(not {bad})")
    return ",".join(items)


VALUES = {
    **NAMES, "REALM_LIST": _realms, "COUNT": lambda r: r.number("how many units"), "NUMBER": lambda r: r.number(),
    "UNIT": _unit, "CB_TYPE": _cb_type, "TERM": _term, "NEW_LEADER": lambda r: r.new_name("TO"),
    "LEADER_WORD": _leader_word, "CASUALTY_LIST": _casualties,
}
GRAMMAR = Grammar(Path(__file__).with_name("orders.lark"), ["order", "details", "deal"], VALUES, LISTED)
#: the first words of the orders (after their aliases are replaced)
ORDER_VERBS = frozenset(GRAMMAR.starts("order"))


def _read(state: dict, words: list[str], start: str, optional=frozenset()):
    """The shape of ``words`` read from rule ``start`` of orders.lark; raises GMError."""
    tree = GRAMMAR.read(state, words, start, optional)
    try:
        return Shape().transform(tree)
    except VisitError as exc:
        raise exc.orig_exc from None


# -- lines and blocks ------------------------------------------------------------------------

def parse_line(state: dict, power: str, text: str, number) -> Order | None:
    """One order line; None when its first word is no order's (a greeting, a misspelt verb)."""
    words = tokens(text)
    if not words:
        return None
    first = words[0].upper()
    if first in ALIAS_VERBS:
        words = ALIAS_VERBS[first].split() + words[1:]
    verb = words[0].upper()
    if verb not in ORDER_VERBS:
        return None
    kind, args, canon = _read(state, words, "order", OPTIONAL.get(verb, frozenset()))
    return Order(power, kind, args, canon, number)


def details(state: dict, words: list[str]) -> list[list[str]]:
    """Peace term choices (10.2, 10.4): RETURN <prov>, EXCHANGE <prov> FOR <prov>, LIBERATE
    <prov>, ALLY <realm> (after a liberation), CLAIM <area> (discard a Claim where provinces
    were gained, to remove 2 unrest there)."""
    return _read(state, words, "details")


def parse(state: dict, power: str, lines) -> ParseResult:
    result = ParseResult()
    block = None
    for number, text in lines:
        stripped = text.strip()
        if not stripped:
            continue
        if block is not None:
            # The block's text and its end line are read as part of its first line's
            # order or problem (ParseResult.part_lines).
            result.part_lines.add(number)
            end = "".join(stripped.upper().split())
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
                realm = _read(state, [head, *tokens(stripped)[1:]], "deal")
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
            result.problems.append(Problem("invalid-order", f"cannot read {stripped[:60]!r}; the order forms are "
                                           "in HELP ORDERS", number, kit_names.nearest(head, VERBS), "invalid"))
        else:
            result.orders.append(order)
    if block is not None:
        result.problems.append(Problem("unclosed-block", f"{block['verb']} {block['realm']} has no "
                                       f"END{block['verb']}; nothing of it was taken", block["line"],
                                       f"END{block['verb']}", "invalid"))
    return result


def _problem(exc: GMError, number) -> Problem:
    return Problem(exc.code if exc.code != "gm-edit" else "invalid-order", str(exc), number,
                   getattr(exc, "suggestion", None), "invalid")


def _block_order(power: str, block: dict) -> Order:
    verb, realm = block["verb"], block["realm"]
    kind = "diplomacy" if verb == "DIPLOMACY" else "negotiate"
    canon = "\n".join([f"{verb} {realm}", *block["lines"], f"END{verb}"])
    return Order(power, kind, {"realm": realm, "lines": block["lines"]}, canon, block["line"])
