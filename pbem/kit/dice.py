"""Provably fair dice.

A game commits to a secret seed by publishing ``sha256(seed)`` when it starts.
Every roll is derived from the seed and the roll's place in the game (the
phase key and the roll's index within that phase), so anyone holding the
revealed seed can re-derive every roll of the archive, and a replay of a
phase draws exactly the same numbers.

Rules code only sees the :class:`Dice` interface: ``d6(why)`` / ``roll``.
Scenario files use :class:`ScriptedDice`, which hands out given numbers in
order and fails the case when the engine asks for more than were given.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field


class DiceExhausted(RuntimeError):
    """A scripted die was asked for when none was left."""


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The hash published to every player when a game starts."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


@dataclass
class Dice:
    """Base class: records every roll as ``(why, sides, value)``."""

    log: list[tuple[str, int, int]] = field(default_factory=list)

    def _draw(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def roll(self, sides: int = 6, why: str = "") -> int:
        value = self._draw(sides)
        self.log.append((why, sides, value))
        return value

    def d6(self, why: str = "") -> int:
        return self.roll(6, why)

    def dice(self, n: int, why: str = "") -> list[int]:
        """``n`` six-sided dice, each recorded separately (read in order)."""
        return [self.roll(6, f"{why} #{i + 1}" if n > 1 else why) for i in range(n)]

    def shuffle_key(self, why: str = "") -> int:
        """A 1..1_000_000 draw, for breaking ties by lot."""
        return self.roll(1_000_000, why)


@dataclass
class SeededDice(Dice):
    """Dice derived by HMAC-SHA256 from the game seed and the roll's place."""

    seed: str = ""
    context: str = ""   # the phase key, e.g. "1884/random_events"
    counter: int = 0

    def _draw(self, sides: int) -> int:
        # Rejection sampling keeps every face equally likely (no modulo bias).
        limit = (2**64 // sides) * sides
        while True:
            msg = f"{self.context}|{self.counter}".encode()
            self.counter += 1
            digest = hmac.new(self.seed.encode("ascii"), msg, hashlib.sha256).digest()
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % sides + 1


@dataclass
class ScriptedDice(Dice):
    """Hands out the given results in order (scenario ``DICE`` lines)."""

    queue: list[int] = field(default_factory=list)

    def push(self, values: list[int]) -> None:
        self.queue.extend(values)

    def _draw(self, sides: int) -> int:
        if not self.queue:
            raise DiceExhausted(f"the engine asked for a d{sides} but no scripted die was left")
        value = self.queue.pop(0)
        if not 1 <= value <= sides:
            raise DiceExhausted(f"scripted die {value} does not fit a d{sides}")
        return value
