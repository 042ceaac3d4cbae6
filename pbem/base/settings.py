"""Every setting of the configuration file, declared once: its section, name,
type, default, help text and check.  Loading and validating a file
(:mod:`pbem.base.config`), the check of ``config.example.toml`` and the README's
table of settings all derive from :data:`SETTINGS`, so no setting lacks a
default or documentation."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.base.deadlines import parse_windows
from pbem.base.time_values import DAY_NAMES, parse_days, parse_duration, parse_hour, parse_zone
from pbem.base.identity import is_secret_hash

Check = Callable[[object], "str | None"]


# -- checks: each returns what is wrong with a (well-typed) value, or None --

def one_of(*options: str) -> Check:
    def check(value):
        if value not in options:
            listed = ", ".join(f'"{o}"' for o in options)
            return f'must be one of {listed}, got "{value}"'
    return check


def at_least(low: float) -> Check:
    def check(value):
        if value < low:
            return f"must be at least {low}, got {value}"
    return check


def _port(value):
    if not 1 <= value <= 65535:
        return f"must be a port number from 1 to 65535, got {value}"


def _parsed_by(parse) -> Check:
    def check(value):
        try:
            parse(value)
        except ValueError as exc:
            return str(exc)
    return check


def _positive_duration(value):
    problem = _parsed_by(parse_duration)(value)
    if problem is None and not parse_duration(value):
        problem = f'must be longer than zero, got "{value}"'
    return problem


def _each(check: Check) -> Check:
    def check_all(values):
        for number, value in enumerate(values, 1):
            problem = check(value)
            if problem:
                return f"item {number}: {problem}"
    return check_all


def matching(pattern: str, wanted: str) -> Check:
    def check(value):
        if not re.fullmatch(pattern, value):
            return f'must be {wanted}, got "{value}"'
    return check


_address = matching(r"[^\s@]+@[^\s@]+", 'a bare mail address such as "pbem@example.org"')
_plugin = matching(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*", '"module:attribute"')
_optional_address = matching(r"([^\s@]+@[^\s@]+)?", '"" or a bare mail address')
_url = matching(r"(https?://[^\s/]+\S*)?", '"" or an http(s) URL')
_not_empty = matching(r"(?s).*\S.*", "some text")


def _secret_hash(value):
    if value and not is_secret_hash(value):
        return 'must be "" or a hash made by `pbem init` (scrypt$...)'


@dataclass(frozen=True)
class Setting:
    section: str
    key: str
    type: type
    default: object
    help: str
    check: Check | None = None
    kind: str = ""           # how the README names the type, when not the plain type
    secret: bool = False     # never shown in a repr or a log

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"

    @property
    def type_name(self) -> str:
        return self.kind or _TYPE_NAMES[self.type]


_TYPE_NAMES = {str: "string", int: "integer", float: "number", bool: "boolean",
               list: "list of strings", Path: "path", dict: "table"}

S = Setting
SETTINGS: tuple[Setting, ...] = (
    S("server", "name", str, "pbem", "Site name used in mail and on archive pages.", _not_empty),
    S("server", "address", str, "pbem@localhost",
      "The moderator's mail address: players write to it and replies come from it.", _address),
    S("server", "domain", str, "localhost", "Domain used in the Message-IDs pbem makes.",
      _not_empty),
    S("server", "data_dir", Path, "var", "Folder for pbem's own working files."),
    S("server", "database", Path, "var/pbem.sqlite", "The SQLite database file."),
    S("server", "archive_dir", Path, "archive",
      "Where the static HTML archive is written (pages 0644 in folders 0755, for a web server "
      "running as another user; keep it outside the private data_dir)."),
    S("server", "game_data", Path, "var/game-data",
      "The only folder a GM's OPTION data=<file> is read from (once, when the game is created)."),
    S("server", "log_level", str, "INFO", "Logging level.",
      one_of("DEBUG", "INFO", "WARNING", "ERROR"), kind="DEBUG, INFO, WARNING or ERROR"),
    S("server", "log_file", str, "",
      'A file the daemon appends its log to (reopened on SIGHUP); "" logs to standard error '
      "(the journal under systemd)."),
    S("server", "gm_secret_hash", str, "",
      'Hash of the GM secret; "" disables GM commands by mail until `pbem init` sets one.',
      _secret_hash, secret=True),
    S("server", "max_message_bytes", int, 1_000_000,
      "Larger inbound mail is refused with a short reply.", at_least(1000)),
    S("server", "reply_rate_per_hour", int, 30,
      "Most replies in an hour to one address that has not signed on (a signed-on player's "
      "replies are never held back); 0 means no limit by count.", at_least(0)),
    S("server", "admin_address", str, "",
      'Told of every mail set aside (quarantine), besides the GMs of the sender\'s games; "" for none.',
      _optional_address),
    S("server", "gm_address", str, "",
      "The site GM: the GM of a game made on the command line without --gm (`pbem game new`), "
      "who is told what a game's GM is told (quarantined mail, breach claims, missed turns); "
      '"" makes --gm required; never the moderator\'s own address.', _optional_address),
    S("server", "base_url", str, "", 'Public URL of the archive for links in mail; "" for none.',
      _url),
    S("server", "games_extra", list, [],
      'Extra game plug-ins to register, each "module:attribute".', _each(_plugin)),

    S("intake", "kind", str, "maildir", "Where inbound mail is read: a Maildir or an IMAP mailbox.",
      one_of("maildir", "imap"), kind='"maildir" or "imap"'),
    S("intake", "maildir", Path, "var/mail/inbox", "The inbound Maildir (kind = \"maildir\")."),
    S("intake", "poll_interval", float, 1.0, "Seconds between looks at the inbound Maildir.",
      at_least(0.01)),

    S("listener", "enabled", bool, True,
      "Run the built-in SMTP listener that delivers into the inbound Maildir."),
    S("listener", "host", str, "127.0.0.1", "Address the listener binds to (keep it on loopback).",
      _not_empty),
    S("listener", "port", int, 2525, "Port of the built-in SMTP listener.", _port),
    S("listener", "max_sessions", int, 20,
      "Most SMTP sessions open at once; a connection beyond them is told 421 and closed.",
      at_least(1)),
    S("listener", "idle_timeout", float, 30.0,
      "Seconds an SMTP session may stay silent before it is dropped.", at_least(1)),
    S("listener", "required", bool, False,
      "Refuse to start the daemon when the listener cannot listen (its port taken): for a site "
      "where the listener is the only way mail reaches pbem; false: the daemon logs one line and "
      "goes on, reading mail dropped into the Maildir intake (`pbem send`)."),

    S("imap", "host", str, "", 'IMAP server (needed when intake.kind = "imap").'),
    S("imap", "port", int, 993, "IMAP port.", _port),
    S("imap", "user", str, "", "IMAP login name."),
    S("imap", "password", str, "",
      'IMAP password; "" takes it from imap.password_file or $PBEM_IMAP_PASSWORD.', secret=True),
    S("imap", "password_file", str, "",
      'A file (mode 0600) whose first line is the IMAP password; "" for none.'),
    S("imap", "ssl", bool, True, "Connect with TLS from the start (IMAPS)."),
    S("imap", "ca_file", str, "",
      'A PEM file of the authorities trusted for the IMAP server\'s certificate (a private CA); '
      '"" trusts the system\'s.'),
    S("imap", "mailbox", str, "INBOX", "Mailbox read for new mail.", _not_empty),
    S("imap", "processed_folder", str, "Processed",
      'Folder stored mail is moved to; "" keeps it in the mailbox, flagged as seen '
      "(pbem then reads only unseen mail there)."),
    S("imap", "rejected_folder", str, "Rejected",
      'Folder for mail that is not processed (auto-replies, too large); "" keeps it in the '
      "mailbox, flagged as seen (pbem then reads only unseen mail there)."),
    S("imap", "idle", bool, True, "Wait for new mail with IMAP IDLE, polling as a fallback."),
    S("imap", "poll_interval", float, 60.0, "Seconds between polls when IDLE is off or fails.",
      at_least(1)),
    S("imap", "timeout", float, 30.0, "Seconds before a silent IMAP connection is dropped.",
      at_least(1)),

    S("outbound", "kind", str, "maildir",
      "How mail leaves: local delivery into Maildirs, or an SMTP server.",
      one_of("maildir", "smtp"), kind='"maildir" or "smtp"'),
    S("outbound", "maildir", Path, "var/mail/out",
      "Root of local delivery: one Maildir per recipient (kind = \"maildir\")."),
    S("outbound", "max_attempts", int, 8,
      "Attempts to send one mail before giving up on it; an unreachable server does not count.",
      at_least(1)),
    S("outbound", "retry_base_seconds", float, 30.0,
      "First retry delay in seconds; it doubles after every failed attempt.", at_least(0)),
    S("outbound", "held_retry_max_seconds", float, 900.0,
      "Longest pause between tries while the SMTP server refuses the session (login, sender, "
      "quota): sending is held, nothing is given up; the pause starts at retry_base_seconds and "
      "doubles.", at_least(1)),
    S("outbound", "keep_sent_days", float, 30.0,
      "Days a sent (or given-up) mail stays in the outbox; 0 keeps every one.", at_least(0)),

    S("smtp", "host", str, "", 'SMTP server (needed when outbound.kind = "smtp").'),
    S("smtp", "port", int, 587, "SMTP port.", _port),
    S("smtp", "user", str, "", 'SMTP login name; "" sends without logging in.'),
    S("smtp", "password", str, "",
      'SMTP password; "" takes it from smtp.password_file or $PBEM_SMTP_PASSWORD.', secret=True),
    S("smtp", "password_file", str, "",
      'A file (mode 0600) whose first line is the SMTP password; "" for none.'),
    S("smtp", "starttls", bool, True, "Upgrade the connection with STARTTLS (port 587)."),
    S("smtp", "tls", bool, False, "Connect with TLS from the start (port 465)."),
    S("smtp", "ca_file", str, "",
      'A PEM file of the authorities trusted for the SMTP server\'s certificate (a private CA); '
      '"" trusts the system\'s.'),
    S("smtp", "timeout", float, 30.0, "Seconds before a silent SMTP connection is dropped.",
      at_least(1)),

    S("deadlines", "timezone", str, "UTC", "Time zone deadlines are set and shown in (IANA name).",
      _parsed_by(parse_zone), kind="time zone"),
    S("deadlines", "phase_duration", str, "72h", "Time players have for a phase.",
      _positive_duration, kind="duration"),
    S("deadlines", "allowed_days", list, list(DAY_NAMES),
      "Days a deadline may fall on; it moves to the next such day, same time.",
      _parsed_by(parse_days), kind="list of days"),
    S("deadlines", "hour", str, "",
      'Time of day deadlines fall at, "HH:MM"; "" means exactly the duration later.',
      _parsed_by(parse_hour), kind="time of day"),
    S("deadlines", "warnings", list, ["48h", "12h"],
      "Reminders to powers still owing orders, this long before the deadline.",
      _each(_parsed_by(parse_duration)), kind="list of durations"),
    S("deadlines", "grace", str, "0h", "Extra time after the deadline before defaults apply.",
      _parsed_by(parse_duration), kind="duration"),
    S("deadlines", "process_early", bool, True, "Resolve a phase as soon as all orders are in."),
    S("deadlines", "max_extensions", int, 3, "Most extensions per phase.", at_least(0)),
    S("deadlines", "max_extension_total", str, "7d", "Most total extension per phase.",
      _parsed_by(parse_duration), kind="duration"),
    S("deadlines", "max_pauses", int, 3, "Most pauses per game.", at_least(0)),
    S("deadlines", "missed_before_replacement", int, 3,
      "Missed phases in a row before a power is flagged for replacement.", at_least(1)),
    S("deadlines", "windows", dict, {},
      'Durations of a game\'s shorter order windows by class, e.g. { reaction = "24h" }; '
      "a game's own defaults and its options (OPTION reaction_duration=12h) apply first.",
      _parsed_by(parse_windows), kind="table of durations"),

    S("limits", "max_reply_bytes", int, 64_000,
      "Largest reply to any mail; a longer one is cut at a line, with a note.", at_least(4000)),
    S("limits", "stranger_reply_factor", int, 4,
      "A reply to an address that has not signed on is at most this many times the size of the "
      "mail it answers (and at least 8 KB, room for HELP).", at_least(1)),
    S("limits", "stranger_reply_bytes_per_hour", int, 200_000,
      "Most bytes of replies in an hour to one address that has not signed on.", at_least(8000)),
    S("limits", "stranger_replies_per_hour_all", int, 200,
      "Most replies in an hour to all addresses that have not signed on, together.", at_least(1)),
    S("limits", "stranger_reply_bytes_per_hour_all", int, 4_000_000,
      "Most bytes of replies in an hour to all addresses that have not signed on, together.",
      at_least(8000)),
    S("limits", "max_attempts", int, 3,
      "Tries at handling one mail; a mail that fails or crashes the moderator this often is set "
      "aside (quarantine) and its sender and GM are told.", at_least(1)),
    S("limits", "handling_timeout", float, 60.0,
      "Seconds one mail may take to handle before its handling process is stopped (0: no "
      "separate process, no limit); a batch of mails gets the same time, and when it overruns "
      "each of its mails is tried again alone.", at_least(0)),
    S("limits", "batch_mails", int, 32,
      "Mails handled together in one transaction when a backlog waits (group commit); each is "
      "undone alone if it fails. 1: every mail in its own transaction.", at_least(1)),
    S("limits", "handling_workers", int, 2,
      "Worker processes that take turns at a backlog's batches: while one handles a batch "
      "(one writer at a time, one game's mail in order), the next reads its mails. 1: one "
      "worker does both. Each has limits.handling_memory_mb.", at_least(1)),
    S("limits", "handling_memory_mb", int, 1024,
      "Memory (address space, MB) of the process that handles mail.", at_least(256)),
    S("limits", "wrong_secrets_free", int, 3,
      "Wrong secrets for one power, or from one address, before further sign-ons wait.",
      at_least(1)),
    S("limits", "throttle_first", float, 60.0,
      "Seconds the first wait lasts after too many wrong secrets; each further wrong secret "
      "doubles it.", at_least(1)),
    S("limits", "throttle_cap", float, 3600.0, "Longest wait after wrong secrets, in seconds.",
      at_least(1)),
    S("limits", "addresses_per_power", int, 3,
      "Most addresses of record one power may have (SET ADDRESS).", at_least(1)),
    S("limits", "confirm_hours", float, 72.0,
      "Hours a new address has to confirm SET ADDRESS with the token mailed to it.", at_least(1)),
    S("limits", "commands_per_mail", int, 5,
      "Most PRESS, TREATY or TREATY BREACH commands of one mail (SET ADDRESS, SET PASSWORD, JOIN, "
      "STATUS, RESEND: one; CONFIRM: addresses_per_power); the rest are refused, the reply says so.",
      at_least(1)),
    S("limits", "commands_per_hour", int, 30,
      "Most PRESS, TREATY, TREATY BREACH, SET ADDRESS, SET PASSWORD, CONFIRM, JOIN or RESEND "
      "commands of one kind from one power (or one address) in an hour.", at_least(1)),
    S("limits", "max_text_bytes", int, 8_000,
      "Longest press, treaty text or breach claim; a longer one is refused.", at_least(500)),
    S("limits", "min_secret_length", int, 8,
      "Shortest secret a player may choose (SET PASSWORD, JOIN).", at_least(4)),
    S("limits", "keep_oversized_bytes", int, 8_192,
      "Of a mail over server.max_message_bytes, only its headers and this many bytes are stored.",
      at_least(1024)),
    S("limits", "bounce_score", float, 5.0,
      "Bounce score (a hard bounce 1, a soft one 0.5, at most one a day) at which an address "
      "counts as dead: the GM is told and a power with no other address is flagged.", at_least(1)),

    S("identity", "require_address_of_record", bool, False,
      "Accept orders only from a player's addresses of record (the secret alone is not enough)."),
    S("identity", "reply_token", bool, False,
      "Require the per-turn reply token from each report in the orders that answer it."),
)
del S

SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(s.section for s in SETTINGS))
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
