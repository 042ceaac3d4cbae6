"""The leak oracle's short run: random games of every game by mail among bots that keep
secrets, every mail, archive page and log line checked against what its reader may know
(tests/leak_oracle.py says how).  The long run is bench/leak_oracle.py."""
from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

import pytest

from leak_oracle import GM, PUBLIC, STRANGER, Table, play

#: one-turn games (one round) chosen so that together they do every secret thing the oracle knows
GAMES = [("pax_britannica", 3), ("pax_britannica", 4), ("eu_tpop", 1), ("eu_tpop", 5), ("eu_tpop", 9)]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    return {(rules, seed): play(rules, seed, tmp_path_factory.mktemp(f"{rules}{seed}"), short=True)
            for rules, seed in GAMES}


@pytest.mark.parametrize("rules,seed", GAMES)
def test_no_reader_learns_what_it_may_not_know(outcomes, rules, seed):
    outcome = outcomes[(rules, seed)]
    assert outcome.findings == [], "\n".join(outcome.findings[:20])
    assert outcome.counts.get("over") == 1 and outcome.mails > 50 and outcome.pages > 10


def test_the_short_run_does_every_secret_thing(outcomes):
    done: dict[str, int] = {}
    for outcome in outcomes.values():
        for what, n in outcome.counts.items():
            done[what] = done.get(what, 0) + n
    for what in ("secret treaty", "secret alliance", "public treaty", "press", "grey press", "reveal",
                 "breach claim", "stranger", "war declared", "treaty Casus Belli", "war joined"):
        assert done.get(what, 0) > 0, (what, done)


def _mail(to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "pbem@oracle.test", to, subject
    msg["Message-ID"] = "<planted@oracle.test>"
    msg["Date"] = "Mon, 05 Jan 2026 12:00:00 +0000"
    msg.set_content(body)
    return msg


def test_the_oracle_sees_a_secret_reach_a_reader_who_may_not_know_it(tmp_path):
    table = Table(tmp_path, "eu_tpop", 0)
    table.addresses["a@x.test"], table.addresses["b@x.test"] = "Valmont", "Corvia"
    word = table.canary()
    table.secret(word, "a secret treaty's id", {"Valmont"}, treaty="t1")
    table.check_mail(["a@x.test"], _mail("a@x.test", "treaty", f"treaty {word}"), [])
    assert table.outcome.findings == []
    table.check_mail(["b@x.test"], _mail("b@x.test", "report", f"Something about {word.upper()}."), [])
    assert table.outcome.findings == [f"Corvia was mailed a secret treaty's id {word!r} in 'report'"]
    # once revealed, everyone may know it; the GM always may
    table.secrets[word].public_since = table.now() - timedelta(seconds=1)
    table.check_mail(["b@x.test"], _mail("b@x.test", "report", word), [])
    table.check_mail([table.gm_address], _mail(table.gm_address, "report", word), [])
    assert len(table.outcome.findings) == 1
    assert table.may_know(table.secrets[word], PUBLIC, table.now()) and table.may_know(table.secrets[word], GM, table.now())


def test_the_oracle_sees_a_stranger_told_the_games_progress(tmp_path):
    table = Table(tmp_path, "eu_tpop", 0)
    table.start()
    label = table.rec.rules.phase(table.rec.state).label
    table.check_mail([table.stranger], _mail(table.stranger, "received", f"Phase: {label}"), [])
    assert table.reader_of(table.stranger) == STRANGER
    assert any("tells the game's progress" in f for f in table.outcome.findings)
