"""Every mail command, gathered from the families that declare them (see
:mod:`.declare`); importing this module is what makes the registry complete."""
from __future__ import annotations

from pbem.commands import grammar
from pbem.handlers import account, addresses, gm, gm_clock, player, signon, treaty
from pbem.handlers.declare import Declaration, seal

#: the modules that declare commands, a family each
FAMILIES = (signon, player, addresses, account, treaty, gm, gm_clock)

COMMANDS: tuple[Declaration, ...] = seal(grammar.command_rules())
BY_CLASS: dict[type, Declaration] = {d.cls: d for d in COMMANDS}
BY_RULE: dict[str, Declaration] = {d.rule: d for d in COMMANDS if d.rule}
