"""Orders of the Movement/Status Change Phase: parsing (grammar in orders.lark), resolving
names, and the canonical form of each order.  The words and names of a line are read by
``core/reading.py``, as for every grammar of the game.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from lark import Lark
from lark.exceptions import LarkError

from pbem.kit.gameapi import NOT_AN_ORDER, Order, ParseResult, Problem
from pbem.kit.names import distance, key

from ..core.reading import (MAX_NAME_WORDS, ShapeBase, misspelt_keyword, name_span, normalise_with, plain_word,
                            take_line, words)

GRAMMAR = Lark((Path(__file__).parent / "orders.lark").read_text(), parser="lalr")

KEYWORDS = {"BUY", "DOWNGRADE", "TO", "BUILD", "ARMY", "NAVY", "MOVE", "VIA", "MERCHANT",
            "PLACE", "CANAL", "SUPPRESS", "GIVE", "TRANSFER", "ACCEPT", "FROM", "REMOVE",
            "ELIMINATE", "INTEREST", "INFLUENCE", "PROTECTORATE", "POSSESSION", "STATE",
            "DOMINION", "NONE", "FOR"}
ALIASES = {"B": "BUY", "PURCHASE": "BUY", "M": "MOVE", "A": "ARMY", "ARMIES": "ARMY",
           "F": "NAVY", "FLEET": "NAVY", "NAVAL": "NAVY", "N": "NAVY", "->": "TO", "-": "TO",
           "MF": "MERCHANT", "MERCHANTS": "MERCHANT", "STATEHOOD": "STATE", "D": "DOWNGRADE",
           "INT": "INTEREST", "INF": "INFLUENCE", "PROT": "PROTECTORATE", "POSS": "POSSESSION",
           "PAY": "GIVE", "SEND": "GIVE", "SUPPRESSION": "SUPPRESS"}

FORMS = (
    "BUY <INTEREST|INFLUENCE|PROTECTORATE|POSSESSION|STATE|DOMINION> <area>",
    "DOWNGRADE <area> [TO INTEREST|NONE]",
    "BUILD ARMY <1|3|10>",
    "BUILD NAVY <1|3|10> [<home sea box>]",
    "MOVE ARMY <strength> <from> TO <to> [VIA <place> ...]",
    "MOVE NAVY <strength> <from> TO <to>",
    "MOVE MERCHANT <sea> TO <sea>",
    "PLACE MERCHANT <sea>",
    "BUILD CANAL <Panama|Central America>",
    "SUPPRESS <area>",
    "GIVE <power> <amount>",
    "TRANSFER <marker> <area> TO <power>",
    "ACCEPT <marker> <area> FROM <power>",
    "ACCEPT <amount> FROM <power>",
    "REMOVE ARMY|NAVY <strength> <place>",
    "ELIMINATE ARMY <strength> <area>",
    "FOR Austria-Hungary / FOR Germany (the German player's two powers)",
)
HELP = ("Pax Britannica orders (Movement/Status Change Phase), one per line, carried out in the "
        "order written (build or move what a later line needs first); names need no quotes; "
        "HOME is your Home Country:\n" + "\n".join("  " + f for f in FORMS))


class _Shape(ShapeBase):
    """Parse tree -> (kind, {slot: raw value}); names are resolved afterwards."""

    def status(self, c):
        return str(c[0]).lower()

    def lower(self, c):
        return str(c[0]).lower()

    def unit(self, c):
        return str(c[0]).lower()

    def via(self, c):
        return ("via", [n[1] for n in c])

    def buy(self, c):
        return "buy", {"status": c[0], "area": c[1]}

    def downgrade(self, c):
        return "downgrade", {"area": c[0], "to": c[1] if len(c) > 1 else None}

    def build_army(self, c):
        return "build_army", {"strength": c[0]}

    def build_navy(self, c):
        return "build_navy", {"strength": c[0], "sea": c[1] if len(c) > 1 else None}

    def move_army(self, c):
        via = [n for v in c[3:] for n in v[1]]
        return "move_army", {"strength": c[0], "from": c[1], "to": c[2], "via": via}

    def move_navy(self, c):
        return "move_navy", {"strength": c[0], "from": c[1], "to": c[2]}

    def move_merchant(self, c):
        return "move_merchant", {"from": c[0], "to": c[1]}

    def place_merchant(self, c):
        return "place_merchant", {"sea": c[0]}

    def build_canal(self, c):
        return "build_canal", {"area": c[0]}

    def suppress(self, c):
        return "suppress", {"area": c[0]}

    def give(self, c):
        return "give", {"to": c[0], "amount": c[1]}

    def transfer(self, c):
        return "transfer", {"status": c[0], "area": c[1], "to": c[2]}

    def accept(self, c):
        return "accept", {"status": c[0], "area": c[1], "from": c[2]}

    def accept_money(self, c):
        return "accept_money", {"amount": c[0], "from": c[1]}

    def remove(self, c):
        return "remove", {"type": c[0], "strength": c[1], "where": c[2]}

    def eliminate(self, c):
        return "eliminate", {"strength": c[0], "area": c[1]}


#: which kind of name each slot holds
ROLES = {"area": "area", "from": "place", "to": "place", "via": "place", "sea": "sea",
         "where": "place"}
POWER_SLOTS = {("give", "to"), ("transfer", "to"), ("accept", "from"), ("accept_money", "from")}
SEA_SLOTS = {("move_merchant", "from"), ("move_merchant", "to")}


def normalise(text: str, data, power: str | None) -> str:
    """The line as the grammar reads it: keywords, numbers, quoted names."""
    return normalise_with(text, data, KEYWORDS, ALIASES, power)


class NameProblem(Exception):
    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


#: what each role of a name is called in a reply, its problem code, and the names it may take
ROLE_WORDS = {"power": ("power", "unknown-power", "power"), "sea": ("Sea Zone", "unknown-sea", "sea"),
              "area": ("Area", "unknown-area", "area"),
              "place": ("Area, Home Country or Sea Zone", "unknown-area", "place")}


def _resolve(data, power: str, role: str, text: str, line: int | None) -> str:
    if role == "power":
        found = data.resolve_power(text)
    elif role == "sea":
        found = data.resolve_place(text, power)
        found = found if found in data.seas or found in getattr(data, "capes", {}) else None
    elif role == "area":
        found = data.resolve_area(text)
    else:
        found = data.resolve_place(text, power)
    if found is None:
        what, code, kind = ROLE_WORDS[role]
        # Only names of the kind the slot takes are offered: a power for a misspelt Area never.
        raise NameProblem(Problem(code, f"{text!r} is not a known {what}", line,
                                  data.suggest(text, kind), "invalid"))
    return found


def build(state: dict, power: str, kind: str, raw: dict, data, line: int | None = None) -> Order:
    """Resolve the names of a parsed order and write its canonical form."""
    args = {}
    for slot, value in raw.items():
        if isinstance(value, tuple) and value[0] == "name":
            role = "power" if (kind, slot) in POWER_SLOTS else \
                "sea" if (kind, slot) in SEA_SLOTS else ROLES.get(slot, "place")
            args[slot] = _resolve(data, power, role, value[1], line)
        elif slot == "via":
            args[slot] = [_resolve(data, power, "place", v, line) for v in value]
        else:
            args[slot] = value
    # Choice: Britain's STATE means a Dominion, the United States' DOMINION a State.
    if kind in ("buy", "transfer", "accept") and power in ("Britain", "United States") \
            and args["status"] in ("state", "dominion"):
        args["status"] = "state" if power == "United States" else "dominion"
    if kind == "downgrade" and args["to"] is None:
        # Choice: a bare DOWNGRADE goes one step down (Influence -> Interest, Interest -> none).
        current = (state.get("markers", {}).get(args["area"], {}).get(power) or {}).get("status")
        args["to"] = "interest" if current == "influence" else "none"
    if kind == "build_navy" and args["sea"] is None:
        # Choice: an unnamed box is the first of the Home Area's boxes alphabetically.
        home = data.homes.get(power)
        args["sea"] = sorted(home.seas)[0] if home and home.seas else None
    return Order(power, kind, args, canonical(kind, args), line)


def canonical(kind: str, a: dict) -> str:
    up = {k: str(v).upper() for k, v in a.items() if isinstance(v, str)}
    forms = {
        "buy": lambda: f"BUY {up['status']} {a['area']}",
        "downgrade": lambda: f"DOWNGRADE {a['area']} TO {up['to']}",
        "build_army": lambda: f"BUILD ARMY {a['strength']}",
        "build_navy": lambda: f"BUILD NAVY {a['strength']}" + (f" {a['sea']}" if a.get("sea") else ""),
        "move_army": lambda: f"MOVE ARMY {a['strength']} {a['from']} TO {a['to']}"
                             + "".join(f" VIA {v}" for v in a.get("via", [])),
        "move_navy": lambda: f"MOVE NAVY {a['strength']} {a['from']} TO {a['to']}",
        "move_merchant": lambda: f"MOVE MERCHANT {a['from']} TO {a['to']}",
        "place_merchant": lambda: f"PLACE MERCHANT {a['sea']}",
        "build_canal": lambda: f"BUILD CANAL {a['area']}",
        "suppress": lambda: f"SUPPRESS {a['area']}",
        "give": lambda: f"GIVE {a['to']} {a['amount']}",
        "transfer": lambda: f"TRANSFER {up['status']} {a['area']} TO {a['to']}",
        "accept": lambda: f"ACCEPT {up['status']} {a['area']} FROM {a['from']}",
        "accept_money": lambda: f"ACCEPT {a['amount']} FROM {a['from']}",
        "remove": lambda: f"REMOVE {up['type']} {a['strength']} {a['where']}",
        "eliminate": lambda: f"ELIMINATE ARMY {a['strength']} {a['area']}",
    }
    return forms[kind]()


#: the kind of name the orders of each verb mostly take, for a line the grammar could not read
VERB_ROLES = {"BUY": "area", "DOWNGRADE": "area", "SUPPRESS": "area", "ELIMINATE": "area",
              "TRANSFER": "area", "ACCEPT": "area", "GIVE": "power", "MOVE": "place",
              "REMOVE": "place", "PLACE": "sea", "BUILD": "place"}
VERBS = sorted({f.split()[0] for f in FORMS[:-1]})


def parse_line(state: dict, power: str, text: str, data, line: int | None = None
               ) -> tuple[Order | None, Problem | None]:
    try:
        tree = GRAMMAR.parse(normalise(text, data, power))
        kind, raw = _Shape().transform(tree)
    except LarkError:
        return None, unreadable(text, power, data, line)
    try:
        return build(state, power, kind, raw, data, line), None
    except NameProblem as exc:
        return None, exc.problem


def unreadable(text: str, power: str, data, line: int | None) -> Problem:
    """A line the grammar could not read: no order at all (a greeting, a
    signature: one line of hint, from the moderator); a misspelt name that
    ran into a keyword ("Orange Rivr Free State", whose State is a keyword),
    with the name it most likely means; else the forms of its verb."""
    first = text.split()[0].upper()
    verb = ALIASES.get(first, first)
    if verb not in VERBS:
        return Problem(NOT_AN_ORDER, f"{text.strip()!r} is not an order: orders start with "
                       + ", ".join(VERBS), line, None, "invalid")
    near = misspelt_name(text, power, data, VERB_ROLES.get(verb, "place"))
    if near:
        what, code, _ = ROLE_WORDS[VERB_ROLES.get(verb, "place")]
        return Problem(code, f"{near[0]!r} is not a known {what}", line, near[1], "invalid")
    forms = [f for f in FORMS[:-1] if f.split()[0] == verb]
    slip = misspelt_keyword(text, forms, power, data, KEYWORDS | set(ALIASES))
    if slip:
        return Problem("invalid-order", f"{slip[0]!r} is no word of a {verb} order; write it as "
                       + " or ".join(forms), line, slip[1], "invalid")
    return Problem("invalid-order", f"not understood: {text.strip()!r}; write it as "
                   + " or ".join(forms), line, None, "invalid")


def misspelt_name(text: str, power: str, data, role: str) -> tuple[str, str] | None:
    """(the words as written, the name they most likely mean) for the first run
    of words the data does not know, read together with the words after it
    (keywords too), or None."""
    raw = words(text)
    known = KEYWORDS | set(ALIASES)
    start = next((i for i, w in enumerate(raw) if i and w.upper() not in known and plain_word(w)
                  and not name_span(raw, i, data, power)), None)
    if start is None:
        return None
    _, _, kind = ROLE_WORDS[role]
    best = None
    for n in range(1, min(MAX_NAME_WORDS, len(raw) - start) + 1):
        span = " ".join(w.strip('"') for w in raw[start:start + n])
        near = data.suggest(span, kind)
        if near:
            score = distance(key(span), key(near))
            if best is None or score <= best[0]:
                best = (score, span, near)
    return (best[1], best[2]) if best else None


def parse_orders(state: dict, power: str, lines: Sequence[tuple[int, str]], data) -> ParseResult:
    """Rules: AUSTRIA-HUNGARY - the German player's orders after ``FOR Austria-Hungary``
    are Austria-Hungary's, until ``FOR Germany`` or the end of the block (:func:`for_line`)."""
    result = ParseResult()
    current = power
    for number, text in lines:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        current = take_line(power, current, stripped, data, number, result,
                            lambda who, line, n: parse_line(state, who, line, data, n))
    return result
