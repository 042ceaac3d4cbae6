"""The daemon's line for each mail handled."""
from __future__ import annotations

import logging

from pbem.base.context import Context
from pbem.storage import inbound_mail

log = logging.getLogger("pbem.host.daemon")  # the daemon's own lines, under its name


def log_handled(ctx: Context, msg_id: int, status: str) -> None:
    """One line per mail: its row, who sent it (a role, never an address), the result."""
    row = inbound_mail.who_and_outcome(ctx, msg_id)
    game, power, outcome = row.get("game"), row.get("power"), row.get("outcome") or ""
    if power:
        role = f"{power}@{game}"
    elif outcome == "GM":
        role = f"GM@{game}" if game else "the GM"
    elif status in ("ignored", "duplicate"):
        role = "an automatic or repeated mail"
    else:
        role = "an address not signed on" + (f" (game {game})" if game else "")
    if status == "new":
        log.warning("mail %s from %s: this try failed; tried again later", msg_id, role)
    elif status != "quarantined":  # set aside: pbem.inbound.quarantine logs it at ERROR
        log.info("mail %s from %s: %s (%s)", msg_id, role, status, outcome)
