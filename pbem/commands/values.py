"""The values written in command lines: dates, times, zones, durations,
addresses, secrets, options and the words of a grammar rule's children.  A bad
value raises :class:`BadValue`, whose code becomes the reply's problem code."""
from __future__ import annotations

import functools
import re
import zoneinfo
from datetime import date, datetime, timedelta

from lark import Token, Tree

from pbem.base import deadlines
from pbem.base.identity import MAX_SECRET_LENGTH, normalize_secret


class BadValue(ValueError):
    """A bad date, time, duration, address or option; ``code`` is the Problem code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def parse_duration(text: str) -> timedelta:
    """``48h``, ``2d``, ``1d12h``, ``90m``, ``45s``, ``1w``: the one duration
    reader of pbem (:func:`pbem.base.deadlines.parse_duration`), with its error as a
    :class:`BadValue` for a reply.  A command's duration is never zero."""
    try:
        duration = deadlines.parse_duration(text)
    except ValueError as exc:
        raise BadValue("bad-duration", str(exc)) from None
    if not duration:
        raise BadValue("bad-duration", f"{text!r} is no time at all")
    return duration


format_duration = deadlines.format_duration



_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_DATETIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2})", re.I)
_ADDRESS = re.compile(r"[^@\s<>,]+@[^@\s<>,.][^@\s<>,]*")
_ZONE_SHAPE = re.compile(r"[A-Za-z_]+(?:/[A-Za-z0-9_+\-]+)*")


def day(text: str) -> date:
    found = _DATE.fullmatch(text)
    try:
        if found:
            return date(*map(int, found.groups()))
    except ValueError:
        pass
    raise BadValue("bad-date", f"{text!r} is not a date (write it as 2026-01-31)")


@functools.cache
def _zones() -> dict[str, str]:
    return {z.lower(): z for z in zoneinfo.available_timezones()}


#: how a player's report shows the map: an inline PNG every mail client shows, the
#: reader's own inline SVG, only the link to the archive, or nothing
MAP_CHOICES = ("png", "svg", "link", "none")


def map_choice(text: str) -> str:
    if text.lower() in MAP_CHOICES:
        return text.lower()
    raise BadValue("bad-map-choice", f"{text!r} is not a way to show the map (write PNG, SVG, LINK or NONE)")


def zone(text: str) -> str:
    if text.upper() in ("UTC", "Z"):
        return "UTC"
    zones = _zones()
    if zones:
        if text.lower() in zones:
            return zones[text.lower()]
    elif _ZONE_SHAPE.fullmatch(text):  # no zone database here: trust the shape
        return text
    raise BadValue("bad-time", f"{text!r} is not a time zone (write e.g. Europe/London or UTC)")


def parse_time(words: list[str]) -> tuple[datetime, str | None]:
    """``2026-01-05 18:00 [zone]`` or ``2026-01-05T18:00 [zone]``; raises BadValue."""
    usage = "write it as 2026-01-05 18:00, optionally followed by a zone"
    if "T" in words[0].upper():
        stamp, rest = words[0], words[1:]
    else:
        stamp, rest = "T".join(words[:2]), words[2:]
    found = _DATETIME.fullmatch(stamp)
    when = None
    if found:
        try:
            when = datetime(*map(int, found.groups()))
        except ValueError:
            pass
    if when is None:
        raise BadValue("bad-time", f"{' '.join(words)!r} is not a time ({usage})")
    if len(rest) > 1:
        raise BadValue("bad-time", f"unexpected {' '.join(rest[1:])!r} after the time zone")
    return when, (zone(rest[0]) if rest else None)


def address(text: str) -> str:
    text = text.strip("<>")
    if not _ADDRESS.fullmatch(text) or text.endswith("."):
        raise BadValue("bad-address", f"{text!r} is not an email address")
    return text


def secret(text: str) -> str:
    """A new secret (SET PASSWORD, JOIN): something must be left once case,
    spaces and hyphens are set aside, and it must fit on a line."""
    if not normalize_secret(text):
        raise BadValue("empty-secret", f"{text!r} cannot be a secret: it needs a letter or a digit "
                       "(spaces and hyphens are not counted)")
    if len(text) > MAX_SECRET_LENGTH:
        raise BadValue("secret-too-long", f"a secret may have at most {MAX_SECRET_LENGTH} characters")
    return text


def power_and_address(text: str, command: str) -> tuple[str, str]:
    """``<power> <email>``, where the power may be several words ("United
    States"): the GM writes the name as the reports print it."""
    *power, written = text.split()
    if not power:
        raise BadValue("missing-argument", f"{command} needs a power and an email address "
                       f"(write it as: {command} <power> <email>)")
    return " ".join(power), address(written)


def option(text: str) -> tuple[str, str]:
    key, eq, value = text.partition("=")
    if not key or not eq:
        raise BadValue("bad-option", f"{text!r} is not an option (write it as key=value)")
    return key, value


def phrase(tok) -> str | None:
    """The rest of a line (a lark TEXT), its spacing made single; None when absent."""
    return " ".join(str(tok).split()) if tok is not None else None


def names(tree: Tree) -> tuple[str, ...]:
    """The names of a grammar ``names`` rule, as written."""
    return tuple(str(t) for t in tree.children)


def gm_power(name: str) -> str:
    """The power of a sign-on: GM in any case is the GM."""
    return "GM" if name.upper() == "GM" else name


def recipients(tree: Tree) -> tuple[str, ...] | str:
    """PRESS TO's ``recipients``: the powers as written, or "ALL"."""
    to = tree.children[0]
    return "ALL" if isinstance(to, Token) else names(to)


def period(first: str, last: str) -> tuple[date, date]:
    """SET ABSENCE's two dates, the first not after the last."""
    start, end = day(first), day(last)
    if end < start:
        raise BadValue("bad-date", f"the absence ends ({end}) before it starts ({start})")
    return start, end
