"""The problem codes: every refused line of a mail is answered ``[code] message``,
and each code means one thing, said here for a player.

A catalogue is data: the platform's codes are :data:`PLATFORM` below (those the
moderator itself says, and the few every game may use for the same thing: see
:data:`SHARED`); a game keeps its own in ``games/<name>/problems.py`` as a
:class:`Catalogue` named ``CATALOGUE``.  ``docs/problems.md`` is made from the
catalogues (``python -m pbem.base.problem_docs``), and a test finds every code
the sources use and checks each is catalogued, each catalogued code is used,
and the page matches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator


@dataclass(frozen=True)
class Code:
    """One problem code: what it means, for a player, and what to do about it."""

    code: str
    meaning: str
    remedy: str = ""

    def line(self) -> str:
        """The code's meaning and remedy as one sentence pair."""
        text = _sentence(self.meaning)
        return f"{text} {_sentence(self.remedy)}" if self.remedy else text


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


class Catalogue:
    """The codes of one package, in the order written."""

    def __init__(self, package: str, title: str, codes: Iterable[Code], about: str = ""):
        self.package, self.title, self.about = package, title, about
        self.codes: dict[str, Code] = {}
        for entry in codes:
            if entry.code in self.codes:
                raise ValueError(f"{package}: problem code {entry.code} is catalogued twice")
            self.codes[entry.code] = entry

    def __contains__(self, code: object) -> bool:
        return code in self.codes

    def __iter__(self) -> Iterator[Code]:
        return iter(self.codes.values())

    def __len__(self) -> int:
        return len(self.codes)

    def get(self, code: str) -> Code | None:
        return self.codes.get(code)

    def markdown(self) -> str:
        """This catalogue as a section of docs/problems.md: one table row a code, by name."""
        rows = [f"## {self.title}", ""]
        if self.about:
            rows += [self.about, ""]
        rows += ["| code | what it means |", "|---|---|"]
        rows += [f"| `{c.code}` | {_cell(c.line())} |" for c in sorted(self, key=lambda c: c.code)]
        return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    """Text as a Markdown table cell: no column breaks, and <placeholders> shown, not read as HTML."""
    return text.replace("|", "/").replace("<", "&lt;").replace(">", "&gt;")


def describe(code: str, game: Catalogue | None = None) -> str | None:
    """What ``code`` means, for a player: the game's own meaning first, else the platform's."""
    for catalogue in (game, PLATFORM):
        entry = catalogue.get(code) if catalogue is not None else None
        if entry is not None:
            return entry.line()
    return None


#: codes any game may use, meaning the same in every game (the platform says none of them itself)
SHARED = [
    Code("wrong-phase", "this order is not taken in the phase (or step) being played: it belongs to another",
         "HELP ORDERS lists the orders taken now"),
    Code("invalid-order", "the line was not understood as an order of this game",
         "the reply shows the order forms; HELP ORDERS lists them"),
    Code("not-an-order", "the line is no order of this game at all (a greeting, a signature, a typo in the "
         "first word)", "the reply names the nearest command or order form"),
    Code("breaks-treaty", "a warning: the order breaks a treaty you are party to; it stands if you keep it",
         "send the orders again without it to keep the treaty"),
    Code("unknown-question", "the GM ruled on a question the game has not asked",
         "rule on one of the open questions, if the reply lists any"),
]

PLATFORM = Catalogue("pbem", "The moderator (every game)", [
    # -- reading the mail
    Code("too-large", "the mail is larger than the moderator reads; nothing in it was read",
         "send the orders as plain text"),
    Code("too-deep", "the mail nests its parts too deep; the deepest parts were not read",
         "send the orders as plain text"),
    Code("no-commands", "no command was found in the mail", "send HELP for the list of commands"),
    Code("too-many-commands", "the mail has more command lines than are read; the rest were not",
         "send the rest in another mail"),
    Code("unknown-command", "the first word of the line (or the word after it) is not a command",
         "the reply suggests the nearest command; HELP lists them"),
    Code("missing-argument", "the command needs more than the line gives", "HELP <command> shows how to write it"),
    Code("extra-argument", "the line has more after the command than it takes", "HELP <command> shows how to write it"),
    Code("bad-syntax", "the command's arguments were not understood", "HELP <command> shows how to write it"),
    Code("unterminated-block", "a block (ORDERS, PRESS, TREATY...) has no closing END line; it was not taken",
         "close it with its END line (ENDORDERS, ENDPRESS...)"),
    Code("unexpected-end", "a closing line (END..., ENDPROPOSE) closes nothing that is open"),
    Code("bad-date", "a date (or a span of dates) is not one", "write dates as 2026-01-31"),
    Code("bad-map-choice", "SET MAP takes PNG, SVG, LINK or NONE", "write e.g. SET MAP PNG"),
    Code("bad-time", "a time or a time zone is not one", "write e.g. 2026-01-31 18:00 Europe/London"),
    Code("bad-duration", "a length of time is not one", "write e.g. 48h, 2d or 1d12h"),
    Code("bad-address", "the email address is not one"),
    Code("bad-option", "an option is not written key=value, or its value is not one the game takes"),
    Code("empty-secret", "a secret needs at least one letter or digit"),
    Code("secret-too-long", "the secret is longer than a secret may be"),
    Code("secret-too-short", "the new secret has too few letters or digits; it was not changed"),
    Code("text-too-long", "the text of the command (press, a treaty...) is longer than is taken; nothing of it "
         "was done", "shorten it"),
    Code("line-too-long", "the order line is longer than any order; it was not read"),
    Code("too-many-orders", "the mail has more order lines than are read; those past the limit were not",
         "send the rest in another mail"),
    Code("too-much-help", "the mail asks for more HELP topics than are answered at once",
         "ask for the others in another mail"),
    Code("unread-line", "the game read the line as no order and gave no reason; nothing of it was stored",
         "write it again as HELP ORDERS shows, or ask the GM"),
    Code("not-understood", "the line is neither a command nor an order of the phase being played (the reply "
         "says when its first word is an order of another phase)",
         "the reply names the nearest form; HELP <word> says when an order is written"),
    # -- signing on
    Code("no-signon", "the command needs a sign-on first; nothing that needs one was done",
         "begin the mail with SIGNON <power>@<game> <secret>"),
    Code("incomplete-signon", "the sign-on lacks the game, the power or the secret"),
    Code("duplicate-signon", "the mail signs on twice; only the first sign-on counts"),
    Code("unknown-game", "there is no game of that name", "the reply suggests the nearest name"),
    Code("unknown-power", "the power named is not one of this game's powers (or has no player)",
         "the reply suggests the nearest power"),
    Code("wrong-secret", "the secret is wrong; nothing in the mail was done"),
    Code("too-many-wrong-secrets", "too many wrong secrets were sent for this power or from this address; "
         "sign-ons wait a while", "wait until the time the reply gives; the GM can help"),
    Code("not-address-of-record", "the game takes this power's mail only from its address of record",
         "send from that address, or ask the GM to add this one"),
    Code("missing-token", "the game asks for the TOKEN line of your last turn report with each mail",
         "quote the line TOKEN <token> from your last turn report"),
    Code("not-gm", "GM commands need the GM sign-on", "sign on with SIGNON GM@<game> <GM secret>"),
    Code("no-power", "the GM command acts for a power, and the GM has not named one",
         "write GM BECOME <power> before it"),
    Code("unsupported", "the command is understood but not taken here"),
    Code("over-limit", "the mail (or the hour) has used up how many of these commands are done; this one was "
         "not", "send it again later; README: Security"),
    Code("internal-error", "the moderator failed on this command; nothing of it was done, the rest of the mail "
         "was handled", "the GM is told; try again later"),
    # -- playing
    Code("game-not-running", "the game is not running (not started yet, or over), so this is not taken"),
    Code("no-orders-due", "no orders are due from your power in the phase being played"),
    Code("done-after-refusal", "DONE was not taken because an earlier line of the same mail was refused",
         "send the refused line corrected, or DONE alone to let what was accepted stand"),
    Code("orders-for-other-phase", "the ORDERS line names a phase other than the one being played; "
         "nothing was stored", "send the orders again under a plain ORDERS line"),
    Code("nothing-to-resend", "no resolved phase matches what RESEND names", "the reply lists the resolved phases"),
    Code("bad-absence", "the absence is not one that can be noted (it ends before it starts, is too long or "
         "starts too far ahead)"),
    Code("game-not-forming", "the game takes no new players"),
    Code("power-taken", "the power already has a player", "the GM replaces a player with GM REPLACE"),
    Code("seat-limit", "this address already plays a power in the game",
         "the GM may allow more (OPTION seats_per_address=2)"),
    Code("too-many-addresses", "a power has at most a few addresses; none of these was taken"),
    Code("unknown-token", "no confirmation waits for this token (mistyped, used, replaced or too old)"),
    Code("wrong-address", "a confirmation must come from the address the token was mailed to"),
    # -- treaties
    Code("no-treaties", "this game has no treaties", "agreements are made in press"),
    Code("no-gm-commands", "the game takes no GM commands of its own; GM <command> is one of the moderator's",
         "HELP GM lists them"),
    Code("no-rulings", "the game asks the GM no questions, so there is nothing to rule on"),
    Code("unknown-treaty", "you are not a party to a treaty of that id"),
    Code("treaty-ambiguous", "you see several treaties of that id", "name one as the reply shows"),
    Code("treaty-exists", "a treaty of that id exists already", "choose another id"),
    Code("treaty-id", "a treaty id may not hold '~'"),
    Code("treaty-parties", "the treaty's parties do not fit (it needs another party; a breach is claimed against "
         "another party)"),
    Code("treaty-closed", "the treaty is past what this needs: no longer proposed (to sign or withdraw it) or "
         "not in force (to claim a breach or rule on it)"),
    Code("treaty-public", "the treaty is public already"),
    Code("treaty-concluded", "the treaty was concluded by the game, not by TREATY commands; they do not act on it"),
    # -- the game refuses, and the GM's commands
    Code("refused", "the game refused this (the message says why)"),
    Code("gm-edit", "the GM edit or command cannot be applied (the message says why)"),
    Code("no-change", "the GM edit would leave the game as it stands (for every game)",
         "the reply names the edit; nothing is stored"),
    Code("not-gm-command", "the line after GM (or typed at the GM console) is not a GM command",
         "write it without GM"),
    Code("wrong-game-status", "the game is not in a state this GM command works in"),
    Code("bad-game-name", "a game name has at most 40 letters, digits, '-', '_' or '.', starting with a letter "
         "or digit"),
    Code("game-exists", "a game of that name exists already"),
    Code("unknown-rules", "there are no game rules of that name"),
    Code("unknown-option", "the game has no option of that name; the game was not created",
         "the reply lists its options"),
    Code("bad-data-file", "the GM data file does not fit the game; the game was not created"),
    Code("cannot-start", "the game cannot start yet (the message says what is missing)"),
    Code("pause-cap", "the game's pauses are all used"),
    Code("no-deadline", "the game is not waiting for orders, so there is no deadline to change"),
    Code("extension-cap", "the deadline cannot be extended further"),
    Code("deadline-past", "the new deadline is in the past"),
    Code("bad-rollback", "the rollback names no single resolved phase", "the reply lists the resolved phases"),
    *SHARED,
], about="Codes the moderator says in every game. A game may say them too, with the same meaning "
         "(`unknown-power`, `bad-option`, `treaty-closed`...), and five are said by the games only, for "
         "the same thing in each: `wrong-phase`, `invalid-order`, `not-an-order`, `breaks-treaty` and "
         "`unknown-question`. A game's own codes are in its section below.")
