"""Every line a player wrote is read (issue 45), as a property over generated replies
(tests/reply_shapes.py: orders, then every quote and attribution shape of the common
mail programs, in many languages, wrapped or not, above or below): once the quote is
removed exactly the player's own lines are left; and through the whole moderator
each of them is stored as part of an order or command, or named in the reply."""
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import fuzz_targets as ft
import reply_shapes
from helpers_loop import Loop
from pbem.storage import phase_orders


@settings(max_examples=600, deadline=None)
@given(reply_shapes.replies())
def test_only_and_all_of_the_players_lines_are_left(reply):
    ft.written_lines(*reply)


@pytest.fixture(scope="module")
def beacon(tmp_path_factory):
    lp = Loop(tmp_path_factory.mktemp("written"))
    return lp, lp.start_beacon()


# Beacon's lines: its orders, a refused order, a mistyped command, a greeting and a sign-off.
BEACON_LINES = ("BID 2", "BID 3", "PASS", "BID lots", "MOVE NORTH", "STATUS", "ODERS", "Hi GM,", "Thanks,")


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.sampled_from(BEACON_LINES), min_size=1, max_size=6), reply_shapes.quote_shapes(),
       st.booleans(), st.booleans())
def test_each_line_written_is_stored_or_named_in_the_reply(beacon, written, quote, block, greeting):
    """Through the whole loop: the last order of every line the game takes is stored, and
    every other line the player wrote is named ("line N") in the reply."""
    lp, secrets = beacon
    head = ["Hi GM,"] if greeting else []
    body = head + [f"SIGNON North@g1 {secrets['North']}"] + (["ORDERS"] if block else []) + written \
        + (["ENDORDERS"] if block else [])
    lp.mail("north@example.test", "\n".join(body + [""] + quote) + "\n")
    lp.flush()
    reply = lp.last_text("north@example.test")
    stored = [o.canonical for o in phase_orders.current_orders(lp.ctx, "g1", "1/orders").get("North") or []]
    first = len(head) + 2 + bool(block)
    for n, line in enumerate(written, first):
        if line in ("BID 2", "BID 3", "PASS") and line in stored:
            continue
        if line == "STATUS" and "Status:" in reply:
            continue
        assert _named(reply, n), (n, line, body, reply)
    if greeting:
        assert _named(reply, 1), reply


def _named(reply: str, n: int) -> bool:
    """Whether the reply names line ``n``: a problem or note on it, or a note on the lines
    from it on ("from line N", as the sign-off note says)."""
    if re.search(rf"\bline {n}\b", reply):
        return True
    found = re.search(r"\(from line (\d+)\)", reply)
    return bool(found) and int(found.group(1)) <= n
