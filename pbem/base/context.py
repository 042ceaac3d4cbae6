"""What every part of the moderator needs: the database, settings and clock.

One :class:`Context` is made by the entry point (daemon, CLI, tests) and
passed down; nothing below reads globals.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlite_utils

from pbem.base.clock import Clock
from pbem.base.identity import SecretCache
from pbem.base.limits import Limits


@dataclass
class Context:
    db: sqlite_utils.Database
    clock: Clock
    address: str = "pbem@localhost"          # the moderator's own address
    domain: str = "localhost"                # for Message-IDs
    site_name: str = "pbem"
    gm_secret_hash: str = ""                 # the site GM secret ("" = GM mail disabled)
    max_message_bytes: int = 1_000_000
    reply_rate_per_hour: int = 30
    deadline_defaults: dict[str, Any] = field(default_factory=dict)
    require_address_of_record: bool = False
    reply_token: bool = False
    archive_dir: str = ""                    # "" = no archive is kept (a Context made by hand)
    game_data_dir: str = "var/game-data"
    base_url: str = ""
    admin_address: str = ""                  # told of quarantined mail, besides the GMs concerned
    limits: Limits = field(default_factory=Limits)
    # Right secrets this process has checked (never written anywhere): see SecretCache.
    secret_cache: SecretCache = field(default_factory=SecretCache, repr=False, compare=False)
    # The mail being gathered while one inbound mail is handled (pbem.outbound.batch), else None.
    batch: list | None = field(default=None, repr=False, compare=False)

    def now(self) -> datetime:
        return self.clock.now()

    @classmethod
    def from_config(cls, db, clock, cfg) -> "Context":
        return cls(
            db=db, clock=clock,
            address=cfg.server.address, domain=cfg.server.domain, site_name=cfg.server.name,
            gm_secret_hash=cfg.server.gm_secret_hash,
            max_message_bytes=cfg.server.max_message_bytes,
            reply_rate_per_hour=cfg.server.reply_rate_per_hour,
            deadline_defaults=dict(cfg.deadlines),
            require_address_of_record=cfg.identity.require_address_of_record,
            reply_token=cfg.identity.reply_token,
            archive_dir=str(cfg.server.archive_dir), base_url=cfg.server.base_url,
            game_data_dir=str(cfg.server.game_data),
            admin_address=cfg.server.admin_address, limits=Limits.from_config(cfg),
        )
