"""Phases named the way people write them.

Players and the GM name a phase in ``ORDERS <phase>``, ``RESEND <phase>``,
``GM ROLLBACK <phase>`` and ``pbem game rollback`` in any form the moderator
prints: the label HISTORY and the reports show ("1884 Movement/Status
Change"), the key ("1884/movement"), the game's name of the phase with or
without its turn ("1884 movement", "Movement"), in any case, with any
punctuation.  ``ORDERS 1884`` names the current phase by its turn alone.
"""
from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

from pbem.kit.gameapi import PhaseInfo


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^0-9a-z]+", " ", str(text).lower()).split())


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
    return said in forms(phase.key, phase.label, phase.name, phase.turn)


def _row_forms(row: Mapping) -> set[str]:
    key = str(row["phase_key"])
    turn, _, name = key.partition("/")
    label = str(row["label"]).split(": ", 1)[0]
    return forms(key, label, name if _ else "", turn if _ else None)


def find(text: str, rows: Sequence[Mapping]) -> list[Mapping]:
    """The snapshot rows (``phase_key``, ``label``) a phase name picks out, in
    their order: every resolution of that phase (a rolled-back phase may have
    been resolved again).  A turn alone picks out the phases of that turn."""
    said = _norm(text)
    found = [r for r in rows if said in _row_forms(r)]
    if found:
        return found
    return [r for r in rows if _norm(str(r["phase_key"]).partition("/")[0]) == said]


def listing(rows: Iterable[Mapping], limit: int = 12) -> str:
    """The labels of some phases, the latest last, for a reply that says which exist."""
    labels = list(dict.fromkeys(str(r["label"]).split(": ", 1)[0] for r in rows))
    shown = labels[-limit:]
    more = f"... ({len(labels) - len(shown)} earlier), " if len(labels) > len(shown) else ""
    return more + ", ".join(shown)


def short(phase: PhaseInfo) -> str:
    """The phase as a subject line names it: the game's own short label, else its label up to
    the first colon or parenthesis ("1884 War, sequence 1: First Alliance Maneuver (Britain,
    Germany)" is "1884 War, sequence 1")."""
    return phase.short or short_label(phase.label or phase.key)


def short_label(label: str) -> str:
    """A phase's label up to its first colon or parenthesis."""
    return re.split(r":| \(", label, maxsplit=1)[0].strip() or label
