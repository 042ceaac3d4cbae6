"""``pbem demo``: a whole game played by mail among bot players on the
embedded default (built-in SMTP listener -> Maildir intake -> daemon ->
local Maildir delivery), with progress shown.

The GM creates the game by mail; each bot reads the mail delivered to its
own Maildir (its welcome mail for its secret, its turn reports to know when
orders are due), works out legal orders with the game's bot, and mails
them through the SMTP listener like any player.
"""
from __future__ import annotations

import asyncio
import email
import os
import random
import re
import shutil
import socket
import sys
import time
from email import policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import aiosmtplib

from pbem.base import registry
from pbem.base.config import load_config
from pbem.base.identity import hash_secret, new_secret
from pbem.base.resources import resource
from pbem.host.wiring import build
from pbem.kit.capabilities import supports
from pbem.kit.gameapi import DONE_EXPLICIT, Game
from pbem.storage import store


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_config(folder: Path, gm_secret: str, port: int) -> Path:
    example = resource("config.example.toml")
    text = example.read_text(encoding="utf-8")
    text = text.replace('gm_secret_hash = ""', f'gm_secret_hash = "{hash_secret(gm_secret)}"', 1)
    text = text.replace("port = 2525", f"port = {port}", 1)
    text = text.replace("reply_rate_per_hour = 30", "reply_rate_per_hour = 0", 1)
    text = text.replace("poll_interval = 1.0", "poll_interval = 0.05", 1)
    path = folder / "pbem.toml"
    path.write_text(text, encoding="utf-8")
    return path


class Bot:
    def __init__(self, power: str, address: str, mailbox: Path, seed: int):
        self.power, self.address, self.mailbox = power, address, mailbox
        self.secret: str | None = None
        self.rng = random.Random(f"{seed}:{power}")
        self.reports = 0

    def read_new(self) -> list[EmailMessage]:
        new = self.mailbox / "new"
        if not new.is_dir():
            return []
        out = []
        for path in sorted(new.iterdir()):
            out.append(email.message_from_bytes(path.read_bytes(), policy=policy.default))
            (self.mailbox / "cur").mkdir(exist_ok=True)
            path.rename(self.mailbox / "cur" / (path.name + ":2,S"))
        return out


async def _send(port: int, sender: str, to: str, subject: str, body: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = make_msgid(domain="demo.test")
    msg.set_content(body)
    await aiosmtplib.send(msg, hostname="127.0.0.1", port=port, start_tls=False, use_tls=False)


class Progress:
    """What the demo says as it plays: each new game turn as "turn N of M", each phase
    under it, and the time since the start."""

    def __init__(self, turns: list | None):
        self.turns, self.started = turns, time.monotonic()
        self.turn, self.label, self.seen = None, None, 0

    def elapsed(self) -> str:
        seconds = int(time.monotonic() - self.started)
        return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"

    def phase(self, phase) -> None:
        if phase.turn != self.turn:
            self.turn, self.seen = phase.turn, self.seen + 1
            number = self.turns.index(phase.turn) + 1 if self.turns and phase.turn in self.turns else self.seen
            of = f" of {len(self.turns)}" if self.turns else ""
            named = f": {phase.turn}" if phase.turn != number else ""
            print(f"turn {number}{of}{named} ({self.elapsed()} so far)")
        if phase.label != self.label:
            print(f"  {phase.label}")
            self.label = phase.label


async def _play(folder: Path, rules: str, players: list[str], options: dict, seed: int) -> int:
    gm_secret = new_secret()
    port = _free_port()
    cfg = load_config(_write_config(folder, gm_secret, port))
    print(f"starting the moderator (database {_shown(cfg.server.database)}) and its SMTP listener "
          f"on 127.0.0.1:{port}")
    daemon = build(cfg)
    ctx = daemon.ctx
    moderator = cfg.server.address
    outbox_root = Path(cfg.outbound.maildir)
    bots = {p: Bot(p, f"{p.lower().replace(' ', '-')}@demo.test", outbox_root / f"{p.lower().replace(' ', '-')}@demo.test", seed)
            for p in players}
    await daemon.listener.start()
    progress = Progress(registry.get(rules).turns(options))
    try:
        create = f"GM CREATE demo RULES {rules}" + "".join(f" OPTION {k}={v}" for k, v in options.items())
        lines = [f"SIGNON GM@demo {gm_secret}", create]
        lines += [f"GM ADD PLAYER {Game.mail_name(p)} {b.address}" for p, b in bots.items()]
        lines.append("GM START")
        print(f"the GM mails: {create}, seats {len(bots)} players, starts the game; the bots mail their orders")
        await _send(port, "gm@demo.test", moderator, "new game", "\n".join(lines) + "\n")
        idle_passes = 0
        while True:
            result = await daemon.run_pass()
            rec = store.find_game(ctx, "demo")
            if rec is None or rec.state is None:
                idle_passes += 1
                if idle_passes > 200:
                    print("the game was not created; see the GM's mail in", outbox_root / "gm@demo.test")
                    return 1
                await asyncio.sleep(0.02)
                continue
            progress.phase(rec.rules.phase(rec.state))
            if rec.status == "over":
                break
            sent = await _bots_act(port, moderator, rec, bots)
            if not (sent or result.fetched or result.sent or result.resolved):
                idle_passes += 1
                await asyncio.sleep(0.02)
                if idle_passes > 500:
                    print("the demo stalled: nobody had anything to do")
                    return 1
            else:
                idle_passes = 0
        rec = store.get_game(ctx, "demo")
        print(f"the game is over after {progress.elapsed()}")
        _print_results(rec)
        print("\nwriting the archive site ...")
        from pbem.web.archive import build_archive

        index = build_archive(ctx, Path(cfg.server.archive_dir))
        print(f"Archive: {index}")
        print(f"Mail of every player: {outbox_root}")
        first = next(iter(bots.values())).address
        command = _shown(Path(sys.argv[0])) if Path(sys.argv[0]).name == "pbem" else "pbem"
        print(f"Read a player's mail: {command} -c {_shown(cfg.path)} mail {first} --last 1")
        return 0
    finally:
        await daemon.listener.stop()
        await daemon.handler.close()


async def _bots_act(port: int, moderator: str, rec, bots: dict[str, Bot]) -> int:
    game = rec.rules
    phase = game.phase(rec.state)
    sent = 0
    for power, bot in bots.items():
        due = False
        for msg in bot.read_new():
            text = msg.get_body(("plain",)).get_content() if msg.get_body(("plain",)) else ""
            found = re.search(r"Your secret is:\s+(\S+)", text)
            if found:
                bot.secret = found.group(1)
            if "turn report" in msg["Subject"] or "has started" in msg["Subject"]:
                due = True
        if due and bot.secret and power in phase.owes:
            orders = game.bot_orders(rec.state, power, bot.rng)
            body = f"SIGNON {Game.mail_name(power)}@{rec.name} {bot.secret}\n"
            if orders:
                body += f"ORDERS {phase.name}\n" + "\n".join(orders) + "\nEND\n"
            if phase.done == DONE_EXPLICIT or not orders:
                body += "DONE\n"
            await _send(port, bot.address, moderator, f"{power} orders", body)
            sent += 1
    return sent


def _shown(path: Path) -> str:
    """A path as short as it can be written from the current folder."""
    try:
        shown = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if shown.startswith("..") else shown


def _print_results(rec) -> None:
    results = rec.rules.results(rec.state)
    print("\nFinal standings:")
    print(f"  {'rank':>4}  {'power':16} {'score':>6}")
    for r in results:
        print(f"  {r['rank']:>4}  {r['power']:16} {r['score']:>6}")


def run_demo(folder: Path, *, rules: str = "pax_britannica", turns: int | None = None, seed: int = 1) -> int:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)  # each line shows at once, piped or not
    game = registry.get(rules)
    if not supports(game, "bots"):
        print(f"pbem demo: {game.title} has no bots, so no demo can play it", file=sys.stderr)
        return 2
    folder = folder.resolve()
    if (folder / "var").exists():
        shutil.rmtree(folder / "var")
    folder.mkdir(parents=True, exist_ok=True)
    # The game itself ends after the turns asked for, so the last turn is whole and scored.
    players, options = game.demo_setup(turns) if turns is not None else game.demo_setup()
    planned = len(game.turns(options) or []) or turns
    length = f", {planned} turn{'s' if planned != 1 else ''}" if planned else ""
    print(f"pbem demo: {game.title}, {len(players)} bot players{length}, mail through the built-in SMTP listener")
    print(f"working folder: {folder}")
    return asyncio.run(_play(folder, rules, players, options, seed))
