"""Orders of the Negotiation Phase and the Congress of Europe: reading them (grammar in
diplomacy.lark), resolving names, and the canonical form of each.

A ``PROPOSE <id>`` line opens a proposal: the lines up to ``ENDPROPOSE`` (or the next
PROPOSE, or the end of the orders) are its clauses (clauses.py) and free text.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from lark import Lark
from lark.exceptions import LarkError

from pbem.kit.gameapi import Order, ParseResult, Problem
from pbem.kit.names import nearest

from ..core import clauses
from ..core.reading import ShapeBase, normalise_with, take_line

GRAMMAR = Lark((Path(__file__).parent / "diplomacy.lark").read_text(), parser="lalr")
KEYWORDS = {"DOWNGRADE", "TO", "TRANSFER", "ACCEPT", "FROM", "GIVE", "CODOMINION", "WITH", "CALL",
            "CONGRESS", "AT", "DECLARE", "WAR", "ON", "DEFEND", "IN", "ATTEND", "DECLINE",
            "INVITE", "VOTE", "SIGN", "REFUSE", "DONE", "PROPOSE", "YES", "NO", "ABSTAIN",
            "INTEREST", "INFLUENCE", "PROTECTORATE", "POSSESSION", "NONE"}
ALIASES = {"PAY": "GIVE", "SEND": "GIVE", "D": "DOWNGRADE", "INT": "INTEREST", "INF": "INFLUENCE",
           "PROT": "PROTECTORATE", "POSS": "POSSESSION", "CODOMINIUM": "CODOMINION", "Y": "YES",
           "AYE": "YES", "YEA": "YES", "NAY": "NO", "N": "NO", "ABSTAINS": "ABSTAIN",
           "ATTENDS": "ATTEND", "DECLINES": "DECLINE", "SIGNS": "SIGN", "REFUSES": "REFUSE"}
ENDS = {"ENDPROPOSE", "END PROPOSE"}
NEGOTIATION_FORMS = (
    "DOWNGRADE <area> [TO INTEREST|INFLUENCE|NONE]",
    "TRANSFER <marker> <area> TO <power>",
    "ACCEPT <marker> <area> FROM <power>",
    "GIVE <power> <amount>",
    "ACCEPT <amount> FROM <power>",
    "CODOMINION <area> WITH <power>[,<power>...]",
    "CALL CONGRESS AT <power>",
    "DECLARE WAR ON <power>[,<power>...]",
    "DEFEND <minor power> [IN <area>]",
)
CONGRESS_FORMS = (
    "ATTEND",
    "DECLINE",
    "INVITE <power>",
    "PROPOSE <id> ... ENDPROPOSE",
    "VOTE <id> YES|NO|ABSTAIN",
    "SIGN <id>",
    "REFUSE <id>",
)
FORMS = NEGOTIATION_FORMS + CONGRESS_FORMS + ("DONE",)
#: a bare DOWNGRADE goes one step down (Rules: EUROPEAN TENSION INCREASES lists the steps)
ONE_STEP = {"dominion": "possession", "state": "possession", "possession": "protectorate",
            "protectorate": "influence", "influence": "interest", "interest": "none"}


class _Shape(ShapeBase):
    def status(self, c):
        return ("word", str(c[0]).lower())

    level = ballot = status

    def __default__(self, data, children, meta):
        return (str(data), list(children))


#: the role of each name, by order kind and position (None: kept as written, an id)
ROLES = {"downgrade": ("area",), "transfer": ("area", "power"), "accept": ("area", "power"),
         "give": ("power",), "accept_money": ("power",), "codominion": ("area", "power"),
         "call_congress": ("site",), "declare_war": ("power",), "defend": ("power", "area"),
         "invite": ("power",), "vote": (None,), "sign": (None,), "refuse": (None,),
         "propose": (None,)}


def _resolve(data, role: str | None, text: str, line: int | None) -> str:
    if role is None:
        return text
    if role == "area":
        found, what, code, kind = data.resolve_area(text), "Area", "unknown-area", "area"
    elif role == "site":
        found = data.resolve_power(text) or data.home_of(data.resolve_place(text) or "")
        what, code, kind = "Home Country", "unknown-power", "power"
    else:
        found, what, code, kind = data.resolve_power(text), "power", "unknown-power", "power"
    if found is None:
        raise ValueError(Problem(code, f"{text!r} is not a known {what}", line, data.suggest(text, kind),
                                 "invalid"))
    return found


def _args(kind: str, parts: list, data, line: int | None) -> dict:
    names, numbers, words = [], [], []
    for part in parts:
        if isinstance(part, tuple) and part[0] == "name":
            names.append(part[1])
        elif isinstance(part, tuple):
            words.append(part[1])
        else:
            numbers.append(part)
    roles = ROLES.get(kind, ())
    resolved = [_resolve(data, roles[min(i, len(roles) - 1)], n, line) for i, n in enumerate(names)]
    a: dict = {}
    if kind == "downgrade":
        a = {"area": resolved[0], "to": words[0] if words else None}
    elif kind in ("transfer", "accept"):
        a = {"status": words[0], "area": resolved[0], ("to" if kind == "transfer" else "from"): resolved[1]}
    elif kind == "give":
        a = {"to": resolved[0], "amount": numbers[0]}
    elif kind == "accept_money":
        a = {"amount": numbers[0], "from": resolved[0]}
    elif kind == "codominion":
        a = {"area": resolved[0], "with": list(dict.fromkeys(resolved[1:]))}
    elif kind == "call_congress":
        a = {"site": resolved[0]}
    elif kind == "declare_war":
        a = {"against": list(dict.fromkeys(resolved))}
    elif kind == "defend":
        a = {"minor": resolved[0], "area": resolved[1] if len(resolved) > 1 else None}
    elif kind == "invite":
        a = {"power": resolved[0]}
    elif kind in ("vote", "sign", "refuse", "propose"):
        a = {"id": resolved[0]}
        if kind == "vote":
            a["ballot"] = words[0]
    return a


def canonical(kind: str, a: dict) -> str:
    forms = {
        "downgrade": lambda: f"DOWNGRADE {a['area']} TO {str(a['to']).upper()}",
        "transfer": lambda: f"TRANSFER {a['status'].upper()} {a['area']} TO {a['to']}",
        "accept": lambda: f"ACCEPT {a['status'].upper()} {a['area']} FROM {a['from']}",
        "give": lambda: f"GIVE {a['to']} {a['amount']}",
        "accept_money": lambda: f"ACCEPT {a['amount']} FROM {a['from']}",
        "codominion": lambda: f"CODOMINION {a['area']} WITH {', '.join(a['with'])}",
        "call_congress": lambda: f"CALL CONGRESS AT {a['site']}",
        "declare_war": lambda: f"DECLARE WAR ON {', '.join(a['against'])}",
        "defend": lambda: f"DEFEND {a['minor']}" + (f" IN {a['area']}" if a.get("area") else ""),
        "attend": lambda: "ATTEND", "decline": lambda: "DECLINE", "done": lambda: "DONE",
        "invite": lambda: f"INVITE {a['power']}",
        "vote": lambda: f"VOTE {a['id']} {a['ballot'].upper()}",
        "sign": lambda: f"SIGN {a['id']}", "refuse": lambda: f"REFUSE {a['id']}",
        "propose": lambda: "\n    ".join([f"PROPOSE {a['id']}"] + [c["text"] for c in a.get("terms", [])]
                                         + list(a.get("text", "").splitlines()) + ["ENDPROPOSE"]),
    }
    return forms[kind]()


def _normalise(text: str, data, power: str) -> str:
    return normalise_with(text, data, KEYWORDS, ALIASES, power)


def parse_line(state: dict, power: str, text: str, data,
               line: int | None) -> tuple[Order | None, Problem | None]:
    try:
        kind, parts = _Shape().transform(GRAMMAR.parse(_normalise(text, data, power)))
    except LarkError:
        verb = ALIASES.get(text.split()[0].upper(), text.split()[0].upper())
        forms = [f for f in FORMS if f.split()[0] == verb] or list(FORMS)
        return None, Problem("invalid-order", f"not understood: {text.strip()!r}; expected "
                             + " | ".join(forms), line, _spaced_id(state, text), "invalid")
    try:
        a = _args(kind, parts, data, line)
    except ValueError as exc:
        return None, exc.args[0]
    if kind == "downgrade" and a["to"] is None:
        # Choice: a bare DOWNGRADE goes one step down.
        current = (state.get("markers", {}).get(a["area"], {}).get(power) or {}).get("status")
        a["to"] = ONE_STEP.get(current, "none")
    return Order(power, kind, a, canonical(kind, a), line), None


def _spaced_id(state: dict, text: str) -> str | None:
    """A VOTE, SIGN or REFUSE line whose proposal id was written in several words ("VOTE burma
    2 YES"), as it reads with the id the words most likely mean ("VOTE burma2 YES"), or None."""
    said = text.split()
    verb = said[0].upper()
    if verb not in ("VOTE", "SIGN", "REFUSE"):
        return None
    ballot = said[-1].upper() if verb == "VOTE" and said[-1].upper() in ("YES", "NO", "ABSTAIN") else ""
    written = said[1:-1] if ballot else said[1:]
    c = state.get("congress") or {}
    ids = [str(p["id"]) for p in c.get("proposals", [])] + ([c["adopted"]] if c.get("adopted") else [])
    if len(written) < 2 or not ids:
        return None
    found = nearest("".join(written), ids)
    return " ".join(w for w in (verb, found, ballot) if w) if found else None


def _proposal(state: dict, power: str, head: tuple[int, str], body: list[tuple[int, str]], data,
              result: ParseResult, closed: bool) -> None:
    number, text = head
    order, problem = parse_line(state, power, text, data, number)
    if problem is not None:
        result.problems.append(problem)
        return
    terms, free, bad = clauses.parse_lines(body, data)
    if bad:
        result.problems.extend(bad)
        result.problems.append(Problem("proposal-not-read", f"proposal {order.args['id']} was not "
                                       "taken: correct the clause lines named", number))
        return
    a = {"id": order.args["id"], "terms": terms, "text": "\n".join(free)}
    result.orders.append(Order(power, "propose", a, canonical("propose", a), number))
    if not closed:
        result.problems.append(Problem("no-endpropose", f"proposal {a['id']} has no ENDPROPOSE: it "
                                       "runs to the end of your orders", number, kind="warning"))


def parse_orders(state: dict, power: str, lines: Sequence[tuple[int, str]], data) -> ParseResult:
    """Rules: AUSTRIA-HUNGARY - the German player writes Austria-Hungary's orders after
    ``FOR Austria-Hungary``, until ``FOR Germany`` or the end (orders.for_line)."""
    result = ParseResult()
    current = power
    block: tuple[tuple[int, str], list] | None = None
    for number, raw in list(lines) + [(None, None)]:
        text = (raw or "").strip()
        upper = " ".join(text.upper().split())
        starts = upper.split(" ", 1)[0] == "PROPOSE" if text else False
        if block is not None and (raw is None or starts or upper in ENDS):
            _proposal(state, block[2], block[0], block[1], data, result, upper in ENDS)
            block = None
            if upper in ENDS:
                result.part_lines.add(number)
                continue
        if raw is None:
            break
        if block is not None:
            if text:
                block[1].append((number, text))
                result.part_lines.add(number)  # a proposal's text: read as part of its PROPOSE line
            continue
        if not text or text.startswith("#"):
            continue
        if upper in ENDS:
            result.problems.append(Problem("unexpected-end", "ENDPROPOSE without a PROPOSE line",
                                           number, kind="invalid"))
            continue
        if starts:
            block = ((number, text), [], current)
            continue
        current = take_line(power, current, text, data, number, result,
                            lambda who, line, n: parse_line(state, who, line, data, n))
    return result
