"""Who may see a fact, as data, and the one gate that decides what a reader may see.

Every event a game emits, and every record, notice, press item and GM-log entry the platform
makes, carries its audience.  An audience is one of:

- :func:`public` -- everyone, the public archive included;
- :func:`powers` -- the powers named (a private figure, press to some powers);
- :func:`treaty` -- the parties of a treaty while it is secret, everyone once it is revealed
  (resolved against the game's treaty book when a text is made for a reader, so a fact made
  while a treaty was secret is shown to all once it is revealed);
- :func:`gm` -- the game's GM alone (a question for the GM);
- :func:`admin` -- the site's admin alone (the daemon's own business).

The GM of a game may see everything of the game but the admin's facts.  A reader is a power's
name or one of the roles :data:`PUBLIC`, :data:`GM` and :data:`ADMIN`.

In events (and the database) an audience is plain JSON, the form :meth:`Audience.to_json`
gives: ``"public"``, ``"gm"``, ``"admin"``, ``{"powers": [...]}`` or ``{"treaty": id,
"parties": [...]}`` (the parties as the treaty had them, used only when the book no longer
knows the treaty).  Games write it with :func:`tag` and these constructors; the platform
reads it with :func:`of` and asks :func:`admits`, the one gate, what a reader may see.

A fact without an audience is shown to the GM alone: a game that forgets one loses
nothing secret and stops nothing, and the leak oracle's check that every event carries an
audience finds the omission.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Mapping, Union

from pbem.kit.capabilities import supports

#: where an event or a record keeps its audience
KEY = "audience"


class Role(str, Enum):
    """The readers that are no power."""

    PUBLIC = "the public"
    GM = "the GM"
    ADMIN = "the site admin"


PUBLIC, GM, ADMIN = Role.PUBLIC, Role.GM, Role.ADMIN
Reader = Union[str, Role]


@dataclass(frozen=True)
class Audience:
    """``kind`` is ``public``, ``gm``, ``admin``, ``powers`` or ``treaty``."""

    kind: str
    powers: tuple[str, ...] = ()
    treaty: str | None = None

    def to_json(self) -> Any:
        if self.kind == "powers":
            return {"powers": list(self.powers)}
        if self.kind == "treaty":
            return {"treaty": self.treaty, "parties": list(self.powers)}
        return self.kind

    @classmethod
    def from_json(cls, data: Any) -> "Audience | None":
        if isinstance(data, Audience):
            return data
        if data in ("public", "gm", "admin"):
            return cls(data)
        if isinstance(data, Mapping):
            if "treaty" in data:
                return cls("treaty", tuple(data.get("parties") or ()), str(data["treaty"]))
            if "powers" in data:
                return cls("powers", tuple(data["powers"] or ()))
        return None


def public() -> Audience:
    return Audience("public")


def gm() -> Audience:
    return Audience("gm")


def admin() -> Audience:
    return Audience("admin")


def powers(*names: str | Iterable[str]) -> Audience:
    """The powers named (each argument a name or several), in the order first given."""
    flat: list[str] = []
    for name in names:
        for one in ([name] if isinstance(name, str) else list(name)):
            if one and one not in flat:
                flat.append(one)
    return Audience("powers", tuple(flat))


def treaty(treaty_id: str, parties: Iterable[str] = ()) -> Audience:
    """The parties of treaty ``treaty_id`` while it is secret, everyone once it is revealed."""
    return Audience("treaty", tuple(parties), str(treaty_id))


def tag(fact: dict, audience: Audience) -> dict:
    """``fact`` with its audience (changed in place, and returned)."""
    fact[KEY] = audience.to_json()
    return fact


def of(fact: Mapping | None) -> Audience | None:
    """The audience a fact carries, or None when it carries none."""
    return Audience.from_json(fact.get(KEY)) if isinstance(fact, Mapping) else None


# -- the treaty book --------------------------------------------------------------------------

#: treaty key (lower case) -> (secret, parties)
Book = Mapping[str, tuple[bool, tuple[str, ...]]]


def book_of(records: Iterable[Mapping]) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """The book the gate reads treaty audiences against: a game's treaty records (all of
    them, ``treaty_records(state, None, gm=True)``), by key."""
    out: dict[str, tuple[bool, tuple[str, ...]]] = {}
    for r in records:
        key = str(r.get("key") or r.get("id") or "")
        if key:
            out[key.lower()] = (bool(r.get("secret")), treaty_readers(r))
    return out


def treaty_readers(record: Mapping) -> tuple[str, ...]:
    """Who reads a treaty as a party: each party, or the power whose player writes for it
    (a record's ``seats``: party -> that power, for a party no player holds)."""
    seats = record.get("seats") or {}
    return tuple(dict.fromkeys(seats.get(p, p) for p in record.get("parties") or ()))


def treaty_of(record: Mapping) -> Audience:
    """The audience of a treaty's record: its readers while it is secret, everyone after."""
    return treaty(str(record.get("key") or record["id"]), treaty_readers(record))


def game_book(game: Any, state: Any) -> dict[str, tuple[bool, tuple[str, ...]]]:
    """The book of a game (a :class:`pbem.kit.gameapi.Game`) in ``state``: every treaty it keeps."""
    if state is None or not supports(game, "treaties"):
        return {}
    return book_of(game.treaty_records(state, None, gm=True))


# -- the gate ---------------------------------------------------------------------------------

def admits(audience: Audience | Any, reader: Reader, book: Book) -> bool:
    """Whether ``reader`` may see a fact with ``audience`` (JSON or an :class:`Audience`;
    None: no audience, the GM's alone).  ``book``: the game's treaties (:func:`book_of`)."""
    a = Audience.from_json(audience)
    if a is None:
        return reader == GM
    if a.kind == "public":
        return True
    if reader == GM:
        return a.kind != "admin"
    if reader == ADMIN:
        return a.kind == "admin"
    if a.kind == "powers":
        return reader in a.powers
    if a.kind == "treaty":
        secret, parties = book.get(str(a.treaty).lower(), (True, a.powers))
        return not secret or reader in parties
    return False


def reader_for(power: str | None, gm: bool = False) -> Reader:
    """The reader of a text made for ``power``; without one, the GM's or the public's."""
    return power if power else (GM if gm else PUBLIC)


def shown(facts: Iterable[Mapping], reader: Reader, book: Book) -> list:
    """The facts ``reader`` may see, in their order."""
    return [f for f in facts if admits(of(f), reader, book)]


def narrowest(audiences: Iterable[Audience | Any]) -> Audience:
    """One audience for a record made of several facts (a GM edit's events): public when
    every fact is, else the GM's alone."""
    found = [Audience.from_json(a) for a in audiences]
    return public() if found and all(a is not None and a.kind == "public" for a in found) else gm()
