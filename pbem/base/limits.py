"""The bounds pbem keeps against hostile or broken mail, from ``[limits]``.

One object, so every part reads the same numbers and tests can set them."""
from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Limits:
    max_reply_bytes: int = 64_000                 # any one reply
    stranger_reply_factor: int = 4                # reply to a stranger: at most this times its mail...
    stranger_reply_floor: int = 8_000             # ...but always room for the HELP text
    stranger_reply_bytes_per_hour: int = 200_000  # to one address that has not signed on
    stranger_replies_per_hour_all: int = 200      # to all such addresses together
    stranger_reply_bytes_per_hour_all: int = 4_000_000
    max_problems: int = 40                        # problems listed one by one in a reply
    max_help: int = 5                             # HELP topics answered in one mail
    max_attempts: int = 3                         # tries at handling one mail before quarantine
    handling_timeout: float = 60.0                # seconds one mail may take (isolated handling)
    handling_memory_mb: int = 1024                # address space of the handling process
    batch_mails: int = 32                         # mails handled in one transaction (group commit)
    handling_workers: int = 2                     # worker processes taking turns at batches
    wrong_secrets_free: int = 3                   # wrong secrets before the throttle starts
    throttle_first: float = 60.0                  # first pause (seconds); it doubles...
    throttle_cap: float = 3600.0                  # ...up to this
    addresses_per_power: int = 3                  # addresses of record one power may have
    confirm_hours: float = 72.0                   # a SET ADDRESS token is valid this long
    commands_per_mail: int = 5                    # PRESS, TREATY ... of one kind in one mail
    commands_per_hour: int = 30                   # ... of one kind from one power or address in an hour
    max_text_bytes: int = 8_000                   # one press, treaty text or breach claim
    min_secret_length: int = 8                    # a secret a player chooses
    keep_oversized_bytes: int = 8_192             # of a mail over the size limit: headers and this much
    bounce_score: float = 5.0                     # bounce score at which an address is given up

    @classmethod
    def from_config(cls, cfg) -> "Limits":
        section = cfg.limits
        return cls(**{f.name: section[f.name] for f in fields(cls) if f.name in section})
