"""What every bot does last: it sends only what the game accepts."""
from __future__ import annotations


def only_accepted(game, state: dict, power: str, lines: list[str]) -> list[str]:
    """Drop every line ``game`` would refuse (and anything that relied on it): the game the bot
    plays for reads and judges its lines as it would a player's."""
    for _ in range(4):
        numbered = list(enumerate(lines, 1))
        parsed = game.parse_orders(state, power, numbered)
        problems = list(parsed.problems) + list(game.validate(state, power, parsed.orders))
        bad = {p.line for p in problems if p.kind != "warning"}
        if not bad:
            return lines
        lines = [text for n, text in numbered if n not in bad]
    return []
