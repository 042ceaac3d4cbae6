"""A Pax Britannica game by mail on the loop helper: four players seated by the
GM, the game started and run up to the 1880 Movement/Status Change Phase."""
from __future__ import annotations

from helpers_loop import GM_SECRET, Loop, secret_in

GM = "gm@example.test"
POWERS = ("Britain", "France", "Germany", "United-States")


def address(power: str) -> str:
    return f"{power.lower()}@example.test"


class PaxTable:
    """``monkeypatch`` (pytest's) fixes the game's dice: the moderator draws a new
    secret seed for every game, and a test needs the same board on every run."""

    def __init__(self, tmp_path, monkeypatch, name: str = "pax", options: str = "",
                 seed: str = "pax-table-seed", powers: tuple[str, ...] = POWERS):
        monkeypatch.setattr("pbem.play.turns.new_seed", lambda: seed)
        self.loop = Loop(tmp_path)
        self.name = name
        self.powers = powers
        seats = "".join(f"GM ADD PLAYER {p} {address(p)}\n" for p in powers)
        status = self.loop.mail(GM, f"SIGNON GM@{name} {GM_SECRET}\nGM CREATE {name} RULES pax_britannica"
                                    f"{options}\n{seats}GM START\n")
        assert status == "done"
        self.loop.flush()
        self.secrets = {}
        for p in powers:
            welcome = [m for m in self.loop.inbox(address(p)) if "you play" in m["Subject"]][0]
            self.secrets[p] = secret_in(welcome.get_body(("plain",)).get_content())
        self.loop.tick()
        self.loop.flush()

    @property
    def ctx(self):
        return self.loop.ctx

    def say(self, power: str, *lines: str, sender: str | None = None) -> str:
        """A player's mail; returns the reply's text."""
        self.loop.mail(sender or address(power), f"SIGNON {power}@{self.name} {self.secrets[power]}\n"
                       + "\n".join(lines) + "\n")
        self.loop.flush()
        return self.loop.last_text(sender or address(power))

    def gm(self, *lines: str) -> str:
        self.loop.mail(GM, f"SIGNON GM@{self.name} {GM_SECRET}\n" + "\n".join(lines) + "\n")
        self.loop.flush()
        return self.loop.last_text(GM)

    def mails(self, power_or_address: str, subject_part: str = "") -> list:
        to = power_or_address if "@" in power_or_address else address(power_or_address)
        return self.loop.about(to, subject_part)

    @staticmethod
    def text(msg) -> str:
        return msg.get_body(("plain",)).get_content()

    @staticmethod
    def html(msg) -> str:
        return msg.get_body(("html",)).get_content()

    def all_order(self, lines: dict[str, list[str]] | None = None) -> list[str]:
        """Every power sends orders (BUILD ARMY 1 unless given), then the phase runs."""
        lines = lines or {}
        for p in self.powers:
            self.say(p, "ORDERS", *(lines.get(p) or ["BUILD ARMY 1"]), "ENDORDERS")
        done = self.loop.tick()
        self.loop.flush()
        return done
