"""Pax Britannica: the game the moderator plays (``GAME``, the :class:`~.game.PaxBritannica`
object).  How the code is laid out: README.md, "How the code is laid out"."""
from __future__ import annotations

from .core.data import load_data
from .game import GAME, PLAYABLE, PaxBritannica

__all__ = ["GAME", "PLAYABLE", "PaxBritannica", "load_data"]
