"""Orders of the War Phase and the War Sequence: reading them (grammar in war.lark),
resolving names, and the canonical form of each.

Rules: THE WAR SEQUENCE; DECLARATIONS OF WAR; MOVEMENT DURING AN ALLIANCE MANEUVER PHASE;
COMBAT DURING A WAR; CANALS AND STRAITS; NEGOTIATION AND ENDING A WAR; CHINESE REBELLION;
WAR WITH THE OTTOMANS; AUSTRIA-HUNGARY and MOVEMENT DURING AN ALLIANCE MANEUVER PHASE (Minor
Power Movement): after ``FOR <power>`` the lines are that power's (Austria-Hungary for the
German player, a Minor Power its allies move).
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from lark import Lark
from lark.exceptions import LarkError

from pbem.kit.gameapi import Order, ParseResult, Problem

from ..core.reading import ShapeBase, misspelt_keyword, normalise_with
from . import model
from .resolution import PLACEABLE

GRAMMAR = Lark((Path(__file__).parent / "war.lark").read_text(), parser="lalr")
KEYWORDS = {"MOVE", "ARMY", "NAVY", "TO", "ATTACK", "DENY", "CANAL", "STRAITS", "GRANT",
            "COALING", "DECLARE", "WAR", "ON", "JOIN", "WITH", "REFUSE", "SUPPORT", "END",
            "DELAY", "REBELLION", "PLACE", "DEMAND", "DECLINE", "INTEREST", "INFLUENCE",
            "PROTECTORATE", "POSSESSION"}
ALIASES = {"M": "MOVE", "A": "ARMY", "F": "NAVY", "FLEET": "NAVY", "NAVAL": "NAVY", "->": "TO",
           "-": "TO", "STRAIT": "STRAITS", "INT": "INTEREST", "INF": "INFLUENCE",
           "PROT": "PROTECTORATE", "POSS": "POSSESSION", "ATTACKS": "ATTACK", "DECLINES": "DECLINE"}
#: Rules: CANALS AND STRAITS - "Egypt controls the Suez Canal ... Anatolia controls the straits".
PASSAGE_NAMES = {"suez": "Egypt", "suez canal": "Egypt", "straits": "Anatolia", "the straits": "Anatolia",
                 "dardanelles": "Anatolia", "bosporus": "Anatolia", "bosphorus": "Anatolia",
                 "panama canal": "Panama"}

#: the markers PLACE and DEMAND name (war.lark's ``status``), for a did-you-mean
STATUSES = "|".join(s.upper() for s in PLACEABLE)
FORMS = (
    "DECLARE WAR ON <power>[,<power>...]",
    "JOIN WAR WITH <power>",
    "REFUSE WAR WITH <power>",
    "SUPPORT OTTOMANS",
    "MOVE ARMY|NAVY <strength> <from> TO <to>",
    "ATTACK [ARMY|NAVY] <area or sea>",
    "DENY CANAL|STRAITS <area> TO <power>[,<power>...]",
    "GRANT COALING <area> TO <power>[,<power>...]",
    "END WAR WITH <power>[,<power>...]",
    "DELAY END",
    "END REBELLION",
    "PLACE <marker> <area>",
    "DEMAND <area> [PROTECTORATE|POSSESSION]",
    "DECLINE",
    "FOR <power> (the lines below are that power's: Austria-Hungary, or a Minor Power you move)",
)


class _Shape(ShapeBase):
    def unit(self, c):
        return ("word", str(c[0]).lower())

    passage = status = unit

    def __default__(self, data, children, meta):
        return (str(data), list(children))


def resolve_power(data, text: str) -> str | None:
    """A power a war's orders name: China and the Ottoman Empire fight in wars too."""
    return data.resolve_power(text, natives=True)


def _name(data, role: str, text: str, line: int | None) -> str:
    if role == "power":
        found, what, code, kinds = resolve_power(data, text), "power", "unknown-power", ("power", "native")
    elif role == "passage":
        found = PASSAGE_NAMES.get(" ".join(text.lower().split())) or data.resolve_area(text)
        what, code, kinds = "canal or straits Area", "unknown-area", ("area",)
    elif role == "area":
        found, what, code, kinds = data.resolve_area(text), "Area", "unknown-area", ("area",)
    else:
        found = data.resolve_place(text)
        what, code, kinds = "Area, Sea Zone or Home Country", "unknown-area", ("place",)
    if found is None:
        # Only names of the kind the slot takes are offered: an Area for a misspelt power never.
        raise ValueError(Problem(code, f"{text!r} is not a known {what}", line, data.suggest(text, *kinds),
                                 "invalid"))
    return found


def _args(kind: str, parts: list, data, power: str, line: int | None) -> dict:
    names = [p[1] for p in parts if isinstance(p, tuple) and p[0] == "name"]
    words = [p[1] for p in parts if isinstance(p, tuple) and p[0] == "word"]
    numbers = [p for p in parts if isinstance(p, int)]
    if kind == "move":
        home = data.homes[power].name if power in data.homes else None
        src = [home if n.lower() == "home" and home else n for n in names]
        return {"type": words[0], "strength": numbers[0], "from": _name(data, "place", src[0], line),
                "to": _name(data, "place", src[1], line)}
    if kind == "attack":
        return {"type": words[0] if words else None, "place": _name(data, "place", names[0], line)}
    if kind == "deny":
        first = " ".join(names[0].lower().split())
        area = PASSAGE_NAMES.get(first) or data.resolve_area(names[0])
        if len(names) > 1 and area in (getattr(data, "straits", {}) or {}):
            targets = names[1:]
        elif words[0] == "straits":
            area, targets = "Anatolia", names
        else:
            raise ValueError(Problem("name-the-canal", "say which canal: DENY CANAL Egypt|Panama|Central "
                                     "America TO <power>", line, kind="invalid"))
        return {"what": words[0], "area": area,
                "to": list(dict.fromkeys(_name(data, "power", n, line) for n in targets))}
    if kind == "grant":
        return {"area": _name(data, "area", names[0], line),
                "to": list(dict.fromkeys(_name(data, "power", n, line) for n in names[1:]))}
    if kind in ("declare_war", "end_war"):
        key = "against" if kind == "declare_war" else "with"
        return {key: list(dict.fromkeys(_name(data, "power", n, line) for n in names))}
    if kind in ("join", "refuse"):
        return {"with": _name(data, "power", names[0], line)}
    if kind == "support":
        if resolve_power(data, names[0]) != model.OTTOMANS:
            raise ValueError(Problem("invalid-order", "SUPPORT OTTOMANS is the only SUPPORT order", line,
                                     kind="invalid"))
        return {}
    if kind == "place":
        return {"status": words[0], "area": _name(data, "area", names[0], line)}
    if kind == "demand":
        return {"area": _name(data, "area", names[0], line), "status": words[0] if words else "possession"}
    return {}


def canonical(kind: str, a: dict) -> str:
    forms = {
        "move": lambda: f"MOVE {a['type'].upper()} {a['strength']} {a['from']} TO {a['to']}",
        "attack": lambda: "ATTACK " + (f"{a['type'].upper()} " if a.get("type") else "") + a["place"],
        "deny": lambda: f"DENY {a['what'].upper()} {a['area']} TO {', '.join(a['to'])}",
        "grant": lambda: f"GRANT COALING {a['area']} TO {', '.join(a['to'])}",
        "declare_war": lambda: f"DECLARE WAR ON {', '.join(a['against'])}",
        "join": lambda: f"JOIN WAR WITH {a['with']}",
        "refuse": lambda: f"REFUSE WAR WITH {a['with']}",
        "support": lambda: "SUPPORT OTTOMANS",
        "end_war": lambda: f"END WAR WITH {', '.join(a['with'])}",
        "delay_end": lambda: "DELAY END",
        "end_rebellion": lambda: "END REBELLION",
        "place": lambda: f"PLACE {a['status'].upper()} {a['area']}",
        "demand": lambda: f"DEMAND {a['area']} {a['status'].upper()}",
        "decline": lambda: "DECLINE",
    }
    return forms[kind]()


def _normalise(text: str, data, power: str) -> str:
    return normalise_with(text, data, KEYWORDS, ALIASES, power)


def parse_line(power: str, text: str, data, line: int | None) -> tuple[Order | None, Problem | None]:
    try:
        kind, parts = _Shape().transform(GRAMMAR.parse(_normalise(text, data, power)))
    except LarkError:
        verb = ALIASES.get(text.split()[0].upper(), text.split()[0].upper())
        forms = [f for f in FORMS[:-1] if f.split()[0] == verb] or list(FORMS[:-1])
        slip = misspelt_keyword(text, forms + [STATUSES], power, data, KEYWORDS | set(ALIASES))
        if slip:  # "PLACE POSSESION Guiana": POSSESSION
            return None, Problem("invalid-order", f"{slip[0]!r} is no word of a {verb} order; expected "
                                 + " | ".join(forms), line, slip[1], "invalid")
        return None, Problem("invalid-order", f"not understood: {text.strip()!r}; expected "
                             + " | ".join(forms), line, None, "invalid")
    try:
        a = _args(kind, parts, data, power, line)
    except ValueError as exc:
        return None, exc.args[0]
    kind = "war_move" if kind == "move" else kind
    return Order(power, kind, a, canonical("move" if kind == "war_move" else kind, a), line), None


def parse_orders(state: dict, power: str, lines: Sequence[tuple[int, str]], data) -> ParseResult:
    result = ParseResult()
    current = power
    for number, raw in lines:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        head = text.split(None, 1)
        if head[0].upper() == "FOR":
            result.part_lines.add(number)  # says whose orders follow: read as part of them
            target = resolve_power(data, head[1]) if len(head) > 1 else None
            if target is None:
                result.problems.append(Problem("unknown-power", f"FOR names no power: {text!r}",
                                               number, data.suggest(head[-1], "power", "native"), "invalid"))
            else:
                current = target
            continue
        order, problem = parse_line(current, text, data, number)
        if order is not None:
            if current != power:
                order = Order(order.power, order.kind, {**order.args, "by": power}, order.canonical, order.line)
            result.orders.append(order)
        if problem is not None:
            result.problems.append(problem)
    return result
