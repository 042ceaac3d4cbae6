"""The configuration file: loading and validating it against the declared
settings (:data:`pbem.base.settings.SETTINGS`), and the README's table of
settings (:func:`settings_markdown`).

Problems are gathered: :class:`ConfigError` carries every problem of a file,
each in one line ``<file>: <section>.<key>: <what is wrong>``.
"""
from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from pbem.base.deadlines import DeadlinePolicy
from pbem.base.settings import BY_NAME, SECTIONS, SETTINGS, Setting  # noqa: F401 (SETTINGS: the interface)
from pbem.kit.names import nearest


class ConfigError(ValueError):
    """A configuration file with problems; ``problems`` has one line each."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


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
