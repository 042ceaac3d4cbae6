"""Named points where a test may kill the process (``PBEM_CRASH_AT=<name>``).

The crash-safety tests stop the daemon at each of these, restart it and
check that nothing was lost or done twice.  In normal running the variable
is unset and each point costs one dictionary lookup.
"""
from __future__ import annotations

import os

CRASH_EXIT_STATUS = 86

POINTS = (
    "intake.stored",          # the mail is stored verbatim, nothing done with it yet
    "intake.before_commit",   # its effects and replies are written but not committed
    "daemon.before_ack",      # handled and committed; the intake copy not yet moved
    "daemon.after_ack",       # moved; the clock's tick not yet run
    "turns.before_commit",    # a phase resolved and written but not committed
    "turns.after_commit",     # the phase committed; its reports not yet delivered
    "outbox.after_send",      # a mail handed to the server but not yet marked sent
)


def reached(name: str) -> None:
    if os.environ.get("PBEM_CRASH_AT") == name:
        os._exit(CRASH_EXIT_STATUS)
