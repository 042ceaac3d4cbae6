"""GM state edits: the map vocabulary (``MAP ...``) and the ``SET``/``REMOVE``
vocabulary that scenario files and GM mail share.  Card effects the engine
cannot know (events, ideas, battle actions) enter the game through these.

The forms are in gm.lark, read as the orders are (:mod:`.grammar`); the values
below are taken off the line by their readers; :mod:`.gm_edits` applies each
form to the state.
"""
from __future__ import annotations

from pathlib import Path

from lark import Transformer
from lark.exceptions import VisitError

from pbem.kit.gameapi import GMError

from . import gm_edits, scenario
from .grammar import Grammar
from .names import NAMES, Reader, tokens
from .orders import parse_line

RELIGIONS = gm_edits.RELIGIONS

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
#: keywords an edit may have or leave out: a reply about a word after them does not ask for them
OPTIONAL = {"MAP ADJACENT": frozenset({"MOUNTAIN"}), "SET ALLIANCE": frozenset({"ACTIVE"}),
            "SET MARRIAGE": frozenset({"DISPUTED"}), "SET EMPEROR": frozenset({"NONE"}),
            "SET CB": frozenset({"TOKEN", "EVENT", "EXCOMMUNICATION", "HOLY_WAR", "IMPERIAL_LIBERATION"}),
            "SET LEADER": frozenset({"AT", "DICE", "RULER"}), "REMOVE UNITS": frozenset({"PORT"})}
#: the order in which a reply lists the keywords that may come next
LISTED = ("MAP", "SET", "REMOVE", "SURRENDER", "SEA", "DISTANT", "HRE", "RELIGION", "CAPITAL", "PORT", "LARGE",
          "SMALL", "INACTIVE", "ISLAND", "PR", "NPR", "BOT", "OWNER", "CONTROLLER", "CORE", "INF", "CAV", "ART",
          "MERC", "ALLIED", "REGULAR", "LIGHT", "HEAVY", "DAMAGED", "NONE", "YES", "ADVANCED", "NPR_INVASIONS",
          "NO_SURRENDER", "REFRESH_MANPOWER", "ON", "OFF")


# -- the values the grammar's terminals take off the line -----------------------------------

def _word(r: Reader) -> str:
    return r.words.pop(0) if r.words else ""


def _religion(r: Reader) -> str:
    word = _word(r).lower()
    if word not in RELIGIONS:
        raise GMError(f"unknown religion {word!r} (one of {', '.join(RELIGIONS)})")
    return word


def _tax(r: Reader) -> int:
    tax = r.number("a tax value")
    if tax not in (1, 2):
        raise GMError("a province's tax value is 1 or 2")
    return tax


def _leader_dice(r: Reader) -> tuple[list[str], bool]:
    """DICE <die>,<die> [RULER]: the leader's dice (9.4), and whether it is the ruler."""
    dice = [scenario.die_name(w.strip()) for w in ",".join(r.words).split(",")
            if w.strip() and w.strip().upper() != "RULER"]
    ruler = "RULER" in (w.upper() for w in r.words)
    r.words = []
    return dice, ruler


def _step(r: Reader) -> str:
    step = _word(r).upper()
    if step not in "ABCDEFGHI" or len(step) != 1:
        raise GMError("SET STEP <A-I>")
    return step


def _standing(r: Reader) -> tuple[str, str]:
    """The words of a STANDING order (orders.lark), as its topic and value."""
    order = parse_line(r.state, None, " ".join(["STANDING", *r.rest()]), None)
    if order is None or order.kind != "standing":
        raise GMError("SET STANDING <realm> CTA|RETREAT|CASUALTIES|CALL ...")
    return order.args["topic"], order.args["value"]


def _rules(r: Reader) -> str:
    word = _word(r).lower()
    if word not in ("pre-1.2", "1.2"):
        raise GMError("SET RULES pre-1.2|1.2")
    return word


VALUES = {
    **NAMES, "NEW_AREA": lambda r: r.new_name("SEA", "DISTANT", "HRE", "RELIGION"),
    "NEW_SEA": lambda r: r.new_name("ADJACENT"), "NEW_PROVINCE": lambda r: r.new_name("IN"),
    "NEW_REALM": lambda r: r.new_name("PR", "NPR", "BOT"), "LEADER_NAME": lambda r: r.new_name("AT", "DICE", "RULER"),
    "ANY_NAME": lambda r: r.new_name(), "RELIGION_WORD": _religion, "TAX_VALUE": _tax, "NUMBER": lambda r: r.number(),
    "LEADER_DICE": _leader_dice, "DIE_LIST": lambda r: [scenario.die_name(w) for w in ",".join(r.rest()).split(",")
                                                        if w.strip()],
    "WORDS": lambda r: " ".join(r.rest()).lower(), "AUTHORITY_VALUE": lambda r: r.number("Imperial Authority"),
    "STEP_LETTER": _step, "STANDING_ORDER": _standing, "RULES_VERSION": _rules,
}
GRAMMAR = Grammar(Path(__file__).with_name("gm.lark"), ["edit"], VALUES, LISTED)


class _Shape(Transformer):
    """Every rule -> (its name, its values); keywords and values as written or read."""

    def __default__(self, data, children, meta):
        return str(data), list(children)

    def __default_token__(self, token):
        return token.value


def apply(state: dict, text: str) -> list[dict]:
    """Apply one edit to ``state`` (a copy the caller owns).  Raises GMError."""
    words = tokens(text)
    head = words[0].upper() if words else ""
    verb = words[1].upper() if len(words) > 1 else ""
    if head in ("MAP", "SET", "REMOVE") and f"{head} {verb}" not in COMMANDS:
        raise GMError(f"unknown GM command {head} {verb} (known: {', '.join(COMMANDS)})", "unknown-gm-command")
    tree = GRAMMAR.read(state, words, "edit", OPTIONAL.get(f"{head} {verb}", frozenset()))
    try:
        rule, values = _Shape().transform(tree)
    except VisitError as exc:
        raise exc.orig_exc from None
    events = gm_edits.EDITS[rule](state, *values) or []
    # Every edit, a surrender too, is told with its "GM:" line: readers see the GM acted.
    return [{"kind": "gm_edit", "text": text}, *events]

