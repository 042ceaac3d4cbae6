"""Treaty clauses: the lines of a treaty's text the moderator reads, checks and carries out.

Rules: TREATIES ("A Treaty can involve the exchange of Status markers ...; it can stipulate
that a player not place markers in particular Areas; it can require payment of £'s ...; it
can require or prohibit more than a certain number of Military Units in a particular Area";
"Treaties can also stipulate military Alliances"); Treaties and Casus Belli; CONGRESS OF
EUROPE (what Congressional Proposals may involve).

A line is read as a clause when it starts (after an optional ``<power>:`` naming the power it
binds) with a clause keyword: PAY, TRANSFER, DOWNGRADE, CODOMINION, NO MARKERS, NO UNITS,
MAX NAVY, MAX ARMY, DEFENSIVE ALLIANCE, OFFENSIVE ALLIANCE, CB IF.  A line that starts so but
cannot be read is a problem (so a mistyped clause never passes silently as free text); every
other line is free text, which the GM rules on when a party claims a breach.
"""
from __future__ import annotations

import re
from pathlib import Path

from lark import Lark
from lark.exceptions import LarkError

from pbem.kit import names
from pbem.kit.gameapi import Problem

from .reading import ShapeBase, normalise_with

GRAMMAR = Lark((Path(__file__).parent / "clauses.lark").read_text(), parser="lalr")
KEYWORDS = {"PAY", "EACH", "TURN", "UNTIL", "TRANSFER", "TO", "DOWNGRADE", "CODOMINION", "WITH",
            "NO", "MARKERS", "UNITS", "IN", "MAX", "NAVY", "ARMY", "DEFENSIVE", "OFFENSIVE",
            "ALLIANCE", "CB", "IF", "IS", "ATTACKED", "GAINS", "INTEREST", "INFLUENCE",
            "PROTECTORATE", "POSSESSION", "NONE"}
SINGLE = {"PAY", "TRANSFER", "DOWNGRADE", "CODOMINION"}
PAIRS = {("NO", "MARKERS"), ("NO", "UNITS"), ("MAX", "NAVY"), ("MAX", "ARMY"), ("CB", "IF"),
         ("DEFENSIVE", "ALLIANCE"), ("OFFENSIVE", "ALLIANCE")}
FORMS = (
    "PAY <power> <amount> [EACH TURN] [UNTIL <year>]",
    "TRANSFER <marker> <area> TO <power>",
    "DOWNGRADE <power> <area> TO INTEREST|INFLUENCE|NONE",
    "CODOMINION <area> WITH <power>[,<power>...]",
    "NO MARKERS IN <area>",
    "NO UNITS IN <area>",
    "MAX NAVY <n>",
    "MAX ARMY <n> IN <area>",
    "DEFENSIVE ALLIANCE",
    "OFFENSIVE ALLIANCE",
    "CB IF <party> IS ATTACKED",
    "CB IF <party> GAINS CB",
)
_SUBJECT = re.compile(r"^\s*([^:]{1,40}?)\s*:\s*(.*)$")
#: which kind of name each slot holds
_ROLES = {("pay", 0): "power", ("transfer", 0): "area", ("transfer", 1): "power",
          ("downgrade", 0): "power", ("downgrade", 1): "area", ("codominion", 0): "area",
          ("no_markers", 0): "area", ("no_units", 0): "area", ("max_army", 0): "area",
          ("cb_attacked", 0): "power", ("cb_gains", 0): "power"}


def is_attempt(text: str) -> bool:
    """Whether a line means to be a clause: its first word or two are a clause keyword, or one
    slip from one ("NO MARKER IN", "PAYS", "DEFENSIVE ALIANCE"), so that a clause mistyped is
    refused with its forms rather than kept as free text that binds nobody.  Choice: a word a
    letter or two off a keyword of two words, or a single keyword with an ending added (or, for a
    long one, a letter off), is a slip; "Pax Britannica", "No march", "Max and Moritz" are not."""
    words = text.upper().replace(",", " ").split()
    return bool(words) and (words[0] in SINGLE or tuple(words[:2]) in PAIRS or _slip(words))


def _slip(words: list[str]) -> bool:
    first = words[0]
    if any((first.startswith(k) and len(first) <= len(k) + 2)
           or (len(k) >= 8 and names.distance(first, k) <= 1) for k in SINGLE):
        return True
    if len(words) < 2:
        return False
    return any((first == a or (len(a) >= 8 and names.distance(first, a) <= 1))
               and names.distance(words[1], b) <= (2 if len(b) >= 5 else 1) for a, b in PAIRS)


class _Shape(ShapeBase):
    def status(self, c):
        return str(c[0]).lower()

    def level(self, c):
        return str(c[0]).lower()

    def each(self, c):
        return ("each", True)

    def until(self, c):
        return ("until", c[0])

    def __default__(self, data, children, meta):
        return (str(data), list(children))


def _name(data, role: str, text: str, line: int | None) -> str:
    found = data.resolve_power(text) if role == "power" else data.resolve_area(text)
    if found is None:
        code = "unknown-power" if role == "power" else "unknown-area"
        raise ValueError(Problem(code, f"{text!r} is not a known {'power' if role == 'power' else 'Area'}",
                                 line, data.suggest(text, "power" if role == "power" else "area"), "invalid"))
    return found


def _build(kind: str, parts: list, data, line: int | None) -> dict:
    names, numbers, flags = [], [], {}
    for part in parts:
        if isinstance(part, tuple) and part[0] == "name":
            names.append(part[1])
        elif isinstance(part, tuple):
            flags[part[0]] = part[1]
        elif isinstance(part, int):
            numbers.append(part)
        else:
            flags.setdefault("word", part)
    resolved = [_name(data, _ROLES.get((kind, i), "power"), n, line) for i, n in enumerate(names)]
    if kind == "pay":
        return {"type": kind, "to": resolved[0], "amount": numbers[0],
                "each_turn": bool(flags.get("each")), "until": flags.get("until")}
    if kind == "transfer":
        return {"type": kind, "status": flags["word"], "area": resolved[0], "to": resolved[1]}
    if kind == "downgrade":
        return {"type": kind, "power": resolved[0], "area": resolved[1], "to": flags["word"]}
    if kind == "codominion":
        return {"type": kind, "area": resolved[0], "members": list(dict.fromkeys(resolved[1:]))}
    if kind in ("no_markers", "no_units"):
        return {"type": kind, "area": resolved[0]}
    if kind == "max_navy":
        return {"type": kind, "n": numbers[0]}
    if kind == "max_army":
        return {"type": kind, "n": numbers[0], "area": resolved[0]}
    if kind in ("cb_attacked", "cb_gains"):
        return {"type": kind, "party": resolved[0]}
    return {"type": kind}


def canonical(c: dict) -> str:
    t = c["type"]
    body = {
        "pay": lambda: f"PAY {c['to']} {c['amount']}" + (" EACH TURN" if c.get("each_turn") else "")
                       + (f" UNTIL {c['until']}" if c.get("until") else ""),
        "transfer": lambda: f"TRANSFER {c['status'].upper()} {c['area']} TO {c['to']}",
        "downgrade": lambda: f"DOWNGRADE {c['power']} {c['area']} TO {c['to'].upper()}",
        "codominion": lambda: f"CODOMINION {c['area']} WITH {', '.join(c['members'])}",
        "no_markers": lambda: f"NO MARKERS IN {c['area']}",
        "no_units": lambda: f"NO UNITS IN {c['area']}",
        "max_navy": lambda: f"MAX NAVY {c['n']}",
        "max_army": lambda: f"MAX ARMY {c['n']} IN {c['area']}",
        "defensive": lambda: "DEFENSIVE ALLIANCE",
        "offensive": lambda: "OFFENSIVE ALLIANCE",
        "cb_attacked": lambda: f"CB IF {c['party']} IS ATTACKED",
        "cb_gains": lambda: f"CB IF {c['party']} GAINS CB",
    }[t]()
    return (f"{c['subject']}: " if c.get("subject") else "") + body


def _normalise(text: str, data) -> str:
    return normalise_with(text, data, KEYWORDS)


def parse_line(text: str, data, line: int | None = None) -> tuple[dict | None, Problem | None]:
    """One line: (clause, None), (None, problem), or (None, None) for free text."""
    subject = None
    body = text.strip()
    found = _SUBJECT.match(body)
    if found and is_attempt(found.group(2)):
        subject = data.resolve_power(found.group(1))
        if subject is None:
            return None, Problem("unknown-power", f"{found.group(1)!r} before ':' is not a power",
                                 line, data.suggest(found.group(1), "power"), "invalid")
        body = found.group(2)
    if not is_attempt(body):
        return None, None
    try:
        kind, parts = _Shape().transform(GRAMMAR.parse(_normalise(body, data)))
    except LarkError:
        verb = body.split()[0].upper()
        forms = [f for f in FORMS if f.split()[0] == verb] or list(FORMS)
        return None, Problem("invalid-clause", f"clause not understood: {body!r}; write "
                             + " | ".join(forms) + " (a line of free text must not begin with "
                             "a clause's first words)", line, None, "invalid")
    try:
        clause = _build(kind, parts, data, line)
    except ValueError as exc:
        return None, exc.args[0]
    clause["subject"] = subject
    clause["text"] = canonical(clause)
    return clause, None


def parse_lines(lines, data) -> tuple[list[dict], list[str], list[Problem]]:
    """Numbered lines ``(number, text)``, blank ones skipped: (clauses, free-text lines,
    problems), each clause and problem with its line's number."""
    clauses, free, problems = [], [], []
    for n, raw in lines:
        if not raw.strip():
            continue
        clause, problem = parse_line(raw, data, n)
        if problem is not None:
            problems.append(problem)
        elif clause is not None:
            clause["line"] = n
            clauses.append(clause)
        else:
            free.append(raw.strip())
    return clauses, free, problems


def parse_text(text: str, data) -> tuple[list[dict], list[str], list[Problem]]:
    """Every line of a treaty's text: (clauses, free-text lines, problems); a problem names
    the text's own line in its message."""
    clauses, free, problems = parse_lines(enumerate(text.splitlines(), 1), data)
    return clauses, free, [Problem(p.code, f"treaty text line {p.line}: {p.message}", None, p.suggestion,
                                   p.kind) for p in problems]


def named_powers(c: dict) -> list[str]:
    """Every power a clause names (its subject and objects)."""
    names = [c.get("subject"), c.get("to") if c["type"] in ("pay", "transfer") else None,
             c.get("power"), c.get("party")] + list(c.get("members") or [])
    return [n for n in dict.fromkeys(names) if n]
