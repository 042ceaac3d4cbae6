"""What every command is: a frozen dataclass with a ``line`` (1-based, in the
mail it came from) that takes no part in equality, written back by
``canonical()`` (parsing it gives an equal command) and by ``echo()`` (the same
with secrets masked, for replies)."""
from __future__ import annotations

from dataclasses import field

MASK = "****"


def line_field() -> int | None:
    """The ``line`` of a command: where it was written, not what it means."""
    return field(default=None, compare=False)


def block(header: str, body: str, end: str) -> str:
    """A command with a text block, written back."""
    return f"{header}\n{body}\n{end}" if body else f"{header}\n{end}"


def listed(names: tuple[str, ...]) -> str:
    return ", ".join(names)


class CommandBase:
    """Commands without secrets echo exactly their canonical form."""

    WORDS = ""  # the whole text of a command without arguments

    def canonical(self) -> str:
        return self.WORDS

    def echo(self) -> str:
        return self.canonical()
