"""Phases named the way people write them.

Players and the GM name a phase in ``ORDERS <phase>``, ``RESEND <phase>``,
``GM ROLLBACK <phase>`` and ``pbem game rollback`` in any form the moderator
prints: the whole label HISTORY and the reports show ("1884 Movement/Status
Change", "1884 War, sequence 1: First Alliance Attack (Britain, Germany)"),
its id (the phase's key, "1884/movement", which HISTORY prints beside the
label in brackets), the whole HISTORY line, the game's name of the phase with
or without its turn ("1884 movement", "Movement"), in any case, with any
punctuation.  ``ORDERS 1884`` names the current phase by its turn alone.
"""
from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

from pbem.kit import names
from pbem.kit.gameapi import PhaseInfo


def _norm(text: str) -> str:
    """A phase's name as names compare (:func:`pbem.kit.names.words`), its words kept apart:
    "1884 Movement/Status Change" -> "1884 movement status change"."""
    return " ".join(names.words(text))


def forms(key: str, label: str, name: str = "", turn=None) -> set[str]:
    """Every way of writing one phase (normalised), the turn alone excepted."""
    out = {_norm(key), _norm(label)}
    if name:
        out.add(_norm(name))
        if turn is not None:
            out.add(_norm(f"{turn} {name}"))
    if turn is not None and _norm(label).startswith(_norm(str(turn)) + " "):
        out.add(_norm(label)[len(_norm(str(turn))) + 1:])  # "Movement/Status Change"
    out.discard("")
    return out


def names_phase(text: str, phase: PhaseInfo) -> bool:
    """Whether ``text`` names the current phase (its turn alone will do)."""
    said = _norm(text)
    if phase.turn is not None and said == _norm(str(phase.turn)):
        return True
    printed = _PRINTED.match(" ".join(str(text).split()))
    known = forms(phase.key, phase.label, phase.name, phase.turn)
    return any(_norm(t) in known for t in (text, printed["id"] or "", printed["label"]) if t)


#: what an input's snapshot adds to its phase's label (see pbem.play.turns.describe_input)
_INPUT = re.compile(r": (GM edit|GM ruling on|treaty) .*$")
#: what HISTORY prints after a label: the phase's id, and when it was resolved
_PRINTED = re.compile(r"^(?P<label>.*?)(?: \[(?P<id>[^\]]+)\])?(?: \(resolved [^)]*\))?$")


def phase_label(row: Mapping) -> str:
    """The label of the phase a snapshot row belongs to (an input's row adds what it was)."""
    label = str(row["label"])
    return _INPUT.sub("", label) if row.get("kind", "input") == "input" else label


def history_line(row: Mapping) -> str:
    """A resolved phase as HISTORY prints it (without when): its label and its id."""
    return f"{phase_label(row)} [{row['phase_key']}]"


def _row_forms(row: Mapping) -> set[str]:
    key = str(row["phase_key"])
    turn, _, name = key.partition("/")
    return forms(key, phase_label(row), name if _ else "", turn if _ else None)


def find(text: str, rows: Sequence[Mapping]) -> list[Mapping]:
    """The snapshot rows (``phase_key``, ``label``) a phase name picks out, in
    their order: every resolution of that phase (a rolled-back phase may have
    been resolved again).  A whole HISTORY line picks out its phase by its id.
    A turn alone picks out the phases of that turn."""
    printed = _PRINTED.match(" ".join(str(text).split()))
    for said in dict.fromkeys(_norm(t) for t in (text, printed["id"] or "", printed["label"]) if t):
        found = [r for r in rows if said in _row_forms(r)]
        if found:
            return found
    said = _norm(text)
    return [r for r in rows if _norm(str(r["phase_key"]).partition("/")[0]) == said]


def nearest(text: str, rows: Sequence[Mapping]) -> str | None:
    """The label or id of a resolved phase closest to ``text`` (a slip: "1884/movment",
    "1884 Movment/Status Change"), as HISTORY prints it, for a did-you-mean; else None."""
    said = _PRINTED.match(" ".join(str(text).split()))
    shown: dict[str, str] = {}
    for r in rows:
        shown.setdefault(_norm(phase_label(r)), phase_label(r))
        shown.setdefault(_norm(r["phase_key"]), str(r["phase_key"]))
    found = names.nearest(_norm(said["id"] or said["label"] or text), shown, _norm)
    return shown.get(found) if found else None


def listing(rows: Iterable[Mapping], limit: int = 12) -> list[str]:
    """Some phases, each by its label and its id, the latest last, for a reply that says which
    exist: a line each, so that a long label is never cut."""
    labels = list(dict.fromkeys(history_line(r) for r in rows))
    shown = labels[-limit:]
    return ([f"... ({len(labels) - len(shown)} earlier: HISTORY lists them)"] if len(labels) > len(shown)
            else []) + shown


def short(phase: PhaseInfo) -> str:
    """The phase as a subject line names it: the game's own short label, else its label up to
    the first colon or parenthesis ("1884 War, sequence 1: First Alliance Maneuver (Britain,
    Germany)" is "1884 War, sequence 1")."""
    return phase.short or short_label(phase.label or phase.key)


def short_label(label: str) -> str:
    """A phase's label up to its first colon or parenthesis."""
    return re.split(r":| \(", label, maxsplit=1)[0].strip() or label
