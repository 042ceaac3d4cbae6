"""Bots' orders as a game would take them: what each bot writes for a phase, less the lines
the game refuses (warnings kept)."""
from __future__ import annotations


def lawful_bot_orders(game, state, rng) -> dict:
    """Each power that owes orders: its bot's orders that the game accepts."""
    orders = {}
    for power in game.phase(state).owes:
        parsed = game.parse_orders(state, power, list(enumerate(game.bot_orders(state, power, rng), 1)))
        bad = {p.line for p in list(parsed.problems) + game.validate(state, power, parsed.orders)
               if p.kind != "warning"}
        orders[power] = [o for o in parsed.orders if o.line not in bad]
    return orders
