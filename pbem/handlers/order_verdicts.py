"""What the game says of a power's orders, worked out ahead while no write lock is held.

A game's ``parse_orders``, ``validate`` and ``order_summary`` are pure functions of the
state and their arguments (:mod:`pbem.kit.gameapi`), and together about a third of
handling a mail of orders.  A worker that reads the next batch ahead
(:func:`pbem.inbound.intake.prepare_batch`) asks them for that batch's orders
(:func:`ask_ahead`) while another worker holds the database's write lock; the ORDERS
command then takes each answer from here, once, if it asks the same question of the same
state: the same rules, the state of the same digest, the same power and the same
arguments.  Anything else (another state: a phase resolved meanwhile; another power; a
question never asked ahead) is asked of the game as before.  A game that does not
promise pure answers (``Game.pure_orders = False``) is never asked ahead.
"""
from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Callable

from pbem.commands import model as m
from pbem.storage import store

log = logging.getLogger(__name__)

#: the most order lines of one mail a game reads (a deal offer of thousands of lines would be
#: copied into every report)
MAX_ORDER_LINES = 200
#: the longest line of orders a game reads (a game's grammar need not be linear in a line's
#: length: an unbroken line of a quoted mail must not hold the queue)
MAX_ORDER_CHARS = 500

#: the most answers kept: a read-ahead batch asks at most three a mail
KEPT_ANSWERS = 512
_kept: OrderedDict[tuple, object] = OrderedDict()


def _key(kind: str, rec, power: str, argument) -> tuple:
    return (kind, rec.row["rules"], rec.digest, power, repr(argument))


def _keep(key: tuple, answer) -> None:
    _kept[key] = answer
    while len(_kept) > KEPT_ANSWERS:
        _kept.popitem(last=False)


def _answer(kind: str, rec, power: str, argument, ask: Callable):
    """The answer kept for this question (taken: each is used once, so it is nobody
    else's to change), else the game's answer now."""
    kept = _kept.pop(_key(kind, rec, power, argument), None) if _kept and _pure(rec) else None
    return kept if kept is not None else ask()


def _pure(rec) -> bool:
    """Whether the game promises pure answers (``Game.pure_orders``): else nothing is kept."""
    return getattr(rec.rules, "pure_orders", True)


def parse_orders(rec, power: str, lines: list):
    return _answer("parse", rec, power, lines, lambda: rec.rules.parse_orders(rec.state, power, lines))


def validate(rec, power: str, orders: list) -> list:
    return _answer("validate", rec, power, orders, lambda: list(rec.rules.validate(rec.state, power, orders)))


def order_summary(rec, power: str, accepted: list) -> list:
    return _answer("summary", rec, power, accepted, lambda: rec.rules.order_summary(rec.state, power, accepted))


def ask_ahead(rec, power: str, lines: list) -> None:
    """Ask the game now what the ORDERS command will ask of ``lines`` from ``power``
    in the game's stored state (``rec``, read outside any transaction).  Never raises:
    a question that fails here is asked again, and fails, when the mail is handled."""
    if not _pure(rec):
        return
    try:
        game, state = rec.rules, rec.state
        parsed = game.parse_orders(state, power, lines)
        _keep(_key("parse", rec, power, lines), parsed)
        if not rec.phase.takes_orders_from(power):
            return
        problems = list(game.validate(state, power, parsed.orders))
        _keep(_key("validate", rec, power, parsed.orders), problems)
        refused = {p.line for p in [*parsed.problems, *problems] if p.kind != "warning"}
        accepted = [o for o in parsed.orders if o.line not in refused]
        if accepted:
            _keep(_key("summary", rec, power, accepted), game.order_summary(state, power, accepted))
    except Exception:  # the game's trouble is told when the mail is handled
        log.debug("orders of %s in %s not read ahead", power, rec.name, exc_info=True)


def readable_lines(cmd: m.Orders) -> list[tuple[int, str]]:
    """The lines of an orders block a game reads: the first MAX_ORDER_LINES, none longer
    than MAX_ORDER_CHARS."""
    return [(n, t) for n, t in list(cmd.lines)[:MAX_ORDER_LINES] if len(t) <= MAX_ORDER_CHARS]


def ask_ahead_of_mail(ctx, parsed: m.ParsedMail, games: dict) -> None:
    """:func:`ask_ahead` for each ORDERS block of a mail read ahead, for the power it signs
    on as (its secret is checked only when it is handled: a wrong one wastes the answers);
    ``games``: the games read for the batch so far, by name."""
    signon = parsed.signon
    orders = [c for c in parsed.commands if isinstance(c, m.Orders)]
    if signon is None or signon.is_gm or not orders:
        return
    if signon.game not in games:
        games[signon.game] = store.find_game(ctx, signon.game)
    rec = games[signon.game]
    if rec is None or rec.status not in ("active", "paused") or rec.row["state"] is None:
        return
    power = rec.resolve_power(signon.power)
    if power:
        for cmd in orders:
            ask_ahead(rec, power, readable_lines(cmd))
