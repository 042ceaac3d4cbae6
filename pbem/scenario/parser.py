"""Reading scenario files (the rules' golden tests; format in the README).

A file is a list of cases; a case is a list of statements, each remembering
its line so a failure or a parse error can point at it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

OPERATORS = ("=", "!=", ">=", "<=", "<", ">", "contains", "lacks")


class ScenarioSyntaxError(ValueError):
    def __init__(self, path: str, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = path, line, message


@dataclass
class Statement:
    kind: str            # phase, gm, dice, orders, process, expect, expect_event, ...
    line: int
    args: dict = field(default_factory=dict)


@dataclass
class Case:
    id: str
    title: str
    path: str
    line: int
    rules: str | None = None
    players: list[str] = field(default_factory=list)
    setup: str | None = None
    statements: list[Statement] = field(default_factory=list)


def _strip_comment(line: str) -> str:
    # '#' starts a comment unless it sits inside double quotes.
    out, quoted = [], False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        if ch == "#" and not quoted:
            break
        out.append(ch)
    return "".join(out).strip()


def _split_expect(text: str, path: str, lineno: int) -> tuple[str, str, str]:
    """Split ``<query> <op> <value>`` on the first operator token."""
    tokens = re.findall(r'"[^"]*"|\S+', text)
    for i, tok in enumerate(tokens):
        if tok.lower() in OPERATORS and i > 0:
            query = " ".join(tokens[:i])
            value = " ".join(tokens[i + 1:])
            return query, tok.lower(), value
    raise ScenarioSyntaxError(path, lineno, f"EXPECT needs '<query> <op> <value>' with op one of {', '.join(OPERATORS)}")


def _fields(tokens: list[str]) -> dict[str, str]:
    fields = {}
    for tok in tokens:
        key, sep, value = tok.partition("=")
        if not sep:
            raise ValueError(f"expected key=value, got {tok!r}")
        fields[key.lower()] = value.strip('"')
    return fields


def parse_text(text: str, path: str = "<text>") -> list[Case]:
    cases: list[Case] = []
    case: Case | None = None
    orders_for: str | None = None
    orders_lines: list[tuple[int, str]] = []
    orders_start = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        if orders_for is not None:
            # Order lines are kept as written (the game's grammar reads them);
            # only the terminator is ours.
            if raw.strip().upper().split() == ["END", "ORDERS"]:
                case.statements.append(Statement("orders", orders_start,
                                                 {"power": orders_for, "lines": orders_lines}))
                orders_for, orders_lines = None, []
            else:
                orders_lines.append((len(orders_lines) + 1, raw.strip()))
            continue
        line = _strip_comment(raw)
        if not line:
            continue
        words = line.split()
        head = words[0].upper()
        rest = line[len(words[0]):].strip()
        if head == "CASE":
            if case is not None:
                raise ScenarioSyntaxError(path, lineno, f"CASE inside case {case.id} (missing END CASE)")
            if not rest:
                raise ScenarioSyntaxError(path, lineno, "CASE needs an id")
            cid, _, title = rest.partition(" ")
            case = Case(cid, title.strip(), path, lineno)
            continue
        if case is None:
            raise ScenarioSyntaxError(path, lineno, f"{head} outside a CASE")
        upper = [w.upper() for w in words]
        try:
            if upper[:2] == ["END", "CASE"]:
                cases.append(case)
                case = None
            elif head == "RULES":
                case.rules = rest.lower()
            elif head == "PLAYERS":
                case.players = [p.strip('"') for p in re.findall(r'"[^"]*"|\S+', rest)]
            elif head == "SETUP":
                case.setup = rest
            elif head == "PHASE":
                m = re.match(r"(\S+)(?:\s+TURN\s+(\S+))?(?:\s+STEP\s+(\S+))?\s*$", rest, re.I)
                if not m:
                    raise ValueError("PHASE <phase> [TURN <n>] [STEP <s>]")
                turn = int(m.group(2)) if m.group(2) else None
                case.statements.append(Statement("phase", lineno, {"phase": m.group(1).lower(),
                                                                    "turn": turn, "step": m.group(3)}))
            elif head == "GM":
                if not rest:
                    raise ValueError("GM needs a command")
                case.statements.append(Statement("gm", lineno, {"text": rest}))
            elif head == "DICE":
                values = [int(w) for w in words[1:]]
                if not values:
                    raise ValueError("DICE needs at least one number")
                case.statements.append(Statement("dice", lineno, {"values": values}))
            elif head == "ORDERS":
                if len(words) < 2:
                    raise ValueError("ORDERS needs a power")
                orders_for, orders_start = rest.strip('"'), lineno
            elif head == "PROCESS":
                one = len(upper) > 1 and upper[1] == "ONE"
                if len(upper) > 2 or (len(upper) == 2 and not one):
                    raise ValueError("PROCESS [ONE]")
                case.statements.append(Statement("process", lineno, {"one": one}))
            elif head == "EXPECT":
                case.statements.append(_parse_expect(rest, path, lineno))
            else:
                raise ValueError(f"unknown statement {words[0]!r}")
        except ScenarioSyntaxError:
            raise
        except ValueError as exc:
            raise ScenarioSyntaxError(path, lineno, str(exc)) from None
    if orders_for is not None:
        raise ScenarioSyntaxError(path, orders_start, "ORDERS without END ORDERS")
    if case is not None:
        raise ScenarioSyntaxError(path, case.line, f"case {case.id} has no END CASE")
    return cases


def _parse_expect(rest: str, path: str, lineno: int) -> Statement:
    words = rest.split()
    if not words:
        raise ValueError("EXPECT needs something to expect")
    upper = [w.upper() for w in words]
    if upper[0] == "EVENT" or upper[:2] == ["NO", "EVENT"]:
        negate = upper[0] == "NO"
        tokens = re.findall(r'\S+="[^"]*"|"[^"]*"|\S+', rest)[2 if negate else 1:]
        if not tokens:
            raise ValueError("EXPECT EVENT needs an event kind")
        return Statement("expect_event", lineno, {"negate": negate, "kind": tokens[0].lower(),
                                                  "fields": _fields(tokens[1:])})
    if upper[0] == "PROBLEM":
        if len(words) != 3:
            raise ValueError("EXPECT PROBLEM <Power> <code>")
        return Statement("expect_problem", lineno, {"power": words[1], "code": words[2]})
    if upper[0] in ("REJECTED", "ACCEPTED"):
        if len(words) != 2:
            raise ValueError(f"EXPECT {upper[0]} <Power>")
        return Statement("expect_" + upper[0].lower(), lineno, {"power": words[1]})
    query, op, value = _split_expect(rest, path, lineno)
    return Statement("expect", lineno, {"query": query, "op": op, "value": value})


def parse_file(path: Path) -> list[Case]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioSyntaxError(str(path), 0, f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScenarioSyntaxError(str(path), 0, "not UTF-8 text") from None
    return parse_text(text, str(path))


def scenario_files(paths: list[Path]) -> list[Path]:
    """Expand folders to their *.scn files, sorted; keep files as given."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(p.rglob("*.scn")))
        else:
            out.append(p)
    return out
