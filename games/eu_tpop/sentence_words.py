"""The registry of the event sentences and the words they share (sentences.py says how a
kind gets its sentence; war_sentences.py and sentences.py register them)."""
from __future__ import annotations

from typing import Callable

Renderer = Callable[[dict], "str | None"]

#: every event kind -> its renderer
SENTENCES: dict[str, Renderer] = {}


def says(*kinds: str) -> Callable[[Renderer], Renderer]:
    """Register the decorated function as the renderer of ``kinds``."""
    def register(fn: Renderer) -> Renderer:
        for kind in kinds:
            SENTENCES[kind] = fn
        return fn
    return register


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def lost(cas: dict) -> str:
    return "; ".join(f"{r} lost {len(ks)} ({', '.join(k.replace('_', ' ') for k in ks)})"
                     for r, ks in sorted(cas.items())) or "no casualties"


def damaged(realms: list[str]) -> str:
    """9.9: the Heavy Ships a round's hits damaged without sinking (a realm once a ship)."""
    if not realms:
        return ""
    return " Damaged, not sunk (9.9): " + "; ".join(
        f"{r} {plural(realms.count(r), 'Heavy Ship')}" for r in sorted(set(realms))) + "."
