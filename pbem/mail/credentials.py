"""What the daemon logs in and connects to IMAP and SMTP with: the password,
read again at every login, and the TLS context, with the site's own CA."""
from __future__ import annotations

import logging
import ssl

from pbem.base.config import ConfigError, load_config, password

log = logging.getLogger(__name__)


def current_password(cfg, section: str):
    """The password of ``[imap]`` or ``[smtp]`` as a callable read again at every
    login: a password rotated in its file, in the configuration or (for a new
    process) in the environment is used without a restart.  Should the file be
    unreadable or the configuration broken meanwhile, the last good one stays."""
    last = [password(cfg, section)]

    def read() -> str:
        try:
            fresh = load_config(cfg.path) if cfg.path else cfg
            last[0] = password(fresh, section)
        except ConfigError as exc:
            log.warning("%s password: %s; using the one read before", section, exc.problems[0])
        return last[0]
    return read


def tls_context(cfg, section: str):
    """The TLS client context for ``[imap]`` or ``[smtp]``: the system's trusted
    authorities, or only those of ``<section>.ca_file`` when it is set."""
    ca_file = cfg[section]["ca_file"]
    return ssl.create_default_context(cafile=str(cfg.path_of(ca_file)) if ca_file else None)
