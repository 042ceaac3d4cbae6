"""The words of the report's sentences: money, possessives, statuses, units, lists of names,
the combat results and purposes, as the rules name them."""
from __future__ import annotations

import re
from typing import Any

ARTICLE_AN = re.compile(r"\b([Aa]) (?=[AEIOUaeiou])")
RANDOM_EVENT_PREFIX = re.compile(r"^random event \d-\d\s*")
#: Fields a generic line leaves out: bookkeeping, or private figures.
HIDDEN_FIELDS = {"kind", "lines", "treasury", "unit", "net", "amount", "audience", "key"}

RESULTS = {"E": "the attackers are eliminated", "AR": "the attackers retreat",
           "EX": "exchange", "HALF_EX": "half exchange", "DR": "the defenders give way",
           "DE": "the defenders are destroyed", "auto": "no resistance"}
PURPOSES = {"establish": "to establish Control", "suppress": "to suppress Unrest",
            "both": "to establish Control and suppress Unrest"}

Viewer = frozenset


def money(n: Any) -> str:
    try:
        n = int(n)
    except (TypeError, ValueError):
        return str(n)
    return f"-£{-n}" if n < 0 else f"£{n}"


def signed(n: Any) -> str:
    try:
        return f"{int(n):+d}"
    except (TypeError, ValueError):
        return str(n)


def grammar(text: Any) -> str:
    """Engine reasons are terse ("placed a interest"); fix the article."""
    return ARTICLE_AN.sub(lambda m: m.group(1) + "n ", str(text))


def poss(name: Any) -> str:
    """The possessive: "France's", "United States'"."""
    name = str(name)
    return name + ("'" if name.endswith("s") else "'s")


def status(name: Any) -> str:
    return str(name or "none").replace("_", " ").title()


def a_status(name: Any) -> str:
    word = status(name)
    return ("an " if word[:1] in "AEIOU" else "a ") + word


def unit(e: dict) -> str:
    kind = str(e.get("type") or "unit").title()
    return f"{kind} ({e.get('strength', '?')})"


def a_unit(e: dict) -> str:
    text = unit(e)
    return ("an " if text[:1] in "AEIOU" else "a ") + text


def names(items: Any) -> str:
    if isinstance(items, (list, tuple)):
        flat = [", ".join(map(str, i)) if isinstance(i, (list, tuple)) else str(i) for i in items]
        if len(flat) > 1:
            return ", ".join(flat[:-1]) + " and " + flat[-1]
        return flat[0] if flat else "nobody"
    return str(items)


def because(reason: Any) -> str:
    return f" ({grammar(reason)})" if reason else ""
