"""What a GM edit (or a treaty command) changed in each player's position, told to that player alone.

A game that takes GM edits (:class:`pbem.kit.capabilities.GMCommands`) tells every power whose
position an edit changed: among the edit's events it returns one event of kind
:data:`POSITION_CHANGED` per such power, tagged with that power's audience, whose ``text`` the
game composed (what the GM changed, in its own words).  The moderator mails each one to its
audience with the rest of the GM mail's announcements, one mail per reader
(pbem/handlers/announce.py); a power whose position did not change gets no event, so no mail.

:func:`told` makes those events from the game's own account of each position: a power's facts
as labelled values (``{"ducats": "15", "units at Uppland": "2 infantry"}``), before the edit and
after it.
"""
from __future__ import annotations

from typing import Callable, Iterable, Mapping

from pbem.kit import audience

#: the event kind the moderator mails to its audience when a GM edit returns it
POSITION_CHANGED = "position_changed"

Position = Mapping[str, str]


def changes(before: Position, after: Position) -> list[str]:
    """One line per labelled fact that differs, in the order the game lists them."""
    lines = []
    for label in dict.fromkeys([*before, *after]):
        old, new = before.get(label), after.get(label)
        if old == new:
            continue
        if old is None:
            lines.append(f"{label}: {new} (new)")
        elif new is None:
            lines.append(f"{label}: none now (was {old})")
        else:
            lines.append(f"{label}: {new} (was {old})")
    return lines


def told(powers: Iterable[str], before: Callable[[str], Position], after: Callable[[str], Position],
         readers: Callable[[str], list[str]] | None = None, by: str = "The GM") -> list[dict]:
    """A :data:`POSITION_CHANGED` event for each of ``powers`` whose position differs, seen by
    ``readers(power)`` (default: the power alone).  ``by``: who or what changed it, as the
    text's first words (a treaty command's: words that name no treaty a reader may not see)."""
    events = []
    for power in powers:
        lines = changes(before(power), after(power))
        if not lines:
            continue
        text = f"{by} changed {power}'s position:\n" + "\n".join(f"  - {line}" for line in lines)
        seen_by = audience.powers(readers(power) if readers else [power])
        events.append(audience.tag({"kind": POSITION_CHANGED, "power": power, "changes": lines, "text": text},
                                   seen_by))
    return events
