"""A Pax Britannica game by mail through the real Dovecot and SMTP servers (the ``Table`` of
test_integration_game): the GM creates it on an empty board, seats four players and starts
it; each player's secret is read from the welcome mail."""
from __future__ import annotations

import re

import pytest

from helpers_mailtable import GM_SECRET, Table, find

#: the game's dice follow this seed, so a test is the same on every run
SEED = "0" * 64
PLAYERS = {"alice": "Britain", "bob": "France", "carol": "Germany", "dave": "United States"}


@pytest.fixture
def table(mail_servers, clean_mailboxes, tmp_path, monkeypatch):
    monkeypatch.setattr("pbem.play.turns.new_seed", lambda: SEED)
    t = Table(mail_servers, tmp_path)
    yield t
    t.close()


class PaxGame:
    """The game ``name`` created by the GM (``options``: more ``OPTION ...`` words) and
    started; ``secrets`` holds each power's secret."""

    def __init__(self, table, name: str, options: str = ""):
        self.table, self.name = table, name
        seats = "".join(f"GM ADD PLAYER {p.replace(' ', '-')} {table.servers.address(u)}\n"
                        for u, p in PLAYERS.items())
        table.send("gm", f"SIGNON GM@{name} {GM_SECRET}\nGM CREATE {name} RULES pax_britannica "
                         f"OPTION setup=empty{options}\n{seats}GM START\n")
        table.run()
        self.secrets = {}
        for user, power in PLAYERS.items():
            welcome = table.text(find(table.new_mail(user), "you play"))
            self.secrets[power] = re.search(r"Your secret is:\s+(\S+)", welcome).group(1)

    def gm(self, *commands: str) -> None:
        self.table.send("gm", f"SIGNON GM@{self.name} {GM_SECRET}\n" + "".join(f"GM {c}\n" for c in commands))

    def send(self, user: str, lines=(), done: bool = True) -> None:
        """A player's mail: its ``lines`` as ORDERS ... ENDORDERS, then DONE unless told not to."""
        power = PLAYERS[user]
        body = f"SIGNON {power.replace(' ', '-')}@{self.name} {self.secrets[power]}\n"
        if lines:
            body += "ORDERS\n" + "\n".join(lines) + "\nENDORDERS\n"
        self.table.send(user, body + ("DONE\n" if done else ""))


def flat(text: str) -> str:
    """Report lines are wrapped at 78 columns: read them as one line."""
    return " ".join(text.split())


def reports(table, user) -> str:
    return flat("\n".join(table.text(m) for m in table.new_mail(user) if "turn report" in m["Subject"]))
