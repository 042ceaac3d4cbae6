"""Mail given up for good is told to whoever can mend it: the GM of its game
(a power's address is wrong, or gone), else the site's admin.

:mod:`pbem.outbound.outbox` gives a mail up only for a reason of its own (a recipient
refused as a bad address, the mail refused while the server took others, or
too many failed tries); it calls :func:`tell` in the same transaction.  The
notice names the recipients by role and address (the GM seats the players,
so knows their addresses) and the mail only by its kind, never its subject
or text: what a mail said is for its own readers.
"""
from __future__ import annotations

import logging

from pbem.base.context import Context
from pbem.outbound.outbox import queue, recipient_roles
from pbem.storage import store

log = logging.getLogger(__name__)

KIND = "undelivered"


def tell(ctx: Context, row: dict, addresses: list[str], reason: str) -> None:
    """Queue the notice that ``row`` could not reach ``addresses`` (inside the
    caller's transaction)."""
    if row.get("kind") == KIND:
        return  # a notice about a lost notice would go the same way
    game = row.get("game")
    if not game or row.get("stranger"):
        # A reply to an address that never signed on (often forged): nobody's to mend.
        return
    gm = store.gm_address_of(ctx, game)
    lowered = {a.lower() for a in addresses}
    to = gm if gm and gm.lower() not in lowered else ctx.admin_address
    if not to or to.lower() in lowered:
        log.warning("mail %s given up; nobody else to tell (set server.admin_address)", row["id"])
        return
    roles = recipient_roles(ctx, row, addresses)
    lines = [f"  {role}: {address}" for role, address in
             zip((recipient_roles(ctx, row, [a])[0] for a in addresses), addresses)]
    queue(ctx, key=f"{KIND}:{row['message_id']}:{','.join(sorted(lowered))}", to=[to], game=game, kind=KIND,
          subject=f"[{game}] a {row['kind']} mail to {', '.join(roles)} could not be delivered",
          text=(f"A {row['kind']} mail of game {game}, queued {row['created']}, could not be delivered "
                "to:\n\n" + "\n".join(lines) + f"\n\nThe mail server's answer: {reason}\n\n"
                "It will not be tried again by itself. If the address is wrong, the power needs a "
                "working one (the player's SET ADDRESS, or GM REPLACE), and can then ask for its "
                "report again with RESEND. If the address works again (a full mailbox emptied), "
                f"the site's admin can send this very mail again: `pbem outbox retry {row['id']}` "
                f"(`pbem outbox show {row['id']}` shows it).\n\n-- \n{ctx.site_name} moderator\n"))
