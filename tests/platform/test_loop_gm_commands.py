"""Whole-loop transcripts of the GM commands on the test game: what each one
stores, logs and announces, and what it refuses."""
import re
from datetime import timedelta

import pytest

from helpers_loop import GM_SECRET, Loop
from helpers_loop import secret_in as _secret
from pbem.storage import store
from pbem.storage.db import dumps, loads
from pbem.play.verify import verify

GM = "gm@example.test"


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    lp.start_beacon()
    return lp


def gm(loop, *lines: str) -> str:
    return loop.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\n" + "\n".join(lines) + "\n")


def order(loop, power: str, text: str) -> str:
    return loop.mail(f"{power.lower()}@example.test", f"SIGNON {power}@g1 {loop.secrets[power]}\n{text}\n")


def actions(loop) -> list[str]:
    return [r["action"] for r in store.gm_log_rows(loop.ctx, "g1")]


def texts(loop, address: str, subject_part: str) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in loop.about(address, subject_part)]


def test_every_deadline_change_in_one_mail_is_announced_in_one_mail(loop):
    first = store.get_game(loop.ctx, "g1").deadline
    gm(loop, "GM EXTEND 24h", "GM EXTEND 12h")
    final = store.get_game(loop.ctx, "g1").deadline
    assert final == first + timedelta(hours=36)
    loop.flush()
    notices = texts(loop, "south@example.test", "deadline changed")
    assert len(notices) == 1
    assert "extended the deadline by 24h" in notices[0] and "extended the deadline by 12h" in notices[0]
    assert "Deadline: Sat 10 Jan 2026 00:00 UTC" in notices[0]


def test_a_deadline_pulled_in_to_minutes_away_reminds_the_powers_still_awaited_in_its_notice(loop):
    order(loop, "North", "ORDERS\nBID 2\nENDORDERS")
    soon = loop.clock.now() + timedelta(minutes=20)
    assert gm(loop, f"GM SET DEADLINE {soon:%Y-%m-%d %H:%M}") == "done"
    loop.flush()
    south = texts(loop, "south@example.test", "deadline changed")
    assert len(south) == 1 and "Your orders for Round 1 Orders are still awaited: 20m left. Without them: PASS" \
        in south[0]
    assert not loop.about("south@example.test", "reminder")  # the notice is the one mail
    north = texts(loop, "north@example.test", "deadline changed")
    assert len(north) == 1 and "still awaited" not in north[0]


def test_set_deadline_takes_the_zone_and_refuses_the_past(loop):
    now = loop.clock.now()
    year = now.year + 1
    assert gm(loop, f"GM SET DEADLINE {year}-07-01 18:00 Europe/London") == "done"
    deadline = store.get_game(loop.ctx, "g1").deadline
    assert (deadline.month, deadline.day, deadline.hour, deadline.minute) == (7, 1, 17, 0)  # BST is UTC+1
    assert gm(loop, f"GM SET DEADLINE {year}-01-05 18:00") == "done"
    assert store.get_game(loop.ctx, "g1").deadline.hour == 18  # the game's zone, UTC
    gm(loop, f"GM SET DEADLINE {now.year - 1}-01-05 18:00")
    assert store.get_game(loop.ctx, "g1").deadline.year == year
    loop.flush()
    assert "[deadline-past]" in loop.last_text(GM)
    assert actions(loop).count("set a new deadline") == 2


def test_extension_and_pause_caps_refuse_with_a_reason(loop):
    gm(loop, "GM EXTEND 3d", "GM EXTEND 3d", "GM EXTEND 2d")
    loop.flush()
    assert "[extension-cap]" in loop.last_text(GM) and "over the cap of 7d" in loop.last_text(GM)
    assert len(store.get_game(loop.ctx, "g1").extensions) == 2
    for _ in range(3):
        gm(loop, "GM PAUSE", "GM RESUME")
    gm(loop, "GM PAUSE")
    loop.flush()
    assert "[pause-cap]" in loop.last_text(GM)
    assert store.get_game(loop.ctx, "g1").status == "active"
    assert actions(loop).count("pause") == 3


def test_process_without_now_runs_on_the_next_tick(loop):
    order(loop, "North", "ORDERS\nBID 3")
    gm(loop, "GM PROCESS")
    assert store.get_game(loop.ctx, "g1").state["round"] == 1  # nothing ran inside the mail
    assert "process requested" in actions(loop)
    loop.flush()
    assert not any("deadline changed" in m["Subject"] for m in loop.inbox("south@example.test"))
    resolved = loop.tick()
    assert resolved and store.get_game(loop.ctx, "g1").state["round"] == 2
    assert store.player(loop.ctx, "g1", "South")["missed"] == 1
    assert not store.get_game(loop.ctx, "g1").row["process_requested"]
    assert not loop.tick(), "the request is used up by the phase it ran"


def test_preview_stores_nothing(loop):
    order(loop, "North", "ORDERS\nBID 3")
    before = store.get_game(loop.ctx, "g1").row
    counts = {t: loop.db[t].count for t in ("snapshots", "events", "dice", "orders")}
    gm(loop, "GM PREVIEW")
    assert store.get_game(loop.ctx, "g1").row == before
    assert {t: loop.db[t].count for t in counts} == counts
    loop.flush()
    reply = loop.last_text(GM)
    assert "Preview (nothing was stored)" in reply and "beacon won by North for 3 gold" in reply
    assert not [m for m in loop.inbox("north@example.test") if "turn report" in m["Subject"]]


def test_a_ruling_the_game_refuses_is_neither_logged_nor_announced(loop):
    gm(loop, "GM RULE q7 the bid of 0 counts as a pass")
    loop.flush()
    assert "[unknown-question] there is no open question 'q7'" in loop.last_text(GM)
    assert actions(loop).count("ruling") == 0
    assert not texts(loop, "north@example.test", "GM ruling on q7")


def test_announce_goes_to_every_player_and_the_log(loop):
    gm(loop, "GM ANNOUNCE", "Round two starts late.", "ENDANNOUNCE")
    loop.flush()
    for who in ("north@example.test", "south@example.test"):
        assert any("Round two starts late." in t for t in texts(loop, who, "announcement from the GM"))
    assert "announce" in actions(loop)


def test_reveal_seed_lets_anyone_check_the_commitment(loop):
    from pbem.kit.dice import commitment

    gm(loop, "GM REVEAL SEED")
    loop.flush()
    rec = store.get_game(loop.ctx, "g1")
    text = texts(loop, "south@example.test", "dice seed revealed")[0]
    seed = re.search(r"dice seed is (\S+)", text).group(1)
    assert commitment(seed) == rec.row["seed_hash"] and rec.row["seed_revealed"] == 1
    assert "reveal seed" in actions(loop)


def test_verify_accepts_a_gm_edit_between_phases_and_still_checks_the_replay(loop):
    order(loop, "North", "ORDERS\nBID 3")
    order(loop, "South", "ORDERS\nBID 2")
    loop.tick()
    assert gm(loop, "GM SET GOLD South 9") == "done"
    assert store.get_game(loop.ctx, "g1").state["gold"]["South"] == 9
    assert "state edit" in actions(loop)
    order(loop, "North", "ORDERS\nBID 1")
    order(loop, "South", "ORDERS\nBID 9")
    loop.tick()
    report = verify(loop.ctx, "g1")
    assert report.ok, report.problems
    assert report.phases == 5  # four phases and the edit between them
    snap = next(loop.db["snapshots"].rows_where("game = 'g1' and phase_key = '2/tally'"))
    after = loads(snap["after"])
    after["score"]["North"] += 1
    loop.db["snapshots"].update(snap["id"], {"after": dumps(after)})
    assert verify(loop.ctx, "g1").problems == [
        "Round 2 Tally: replaying it gives a different result than the one stored",
        "the game's current state is not where its last step ended"]
    snap["after"] = dumps(after)
    edit = next(loop.db["snapshots"].rows_where("game = 'g1' and kind = 'input'"))
    loop.db["snapshots"].update(edit["id"], {"input": dumps({"type": "edit", "text": "SET GOLD South 8"})})
    assert "Round 2 Orders: GM edit SET GOLD South 9: replaying it gives a different result than the one " \
           "stored" in verify(loop.ctx, "g1").problems


def test_a_player_seated_and_replaced_in_one_mail_each_get_their_secret(loop):
    gm(loop, "GM ADD PLAYER East east@example.test", "GM REPLACE East east2@example.test")
    loop.flush()
    # One mail for all this mail caused for East's first player: the welcome first (pbem.outbound.batch).
    assert loop.inbox("east@example.test")[0]["Subject"].startswith("[g1] you play East")
    welcome = texts(loop, "east2@example.test", "you now play East")
    assert len(welcome) == 1
    assert loop.mail("east2@example.test", f"SIGNON East@g1 {_secret(welcome[0])}\nSTATUS\n") == "done"
    assert actions(loop)[-2:] == ["add player", "replace"]


def test_a_rolled_back_phase_starts_with_its_extensions_unused(loop):
    gm(loop, "GM PROCESS NOW")
    gm(loop, "GM EXTEND 1d", "GM EXTEND 1d", "GM EXTEND 1d")
    assert len(store.get_game(loop.ctx, "g1").extensions) == 3
    gm(loop, "GM ROLLBACK 1/orders", "GM EXTEND 1d")
    loop.flush()
    assert "[extension-cap]" not in loop.last_text(GM)
    assert len(store.get_game(loop.ctx, "g1").extensions) == 1


def test_a_game_that_asks_for_orders_at_once_starts_with_each_readers_position(loop):
    """No phase resolves before the first deadline, so no turn report tells a player what
    to do: the start mail is each reader's report of the position, with the guide."""
    loop.flush()
    start = texts(loop, "north@example.test", "has started")[-1]
    assert "has started." in start and "First phase:" in start
    assert "What you may do now" in start and "BID <n>" in start and "Your orders are due" in start
    public = texts(loop, GM, "has started")[-1]
    assert "report for the GM" in public and "What you may do now" not in public


def test_an_edit_the_game_refuses_that_looks_like_a_gm_command_suggests_it(loop):
    """GM EXTND 24h is handed to the game as an edit (it is none of pbem's GM commands);
    the game refuses it, and the refusal names the command the GM most likely meant."""
    gm(loop, "GM EXTND 24h", "GM FROBNICATE 3", "GM SET SCROE North 3")
    loop.flush()
    reply = loop.last_text(GM)
    assert "did you mean GM EXTEND 24h?" in reply
    for written in ("FROBNICATE", "SCROE"):  # nothing of pbem's close; SET is written right
        refusal = next(line for line in reply.splitlines() if written in line and "gm-edit" in line)
        assert "did you mean GM" not in refusal
    assert "state edit" not in actions(loop)  # nothing was applied or logged
