"""The configuration file.  :data:`SETTINGS` names every setting with its
type, default and help text; loading, validation, the check of
``config.example.toml`` and the README's table (:func:`settings_markdown`)
all derive from it, so no setting lacks a default or documentation.

Problems are gathered: :class:`ConfigError` carries every problem of a file,
each in one line ``<file>: <section>.<key>: <what is wrong>``.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from pbem.base.deadlines import (
    DAY_NAMES, DeadlinePolicy, parse_days, parse_duration, parse_hour, parse_windows, parse_zone
)
from pbem.base.identity import is_secret_hash
from pbem.kit.names import nearest

Check = Callable[[object], "str | None"]


class ConfigError(ValueError):
    """A configuration file with problems; ``problems`` has one line each."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


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
      "separate process, no limit).", at_least(0)),
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


class Section(Mapping):
    """One ``[section]``: attribute and mapping access to its values."""

    def __init__(self, name: str, values: dict):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, key: str):
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(f"{self._name}.{key}: no such setting"
                                 f"{_suggest(key, list(self._values), self._name + '.')}") from None

    def __setattr__(self, key, value):
        raise AttributeError("configuration is read-only")

    def __getitem__(self, key: str):
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        shown = {k: ("***" if v and BY_NAME[f"{self._name}.{k}"].secret else v)
                 for k, v in self._values.items()}
        return f"Section({self._name!r}, {shown!r})"


class Config:
    """Loaded settings: ``cfg.server.address``, ``cfg.imap.host``, ``cfg["smtp"]``."""

    def __init__(self, sections: dict[str, Section], path: Path | None, base_dir: Path):
        self._sections = sections
        self.path = path
        self.base_dir = base_dir

    def __getattr__(self, name: str) -> Section:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._sections[name]
        except KeyError:
            raise AttributeError(f"{name}: no such section{_suggest(name, SECTIONS)}") from None

    def __getitem__(self, name: str) -> Section:
        return self._sections[name]

    def path_of(self, value: str | Path) -> Path:
        """A path a setting names, relative to the configuration's folder."""
        path = Path(value).expanduser()
        return path if path.is_absolute() else self.base_dir / path

    def as_dict(self) -> dict[str, dict]:
        return {name: dict(section) for name, section in self._sections.items()}

    def deadline_policy(self) -> DeadlinePolicy:
        """The ``[deadlines]`` section as the default policy for new games."""
        return DeadlinePolicy.from_settings(self.deadlines)

    def __repr__(self) -> str:
        return f"Config(path={self.path!r}, {list(self._sections.values())!r})"


# -- loading --

def _closest(word: str, candidates) -> str | None:
    return nearest(word, candidates)


def _suggest(word: str, candidates, prefix: str = "") -> str:
    close = _closest(word, candidates)
    return f" (did you mean {prefix}{close}?)" if close else ""


def _describe(value) -> str:
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, str):
        return f'a string ("{value}")' if len(value) <= 40 else "a string"
    name = {int: "an integer", float: "a number", list: "a list", dict: "a table"}.get(
        type(value), f"a {type(value).__name__}")
    return f"{name} ({value})" if isinstance(value, (int, float)) else name


_EXPECTED = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
             list: "a list of strings", Path: "a path (a string)", dict: "a table"}


def _typed(setting: Setting, value):
    """(value converted to the setting's type, None) or (None, problem)."""
    kind = setting.type
    ok = (isinstance(value, bool) if kind is bool else
          isinstance(value, int) and not isinstance(value, bool) if kind is int else
          isinstance(value, (int, float)) and not isinstance(value, bool) if kind is float else
          isinstance(value, list) if kind is list else
          isinstance(value, dict) if kind is dict else
          isinstance(value, str))
    if not ok:
        return None, f"expected {_EXPECTED[kind]}, got {_describe(value)}"
    if kind is list:
        for number, item in enumerate(value, 1):
            if not isinstance(item, str):
                return None, f"item {number}: expected a string, got {_describe(item)}"
        return list(value), None
    if kind is float:
        return float(value), None
    if kind is dict:
        return dict(value), None
    if kind is Path and not value.strip():
        return None, "must not be empty"
    return value, None


def _unknown_key(section: str, key: str) -> str:
    suggestion = _suggest(key, [s.key for s in SETTINGS if s.section == section], section + ".")
    if not suggestion:
        elsewhere = [s.name for s in SETTINGS if s.key == key]
        suggestion = f" (did you mean {elsewhere[0]}?)" if elsewhere else ""
    return f"{section}.{key}: unknown setting{suggestion}"


def _problems_in(data: dict) -> tuple[dict[str, dict], list[str]]:
    """Values by section (defaults filled in) and the problems, without the file name."""
    values = {name: {} for name in SECTIONS}
    problems = []
    for name, table in data.items():
        if name not in values:
            if isinstance(table, dict):
                close = _closest(name, SECTIONS)
                hint = f" (did you mean [{close}]?)" if close else ""
                problems.append(f"{name}: unknown section{hint}")
            else:
                homes = [s.section for s in SETTINGS if s.key == name]
                hint = f" (did you mean {homes[0]}.{name}?)" if homes else ""
                problems.append(f"{name}: a setting outside any section{hint}")
            continue
        if not isinstance(table, dict):
            problems.append(f"{name}: expected a section [{name}], got {_describe(table)}")
            continue
        for key, raw in table.items():
            setting = BY_NAME.get(f"{name}.{key}")
            if setting is None:
                problems.append(_unknown_key(name, key))
                continue
            value, problem = _typed(setting, raw)
            if problem is None and setting.check is not None:
                problem = setting.check(value)
            if problem:
                problems.append(f"{setting.name}: {problem}")
            else:
                values[name][key] = value
    for setting in SETTINGS:
        values[setting.section].setdefault(setting.key, copy.copy(setting.default))
    reported = {p.split(":", 1)[0] for p in problems}
    problems.extend(p for p in _cross_problems(values) if p.split(":", 1)[0] not in reported)
    return values, [p.replace("\r", "\\r").replace("\n", "\\n") for p in problems]  # one line each


def _cross_problems(values: dict[str, dict]) -> list[str]:
    """Problems that involve more than one setting."""
    problems = []
    if values["intake"]["kind"] == "imap" and not values["imap"]["host"].strip():
        problems.append('imap.host: required when intake.kind = "imap"')
    if values["outbound"]["kind"] == "smtp" and not values["smtp"]["host"].strip():
        problems.append('smtp.host: required when outbound.kind = "smtp"')
    gm, moderator = values["server"]["gm_address"], values["server"]["address"]
    if gm and gm.lower() == moderator.lower():
        problems.append(f'server.gm_address: must not be the moderator\'s own address (server.address = '
                        f'"{moderator}"): mail to the GM would reach nobody')
    if values["smtp"]["tls"] is True and values["smtp"]["starttls"] is True:
        problems.append("smtp.tls: cannot be true together with smtp.starttls "
                        "(TLS from the start, or STARTTLS, not both)")
    return problems


def _build(values: dict[str, dict], path: Path | None, base_dir: Path) -> Config:
    for setting in (s for s in SETTINGS if s.type is Path):
        given = Path(values[setting.section][setting.key]).expanduser()
        values[setting.section][setting.key] = given if given.is_absolute() else base_dir / given
    sections = {name: Section(name, values[name]) for name in SECTIONS}
    return Config(sections, path, base_dir)


def check_data(data: dict, label: str = "<config>") -> list[str]:
    """Every problem of an already parsed TOML document, one line each."""
    return [f"{label}: {p}" for p in _problems_in(data)[1]]


def check_text(text: str, label: str = "<config>") -> list[str]:
    """Every problem of a configuration file's text, one line each (as :func:`check_data`)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return [f"{label}: not valid TOML: {exc}"]
    return check_data(data, label)


def load_config(path: Path | str | None) -> Config:
    """Read and validate a configuration file; None gives every default.

    Relative paths in the file are taken relative to the file's folder (to
    the current folder when there is no file).  Raises ConfigError with
    every problem found.
    """
    if path is None:
        values, _ = _problems_in({})
        return _build(values, None, Path.cwd())
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError([f"{path}: cannot read the file: {reason}"]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{path}: not valid TOML: {exc}"]) from None
    values, problems = _problems_in(data)
    if problems:
        raise ConfigError([f"{path}: {p}" for p in problems])
    return _build(values, path, path.resolve().parent)


def password(cfg: Config, section: str) -> str:
    """The password of ``[imap]`` or ``[smtp]``: the setting itself; else the
    first line of its ``password_file`` (relative to the configuration's
    folder); else ``$PBEM_IMAP_PASSWORD`` / ``$PBEM_SMTP_PASSWORD``; else "".
    Keeping it out of ``pbem.toml`` lets the file be shared or kept in version
    control."""
    import os

    values = cfg[section]
    if values["password"]:
        return values["password"]
    if values["password_file"]:
        path = cfg.path_of(values["password_file"])
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError([f"{section}.password_file: cannot read {path}: "
                               f"{getattr(exc, 'strerror', None) or exc}"]) from None
        return lines[0].strip() if lines else ""
    return os.environ.get(f"PBEM_{section.upper()}_PASSWORD", "")


# -- documentation --

def toml_value(value) -> str:
    """A default written the way it is written in the file."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return f"{value:_}" if isinstance(value, int) and value >= 10_000 else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def settings_markdown() -> str:
    """The README's settings table: every setting, its type, default and meaning."""
    lines = ["| Setting | Type | Default | Meaning |", "| --- | --- | --- | --- |"]
    for s in SETTINGS:
        cells = [f"`{s.name}`", s.type_name, f"`{toml_value(s.default)}`", s.help]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # python -m pbem.base.config: print the README table
    print(settings_markdown(), end="")
