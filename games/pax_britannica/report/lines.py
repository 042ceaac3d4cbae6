"""The pieces of a report's text both the whole report (``compose.py``) and the board
(``board.py``) use: who an event is about, the line width and columns, and events grouped
into sentences."""
from __future__ import annotations

import textwrap
from typing import Any, Sequence

from . import events as say, phases as report_phases

WIDTH = 78
POWER_FIELDS = ("power", "holder", "against", "to", "from", "blamed", "blame")
#: Further fields naming the powers an event is about (for "what concerns you" only;
#: privacy is decided by ``concerns`` alone).
# Fields naming the powers an event is about (a combat's sides, a conquest's loser too).
INVOLVED_FIELDS = ("powers", "parties", "sides", "by", "rolls", "victors", "defeated", "ally",
                   "attackers", "defenders", "from", "with")


def concerns(event: dict, powers: set[str]) -> bool:
    for key in POWER_FIELDS:
        value = event.get(key)
        if isinstance(value, str) and value in powers:
            return True
        if isinstance(value, list) and powers & set(value):
            return True
    return False


def involves(event: dict, powers: set[str]) -> bool:
    """Whether the event is about one of ``powers`` (its own section of the report)."""
    if concerns(event, powers):
        return True
    reason = str(event.get("reason") or "")
    if any(reason.startswith(f"{p}'s ") for p in powers):  # "France's interest in Kongo: ..."
        return True
    for key in INVOLVED_FIELDS:
        value = event.get(key)
        if isinstance(value, str):
            value = value.split("+")
        if isinstance(value, dict):
            value = list(value)
        if not isinstance(value, list):   # a flag such as a combat's "defeated": true
            continue
        flat = {str(x) for v in (value or []) for x in (v if isinstance(v, list) else [v])}
        if powers & flat:
            return True
    return False


# -- layout -----------------------------------------------------------------------
def wrap(text: str, indent: str = "", more: str = "    ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + more,
                         break_on_hyphens=False) or [indent.rstrip()]


def column(label_text: str, text: str) -> list[str]:
    """``label_text`` in a column of its own, ``text`` wrapped beside it."""
    return textwrap.wrap(text, WIDTH, initial_indent=f"  {label_text:<22} ",
                         subsequent_indent=" " * 25, break_on_hyphens=False)


# -- events -------------------------------------------------------------------------
def combined(state: dict, events: Sequence[dict], shown: Sequence[dict]) -> list[tuple[Any, list[dict]]]:
    """(place, events) groups of the ``shown`` events: a Colonial Combat takes its
    consequences in the same Area (losses, retreats, the marker, the Unrest) as clauses of
    one sentence.  Phases are placed from every event: hidden ones still tell the phase."""
    keep = {id(e) for e in shown}
    groups: list[tuple[Any, list[dict]]] = []
    for e, where in zip(events, report_phases.place(state, events)):
        if id(e) not in keep:
            continue
        last = groups[-1] if groups else None
        if (last and last[0] == where and last[1][0].get("kind") == "colonial_combat"
                and say.combat_clause(e) and say.combat_area(e) == last[1][0].get("area")):
            last[1].append(e)
        elif (last and last[0] == where and len(last[1]) == 1 and e.get("kind") == "unrest"
              and e.get("table") and last[1][0].get("kind") == "random_event"):
            last[1].append(e)  # "Random event 2 (4-4): Unrest in Abyssinia ..."
        elif last and last[0] == where and is_funds_vp_of(last[1], e):
            # The reader who may see where a power's funds VP come from (the power itself,
            # the GM) reads that line alone; "Britain scores 4 VP from its funds." is for the others.
            groups[-1] = (where, [e])
        else:
            groups.append((where, [e]))
    return groups


def is_funds_vp_of(group: list[dict], e: dict) -> bool:
    """``e`` says where the VP of the one-event ``group`` came from (Lines 23-24: the treasury)."""
    first = group[0]
    return (len(group) == 1 and e.get("kind") == "funds_vp" and first.get("kind") == "vp"
            and first.get("reason") == "funds" and first.get("power") == e.get("power")
            and first.get("delta") == e.get("vp"))


def is_established(group: list[dict]) -> bool:
    e = group[0]
    return len(group) == 1 and e.get("kind") == "marker" and e.get("reason") == "established"


def merge_established(groups: list[tuple[Any, list[dict]]]) -> list[tuple[Any, list[dict]]]:
    out: list[tuple[Any, list[dict]]] = []
    for where, group in groups:
        if out and out[-1][0] == where and is_established(group) and \
                all(x.get("kind") == "marker" and x.get("reason") == "established" for x in out[-1][1]):
            out[-1][1].extend(group)
        else:
            out.append((where, list(group)))
    return out


def group_sentence(group: list[dict], viewer: frozenset) -> str:
    first = group[0]
    if first.get("kind") == "colonial_combat" and len(group) > 1:
        clauses = [c for c in (say.combat_clause(e) for e in group[1:]) if c]
        return say.combat_head(first) + " - " + "; ".join(clauses) + "."
    if first.get("kind") == "random_event" and len(group) > 1:
        return say.random_unrest(first, group[1])
    if len(group) > 1 and all(e.get("reason") == "established" for e in group):
        return say.established_list(group)
    return say.sentence(first, viewer)
