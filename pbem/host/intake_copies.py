"""The daemon's side of the intake between passes: moving the copies of handled mail out of
the intake, and storing the next pass's mail ahead of time during a backlog."""
from __future__ import annotations

from pbem.base.context import Context
from pbem.base.crashpoints import reached
from pbem.inbound import intake
from pbem.storage import inbound_mail
from pbem.storage.db import atomic


async def move_handled(ctx: Context, source, copies: list) -> None:
    """Move intake copies to Processed or Rejected, once they are handled (in one go:
    :meth:`pbem.mail.imap_source.ImapSource.ack_many`)."""
    moves = []
    for raw in copies:
        row = inbound_mail.status_and_copy(ctx, raw.key)
        if row and row["status"] == "new":
            continue  # a failed try: tried again on the next pass, and only then moved
        outcome = "rejected" if row and row["status"] in intake.handled_statuses() else "processed"
        # The folder of handled mail keeps the stored copy, whose secrets are masked.
        moves.append((raw.key, outcome, row["raw"] if row and row["raw"] != raw.data else None))
    if not moves:
        return
    reached("daemon.before_ack")
    await source.ack_many(moves)
    reached("daemon.after_ack")


def store_next_pass(ctx: Context, raws: list, fetched: dict, fetch_size: int) -> tuple[list, list[int]]:
    """The next pass's mail among ``raws`` (read while this pass's copies, ``fetched``, were
    still in the intake), stored now, between two batches, when no worker holds the write
    lock; and the first batch the next pass will make of it, to be read ahead meanwhile."""
    known = {raw.key for raw in fetched.values()}
    new = [raw for raw in raws if raw.key not in known][:fetch_size]
    with atomic(ctx.db):
        for raw in new:
            intake.store_raw(ctx, raw)
    rows = inbound_mail.ids_by_source_key(ctx, [raw.key for raw in new])
    groups = intake.batches(ctx, sorted(row["id"] for row in rows.values()))
    return new, groups[0] if groups else []
