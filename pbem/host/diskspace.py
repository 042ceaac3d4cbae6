"""A full disk under the database: how the daemon says so, and how it sees that there is
space again.  Every step would fail the same way (and the outbox would send mail it cannot
mark as sent), so the daemon stops them all and tries a small write every
SPACE_PROBE_SECONDS."""
from __future__ import annotations

import logging

from pbem.base.context import Context
from pbem.storage.db import describe_failure, file_name, is_disk_full, probe_write

log = logging.getLogger("pbem.host.daemon")

SPACE_PROBE_SECONDS = 5.0


def stopped_for_space(ctx: Context, exc: Exception) -> str:
    """The one line said when the disk filled up (logged); the daemon keeps it as its state."""
    why = describe_failure(file_name(ctx.db) or "the database", exc)
    log.error("%s: pbem stops reading mail, running phases and sending until there is space "
              "(it tries again every %.0fs)", why, SPACE_PROBE_SECONDS)
    return why


def space_again(ctx: Context) -> bool:
    """Whether the database can be written again (a small write, undone)."""
    try:
        probe_write(ctx.db)
    except Exception as exc:
        if not is_disk_full(exc):
            log.error("the database is still not writable: %s", exc)
        return False
    log.warning("the database can be written again: pbem goes on")
    return True
