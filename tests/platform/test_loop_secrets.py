"""Secrets stay secret, through the whole loop (mail in, replies, reports, treaty records,
announcements and the archive out), in a Pax Britannica game among four players:

- a war declared on a power a secret treaty defends gives its co-signer a Casus Belli and a
  duty its parties alone know of; joining is public, the treaty is not named; a secret
  alliance refused raises the Index in public view, the treaty and its breaker stay hidden;
- a GM ruling on a secret treaty reaches its parties and the GM, not the public GM log;
- a sign-on secret written in a public treaty, press, a claim or an announcement is masked,
  in whatever case or form it is written;
- grey press shows no time finer than its phase and goes out apart from its sender's mail;
- a stranger's wrong-secret reply says nothing of the game's progress;
- treaty commands answer alike whether or not a treaty the sender may not see exists;
- the GM log keeps roles and ids: no address reaches the archive."""
from __future__ import annotations

from datetime import timedelta
from email.utils import parsedate_to_datetime

import pytest

from helpers_loop import GM_SECRET, Loop
from pax_table import GM, POWERS, PaxTable
from pbem.storage import store
from pbem.web import archive
from pbem.storage.db import parse_iso


@pytest.fixture
def pax(tmp_path, monkeypatch):
    return PaxTable(tmp_path, monkeypatch)


def state(pax) -> dict:
    return store.get_game(pax.ctx, "pax").state


def advance(pax, until: str, orders: dict | None = None) -> None:
    """Every power that owes an answer sends DONE (BUILD ARMY 1 in a Movement) until the game
    stands at phase ``until``."""
    for _ in range(12):
        rec = store.get_game(pax.ctx, "pax")
        if rec.state["phase"] == until:
            return
        for power in rec.rules.phase(rec.state).owes:
            mail = power.replace(" ", "-")
            lines = (orders or {}).get(power) or (["BUILD ARMY 1"] if rec.state["phase"] == "movement" else [])
            pax.say(mail, *(["ORDERS", *lines, "ENDORDERS"] if lines else []), "DONE")
        pax.loop.tick()
        pax.loop.flush()
    raise AssertionError(f"the game never reached {until}: it is at {state(pax)['phase']}")


def everything_mailed_to(pax, power: str, since: int = 0) -> str:
    return "\n".join(pax.text(m) + m["Subject"] for m in pax.mails(power)[since:])


def archive_text(pax, tmp_path) -> str:
    archive.build_archive(pax.ctx, tmp_path / "site")
    return "\n".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))


def sign(pax, proposer: str, tid: str, partner: str, *lines: str) -> None:
    pax.say(proposer, f"TREATY PROPOSE {tid} WITH {partner}", *lines, "ENDTREATY")
    pax.say(partner, f"TREATY SIGN {tid}")


def test_a_war_under_secret_treaties_tells_others_only_what_the_rules_make_public(pax, tmp_path):
    sign(pax, "France", "dual", "United-States", "DEFENSIVE ALLIANCE", "Dual pact.")
    sign(pax, "Britain", "entente", "Germany", "OFFENSIVE ALLIANCE", "Cordial words.")
    pax.gm("GM SET CB Britain France")
    advance(pax, "war")
    pax.say("Britain", "ORDERS", "DECLARE WAR ON France", "ENDORDERS", "DONE")
    pax.loop.tick()
    pax.loop.flush()
    assert state(pax)["phase"] == "war_alliances"
    # The declaration is public; the Casus Belli a treaty gives, with its cause, is its parties'.
    told = {p: " ".join(everything_mailed_to(pax, p).split()) for p in POWERS}
    assert "United States gains a Casus Belli against Britain (treaty dual: Britain declared War on France)" \
        in told["United-States"]
    assert "JOIN WAR WITH France -- treaty dual, defensive" in told["United-States"]
    assert "Germany gains a Casus Belli against France (treaty entente: Britain declared War on France)" \
        in told["Britain"]
    assert "Britain declares War on France" in told["Germany"] and "Britain declares War on France" in told["France"]
    for outsider in ("Britain", "Germany"):
        assert "dual" not in told[outsider] and "Dual pact" not in told[outsider], outsider
        assert "United States gains a Casus Belli" not in told[outsider]
    for outsider in ("France", "United-States"):
        assert "entente" not in told[outsider] and "Germany gains a Casus Belli" not in told[outsider], outsider
    # Alliance Determination: the United States keeps its treaty (public: it joins the War);
    # Germany refuses its offensive alliance (public: the Index rises; who broke what is hidden).
    seen = {p: len(pax.mails(p)) for p in POWERS}
    eti = state(pax)["eti"]
    pax.say("United-States", "ORDERS", "JOIN WAR WITH France", "ENDORDERS", "DONE")
    pax.say("Germany", "ORDERS", "REFUSE WAR WITH Britain", "ENDORDERS", "DONE")
    pax.loop.tick()
    pax.loop.flush()
    new = {p: " ".join(everything_mailed_to(pax, p, seen[p]).split()) for p in POWERS}
    assert "United States joins the War beside France against Britain." in new["Britain"]
    assert "dual" not in new["Britain"] and "dual" not in new["Germany"]
    assert "United States keeps treaty dual (defensive alliance) and joins France's War." in new["France"]
    assert state(pax)["eti"] == eti + 10  # the United States' declaration, Germany's broken treaty
    assert "European Tensions +5 (a treaty was broken)" in new["France"]
    assert "entente" not in new["France"] and "entente" not in new["United-States"]
    assert "Germany refuses to join Britain's War and breaks entente." in new["Britain"]
    assert "treaty entente: broken" in " ".join(m["Subject"] for m in pax.mails("Britain")[seen["Britain"]:])
    site = archive_text(pax, tmp_path)
    for word in ("dual", "entente", "Dual pact", "Cordial words", "gains a Casus Belli against Britain",
                 "gains a Casus Belli against France"):
        assert word not in site, word
    assert "United States joins the War beside France against Britain." in " ".join(site.split())
    # the GM reads everything
    gm = " ".join("\n".join(pax.text(m) for m in pax.loop.inbox(GM)).split())
    assert "treaty dual" in gm and "treaty entente" in gm


def test_a_ruling_on_a_secret_treaty_reaches_its_parties_and_the_gm_alone(pax, tmp_path):
    sign(pax, "France", "entente", "Britain", "France keeps out of Egypt.")
    pax.say("France", "TREATY BREACH entente Britain marched into Egypt")
    before = {p: len(pax.mails(p)) for p in POWERS}
    pax.gm("GM RULE entente DISMISSED")
    told = {p: [m["Subject"] for m in pax.mails(p)[before[p]:]] for p in POWERS}
    # the parties have the record (its claim ruled) and the ruling, in one mail; the others nothing
    assert told["France"] == told["Britain"] == ["[pax] treaty entente: in force (with: GM ruling on entente)"]
    assert told["Germany"] == told["United-States"] == []
    assert "The GM ruled on entente: DISMISSED" in pax.text(pax.mails("France")[-1])
    assert "ruled: dismissed" in pax.text(pax.mails("Britain", "treaty entente")[-1])
    site = archive_text(pax, tmp_path)
    assert "entente" not in site and "DISMISSED" not in site
    assert "marched into Egypt" not in site


@pytest.mark.parametrize("written", ["{s}", "{S}", "{fw}", "x{s}y", "{zw}"])
def test_a_secret_written_in_what_a_player_writes_is_masked(pax, tmp_path, written):
    secret = pax.secrets["France"]
    shown = written.format(s=secret, S=secret.upper(), fw="".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c
                                                                   for c in secret),
                           zw="\u200b".join(secret))
    pax.say("France", "TREATY PROPOSE pub WITH Britain PUBLIC", f"My secret is {shown}.", "ENDTREATY")
    pax.say("France", "PRESS TO ALL", f"Hear me: {shown}", "ENDPRESS")
    pax.say("Britain", "TREATY SIGN pub")
    pax.say("France", f"TREATY BREACH pub Britain they read {shown}")
    for power in POWERS:
        for msg in pax.mails(power):
            if "you play" not in msg["Subject"]:
                assert secret.lower() not in pax.text(msg).lower(), (power, msg["Subject"])
    record = state(pax)["treaties"]["pub"]
    assert "****" in record["text"] and secret not in record["text"]
    assert secret not in record["breaches"][0]["text"]
    press = pax.ctx.db["press"].rows_where("game = 'pax'")
    assert all(secret not in row["body"] and "****" in row["body"] for row in press)
    site = archive_text(pax, tmp_path)
    masked = written.format(s="****", S="****", fw="****", zw="****")
    assert secret not in site and f"My secret is {masked}." in site


def test_the_gm_secret_in_an_announcement_is_masked(pax, tmp_path):
    pax.gm("GM ANNOUNCE", f"Do not share {GM_SECRET} with anyone.", "ENDANNOUNCE")
    for power in POWERS:
        text = pax.text(pax.mails(power)[-1])
        assert "Do not share **** with anyone." in text and GM_SECRET not in text
    assert GM_SECRET not in archive_text(pax, tmp_path)


def test_grey_press_shows_no_time_finer_than_its_phase_and_goes_out_apart(pax, tmp_path):
    opened = parse_iso(store.get_game(pax.ctx, "pax").row["phase_opened"])
    pax.loop.clock.advance(hours=3, seconds=17)
    before = len(pax.mails("Britain"))
    pax.say("France", "PRESS TO ALL", "Signed: France.", "ENDPRESS", "PRESS TO ALL GREY", "Unsigned rumour.",
            "ENDPRESS")
    # the reply and the signed press went out; the grey press waits for its batch
    arrived = [m["Subject"] for m in pax.mails("Britain")[before:]]
    assert arrived == ["[pax] press from France"]
    pax.loop.clock.advance(minutes=25)
    pax.loop.flush()
    grey = pax.mails("Britain")[-1]
    assert grey["Subject"] == "[pax] press from an anonymous power" and "Unsigned rumour." in pax.text(grey)
    assert parsedate_to_datetime(grey["Date"]) == opened  # the moment the phase opened, nothing finer
    assert parsedate_to_datetime(pax.mails("Britain")[before]["Date"]) == pax.loop.clock.now() - timedelta(minutes=25)
    # the archive lists it without a time, after the signed press
    pax.all_order()
    site = archive_text(pax, tmp_path)
    at = site.index("Unsigned rumour.")
    block = site[site.rindex("<article", 0, at):at]
    assert "From a power (grey press)</p>" in block and "UTC" not in block
    assert site.index("Signed: France.") < at


def test_a_strangers_wrong_secret_reply_says_nothing_of_the_games_progress(pax):
    pax.loop.mail("stranger@evil.test", "SIGNON France@pax not-the-secret\nSTATUS\nHISTORY\n")
    pax.loop.flush()
    reply = pax.loop.inbox("stranger@evil.test")[-1]
    text = pax.text(reply)
    assert "[wrong-secret]" in text
    label = store.get_game(pax.ctx, "pax").rules.phase(state(pax)).label
    for tell in (label, "Movement", "deadline", "Deadline", "waiting", "Waiting", "1880"):
        assert tell not in text and tell not in reply["Subject"], tell


def _replies(tmp_path, monkeypatch, hidden: bool) -> list[str]:
    table = PaxTable(tmp_path, monkeypatch)
    if hidden:
        sign(table, "Britain", "sec1", "France", "A secret between us.")
    answers = []
    for lines in (["TREATY PROPOSE sec1 WITH Germany", "x", "ENDTREATY"], ["TREATY SIGN sec1"],
                  ["TREATY REVEAL sec1"], ["TREATY WITHDRAW sec1"], ["TREATY REFUSE sec1"],
                  ["TREATY BREACH sec1 Britain nothing"], ["TREATY LIST"]):
        answers.append(table.say("Germany", *lines))
    answers.append(table.say("United-States", "TREATY PROPOSE sec1 WITH Germany", "Ours.", "ENDTREATY"))
    answers.append(table.say("Germany", "TREATY SIGN sec1"))
    answers.append(table.say("Germany", "TREATY LIST"))
    return answers


def test_treaty_commands_answer_alike_whether_or_not_a_hidden_treaty_exists(tmp_path, monkeypatch):
    without = _replies(tmp_path / "a", monkeypatch, hidden=False)
    with_hidden = _replies(tmp_path / "b", monkeypatch, hidden=True)
    assert with_hidden == without
    assert "[treaty-parties]" in without[0] and "Treaty sec1 proposed" in without[7]
    assert "Treaty sec1 signed." in without[8] and "sec1: in force, parties United States, Germany" in without[9]


def test_a_reader_who_sees_two_treaties_of_one_id_names_one(tmp_path, monkeypatch):
    table = PaxTable(tmp_path, monkeypatch)
    sign(table, "Britain", "pact", "France", "The first.")
    assert "Treaty pact proposed" in table.say("Germany", "TREATY PROPOSE pact WITH France", "The second.",
                                               "ENDTREATY")  # Germany cannot see Britain's
    assert "[treaty-ambiguous]" in table.say("France", "TREATY SIGN pact")
    assert "Treaty pact signed." in table.say("France", "TREATY SIGN pact~Germany")
    reply = table.say("France", "TREATY REVEAL pact")
    assert "[treaty-ambiguous] you see 2 treaties called pact; name one: pact~Britain, pact~Germany" in reply
    assert "Treaty pact revealed" in table.say("France", "TREATY REVEAL pact~Germany")
    keys = {k: t["text"] for k, t in store.get_game(table.ctx, "pax").state["treaties"].items()}
    assert keys == {"pact": "The first.", "pact~Germany": "The second."}
    assert not store.get_game(table.ctx, "pax").state["treaties"]["pact~Germany"]["secret"]


def test_the_gm_log_keeps_roles_and_ids_and_the_archive_shows_no_address(tmp_path):
    loop = Loop(tmp_path)
    odd = ["bob@localhost", "jörg@exämple.de", "o'brien+tag@example.test"]
    loop.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon\n"
                                 f"GM ADD PLAYER North {odd[0]}\nGM ADD PLAYER South {odd[1]}\n")
    loop.join(odd[2], "g1", "East", "a-long-enough-secret")
    loop.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM START\nGM REPLACE East new.east@example.test\n")
    loop.flush()
    actions = [(r["actor"], r["action"]) for r in loop.db["gm_log"].rows]
    assert ("East", "join") in actions and ("GM", "replace") in actions and ("GM", "add player") in actions
    assert {a for a, _ in actions} <= {"GM", "moderator", "North", "South", "East"}, actions
    assert not any("@" in (r["detail"] or "") for r in loop.db["gm_log"].rows)
    archive.build_archive(loop.ctx, tmp_path / "site")
    site = "\n".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    for a in [*odd, "new.east@example.test", "bob", "jörg", "o'brien", "o&#39;brien"]:
        assert a not in site, a
    assert "add player" in site and "replace" in site
