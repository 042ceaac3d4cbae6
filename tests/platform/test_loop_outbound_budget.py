"""One inbound mail, a bounded outbound cost, and nobody silenced or locked
out, through the whole loop (test game, three players): each case is an
attack by a stranger or a malicious player, and what the real player or GM
then gets."""
from __future__ import annotations

import base64
import re
from collections import Counter

import pytest

from helpers_loop import GM_SECRET, Loop, secret_in
from pbem.inbound import intake
from pbem.kit import names
from pbem.storage import phase_orders, store
from pbem.mail.source import RawMail

GM = "gm@example.test"
POWERS = ("North", "South", "West")


@pytest.fixture
def lp(tmp_path):
    loop = Loop(tmp_path)
    seats = "".join(f"GM ADD PLAYER {p} {p.lower()}@example.test\n" for p in POWERS)
    assert loop.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon OPTION "
                         f"powers={','.join(POWERS)}\n{seats}GM START\n") == "done"
    loop.flush()
    loop.secrets = {p: secret_in(next(m for m in loop.inbox(f"{p.lower()}@example.test")
                                      if "you play" in m["Subject"]).get_body(("plain",)).get_content())
                    for p in POWERS}
    return loop


def signon(lp, power: str) -> str:
    return f"SIGNON {power}@g1 {lp.secrets[power]}\n"


def caused(lp, status_mail) -> Counter:
    """Mails per recipient that the last mail caused (delivered now)."""
    sent = lp.flush()
    return Counter(address for to, _ in sent for address in to)


def text(msg) -> str:
    return msg.get_body(("plain",)).get_content()


# -- a player's mail does not multiply -------------------------------------------------

def test_five_hundred_press_blocks_reach_each_player_as_one_mail(lp):
    blocks = "".join(f"PRESS TO ALL\nnews {i}\nENDPRESS\n" for i in range(500))
    lp.mail("north@example.test", signon(lp, "North") + blocks)
    per = caused(lp, None)
    assert per and max(per.values()) == 1, per
    assert set(per) == {"north@example.test", "south@example.test", "west@example.test"}
    reply = lp.last_text("north@example.test")
    # 300 command lines are read (the sign-on and 299 PRESS): 5 done, 294 over the cap.
    assert "[over-limit]" in reply and "PRESS x294" in reply and "[too-many-commands]" in reply
    assert lp.db["press"].count == 5


def test_press_is_capped_per_hour_with_the_reason(lp):
    for _ in range(7):
        lp.mail("north@example.test", signon(lp, "North") + "PRESS TO South\nhi\nENDPRESS\n" * 5)
    assert lp.db["press"].count == 30
    lp.flush()
    assert "at most 30 an hour" in lp.last_text("north@example.test")
    lp.clock.advance(hours=1, minutes=1)
    lp.mail("north@example.test", signon(lp, "North") + "PRESS TO South\nlater\nENDPRESS\n")
    assert lp.db["press"].count == 31


def test_a_hundred_treaty_proposals_make_a_few_records_and_one_mail_each(lp):
    blocks = "".join(f"TREATY PROPOSE t{i} WITH South,West\nPeace {i}.\nENDTREATY\n" for i in range(100))
    lp.mail("north@example.test", signon(lp, "North") + blocks)
    per = caused(lp, None)
    assert max(per.values()) == 1, per
    rec = store.get_game(lp.ctx, "g1")
    assert len(rec.rules.treaty_records(rec.state, "South")) == 5


def test_a_hundred_breach_claims_cost_each_party_one_mail(lp):
    lp.mail("north@example.test", signon(lp, "North") + "TREATY PROPOSE pact WITH South\nPeace.\nENDTREATY\n")
    lp.mail("south@example.test", signon(lp, "South") + "TREATY SIGN pact\n")
    lp.flush()
    lp.mail("north@example.test", signon(lp, "North") + "TREATY BREACH pact South they lied\n" * 100)
    per = caused(lp, None)
    assert max(per.values()) == 1, per
    assert sum(len(m.as_bytes()) for to, m in lp.sender.sent[-len(per):]) < 60_000


def test_a_hundred_set_address_lines_send_at_most_one_round_of_tokens(lp):
    lines = "".join(f"SET ADDRESS a{i}@far.test, b{i}@far.test, c{i}@far.test\n" for i in range(100))
    lp.mail("north@example.test", signon(lp, "North") + lines)
    per = caused(lp, None)
    outside = [a for a in per if a.endswith("@far.test")]
    assert sorted(outside) == ["a0@far.test", "b0@far.test", "c0@far.test"]
    assert "only the first SET ADDRESS of a mail is done" in lp.last_text("north@example.test")


def test_an_overlong_press_is_refused_with_its_size(lp):
    lp.mail("north@example.test", signon(lp, "North") + "PRESS TO South\n" + "x" * 9000 + "\nENDPRESS\n")
    lp.flush()
    assert "[text-too-long]" in lp.last_text("north@example.test")
    assert not lp.inbox("south@example.test")[-1]["Subject"].endswith("press from North")


# -- replies to a forged From ------------------------------------------------------------

def test_a_signed_on_player_forging_from_sends_the_victim_a_bounded_reply(lp):
    lp.mail("victim@elsewhere.test", signon(lp, "North") + "STATUS\n" * 100 + "RESEND\n" * 10)
    lp.flush()
    to_victim = lp.inbox("victim@elsewhere.test")
    assert len(to_victim) == 1
    assert len(to_victim[0].as_bytes()) < 12_000
    assert lp.inbox("north@example.test")[-1]["Subject"]  # the address of record has the copy


# -- nobody silenced or locked out -----------------------------------------------------

def test_the_stranger_cap_never_silences_a_player_with_a_typo(lp):
    lp.ctx.limits = type(lp.ctx.limits)(stranger_replies_per_hour_all=20)
    for i in range(25):
        lp.mail(f"spam{i}@elsewhere.test", "HELP\n")
    lp.flush()
    typo = lp.secrets["West"][:-1] + ("q" if lp.secrets["West"][-1] != "q" else "x")
    lp.mail("west@example.test", f"SIGNON West@g1 {typo}\nORDERS\nBID 1\nENDORDERS\n")
    lp.flush()
    assert "[wrong-secret]" in lp.last_text("west@example.test")
    lp.mail("west@example.test", "SIGNON West@g1 " + lp.secrets["West"] + "\u200b\nORDERS\nBID 1\n")
    lp.flush()
    assert "BID 1" in lp.last_text("west@example.test")


def test_forged_wrong_secrets_never_lock_out_the_address_of_record(lp):
    for _ in range(6):
        lp.mail("north@example.test", "SIGNON North@g1 wrong-guess-1\nORDERS\nBID 9\n")
    assert lp.mail("north@example.test", signon(lp, "North") + "ORDERS\nBID 1\n") == "done"
    assert phase_orders.current_orders(lp.ctx, "g1", "1/orders")["North"][0].canonical == "BID 1"


def test_wrong_gm_secrets_from_others_never_lock_out_the_gm(lp):
    for i in range(6):
        lp.mail(f"mallory{i}@elsewhere.test", "SIGNON GM@g1 not-the-secret\nGM PAUSE\n")
    assert lp.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM PAUSE\n") == "done"
    assert store.get_game(lp.ctx, "g1").status == "paused"


def test_gm_guesses_are_counted_for_the_site_whatever_game_they_name(lp):
    for i in range(4):
        lp.mail("mallory@elsewhere.test", f"SIGNON GM@nogame{i} guess-{i}\nGM PAUSE\n")
    lp.mail("mallory2@elsewhere.test", "SIGNON GM@other guess-x\nGM PAUSE\n")
    lp.flush()
    assert "[too-many-wrong-secrets]" in lp.last_text("mallory2@elsewhere.test")


def test_the_game_option_reply_token_prints_the_token_it_asks_for(tmp_path):
    loop = Loop(tmp_path)
    loop.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon OPTION reply_token=true\n"
                  "GM ADD PLAYER North north@example.test\nGM ADD PLAYER South south@example.test\nGM START\n")
    loop.flush()
    mails = loop.inbox("north@example.test")
    secret = secret_in(text(next(m for m in mails if "you play" in m["Subject"])))
    token = re.search(r"TOKEN (\S+)", "\n".join(text(m) for m in mails)).group(1)
    assert loop.mail("north@example.test", f"SIGNON North@g1 {secret}\nTOKEN {token}\nORDERS\nBID 1\n") == "done"


# -- no mail holds the queue --------------------------------------------------------------

def test_a_thousand_set_password_lines_cost_one_slow_hash(lp, monkeypatch):
    from pbem.handlers import account

    calls = []
    real = account.hash_secret
    monkeypatch.setattr(account, "hash_secret", lambda s: calls.append(s) or real(s))
    lp.mail("north@example.test", signon(lp, "North") + "".join(f"SET PASSWORD new-secret-{i}\n"
                                                                 for i in range(1000)))
    assert len(calls) == 1


def test_a_stranger_s_megabyte_of_confirm_lines_looks_up_a_few(lp):
    lp.ctx.max_message_bytes = 2_000_000
    body = "".join(f"CONFIRM tok{i:07d}\n" for i in range(60_000))
    lp.mail("stranger@elsewhere.test", body)
    lp.flush()
    reply = lp.last_text("stranger@elsewhere.test")
    assert "[too-many-commands]" in reply and "CONFIRM x297" in reply


def test_a_long_word_is_never_compared_with_every_name(monkeypatch):
    calls = []
    real = names.distance
    monkeypatch.setattr(names, "distance", lambda a, b, *limit: calls.append(1) or real(a, b, *limit))
    assert names.nearest("x" * 100_000, [f"Name{i}" for i in range(400)]) is None
    assert not calls
    assert names.nearest("Frnce", ["France", "Germany", "Abyssinia"]) == "France"


def test_help_with_a_huge_word_is_answered(lp):
    lp.ctx.max_message_bytes = 2_000_000
    assert lp.mail("stranger@elsewhere.test", "HELP " + "a" * 700_000 + "\n") in ("done", "rejected")
    lp.flush()
    assert lp.inbox("stranger@elsewhere.test")


# -- identity and seats -------------------------------------------------------------------

@pytest.fixture
def forming(tmp_path):
    loop = Loop(tmp_path)
    loop.mail(GM, f"SIGNON GM@f1 {GM_SECRET}\nGM CREATE f1 RULES beacon\n")
    loop.flush()
    return loop


def test_join_seats_nobody_until_the_address_confirms(forming):
    forming.mail("victim@elsewhere.test", "JOIN f1 North long-secret-1\n")
    assert not store.players(forming.ctx, "f1")
    assert forming.join("north@example.test", "f1", "North", "long-secret-2") == "done"
    assert [p["power"] for p in store.players(forming.ctx, "f1")] == ["North"]
    forming.flush()
    assert any("North taken by north@example.test" in m["Subject"] for m in forming.inbox(GM))


def test_one_stranger_takes_one_seat(forming):
    forming.join("greedy@elsewhere.test", "f1", "North", "long-secret-1")
    forming.mail("greedy@elsewhere.test", "JOIN f1 South long-secret-2\n")
    forming.flush()
    assert "[seat-limit]" in forming.last_text("greedy@elsewhere.test")
    assert [p["power"] for p in store.players(forming.ctx, "f1")] == ["North"]


def test_a_short_secret_is_refused(lp):
    lp.mail("north@example.test", signon(lp, "North") + "SET PASSWORD ab\n")
    lp.flush()
    assert "[secret-too-short]" in lp.last_text("north@example.test")
    assert lp.mail("north@example.test", signon(lp, "North") + "STATUS\n") == "done"


def test_another_sender_s_mail_under_a_known_message_id_is_answered(lp):
    lp.mail("mallory@elsewhere.test", "HELP\n", message_id="<same@players.test>")
    status = lp.mail("north@example.test", signon(lp, "North") + "ORDERS\nBID 1\n",
                     message_id="<same@players.test>")
    assert status == "done"
    assert phase_orders.current_orders(lp.ctx, "g1", "1/orders")["North"][0].canonical == "BID 1"


# -- hygiene -------------------------------------------------------------------------------

def test_an_oversized_mail_is_stored_as_its_headers_and_first_kilobytes(lp):
    raw = (b"From: north@example.test\nTo: pbem@example.test\nSubject: big\nMessage-ID: <big@x>\n\n"
           + b"A" * 3_000_000)
    row = intake.store_raw(lp.ctx, RawMail("big", raw))
    assert intake.process(lp.ctx, row) == "rejected"
    stored = lp.db["messages"].get(row)
    assert len(stored["raw"]) < 20_000 and b"Subject: big" in stored["raw"]
    lp.flush()
    assert "[too-large]" in lp.last_text("north@example.test")
    assert "3000" in lp.last_text("north@example.test")


def test_a_secret_in_an_encoded_subject_beside_an_unknown_charset_is_masked_at_rest(lp):
    secret = lp.secrets["North"]
    word = base64.b64encode(f"SIGNON North@g1 {secret}".encode()).decode()
    raw = (f"From: north@example.test\nTo: pbem@example.test\nMessage-ID: <subj@x>\n"
           f"Subject: =?x-unknown-8?Q?hello?= =?utf-8?B?{word}?=\n\nSTATUS\n").encode()
    row = intake.store_raw(lp.ctx, RawMail("subj", raw))
    intake.process(lp.ctx, row)
    stored = lp.db["messages"].get(row)
    from pbem.mail.normalize import parse_message
    assert secret not in parse_message(stored["raw"]).subject
    assert word not in stored["raw"].decode("latin-1")


def test_an_auto_responder_marked_only_by_x_loop_is_not_answered(lp):
    for _ in range(3):
        lp.mail("robot@elsewhere.test", "I am away.", headers={"X-Loop": "robot@elsewhere.test"})
    lp.flush()
    assert not lp.inbox("robot@elsewhere.test")


def test_the_same_mail_without_a_command_again_is_a_loop(lp):
    for _ in range(5):
        lp.mail("robot@elsewhere.test", "Thank you for your message. I will answer soon.")
    lp.flush()
    assert len(lp.inbox("robot@elsewhere.test")) == 1


def test_an_absence_of_ten_thousand_years_is_refused(lp):
    lp.mail("north@example.test", signon(lp, "North") + "SET ABSENCE 0001-01-01 9999-12-31\n")
    lp.flush()
    assert "[bad-absence]" in lp.last_text("north@example.test")
    assert not store.player(lp.ctx, "g1", "North")["absent_from"]


def test_a_three_hundred_character_game_name_is_refused(lp):
    lp.mail(GM, f"SIGNON GM@x {GM_SECRET}\nGM CREATE {'g' * 300} RULES beacon\n")
    lp.flush()
    assert "[bad-game-name]" in lp.last_text(GM)
    assert store.find_game(lp.ctx, "g" * 300) is None


def test_a_huge_name_echoed_in_a_refusal_leaves_the_reply_whole(lp):
    lp.ctx.max_message_bytes = 2_000_000
    lp.mail("north@example.test", signon(lp, "North") + f"PRESS TO {'Z' * 500_000}\nhi\nENDPRESS\nSTATUS\n")
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "[unknown-power]" in reply and "Status:" in reply and len(reply) < 64_000


def test_two_thousand_order_lines_are_read_up_to_the_cap(lp):
    lp.mail("north@example.test", signon(lp, "North") + "ORDERS\n" + "BID 1\n" * 2000 + "ENDORDERS\n")
    lp.flush()
    reply = lp.last_text("north@example.test")
    assert "[too-many-orders]" in reply and len(reply) < 64_000


def test_a_treaty_record_repeats_only_the_last_of_its_history(lp):
    lp.mail("north@example.test", signon(lp, "North") + "TREATY PROPOSE pact WITH South\nPeace.\nENDTREATY\n")
    lp.mail("south@example.test", signon(lp, "South") + "TREATY SIGN pact\n")
    for _ in range(6):
        lp.mail("north@example.test", signon(lp, "North") + "TREATY BREACH pact South they lied\n" * 5)
    lp.flush()
    record = next(text(m) for m in reversed(lp.inbox("south@example.test")) if "TREATY RECORD" in text(m))
    assert "earlier claims are not repeated here" in record
    assert record.count("claims South broke it") == 10


def test_an_unbroken_line_of_a_hundred_thousand_words_is_not_given_to_the_game(lp, monkeypatch):
    """Pax Britannica's order reader took a minute on such a line: a line no order can
    be is refused before any game reads it."""
    seen = []
    rules = type(store.get_game(lp.ctx, "g1").rules)
    real = rules.parse_orders
    monkeypatch.setattr(rules, "parse_orders", lambda self, st, p, lines: seen.extend(lines) or real(self, st, p, lines))
    lp.mail("north@example.test", signon(lp, "North") + "ORDERS\nBID 1\n" + "MOVE a b " * 100_000 + "\nENDORDERS\n")
    lp.flush()
    assert "[line-too-long]" in lp.last_text("north@example.test")
    assert max(len(t) for _, t in seen) < 600


def test_a_power_named_many_times_gets_the_press_once(lp):
    lp.mail("north@example.test", signon(lp, "North") + "PRESS TO South," + "South," * 300 + "South\nhi\nENDPRESS\n")
    per = caused(lp, None)
    assert per["south@example.test"] == 1
    assert text(lp.inbox("south@example.test")[-1]).count("\nhi\n") == 1
    assert "named a power more than once" in lp.last_text("north@example.test")
