"""Identity and pacing through the whole loop (test game): address of record,
reply tokens, copies to the address of record, joining, GM BECOME,
replacement after missed phases, the reply rate limit."""
import re

import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.storage import phase_orders, store
from pbem.base.identity import reply_token


def _game(lp, *options):
    opt = (" OPTION " + " ".join(options)) if options else ""
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon{opt}\n")
    for power in ("North", "South"):
        lp.join(f"{power.lower()}@example.test", "g1", power, f"{power.lower()}-secret")
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM START\n")


def test_join_then_orders_from_another_address_copy_the_address_of_record(tmp_path):
    lp = Loop(tmp_path)
    _game(lp)
    assert [p["power"] for p in store.players(lp.ctx, "g1")] == ["North", "South"]
    lp.mail("north.phone@example.test", "SIGNON North@g1 north-secret\nORDERS\nBID 1\n")
    lp.flush()
    ack = lp.inbox("north.phone@example.test")[-1]
    assert "north@example.test" in ack["Cc"]


def test_address_of_record_only_refuses_other_addresses_and_tells_the_player(tmp_path):
    lp = Loop(tmp_path)
    _game(lp, "address_of_record_only=true")
    assert lp.mail("elsewhere@example.test", "SIGNON North@g1 north-secret\nORDERS\nBID 1\n") == "rejected"
    lp.flush()
    assert "[not-address-of-record]" in lp.last_text("elsewhere@example.test")
    assert "another address" in lp.inbox("north@example.test")[-1]["Subject"]
    assert lp.mail("north@example.test", "SIGNON North@g1 north-secret\nORDERS\nBID 1\n") == "done"


def test_reply_token_is_required_when_the_game_asks_for_it(tmp_path):
    lp = Loop(tmp_path)
    _game(lp, "reply_token=true")
    assert lp.mail("north@example.test", "SIGNON North@g1 north-secret\nORDERS\nBID 1\n") == "rejected"
    rec = store.get_game(lp.ctx, "g1")
    token = reply_token(rec.row["token_key"], "g1", rec.rules.phase(rec.state).key, "North")
    body = f"SIGNON North@g1 north-secret\nTOKEN {token}\nORDERS\nBID 1\n"
    assert lp.mail("north@example.test", body) == "done"
    assert phase_orders.current_orders(lp.ctx, "g1", "1/orders")["North"][0].canonical == "BID 1"


def test_gm_become_acts_for_a_power_and_tells_it(tmp_path):
    lp = Loop(tmp_path)
    _game(lp)
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM BECOME South\nORDERS\nBID 2\n")
    lp.flush()
    assert phase_orders.current_orders(lp.ctx, "g1", "1/orders")["South"][0].canonical == "BID 2"
    assert any("the GM acted as South" in m["Subject"] for m in lp.inbox("south@example.test"))


def test_three_missed_phases_ask_the_gm_for_a_replacement(tmp_path):
    lp = Loop(tmp_path)
    _game(lp, "rounds=5")
    for _ in range(3):
        lp.mail("north@example.test", "SIGNON North@g1 north-secret\nORDERS\nPASS\n")
        lp.clock.advance(hours=80)
        assert lp.tick()
    lp.flush()
    assert store.player(lp.ctx, "g1", "South")["missed"] == 3
    assert any("South missed 3 phases" in m["Subject"] for m in lp.inbox("gm@example.test"))
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM REPLACE South carol@example.test\n")
    lp.flush()
    welcome = [m for m in lp.inbox("carol@example.test") if "you now play South" in m["Subject"]]
    secret = re.search(r"Your secret is:\s+(\S+)", welcome[0].get_body(("plain",)).get_content()).group(1)
    assert lp.mail("carol@example.test", f"SIGNON South@g1 {secret}\nSTATUS\n") == "done"
    assert lp.mail("south@example.test", "SIGNON South@g1 south-secret\nSTATUS\n") == "rejected"


def test_reply_rate_limit_stops_answering_a_flood(tmp_path):
    lp = Loop(tmp_path)
    lp.ctx.reply_rate_per_hour = 3
    for i in range(6):
        lp.mail("flood@example.test", f"HELP {i}\n")
    assert lp.db["outbox"].count_where("recipients like '%flood@%'") == 3
    lp.clock.advance(hours=2)
    lp.mail("flood@example.test", "HELP\n")
    assert lp.db["outbox"].count_where("recipients like '%flood@%'") == 4


@pytest.mark.parametrize("body,code", [
    ("SIGNON North@nosuch x\nSTATUS\n", "unknown-game"),
    ("SIGNON Westeros@g1 x\nSTATUS\n", "unknown-power"),
    ("ORDERS\nBID 1\n", "no-signon"),
    ("SIGNON North@g1 north-secret\nGM PAUSE\n", "not-gm"),
    ("SIGNON North@g1 north-secret\nORDERS 2/orders\nBID 1\n", "orders-for-other-phase"),
])
def test_refusals_name_their_code(tmp_path, body, code):
    lp = Loop(tmp_path)
    _game(lp)
    lp.mail("north@example.test", body)
    lp.flush()
    assert f"[{code}]" in lp.last_text("north@example.test")


@pytest.mark.parametrize("body,line", [
    ("ORDERS\nBID 1\n", 1),
    ("Hello there\nSTATUS\nHISTORY\nORDERS\nBID 1\n", 2),
    ("HELP orders\nPRESS TO South\nhi\nENDPRESS\nSTATUS\n", 2),
])
def test_a_mail_without_a_signon_is_told_once_at_the_first_command_that_needs_one(tmp_path, body, line):
    lp = Loop(tmp_path)
    _game(lp)
    assert lp.mail("stranger@example.test", body) == "done"
    lp.flush()
    told = [row for row in lp.last_text("stranger@example.test").splitlines() if "[no-signon]" in row]
    assert len(told) == 1 and told[0].strip().startswith(f"line {line}: [no-signon]"), told
    assert not lp.db["orders"].count and not lp.db["press"].count


def test_an_incomplete_signon_is_not_also_reported_as_a_missing_one(tmp_path):
    lp = Loop(tmp_path)
    _game(lp)
    lp.mail("north@example.test", "GAME g1\nPOWER North\nSTATUS\n")
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "line 1: [incomplete-signon]" in reply and "[no-signon]" not in reply


def test_gm_become_tells_the_power_without_copying_it_on_the_gm_reply(tmp_path):
    lp = Loop(tmp_path)
    _game(lp)
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM ADD PLAYER East east@example.test\n"
                               "GM BECOME South\nSTATUS\n")
    lp.flush()
    south = lp.inbox("south@example.test")
    assert any("the GM acted as South" in m["Subject"] for m in south)
    assert not any("east@example.test" in m.get_body(("plain",)).get_content() for m in south)


def test_gm_create_with_an_unknown_option_creates_nothing(tmp_path):
    lp = Loop(tmp_path)
    lp.mail("gm@example.test", f"SIGNON GM@g2 {GM_SECRET}\nGM CREATE g2 RULES beacon OPTION colour=red\n")
    lp.flush()
    assert "[unknown-option]" in lp.last_text("gm@example.test")
    assert store.find_game(lp.ctx, "g2") is None


def test_gm_start_is_logged_once_and_a_refused_ruling_not_at_all(tmp_path):
    lp = Loop(tmp_path)
    _game(lp)
    lp.mail("gm@example.test", f"SIGNON GM@g1 {GM_SECRET}\nGM RULE q1 the beacon stands\n")
    lp.flush()
    assert "[unknown-question] there is no open question 'q1'" in lp.last_text("gm@example.test")
    actions = [r["action"] for r in store.gm_log_rows(lp.ctx, "g1")]
    assert actions.count("start") == 1 and actions.count("ruling") == 0


@pytest.mark.parametrize("written,suggested", [("Suoth", "South"), ("Nroth", "North"), ("Soup", None),
                                               ("Sun", None)])
def test_a_misspelt_power_at_sign_on_is_suggested_only_when_it_is_a_plausible_typo(tmp_path, written,
                                                                                   suggested):
    """One ``nearest`` for every name: "Soup" is not a typo of South (and "Spain" not of Japan)."""
    lp = Loop(tmp_path)
    _game(lp)
    lp.mail("north@example.test", f"SIGNON {written}@g1 north-secret\nSTATUS\n")
    lp.flush()
    line = next(row for row in lp.last_text("north@example.test").splitlines() if "[unknown-power]" in row)
    assert ("did you mean" in line) == bool(suggested) and (not suggested or f"did you mean {suggested}?" in line)
