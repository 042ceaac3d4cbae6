"""Beacon with the bugs a rules module might have, for the poison-mail tests:
an order that never ends (SPIN), one that eats all memory (HOG), one that
kills the process outright (DIE, as a crash in C code would), a line it
reads as nothing at all (LOSE: neither an order nor a problem), and a GM edit
that raises (GM BREAK).  A test fixture, registered with
PBEM_EXTRA_GAMES=tests.buggygame:GAME."""
from __future__ import annotations

import os
import signal

from tests.beacon import Beacon


class Buggy(Beacon):
    name = "buggygame"
    title = "Beacon with bugs (test game)"

    def parse_orders(self, state, power, lines):
        for _, text in lines:
            word = text.strip().upper()
            if word == "SPIN":
                while True:
                    pass
            if word == "HOG":
                hoard = []
                while True:
                    hoard.append(bytearray(20_000_000))
            if word == "DIE":
                os.kill(os.getpid(), signal.SIGKILL)
        # LOSE: the bug of a parser that skips a line without a word.
        return super().parse_orders(state, power, [(n, t) for n, t in lines if t.strip().upper() != "LOSE"])

    def gm_command(self, state, text, dice):
        if text.strip().upper() == "BREAK":
            raise ZeroDivisionError("a bug in the game's GM edit")
        return super().gm_command(state, text, dice)


GAME = Buggy()
