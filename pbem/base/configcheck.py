"""What ``pbem serve`` and ``pbem config check`` find wrong with a
configuration beyond its own file: a password it needs that nothing gives, a
password file others may read, a CA file that cannot be read, an archive a
web server running as another user cannot reach.  One line each, naming the
setting.

Problems stop the daemon before it starts (a missing IMAP password would
otherwise only show as a refused login, again and again); warnings are
logged at its start and printed by ``pbem config check``.
"""
from __future__ import annotations

import ssl
import stat
from pathlib import Path

from pbem.base.config import Config, ConfigError, password


def _needs_password(cfg: Config, section: str) -> bool:
    if section == "imap":
        return cfg.intake.kind == "imap"
    return cfg.outbound.kind == "smtp" and bool(cfg.smtp.user)


def problems(cfg: Config) -> list[str]:
    """What keeps the daemon from working with this configuration."""
    found: list[str] = []
    for section in ("imap", "smtp"):
        if not _needs_password(cfg, section):
            continue
        try:
            given = password(cfg, section)
        except ConfigError as exc:
            found.extend(exc.problems)
            continue
        if not given:
            found.append(f"{section}.password: none given: set {section}.password, "
                         f"{section}.password_file or $PBEM_{section.upper()}_PASSWORD")
    for section, used in (("imap", cfg.intake.kind == "imap" and cfg.imap.ssl),
                          ("smtp", cfg.outbound.kind == "smtp" and (cfg.smtp.tls or cfg.smtp.starttls))):
        ca_file = cfg[section]["ca_file"]
        if ca_file and used:
            try:
                ssl.create_default_context(cafile=str(cfg.path_of(ca_file)))
            except (OSError, ssl.SSLError) as exc:
                reason = getattr(exc, "strerror", None) or str(exc)
                found.append(f"{section}.ca_file: cannot use {cfg.path_of(ca_file)}: {reason}")
    return [f"{cfg.path}: {p}" if cfg.path and not p.startswith(str(cfg.path)) else p for p in found]


def warnings(cfg: Config) -> list[str]:
    """What works but should be mended."""
    found: list[str] = []
    for section in ("imap", "smtp"):
        name = cfg[section]["password_file"]
        if name:
            mode = _mode(cfg.path_of(name))
            if mode is not None and mode & stat.S_IROTH:
                found.append(f"{section}.password_file: {cfg.path_of(name)} may be read by every user "
                             f"(mode {mode:04o}): chmod 600 it")
        if cfg[section]["password"] and cfg.path:
            mode = _mode(cfg.path)
            if mode is not None and mode & stat.S_IROTH:
                found.append(f"{section}.password: written in {cfg.path}, which every user may read "
                             f"(mode {mode:04o}): chmod 600 it, or use {section}.password_file")
    archive = Path(cfg.server.archive_dir).resolve()
    data_dir = Path(cfg.server.data_dir).resolve()
    inside = str(data_dir) if archive.is_relative_to(data_dir) else None
    # pbem makes its data folders 0700: an archive inside one is out of a web server's reach.
    blocked = f"it is inside {inside}, which pbem keeps private (0700)" if inside else _unreachable(archive)
    if blocked:
        found.append(f"server.archive_dir: {cfg.server.archive_dir} cannot be read by a web server "
                     f"running as another user: {blocked}")
    return found


def _mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return None


def _unreachable(folder: Path) -> str | None:
    """Why another user cannot read the folder (the first folder on its way
    that others may not enter), or None."""
    folder = folder.resolve()
    for step in [*reversed(folder.parents), folder]:
        mode = _mode(step)
        if mode is None:
            return None  # not made yet: pbem makes it readable
        if not mode & stat.S_IXOTH or (step == folder and not mode & stat.S_IROTH):
            return f"{step} is mode {mode:04o}"
    return None
