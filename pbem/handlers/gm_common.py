"""What the GM's commands share: the game they need, the GM log, the
announcement to every player."""
from __future__ import annotations

from pbem.handlers.session import Session
from pbem.kit import audience
from pbem.storage import store


def need_game(session: Session, cmd, *statuses: str) -> bool:
    rec = session.game
    if rec is None:
        session.problem("unknown-game", "sign on as GM@<game> of an existing game", cmd.line)
        return False
    if statuses and rec.status not in statuses:
        session.problem("wrong-game-status", f"{rec.name} is {rec.status}; this needs it "
                        f"{' or '.join(statuses)}", cmd.line)
        return False
    return True


def log(session: Session, action: str, detail: str = "",
         seen_by: audience.Audience = audience.public()) -> None:
    """The GM log keeps the GM's role, never an address (the archive shows what is public)."""
    store.gm_log(session.ctx, session.game_name, "GM", action, detail, seen_by=seen_by)


def announce(session: Session, what: str, text: str,
              seen_by: audience.Audience = audience.public()) -> None:
    """Every player the gate lets see it hears of it: one mail for the whole GM mail (see
    announce.py)."""
    session.announce(what, text, seen_by)
