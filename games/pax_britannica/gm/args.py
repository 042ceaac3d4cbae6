"""Reading a GM command: its words, and a cursor over them that reads powers, places and
numbers with the replies a GM understands; and how an edit of a private figure is told."""
from __future__ import annotations

from pbem.kit import audience
from pbem.kit.gameapi import GMError

from ..core import board
from ..core.audiences import players_of
from ..core.reading import Tok
from ..report.words import poss

STATUS_WORDS = {"INTEREST", "INFLUENCE", "PROTECTORATE", "POSSESSION", "DOMINION", "STATE"}
KEYWORDS = {"SET", "REMOVE", "CLEAR", "TREASURY", "VP", "MARKER", "UNESTABLISHED", "ESTABLISHED",
            "ARMY", "NAVY", "MERCHANT", "UNREST", "ETI", "CRI", "CB", "AREA", "WAR", "VS",
            "TREATY", "SECRET", "CANAL", "POOL", "DEFICIT", "HEADLINE", "PERMISSION",
            "SPENDCAP", "FORCED", "NAVAL", "ONCE", "STATUS", "MAX", "LAST", "TURN", "ADD", "BLAME", "STEP",
            "CONGRESS", "CALLER", "OPTION", "SIGN", "REFUSE", "WITHDRAW", "REVEAL",
            "BREACH", "ASSIGN", "TO", "REBELLION", "DEFEATED", "CONQUERED", "AT", "SEA"} | STATUS_WORDS
#: GM TREATY <Power> <action> <id> acts for a party, as its TREATY command would
TREATY_ACTIONS = ("SIGN", "REFUSE", "WITHDRAW", "REVEAL", "BREACH")
UNIT_STRENGTHS = (1, 3, 10)
NATIVE_STRENGTH = 5  # Rules: PLAYING PIECES - Chinese and Ottoman armies are 5s


class Args:
    """A cursor over the tokens of one command."""

    def __init__(self, toks: list[Tok], data, text: str):
        self.toks, self.data, self.text, self.i = toks, data, text, 0
        self.clauses = ""

    def more(self) -> bool:
        return self.i < len(self.toks)

    def peek_kw(self, *words: str) -> bool:
        return self.more() and self.toks[self.i].kind == "kw" and self.toks[self.i].text in words

    def kw(self, *words: str) -> str:
        if not self.peek_kw(*words):
            raise GMError(f"expected {' or '.join(words)} in: {self.text}")
        self.i += 1
        return self.toks[self.i - 1].text

    def opt(self, word: str) -> bool:
        if self.peek_kw(word):
            self.i += 1
            return True
        return False

    def num(self) -> int:
        if not self.more() or self.toks[self.i].kind != "num":
            raise GMError(f"expected a number in: {self.text}")
        self.i += 1
        return int(self.toks[self.i - 1].text)

    def name(self) -> str:
        if not self.more() or self.toks[self.i].kind != "name":
            raise GMError(f"expected a name in: {self.text}")
        self.i += 1
        return self.toks[self.i - 1].text

    def power(self, natives: bool = False) -> str:
        text = self.name()
        power = self.data.resolve_power(text, natives=natives)
        if power is None:
            hint = self.data.suggest(text, *(("power", "native") if natives else ("power",)))
            raise GMError(f"unknown power {text!r}" + (f" (did you mean {hint}?)" if hint else ""))
        return power

    def place(self, kinds: str = "area", home_power: str | None = None) -> str:
        text = self.name()
        found = self.data.resolve_place(text, home_power)
        ok = found and (found in self.data.areas or "home" in kinds and self.data.home_of(found)
                        or "sea" in kinds and (found in self.data.seas or found in self.data.capes))
        if not ok:
            hint = self.data.suggest(text, "area" if kinds == "area" else "sea" if kinds == "sea" else "place")
            raise GMError(f"unknown {kinds.replace('|', ' or ')} {text!r}"
                          + (f" (did you mean {hint}?)" if hint else ""))
        return found

    def end(self) -> None:
        if self.more():
            raise GMError(f"unexpected {self.toks[self.i].text!r} in: {self.text}")


def private_edit(state: dict, power: str, what: str, n: int) -> list[dict]:
    """An edit of a figure on ``power``'s own sheet (Rules: ADMINISTRATIVE RECORD SHEETS):
    everyone learns the GM changed it, its player alone the new figure."""
    return [{"kind": "gm", "text": f"{poss(power)} {what}", "changed": True},
            audience.tag({"kind": "gm", "text": f"{what} {power} = {n}"},
                         audience.powers(players_of(state, [power])))]


def home_aware(a: Args, power: str) -> None:
    """Resolve a following HOME as ``power``'s Home Country."""
    if a.more() and a.toks[a.i].kind == "name" and a.toks[a.i].text.lower() == "home":
        a.toks[a.i] = Tok("name", board.home_name(a.data, power) or "HOME", True)
