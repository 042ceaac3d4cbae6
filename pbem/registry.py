"""Games are found by name.  Built-in games live in the ``games`` package
(``games/<name>/__init__.py`` defines ``GAME``); other modules (the test game
under tests/) register themselves with :func:`register` or are named in the
``games.extra`` setting as ``module:attribute``."""
from __future__ import annotations

import importlib
import pkgutil

from .gameapi import Game

_games: dict[str, Game] = {}


def register(game: Game) -> Game:
    _games[game.name] = game
    return game


def load_extra(spec: str) -> Game:
    module, _, attr = spec.partition(":")
    game = getattr(importlib.import_module(module), attr or "GAME")
    return register(game)


def _discover() -> None:
    import games  # the built-in games package

    for info in pkgutil.iter_modules(games.__path__):
        if info.name.startswith("_") or info.name in _games:
            continue
        module = importlib.import_module(f"games.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            register(game)


def get(name: str) -> Game:
    if name not in _games:
        _discover()
    try:
        return _games[name]
    except KeyError:
        raise KeyError(f"no such game rules: {name!r} (known: {', '.join(names())})") from None


def names() -> list[str]:
    _discover()
    return sorted(_games)
