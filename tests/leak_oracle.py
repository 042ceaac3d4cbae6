"""The leak oracle: random games by mail, every output checked against what its reader may know.

A whole moderator (real SQLite, the mail intake, the scheduler, the outbox, the archive) plays a
random game of a rule set among bot players who keep secrets: they sign secret and public
treaties (in Pax Britannica with alliance clauses, so wars call on them), send private, public
and grey press, reveal treaties, claim breaches the GM rules on, write their own secret (and the
GM the GM secret) into what they write, ask for HISTORY, RESEND, STATUS and TREATY LIST, and the
GM replaces a player now and then (the handover dossier).  A stranger writes with a wrong secret.

Every secret thing carries a canary word of its own.  Each mail the moderator sends is read by
its recipient (each power, the GM, the stranger), each archive page by the public, each log line
by the site's admin; a canary found where its reader may not know it (at the moment the mail was
queued, or the page was built) is a leak.  Who may know what is the oracle's own bookkeeping of
what happened, not anything the moderator computes:

- a secret treaty (its id and a word of its text, its breach claims): its parties, the GM, and
  everyone from the moment it is revealed;
- press to some powers: its sender, its recipients and the GM; grey press too, and a mail that
  delivers grey press shows no time finer than its phase and comes apart from the sender's
  other mail (never in the same delivery as the sender's reply);
- a player's address: that player and the GM; a player's secret and the GM secret: nobody
  (only the welcome mail that hands a secret out carries it);
- a stranger's reply says nothing of the game's progress (its phase, its deadline, who is
  awaited);
- the public archive shows no address and nothing secret;
- every event the game emitted carries its audience (one without is shown to the GM alone:
  nothing leaks, but its readers miss it).

``play(rules, seed, folder)`` plays one game and returns its :class:`Outcome`.
"""
from __future__ import annotations

import email
import hashlib
import logging
import random
import re
import string
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.header import decode_header, make_header
from email.utils import parsedate_to_datetime
from pathlib import Path

from pbem.inbound import intake
from pbem.outbound import outbox
from pbem.play import scheduler, turns
from pbem.storage import outbox_rows, phase_orders, store
from pbem.storage.db import utcnow_iso
from pbem.web import archive
from pbem.base.clock import FakeClock
from pbem.base.config import load_config
from pbem.base.context import Context
from pbem.storage.db import loads, open_db, parse_iso
from pbem.kit.gameapi import DONE_EXPLICIT, Game
from pbem.base.identity import hash_secret
from pbem.mail.source import RawMail

GM_SECRET = "oracle-gm-secret-7"
PUBLIC, GM, ADMIN, STRANGER = "the public", "the GM", "the site admin", "a stranger"
SETUPS = {
    "pax_britannica": [["Britain", "France", "Germany", "United States"],
                       ["Britain", "France", "Germany", "United States", "Japan"],
                       ["Britain", "France", "Germany", "United States", "Japan", "Russia"],
                       ["Britain", "France", "Germany", "United States", "Japan", "Russia", "Italy"]],
    "eu_tpop": [["Valmont", "Corvia", "Ostmark"]],
}
#: Pax Britannica clauses that make a war call on a treaty (a secret one above all)
PAX_CLAUSES = ["DEFENSIVE ALLIANCE", "OFFENSIVE ALLIANCE", "CB IF {other} IS ATTACKED", "CB IF {me} GAINS CB",
               "{me}: PAY {other} 1"]


@dataclass
class Secret:
    """One secret thing, by its canary word: who may know it, and from when everyone may."""

    word: str
    what: str
    readers: set[str]                 # powers that may know it from the start
    gm: bool = True                   # whether the GM may know it
    public_since: datetime | None = None
    treaty: str | None = None         # the treaty whose reveal makes it public
    grey_sender: str | None = None    # grey press: who must stay unnamed
    sent: datetime | None = None      # grey press: when it was written
    phase: str | None = None          # grey press: the phase it was written in


@dataclass
class Outcome:
    rules: str
    seed: int
    findings: list[str] = field(default_factory=list)
    mails: int = 0
    pages: int = 0
    phases: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


class _Logs(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        try:
            self.lines.append(self.format(record))
        except Exception:  # noqa: BLE001 - a record that cannot be formatted is no leak
            pass


class Recorder:
    """The outbox's mail sender: it keeps every mail, with the delivery it went out in."""

    def __init__(self):
        self.sent: list[tuple[list[str], email.message.EmailMessage, int]] = []
        self.batch = 0

    async def send(self, raw, recipients):
        self.sent.append((list(recipients), email.message_from_bytes(raw), self.batch))


def _header(value) -> str:
    return str(make_header(decode_header(str(value))))


def _text_of(msg) -> str:
    """Everything a reader of the mail can read: its headers and every part, decoded."""
    parts = [f"{k}: {_header(v)}" for k, v in msg.items()]
    for part in msg.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True) or b""
        parts.append(payload.decode(part.get_content_charset() or "utf-8", "replace"))
    return "\n".join(parts)


class Table:
    """One game among bots, through the whole moderator, with the oracle's bookkeeping."""

    def __init__(self, folder: Path, rules: str, seed: int, short: bool = False):
        self.seed = seed
        self.rng = random.Random(f"oracle:{rules}:{seed}")
        self.rules, self.name, self.short = rules, f"g{seed}", short
        self.clock = FakeClock()
        self.db = open_db(folder / "pbem.sqlite")
        self.archive_dir = folder / "archive"
        self.ctx = Context(db=self.db, clock=self.clock, address="pbem@oracle.test", domain="oracle.test",
                           gm_secret_hash=hash_secret(GM_SECRET),
                           deadline_defaults=dict(load_config(None).deadlines), reply_rate_per_hour=0,
                           archive_dir=str(self.archive_dir))
        self.sender = Recorder()
        self.outcome = Outcome(rules, seed)
        self.secrets: dict[str, Secret] = {}
        self.addresses: dict[str, str] = {}       # address -> power (or GM / stranger)
        self.passwords: dict[str, str] = {}       # power -> its secret
        self.counter = 0
        self.grey_dates: dict[str | None, set] = {}
        self.checked = 0                          # mails of self.sender.sent already read
        self.gm_address = self.canary("gm") + "@gm.oracle.test"
        self.addresses[self.gm_address] = GM
        self.stranger = self.canary("x") + "@stranger.oracle.test"
        self.addresses[self.stranger] = STRANGER
        self.secret(self.gm_address, "the GM's address", set())
        self.secret(GM_SECRET, "the GM secret", set(), gm=False)

    # -- bookkeeping -----------------------------------------------------------------
    def canary(self, prefix: str = "cn") -> str:
        return prefix + "".join(self.rng.choice(string.ascii_lowercase) for _ in range(9))

    def secret(self, word: str, what: str, readers: set[str], **extra) -> Secret:
        s = Secret(word, what, set(readers), **extra)
        self.secrets[word.lower()] = s
        return s

    def may_know(self, s: Secret, reader: str, at: datetime) -> bool:
        if reader == GM:
            return s.gm
        if s.public_since is not None and at >= s.public_since and reader != ADMIN:
            return True
        return reader in s.readers

    def find(self, what: str) -> None:
        if len(self.outcome.findings) < 200:
            self.outcome.findings.append(what)

    # -- the mail path -----------------------------------------------------------------
    def now(self) -> datetime:
        return self.clock.now()

    def mail(self, sender: str, body: str, subject: str = "orders") -> None:
        self.counter += 1
        self.clock.advance(seconds=7)
        if outbox_rows.due(self.ctx, utcnow_iso(self.now()), after=0, limit=1):
            self.deliver()  # the daemon wakes when held mail falls due, before this mail comes
        msg = email.message.EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, self.ctx.address, subject
        msg["Message-ID"] = f"<o{self.counter}@players.oracle.test>"
        msg.set_content(body)
        row = intake.store_raw(self.ctx, RawMail(f"oracle:{self.counter}", bytes(msg)))
        intake.process(self.ctx, row)
        self.deliver()

    def deliver(self) -> None:
        import asyncio

        self.sender.batch += 1
        asyncio.run(outbox.deliver_due(self.ctx, self.sender))
        self.check_new_mail()

    def say(self, power: str, body: str) -> None:
        self.mail(self.address_of(power), f"SIGNON {Game.mail_name(power)}@{self.name} "
                                          f"{self.passwords[power]}\n{body}\n")

    def gm(self, body: str) -> None:
        self.mail(self.gm_address, f"SIGNON GM@{self.name} {GM_SECRET}\n{body}\n")

    def address_of(self, power: str) -> str:
        return next(a for a, p in reversed(list(self.addresses.items())) if p == power)

    @property
    def rec(self) -> store.GameRecord:
        return store.get_game(self.ctx, self.name)

    # -- setting up ---------------------------------------------------------------------
    def start(self) -> None:
        rules = self.rules
        powers = self.rng.choice(SETUPS[rules])
        if rules == "pax_britannica":
            last = 1880 if self.short else self.rng.choice([1880, 1884, 1888])
            options = f"OPTION setup=1880 OPTION last_turn={last}"
        else:
            options = f"OPTION setup=sample OPTION rounds={1 if self.short else self.rng.choice([1, 1, 2])}"
        seats = []
        for power in powers:
            address = f"{self.canary('p')}@players.oracle.test"
            self.addresses[address] = power
            self.secret(address, f"{power}'s address", {power})
            seats.append(f"GM ADD PLAYER {Game.mail_name(power)} {address}")
        self.gm(f"GM CREATE {self.name} RULES {rules} {options}\n" + "\n".join(seats) + "\nGM START")
        self.powers = powers
        self.read_welcomes()
        # Most players take their own map as SVG (its words are text the oracle reads: a PNG's
        # are not, and the PNG is the public map the archive pages check anyway).
        maps = random.Random(f"oracle-maps:{self.rules}:{self.seed}")  # the game's own draws stay as they were
        for power in powers:
            if maps.random() < 0.75:
                self.say(power, "SET MAP SVG")

    def read_welcomes(self) -> None:
        for to, msg, _ in self.sender.sent:
            subject = _header(msg["Subject"])
            if "you play" in subject or "you now play" in subject:
                power = self.addresses.get(to[0])
                found = re.search(r"Your secret is:\s+(\S+)", _text_of(msg))
                if power and found and self.passwords.get(power) != found.group(1):
                    self.passwords[power] = found.group(1)
                    self.secret(found.group(1), f"{power}'s secret", set(), gm=False)

    # -- what the players do -------------------------------------------------------------
    def others(self, power: str) -> list[str]:
        return [p for p in self.powers if p != power]

    def diplomacy(self) -> None:
        """A few random acts of diplomacy by random players (and the GM)."""
        rng = self.rng
        for _ in range(rng.randint(0, 3)):
            power = rng.choice(self.powers)
            roll = rng.random()
            if roll < 0.25:
                self.press(power)
            elif roll < 0.45:
                self.propose(power)
            elif roll < 0.6:
                self.answer_treaties(power)
            elif roll < 0.68:
                self.reveal(power)
            elif roll < 0.76:
                self.claim(power)
            elif roll < 0.9:
                self.ask(power)
            else:
                self.gm_act()

    def spill(self, power: str) -> str:
        """Now and then a player writes its own secret in what it writes (it must be masked)."""
        return f" (my secret is {self.passwords[power]})" if self.rng.random() < 0.3 else ""

    def press(self, power: str) -> None:
        rng = self.rng
        others = self.others(power)
        everyone = rng.random() < 0.3
        to = others if everyone else rng.sample(others, rng.randint(1, len(others)))
        grey = rng.random() < 0.35
        word = self.canary()
        readers = {power, *to}
        # Press to every other power is public (the archive shows it with three players or more).
        public = set(to) == set(others) and len(self.powers) >= 3
        self.secret(word, "grey press" if grey else "press", readers,
                    public_since=self.now() if public else None,
                    grey_sender=power if grey else None, sent=self.now() + timedelta(seconds=7),
                    phase=self.rec.row["phase_key"])
        names = "ALL" if everyone else ", ".join(Game.mail_name(p) for p in to)
        self.say(power, f"PRESS TO {names}{' GREY' if grey else ''}\nA word: {word}{self.spill(power)}\nENDPRESS")
        self.outcome.count("grey press" if grey else "press")

    def propose(self, power: str) -> None:
        rng = self.rng
        others = self.others(power)
        parties = rng.sample(others, rng.randint(1, min(2, len(others))))
        public = rng.random() < 0.3
        tid, word = self.canary("t"), self.canary()
        lines = [f"Terms {word}{self.spill(power)}."]
        if self.rules == "pax_britannica":
            lines.insert(0, rng.choice(PAX_CLAUSES).format(me=power, other=parties[0]))
        readers = {power, *parties}
        since = self.now() if public else None
        self.secret(tid, "a treaty's id", readers, public_since=since, treaty=tid)
        self.secret(word, "a treaty's text", readers, public_since=since, treaty=tid)
        names = ", ".join(Game.mail_name(p) for p in parties)
        self.say(power, f"TREATY PROPOSE {tid} WITH {names}{' PUBLIC' if public else ''}\n"
                        + "\n".join(lines) + "\nENDTREATY")
        self.outcome.count("public treaty" if public else "secret treaty")

    def treaties(self) -> dict:
        state = self.rec.state or {}
        return state.get("treaties", {})

    def answer_treaties(self, power: str) -> None:
        for t in self.treaties().values():
            if t.get("status") == "proposed" and power in t["parties"] and power not in t.get("signatures", {}) \
                    and not t.get("congress"):
                verb = "SIGN" if self.rng.random() < 0.85 else "REFUSE"
                self.say(power, f"TREATY {verb} {t['id']}")
                return

    def reveal(self, power: str) -> None:
        for t in self.treaties().values():
            if t.get("secret") and power in t["parties"] and t.get("status") == "in_force":
                self.say(power, f"TREATY REVEAL {t['id']}")
                self.outcome.count("reveal")
                return

    def claim(self, power: str) -> None:
        for t in self.treaties().values():
            if power in t["parties"] and t.get("status") == "in_force" and t["id"].lower() in self.secrets:
                against = self.rng.choice([p for p in t["parties"] if p != power])
                word = self.canary()
                tracked = self.secrets[t["id"].lower()]
                self.secret(word, "a breach claim", set(t["parties"]), public_since=tracked.public_since,
                            treaty=tracked.treaty)
                self.say(power, f"TREATY BREACH {t['id']} {Game.mail_name(against)} they broke it: "
                                f"{word}{self.spill(power)}")
                self.outcome.count("breach claim")
                return

    def ask(self, power: str) -> None:
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            self.say(power, "RESEND")
        elif roll < 0.5:
            labels = [r["label"] for r in phase_orders.history(self.ctx, self.name)]
            self.say(power, f"RESEND {rng.choice(labels)}" if labels else "HISTORY")
        elif roll < 0.7:
            self.say(power, "TREATY LIST")
        elif roll < 0.85:
            self.say(power, "STATUS")
        else:
            self.say(power, "HISTORY")

    def gm_act(self) -> None:
        rng = self.rng
        claims = [t for t in self.treaties().values() if any(not b.get("ruled") for b in t.get("breaches", []))]
        roll = rng.random()
        if claims and roll < 0.6:
            t = rng.choice(claims)
            self.gm(f"GM RULE {t['id']} {rng.choice(['DISMISSED', 'UPHELD'])}")
            self.outcome.count("ruling")
        elif roll < 0.75:
            word = self.canary()
            self.secret(word, "an announcement", set(), public_since=self.now())
            self.gm(f"GM ANNOUNCE\nHear ye: {word}. (The GM secret is {GM_SECRET}.)\nENDANNOUNCE")
        elif roll < 0.85 and not self.replaced:
            power = rng.choice(self.powers)
            address = f"{self.canary('p')}@players.oracle.test"
            self.addresses[address] = power
            self.secret(address, f"{power}'s new address", {power})
            self.gm(f"GM REPLACE {Game.mail_name(power)} {address}")
            self.read_welcomes()
            self.replaced = True
            self.outcome.count("replacement")
        else:
            power = rng.choice(self.powers)
            self.mail(self.stranger, f"SIGNON {Game.mail_name(power)}@{self.name} wrong-{self.canary()}\n"
                                     "STATUS\nHISTORY\n")
            self.outcome.count("stranger")

    replaced = False

    def war_pressure(self) -> None:
        """Pax Britannica: now and then a Casus Belli, and a secret alliance (or a pledge) with
        its target or its holder, so that a War calls on a secret treaty."""
        state = self.rec.state
        if self.rules != "pax_britannica" or state.get("phase") != "movement" or self.rng.random() > 0.6:
            return
        a, b, c = self.rng.sample(self.powers, 3)
        self.gm(f"GM SET CB {Game.mail_name(a)} {Game.mail_name(b)}")
        clause, ally = self.rng.choice([("DEFENSIVE ALLIANCE", b), (f"CB IF {b} IS ATTACKED", b),
                                        ("OFFENSIVE ALLIANCE", a), (f"CB IF {a} GAINS CB", a)])
        tid, word = self.canary("t"), self.canary()
        self.secret(tid, "a treaty's id", {c, ally}, treaty=tid)
        self.secret(word, "a treaty's text", {c, ally}, treaty=tid)
        self.say(c, f"TREATY PROPOSE {tid} WITH {Game.mail_name(ally)}\n{clause}\nTerms {word}.\nENDTREATY")
        self.say(ally, f"TREATY SIGN {tid}")
        self.outcome.count("secret alliance")

    def orders(self) -> None:
        rec = self.rec
        game, state = rec.rules, rec.state
        phase = game.phase(state)
        waiting = set(phase_orders.waiting_for(self.ctx, rec))
        for power in [p for p in phase.owes if p in waiting]:
            lines = game.bot_orders(state, power, self.rng)
            if self.rules == "pax_britannica" and state.get("phase") == "war":
                held = {cb["against"] for cb in state.get("cb", []) if cb["holder"] == power}
                lines += [f"DECLARE WAR ON {Game.mail_name(t)}" for t in sorted(held)
                          if self.rng.random() < 0.8 and f"DECLARE WAR ON {t}" not in lines]
            lines = self.spill_into_proposals(power, lines)
            body = f"ORDERS {phase.name}\n" + "\n".join(lines) + "\nEND\n" if lines else ""
            if phase.done == DONE_EXPLICIT or not lines:
                body += "DONE\n"
            self.say(power, body)

    def spill_into_proposals(self, power: str, lines: list[str]) -> list[str]:
        """A Congress proposal's free text gets the proposer's secret now and then."""
        out = []
        for line in lines:
            if line.upper() == "ENDPROPOSE" and self.rng.random() < 0.5:
                out.append(f"Signed in good faith; my secret is {self.passwords[power]}.")
            out.append(line)
        return out

    # -- time --------------------------------------------------------------------------
    def advance(self) -> bool:
        """Run what is due; when nothing was, go to the deadline.  False once nothing moves."""
        resolved = scheduler.tick(self.ctx)
        if not resolved:
            rec = self.rec
            if rec.status != "active":
                return False
            if rec.deadline is not None:
                self.clock.set(max(self.now(), rec.deadline) + timedelta(seconds=1))
            else:
                self.clock.advance(minutes=20)
            resolved = scheduler.tick(self.ctx)
        self.clock.advance(minutes=16)  # grey press waits for its delivery
        self.deliver()
        self.outcome.phases += len(resolved)
        self.track_reveals()
        return True

    def track_reveals(self) -> None:
        for key, t in self.treaties().items():
            for s in self.secrets.values():
                if s.treaty and s.treaty.lower() == key.lower() and not t.get("secret") \
                        and s.public_since is None:
                    s.public_since = self.now()

    # -- reading what was sent ------------------------------------------------------------
    def reader_of(self, address: str) -> str | None:
        return self.addresses.get(address)

    def check_new_mail(self) -> None:
        self.track_reveals()
        sent = self.sender.sent
        batches: dict[int, list] = {}
        for to, msg, batch in sent[self.checked:]:
            batches.setdefault(batch, []).append((to, msg))
        for to, msg, batch in sent[self.checked:]:
            self.check_mail(to, msg, batches[batch])
        self.outcome.mails += len(sent) - self.checked
        self.checked = len(sent)

    def queued_at(self, msg) -> datetime:
        row = next(self.db["outbox"].rows_where("message_id = ?", [str(msg["Message-ID"])]), None)
        return parse_iso(row["created"]) if row else self.now()

    def check_mail(self, to: list[str], msg, batch: list) -> None:
        text = _text_of(msg)
        lowered = text.lower()
        at = self.queued_at(msg)
        subject = _header(msg["Subject"])
        welcome = "you play" in subject or "you now play" in subject
        for address in to:
            reader = self.reader_of(address)
            if reader is None:
                continue
            for word, s in self.secrets.items():
                if word not in lowered:
                    continue
                if welcome and s.what.endswith("secret") and s.what.startswith(str(reader)):
                    continue  # the welcome mail hands the power its own secret
                if s.what.endswith("address") and address.lower() == word:
                    continue  # a mail shows its reader its own address
                if not self.may_know(s, reader, at):
                    self.find(f"{reader} was mailed {s.what} {s.word!r} in {subject!r}")
            for word, s in self.secrets.items():
                if s.grey_sender and word in lowered and reader != s.grey_sender:
                    self.check_grey(s, msg, batch, reader, subject)
            if reader == STRANGER:
                self.check_stranger(text, subject)

    def check_grey(self, s: Secret, msg, batch: list, reader: str, subject: str) -> None:
        if "press from" not in subject:
            return  # a report or dossier quoting it is checked by the canary rules
        date = parsedate_to_datetime(str(msg["Date"]))
        if s.sent and date == s.sent:
            self.find(f"{reader}'s grey press {s.word!r} carries the moment it was sent ({msg['Date']})")
        # every grey press of one phase carries the same Date: nothing finer than the phase
        dates = self.grey_dates.setdefault(s.phase, set())
        dates.add(date)
        if len(dates) > 1:
            self.find(f"grey press of {s.phase} carries different dates ({sorted(map(str, dates))})")
        sender_address = self.address_of(s.grey_sender)
        for to, other in batch:
            if sender_address in to and other is not msg and "received" in _header(other["Subject"]):
                self.find(f"grey press {s.word!r} went out in the same delivery as its sender's reply")
                return

    def check_stranger(self, text: str, subject: str) -> None:
        rec = self.rec
        if rec.state is None:
            return
        label = rec.rules.phase(rec.state).label
        body = text.lower()
        for tell in (label.lower(), "still waiting", "deadline:"):
            if tell and tell in body:
                self.find(f"a stranger's reply {subject!r} tells the game's progress ({tell!r})")
                return

    def check_archive(self) -> None:
        self.track_reveals()
        archive.build_archive(self.ctx, self.archive_dir)
        at = self.now()
        for path in sorted(self.archive_dir.rglob("*")):
            if not path.is_file() or path.suffix not in (".html", ".svg", ".css"):
                continue
            self.outcome.pages += 1
            page = path.read_text(encoding="utf-8")
            lowered = page.lower()
            for word, s in self.secrets.items():
                if word in lowered and not self.may_know(s, PUBLIC, at):
                    self.find(f"the archive page {path.name} shows {s.what} {s.word!r}")
                if s.grey_sender and word in lowered:
                    at_word = lowered.index(word)
                    block = page[max(0, lowered.rfind("<article", 0, at_word)):at_word]
                    if re.search(r"\d\d:\d\d", block):
                        self.find(f"the archive page {path.name} shows grey press {s.word!r} with its time")

    def tally(self) -> None:
        """What the game did that secrets could leak through: wars, treaties called on in a war."""
        self.outcome.counts["over"] = int(self.rec.status == "over")
        for row in self.db["events"].rows_where("game = ?", [self.name], select="kind, data"):
            data = loads(row["data"], {})
            if "audience" not in data:  # shown to the GM alone: safe, but the game forgot it
                self.find(f"an event {row['kind']!r} carries no audience")
            if row["kind"] in ("declaration", "war"):
                self.outcome.count("war declared")
            if row["kind"] == "cb" and data.get("cause") == "treaty":
                self.outcome.count("treaty Casus Belli")
            if row["kind"] == "war_joined":
                self.outcome.count("war joined")

    def check_logs(self, lines: list[str]) -> None:
        text = "\n".join(lines).lower()
        for word, s in self.secrets.items():
            if word in text and not s.what.endswith("address") and not self.may_know(s, ADMIN, self.now()):
                self.find(f"the log shows {s.what} {s.word!r}")


def play(rules: str, seed: int, folder: Path, max_rounds: int = 400, short: bool = False) -> Outcome:
    """One random game of ``rules``; its findings are the leaks seen.  ``short``: a game of one
    turn (one round)."""
    folder.mkdir(parents=True, exist_ok=True)
    logs = _Logs()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(logs)
    root.setLevel(logging.DEBUG)
    # The game's dice seed follows the oracle's seed, as everything else the oracle draws does:
    # one (rules, seed) is one game on every run, so the short run does every secret thing
    # whatever the run (a fresh secret seed made a game of its own each time).
    real_seed, turns.new_seed = turns.new_seed, lambda: hashlib.sha256(f"oracle-dice:{rules}:{seed}".encode()).hexdigest()
    try:
        table = Table(folder, rules, seed, short)
        table.start()
        rounds = 0
        while table.rec.status == "active" and rounds < max_rounds:
            rounds += 1
            table.diplomacy()
            table.war_pressure()
            table.orders()
            if not table.advance():
                break
            if rounds % 4 == 0:
                table.check_archive()
        table.diplomacy()
        table.check_archive()
        table.check_logs(logs.lines)
        table.tally()
        table.db.conn.close()
        return table.outcome
    finally:
        turns.new_seed = real_seed
        root.removeHandler(logs)
        root.setLevel(old_level)
