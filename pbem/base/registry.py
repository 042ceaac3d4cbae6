"""Games are found by name.  Built-in games live in the ``games`` package
(``games/<name>/__init__.py`` defines ``GAME``); other game modules (the test
game under tests/) are named as ``module:attribute`` in the ``server.games_extra``
setting or the ``PBEM_EXTRA_GAMES`` environment variable (comma-separated)."""
from __future__ import annotations

import importlib
import os
import pkgutil
import sys

from pbem.kit.gameapi import Game

_games: dict[str, Game] = {}
_broken: dict[str, str] = {}  # game package -> why it failed to import


def register(game: Game) -> Game:
    _games[game.name] = game
    return game


def load_extra(spec: str) -> Game:
    module, _, attr = spec.strip().partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError:
        # A plug-in beside the working directory (tests/testgame) is not on
        # the console script's path; look there before giving up.
        if os.getcwd() in sys.path:
            raise
        sys.path.append(os.getcwd())
        mod = importlib.import_module(module)
    game = getattr(mod, attr or "GAME")
    if not isinstance(game, Game):
        raise TypeError(f"{spec} is not a pbem game")
    return register(game)


def load_extras(specs=()) -> None:
    env = [s for s in os.environ.get("PBEM_EXTRA_GAMES", "").split(",") if s.strip()]
    for spec in [*specs, *env]:
        load_extra(spec)


def _discover() -> None:
    load_extras()

    for package in _builtin_packages():
        if package not in _games:
            _load_builtin(package)


def _builtin_packages() -> list[str]:
    """The built-in games' packages (``games/<name>``), found without importing them."""
    import games  # the built-in games package

    return [m.name for m in pkgutil.iter_modules(games.__path__) if not m.name.startswith("_")]


def _load_builtin(package: str) -> None:
    try:
        module = importlib.import_module(f"games.{package}")
    except Exception as exc:  # one broken game must not hide the others
        _broken[package] = f"{type(exc).__name__}: {exc}"
        return
    game = getattr(module, "GAME", None)
    if isinstance(game, Game):
        register(game)


def get(name: str) -> Game:
    if name not in _games:
        # The game asked for alone when it is a built-in package of that name (a command that
        # plays one game does not import the others), else every game.
        load_extras()
        if name not in _games and name not in _broken and name in _builtin_packages():
            _load_builtin(name)
    if name not in _games:
        _discover()
    try:
        return _games[name]
    except KeyError:
        if name in _broken:
            raise KeyError(f"game rules {name!r} failed to load: {_broken[name]}") from None
        raise KeyError(f"no such game rules: {name!r} (known: {', '.join(names())})") from None


def preload(names: list[str]) -> None:
    """Import these games' rules now (a game that fails to load is told when it is used)."""
    for name in names:
        try:
            get(name)
        except Exception:
            pass


def names() -> list[str]:
    _discover()
    return sorted(_games)


def listed() -> list[str]:
    """The games installed, without importing the built-in ones (each is named by its
    package, as its ``GAME.name`` is): for a command line's help, which a command that plays
    no game should not pay for."""
    load_extras()
    return sorted(set(_builtin_packages()) | set(_games))
