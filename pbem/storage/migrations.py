"""The schema's history: named migrations, each run once, in order, inside a
transaction (:func:`pbem.storage.db.migrate`), and recorded by name in the
``migrations`` table.  A new release only ever appends here."""
from __future__ import annotations

from typing import Callable

import sqlite_utils

from pbem.base import registry
from pbem.storage.values import dumps, loads

MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = []


def migration(name: str):
    def register(fn):
        MIGRATIONS.append((name, fn))
        return fn
    return register


@migration("0001_initial")
def _initial(db: sqlite_utils.Database) -> None:
    db["games"].create({
        "name": str, "rules": str, "status": str, "options": str, "state": str,
        "phase_key": str, "deadline": str, "policy": str, "seed": str, "seed_hash": str,
        "seed_revealed": int, "gm_address": str, "created": str, "paused_at": str,
        "extensions": str, "pauses": int, "warnings_sent": str, "token_key": str,
        "seq": int,
    }, pk="name", not_null={"rules", "status"}, defaults={"seq": 0, "pauses": 0, "seed_revealed": 0})
    db["players"].create({
        "id": int, "game": str, "power": str, "addresses": str, "secret_hash": str,
        "status": str, "missed": int, "absent_from": str, "absent_to": str, "joined": str,
    }, pk="id", foreign_keys=[("game", "games", "name")], defaults={"missed": 0})
    db["players"].create_index(["game", "power"], unique=True)
    db["messages"].create({
        "id": int, "source_key": str, "message_id": str, "sender": str, "subject": str,
        "received": str, "raw": bytes, "status": str, "outcome": str, "game": str,
        "power": str, "processed": str, "error": str,
    }, pk="id", not_null={"source_key", "status"})
    db["messages"].create_index(["source_key"], unique=True)
    db["messages"].create_index(["message_id"])
    db["orders"].create({
        "id": int, "game": str, "phase_key": str, "power": str, "orders": str, "text": str,
        "submitted": str, "message": int, "current": int,
    }, pk="id")
    db["orders"].create_index(["game", "phase_key", "power"])
    db["press"].create({
        "id": int, "game": str, "phase_key": str, "sender": str, "recipients": str, "grey": int,
        "body": str, "sent": str, "message": int,
    }, pk="id")
    db["treaties"].create({
        "id": int, "game": str, "treaty_id": str, "proposer": str, "parties": str, "text": str,
        "secret": int, "status": str, "signatures": str, "refusals": str, "created": str,
        "updated": str, "history": str,
    }, pk="id")
    db["treaties"].create_index(["game", "treaty_id"], unique=True)
    db["snapshots"].create({
        "id": int, "game": str, "seq": int, "phase_key": str, "label": str, "before": str,
        "orders": str, "after": str, "events": str, "dice": str, "created": str,
        "rolled_back": int,
    }, pk="id", defaults={"rolled_back": 0})
    db["snapshots"].create_index(["game", "seq"], unique=True)
    db["events"].create({
        "id": int, "game": str, "seq": int, "kind": str, "data": str,
    }, pk="id")
    db["events"].create_index(["game", "seq"])
    db["dice"].create({
        "id": int, "game": str, "seq": int, "phase_key": str, "rolls": str,
    }, pk="id")
    db["outbox"].create({
        "id": int, "message_id": str, "game": str, "kind": str, "recipients": str,
        "subject": str, "raw": bytes, "status": str, "attempts": int, "next_try": str,
        "last_error": str, "created": str, "sent": str, "source": int,
    }, pk="id", defaults={"attempts": 0})
    db["outbox"].create_index(["message_id"], unique=True)
    db["outbox"].create_index(["status", "next_try"])
    db["gm_log"].create({
        "id": int, "game": str, "at": str, "actor": str, "action": str, "detail": str,
    }, pk="id")


@migration("0002_process_request")
def _process_request(db: sqlite_utils.Database) -> None:
    """GM PROCESS (without NOW) asks for the phase to run on the next pass,
    whatever the deadline and grace say."""
    db["games"].add_column("process_requested", int, not_null_default=0)


@migration("0003_contract_v2")
def _contract_v2(db: sqlite_utils.Database) -> None:
    """Snapshots of typed inputs (treaty actions, rulings, GM edits) beside
    those of phases, so every state change is replayed; a power's explicit
    DONE for a phase."""
    db["snapshots"].add_column("kind", str, not_null_default="phase")
    db["snapshots"].add_column("input", str)
    db["orders"].add_column("done", int, not_null_default=0)


@migration("0004_reader_zone_and_resume")
def _reader_zone(db: sqlite_utils.Database) -> None:
    """A player's own time zone (SET ZONE), shown beside the game's; a phase
    the GM resumed with every order already in waits for its deadline."""
    db["players"].add_column("zone", str)
    db["games"].add_column("hold_early", int, not_null_default=0)


@migration("0005_hardening")
def _hardening(db: sqlite_utils.Database) -> None:
    """How often handling a mail was tried (poison mail is set aside after a
    few tries); which replies went to addresses that have not signed on (they
    are limited by count and size); wrong-secret throttles; addresses waiting
    for their owner's confirmation."""
    db["messages"].add_column("attempts", int, not_null_default=0)
    db["outbox"].add_column("stranger", int, not_null_default=0)
    db["outbox"].add_column("mask", str)  # secrets a queued mail hands out, masked once it is sent
    db["outbox"].create_index(["kind", "created"])
    db["throttle"].create({
        "key": str, "failures": int, "first": str, "last": str, "blocked_until": str, "told": str,
    }, pk="key", defaults={"failures": 0})
    db["address_confirmations"].create({
        "id": int, "game": str, "power": str, "address": str, "token_hash": str,
        "requested": str, "expires": str, "status": str, "message": int,
    }, pk="id")
    db["address_confirmations"].create_index(["game", "power"])


@migration("0006_lookups")
def _lookups(db: sqlite_utils.Database) -> None:
    """Indexes for what every pass and every mail look up: a game by its name
    in any case (``lower(name) = lower(?)``), and the mail still to handle."""
    db.execute("create index if not exists games_name_nocase on games(lower(name))")
    db["messages"].create_index(["status", "id"], if_not_exists=True)


@migration("0007_archive_stamps")
def _archive_stamps(db: sqlite_utils.Database) -> None:
    """Indexes for what the archive counts per game after every daemon pass to
    see whether a game changed (:func:`pbem.web.archive.refresh`): its press and
    its GM log, which otherwise are read whole once per game and pass."""
    db["press"].create_index(["game"], if_not_exists=True)
    db["gm_log"].create_index(["game"], if_not_exists=True)
@migration("0008_refused_orders")
def _refused_orders(db: sqlite_utils.Database) -> None:
    """How many lines of an orders mail were refused: such orders stand at the
    deadline but do not close the phase early (the player may want to correct
    them), unless the player sends DONE."""
    db["orders"].add_column("refused", int, not_null_default=0)


@migration("0009_outbound_budget_and_bounces")
def _outbound_budget(db: sqlite_utils.Database) -> None:
    """The commands that make mail for others or cost a slow hash, by who sent
    them and when (caps per hour, :mod:`pbem.handlers.budget`); the bounce score of
    every address mail to it bounced from (:mod:`pbem.outbound.bounces`)."""
    db["command_log"].create({"id": int, "who": str, "kind": str, "at": str}, pk="id")
    # A JOIN waits for its address's CONFIRM like a SET ADDRESS: the seat's secret waits with it.
    db["address_confirmations"].add_column("secret_hash", str)
    # The text of a mail with no command, to know the same mail again (an auto-responder's loop).
    db["messages"].add_column("body_hash", str)
    db["messages"].create_index(["sender", "body_hash"])
    db["command_log"].create_index(["who", "kind", "at"])
    db["bounces"].create({
        "address": str, "score": float, "hard": int, "soft": int, "first": str, "last": str,
        "last_day": str, "state": str, "detail": str,
    }, pk="address", defaults={"score": 0.0, "hard": 0, "soft": 0, "state": "ok"})


@migration("0010_site_state")
def _site_state(db: sqlite_utils.Database) -> None:
    """What the site as a whole is in, kept across restarts and read by `pbem
    status`: e.g. sending held while the SMTP server refuses the session."""
    db["site_state"].create({"key": str, "value": str, "updated": str}, pk="key")


@migration("0011_rules_version")
def _rules_version(db: sqlite_utils.Database) -> None:
    """Which version of a game's rules made each snapshot, so `pbem verify`
    can say that a phase was made by rules that have changed since."""
    db["snapshots"].add_column("rules_version", str)
@migration("0012_audiences")
def _audiences(db: sqlite_utils.Database) -> None:
    """Who may see each GM-log entry and each press item, as data (pbem.kit.audience).  The GM
    log keeps roles and ids, never addresses: entries written before kept the GM's address,
    so they are the GM's alone."""
    db["gm_log"].add_column("audience", str)
    db.execute("""update gm_log set audience = '"gm"'""")
    db["press"].add_column("audience", str)
    db["games"].add_column("phase_opened", str)  # when the current phase began (grey press's Date)
    # Press sent before: public when it went to every other power of a game of three or more.
    for row in list(db["press"].rows_where(select="id, game, sender, recipients")):
        everyone = {p["power"] for p in db["players"].rows_where("game = ?", [row["game"]], select="power")}
        to = set(loads(row["recipients"], []))
        public = len(everyone) >= 3 and everyone - {row["sender"]} <= to
        seen_by = "public" if public else {"powers": [row["sender"], *sorted(to)]}
        db["press"].update(row["id"], {"audience": dumps(seen_by)})
    _stamp_stored_events(db)


@migration("0013_told_seq")
def _told_seq(db: sqlite_utils.Database) -> None:
    """The last phase (``seq``) each player's report told it of: a phase that asks nothing of a
    power and touches nothing of it is not mailed alone but goes into its next report (a
    digest).  Players of a game already under way have been told of everything so far."""
    db["players"].add_column("told_seq", int, not_null_default=0)
    db.execute("update players set told_seq = coalesce((select seq from games where games.name = players.game), 0)")


@migration("0014_map_view")
def _map_view(db: sqlite_utils.Database) -> None:
    """How each player's reports show the map (SET MAP): png (the default), svg, link or none."""
    db["players"].add_column("map_view", str, not_null_default="png")


@migration("0015_packed_reports")
def _packed_reports(db: sqlite_utils.Database) -> None:
    """Reports kept once and small (:mod:`pbem.storage.packed_mail`): the inline parts every
    reader's report of a phase shares (its map) once, by their SHA-256, and where each goes in
    a packed mail.  Mail queued before stays as it was stored."""
    db["outbox"].add_column("parts", str)
    db["outbox_parts"].create({"digest": str, "data": bytes}, pk="digest")


def _stamp_stored_events(db: sqlite_utils.Database) -> None:
    """Events stored before events had audiences get the one their game gives their kind
    (:meth:`pbem.kit.gameapi.Game.stamp`); those whose audience depended on more (a secret
    treaty's Casus Belli) keep none, so they are the GM's alone."""
    for game in list(db["games"].rows_where(select="name, rules")):
        try:
            rules = registry.get(game["rules"])
        except KeyError:  # a game whose plug-in is not installed here: its events stay the GM's
            continue
        for snap in list(db["snapshots"].rows_where("game = ?", [game["name"]], select="id, seq, after, events")):
            events = loads(snap["events"], [])
            if all("audience" in e for e in events):
                continue
            stamped = rules.stamp(loads(snap["after"], {}), [dict(e) for e in events])
            db["snapshots"].update(snap["id"], {"events": dumps(stamped)})
            db.execute("delete from events where game = ? and seq = ?", [game["name"], snap["seq"]])
            db["events"].insert_all({"game": game["name"], "seq": snap["seq"], "kind": e.get("kind", ""),
                                     "data": dumps(e)} for e in stamped)


@migration("0016_secret_checks")
def _secret_checks(db: sqlite_utils.Database) -> None:
    """Secrets pbem made, vouched for under the host's check key (pbem.storage.secret_checks)."""
    db["secret_checks"].create({"entry": str, "created": str}, pk="entry")
