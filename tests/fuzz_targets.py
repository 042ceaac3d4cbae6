"""What the fuzzers throw inputs at, and the mutator the long run uses.

Shared by the short run in the suite (tests/platform/test_fuzz.py, with hypothesis)
and the long run (bench/fuzz.py, at least a million inputs).  Each target
takes one input and raises only when pbem broke a promise: an exception
escaped, or a bad input went unanswered.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

from pbem.base import registry
from pbem.inbound import intake
from pbem.handlers import reading
from pbem.handlers.reading import parse_mail
from pbem.kit.capabilities import supports
from pbem.kit.dice import SeededDice
from pbem.kit.gameapi import Problem
from pbem.mail.normalize import parse_message
from pbem.mail.quotes import strip_quotes
from pbem.mail.source import RawMail
from pbem.outbound.secrets_at_rest import find_secrets, mask_raw

HERE = Path(__file__).parent
SEED_FOLDERS = (HERE / "corpus", HERE / "hostile")


# -- targets ----------------------------------------------------------------------------------

def normaliser(data: bytes) -> None:
    """Any bytes are a mail: parsed without an exception, into text."""
    mail = parse_message(data, max_bytes=200_000)
    assert isinstance(mail.text, str) and isinstance(mail.sender, str)
    assert mail.sender == "" or "@" in mail.sender
    assert "\n" not in mail.subject and "\r" not in mail.subject
    secrets = find_secrets(mail.full_text, mail.subject)
    masked = mask_raw(data, secrets)
    assert isinstance(masked, bytes)


def envelope(text: str) -> None:
    """Any text is a mail body: every line is a command, part of a block, a problem
    with a stable code and a line number inside the mail, or named as not read."""
    parsed = parse_mail(text)
    lines = len(re.split(r"\r\n|\r|\n", text))
    for problem in parsed.problems:
        assert isinstance(problem, Problem) and re.fullmatch(r"[a-z][a-z-]*", problem.code), problem
        # The reader holds or names every line itself: its net catches nothing.
        assert problem.code != "unread-line", (problem, text)
        assert problem.line is None or 1 <= problem.line <= lines, (problem, lines)
        assert problem.message
    for cmd in parsed.commands:
        cmd.canonical(), cmd.echo()


def written_lines(body: str, own: list[str]) -> None:
    """A reply as a mail program writes it (tests/reply_shapes.py): once the quote is
    removed, exactly the player's own lines are left, none lost and none quoted."""
    left = [line.strip() for line in strip_quotes(body).splitlines() if line.strip()]
    assert left == [line.strip() for line in own if line.strip()], (body, left)


class OrderTarget:
    """One game's order grammar (and its read-only validation) in a phase that
    takes orders."""

    def __init__(self, name: str):
        self.game = registry.get(name)
        self.name = name
        self.state, self.power = _ordering_state(self.game)
        #: the order forms the game lists (none for a game without a guide: the
        #: fuzzer's words alone, then)
        self.forms = self.game.order_forms() if supports(self.game, "guide") else []

    def __call__(self, lines: list[str]) -> None:
        # As the moderator gives them: lines with text, without their comments.
        numbered = [(n, clean) for n, t in enumerate(lines, 1) if (clean := order_line(t))]
        result = self.game.parse_orders(self.state, self.power, numbered)
        for problem in result.problems:
            assert isinstance(problem, Problem) and problem.code, problem
        # Every line with text is an order's, a problem's or part of one (ParseResult).
        assert not result.unaccounted(numbered), (self.name, result.unaccounted(numbered), lines)
        self.game.validate(self.state, self.power, result.orders)


def order_line(text: str) -> str:
    """A line as an orders block gives it to the game: without its comment ("" if none is left)."""
    return reading.clean(text)


def _ordering_state(game) -> tuple[dict, str]:
    """A state of ``game`` in its first phase that owes orders, and a power that owes them."""
    players, options = game.demo_setup() if supports(game, "bots") else (list(game.roster({}).powers), {})
    state = game.setup(players, options, SeededDice(seed="fuzz", context="setup"))
    for step in range(40):
        phase = game.phase(state)
        if phase.owes:
            return state, sorted(phase.owes)[0]
        orders = {p: game.defaults(state, p) for p in phase.owes}
        state, _ = game.resolve(state, orders, SeededDice(seed="fuzz", context=f"{step}"))
    raise AssertionError(f"{game.name}: no phase owes orders in the first 40")


def order_targets() -> list[OrderTarget]:
    registry.load_extra("tests.beacon:GAME")
    registry.load_extra("tests.testgame:GAME")
    return [OrderTarget(name) for name in registry.names()]


def whole_loop(loop, n: int, body: bytes) -> None:
    """``body`` as the ``n``-th mail of a stranger, handled by the whole moderator of
    ``loop`` (tests/helpers_loop.py): it is done or refused, never broken, and gets
    exactly one reply."""
    raw = (f"From: fuzz{n}@players.test\nTo: pbem@example.test\nSubject: fuzz\n"
           f"Message-ID: <fuzz{n}@players.test>\n\n").encode() + body
    msg_id = intake.store_raw(loop.ctx, RawMail(f"fuzz:{n}", raw))
    status = intake.process(loop.ctx, msg_id)
    row = loop.db["messages"].get(msg_id)
    assert status in ("done", "rejected"), (status, row["outcome"], row["error"])
    replies = loop.db["outbox"].count_where("source = ? and kind = 'reply'", [msg_id])
    assert replies == 1, (replies, row["outcome"])


# -- the mutator of the long run -------------------------------------------------------------

TOKENS = [
    b"SIGNON ", b"GM@", b"@pax1 ", b"ORDERS\n", b"ENDORDERS\n", b"PRESS TO ALL\n", b"ENDPRESS\n",
    b"HELP\n", b"SET PASSWORD ", b"SET ADDRESS ", b"JOIN ", b"CONFIRM ", b"TREATY PROPOSE t WITH ",
    b"GM CREATE g RULES beacon OPTION data=", b"../../etc/passwd", b"/dev/zero", b"\x00", b"\r\n",
    b"\n.\n", b"=?utf-8?B?", b"?=", b"=?x-unknown?Q?=FF=FE?=", b"Content-Type: multipart/mixed; boundary=b\n",
    b"--b\n", b"--b--\n", b"Content-Transfer-Encoding: base64\n", b"Content-Transfer-Encoding: quoted-printable\n",
    b"charset=\"utf-7\"", b"<html><body>", b"</blockquote>", b"> ", b"-- \n", b"\xff\xfe", b"\xc3\x28",
    b"\xed\xa0\x80", b"(", b")", b"\"", b"<", b">", b"From: ", b"Message-ID: <a@b>\n", b"Subject: ",
    b"BID 99999999999999999999\n", b"BUY INFLUENCE ", b"MOVE ARMY 3 HOME TO ", b" VIA ", b"#", b"//",
    b"A" * 300, b"\t", b"\x1b[31m", "\u202e".encode("utf-8"),
]


def seeds() -> list[bytes]:
    found = []
    for folder in SEED_FOLDERS:
        if folder.is_dir():
            found.extend(p.read_bytes() for p in sorted(folder.glob("*.eml")))
    return found or [b"From: a@b.test\nSubject: s\n\nSIGNON North@g1 pw\nORDERS\nBID 3\n"]


def mutate(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    """One to four random edits of ``data``: flipped, cut, repeated or inserted bytes,
    a hostile token, or a slice of another seed."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(7)
        at = rng.randint(0, len(data))
        if kind == 0 and data:
            data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif kind == 1:
            data[at:at] = rng.choice(TOKENS)
        elif kind == 2 and data:
            end = min(len(data), at + rng.randint(1, 64))
            del data[at:end]
        elif kind == 3 and data:
            end = min(len(data), at + rng.randint(1, 80))
            data[at:at] = data[at:end] * rng.randint(2, 20)
        elif kind == 4:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif kind == 5:
            other = rng.choice(pool)
            start = rng.randint(0, len(other))
            data[at:at] = other[start:start + rng.randint(1, 400)]
        else:
            data[at:at] = b"\n" + rng.choice(TOKENS) + b"\n"
    return bytes(data[:300_000])


def as_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")
