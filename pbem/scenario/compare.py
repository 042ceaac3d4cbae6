"""Comparing what a query or event produced with what a case expects.

Queries return text; numbers compare as numbers, yes/no as booleans, lists
as comma-separated sorted names, and names case-insensitively.
"""
from __future__ import annotations

from typing import Any

_TRUE = {"yes", "true"}
_FALSE = {"no", "false"}


def _number(text: str) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def _as_list(value: Any) -> list[str]:
    if isinstance(value, (list, tuple, set, frozenset)):
        return sorted(str(v) for v in value)
    text = str(value).strip()
    if not text or text.lower() == "none":
        return []
    return sorted(part.strip() for part in text.split(","))


def show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(_as_list(value)) or "(empty)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def compare(actual: Any, op: str, expected: str) -> tuple[bool, str]:
    shown = show(actual)
    if op in ("contains", "lacks"):
        members = {m.lower() for m in _as_list(actual)}
        wanted = expected.strip('"').lower()
        return (wanted in members) == (op == "contains"), shown
    exp = expected.strip('"')
    if isinstance(actual, bool) or exp.lower() in _TRUE | _FALSE:
        a = actual if isinstance(actual, bool) else str(actual).lower() in _TRUE
        e = exp.lower() in _TRUE
        if op == "=":
            return a == e, shown
        if op == "!=":
            return a != e, shown
        return False, shown
    a_num, e_num = _number(actual if not isinstance(actual, bool) else None), _number(exp)
    if a_num is not None and e_num is not None:
        return {"=": a_num == e_num, "!=": a_num != e_num, ">=": a_num >= e_num,
                "<=": a_num <= e_num, "<": a_num < e_num, ">": a_num > e_num}[op], shown
    if isinstance(actual, (list, tuple, set, frozenset)):
        a_text = ", ".join(_as_list(actual)).lower()
        e_text = ", ".join(_as_list(exp)).lower()
    else:
        a_text, e_text = shown.lower(), exp.lower()
    if op == "=":
        return a_text == e_text, shown
    if op == "!=":
        return a_text != e_text, shown
    return False, shown


def event_matches(event: dict, kind: str, fields: dict[str, str]) -> bool:
    if str(event.get("kind", "")).lower() != kind:
        return False
    for key, want in fields.items():
        if key not in event:
            return False
        ok, _ = compare(event[key], "=", want)
        if not ok:
            return False
    return True
