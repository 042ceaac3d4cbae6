"""The dispatcher's guards: a command that acts for a power needs one."""
import pytest

from helpers_loop import GM_SECRET, Loop
from pbem.storage import store

GM = "gm@example.test"


@pytest.fixture
def loop(tmp_path):
    lp = Loop(tmp_path)
    assert lp.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM CREATE g1 RULES beacon\n"
                   "GM ADD PLAYER North north@example.test\nGM ADD PLAYER South south@example.test\n"
                   "GM START\n") == "done"
    lp.flush()
    return lp


@pytest.mark.parametrize("line", ["SET ABSENCE 2026-01-06 2026-01-10", "SET ADDRESS gm2@example.test",
                                  "SET PASSWORD another", "CLEAR",
                                  "TREATY PROPOSE t1 WITH North\nPeace.\nENDTREATY", "TREATY SIGN t1"])
def test_a_gm_acting_for_no_power_is_told_so_and_the_rest_of_the_mail_stands(loop, line):
    status = loop.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM PAUSE\n{line}\n")
    assert status == "done", loop.db["messages"].get(loop.counter)["outcome"]
    assert store.get_game(loop.ctx, "g1").status == "paused"
    loop.flush()
    reply = loop.last_text(GM)
    assert "line 3: [no-power]" in reply and "GM BECOME" in reply
    assert not loop.db["treaties"].count
    assert [p["absent_from"] for p in store.players(loop.ctx, "g1")] == [None, None]


def test_after_gm_become_the_same_command_acts_for_that_power(loop):
    loop.mail(GM, f"SIGNON GM@g1 {GM_SECRET}\nGM BECOME South\nSET ABSENCE 2026-01-06 2026-01-10\n")
    assert store.player(loop.ctx, "g1", "South")["absent_from"] == "2026-01-06"
