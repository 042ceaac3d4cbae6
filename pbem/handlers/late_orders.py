"""Orders that came after their phase's deadline.

A player who writes orders just after a deadline finds the game at the next phase, where the
lines are no orders: refused one by one, they would read as mistakes.  When the phase just
resolved asked the player for orders and takes the lines this mail refused, the reply says
the mail came too late for it, once, beside the lines' own refusals.
"""
from __future__ import annotations

from pbem.base.deadlines import format_moment
from pbem.handlers.session import Session
from pbem.storage import snapshots
from pbem.storage.db import loads

#: the most resolved phases looked back over for the one that asked for orders
LOOK_BACK = 12


def too_late(session: Session, lines: list[tuple[int, str]]) -> str | None:
    """The note for orders that the phase resolved last would have taken, or None."""
    rec, power = session.game, session.power
    game = rec.rules
    now = game.phase(rec.state)
    # the last phase that asked anything of anyone: phases that asked nobody resolve at once
    # behind it (a tally, a record phase), and are passed over
    for row in snapshots.last_resolutions(session.ctx, rec.name, LOOK_BACK):
        before = loads(row["before"])
        earlier = game.phase(before)
        if earlier.owes or earlier.may:
            break
    else:
        return None
    if not lines or earlier.key == now.key or not earlier.takes_orders_from(power):
        return None
    parsed = game.parse_orders(before, power, lines)
    problems = list(parsed.problems) + list(game.validate(before, power, parsed.orders))
    refused = {p.line for p in problems if p.kind != "warning"}
    if not [o for o in parsed.orders if o.line not in refused]:
        return None
    zone = session.reader_zone() or rec.policy.timezone
    return (f"This mail came after the deadline of {earlier.label}: that phase was resolved "
            f"({format_moment(row['created'], zone)}) before your orders arrived, so they were not used. "
            f"The game is now at {now.label}, and the lines refused here are no orders of it.")
