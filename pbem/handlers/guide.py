"""HELP: the mail commands (the platform's) and the game's own topics.

``HELP`` lists the commands, the game's orders and the index of the game's
own topics; ``HELP <topic>`` answers from the command table, from the game
(``help_on``: an order, a table, the map, a place, a topic such as
NEGOTIATION) or both, one after the other (``HELP TREATY``: the treaty
commands, then the game's treaty clauses); a topic only the game knows gets
the game's answer alone; any other names the nearest topic either knows.
The game's order list is shown with ``HELP`` and ``HELP ORDERS`` only, not
after every answer.
"""
from __future__ import annotations

from pbem.handlers import help as cmdhelp
from pbem.handlers.session import Session
from pbem.kit.capabilities import supports


def help_answer(session: Session, topic: str | None) -> str:
    rec = session.game
    game = rec.rules if rec else None
    state = rec.state if rec else None
    if topic is None or not topic.strip():
        text = cmdhelp.help_text(None)
        if game is None:
            return text + "\nHelp on a game's orders needs your sign-on line before HELP.\n"
        return text + "\n" + _orders(game, state) + "\n"
    parts = []
    platform = cmdhelp.answer(topic)
    if platform:
        parts.append(platform.rstrip())
    if game is not None:
        if " ".join(topic.upper().split()) == "ORDERS":
            parts.append(_orders(game, state))
        own = game.help_on(state, session.power, topic.strip()) if supports(game, "guide") else None
        if own:
            parts.append(own.rstrip())
    if parts:
        return "\n\n".join(parts) + "\n"
    more = game.help_topics(state) if supports(game, "guide") else []
    text = cmdhelp.no_help(topic, more)
    if game is None:
        text += "Help on a game's orders, tables and places needs your sign-on line before HELP.\n"
    return text


def _orders(game, state) -> str:
    """The game's list of orders, and the index of its own topics (a game without a
    guide: a line saying so, so HELP ORDERS is answered all the same)."""
    if not supports(game, "guide"):
        return (f"{game.title} lists no order forms here: write its orders one a line between ORDERS "
                "and ENDORDERS, as its rules write them.")
    text = game.help_text(None).rstrip()
    topics = game.help_topics(state)
    if topics:
        text += f"\n\nMore on {game.title}: HELP " + ", HELP ".join(topics)
    return text
