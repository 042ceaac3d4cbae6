"""HELP: the mail commands (the platform's) and the game's own topics.

``HELP`` lists the commands and the game's orders; ``HELP <topic>`` answers
from the command table, from the game (``help_on``: an order, a table, the
map, a place) or both, and otherwise names the nearest topic either knows.
The game's order list is shown with ``HELP`` and ``HELP ORDERS`` only, not
after every answer.
"""
from __future__ import annotations

from ..commands import help as cmdhelp
from .session import Session


def help_answer(session: Session, topic: str | None) -> str:
    rec = session.game
    game = rec.rules if rec else None
    state = rec.state if rec else None
    if topic is None or not topic.strip():
        text = cmdhelp.help_text(None)
        if game is None:
            return text + "\nHelp on a game's orders needs your sign-on line before HELP.\n"
        topics = game.help_topics(state)
        text += "\n" + game.help_text(None).rstrip() + "\n"
        if topics:
            text += f"\nMore on {game.title}: HELP " + ", HELP ".join(topics) + "\n"
        return text
    parts = []
    platform = cmdhelp.answer(topic)
    if platform:
        parts.append(platform.rstrip())
    if game is not None:
        if " ".join(topic.upper().split()) == "ORDERS":
            parts.append(game.help_text(None).rstrip())
        own = game.help_on(state, session.power, topic.strip())
        if own:
            parts.append(own.rstrip())
    if parts:
        return "\n\n".join(parts) + "\n"
    more = game.help_topics(state) if game is not None else []
    text = cmdhelp.no_help(topic, more)
    if game is None:
        text += "Help on a game's orders, tables and places needs your sign-on line before HELP.\n"
    return text
