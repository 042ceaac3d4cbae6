"""Replies that help, on a Pax Britannica game by mail (issue 7, problems 2 to 5):
help on what a player may do, money charged only for orders that stand, error
replies that quote their line and suggest the right kind of name, and grey
press that gives nothing away."""
import re

import pytest

from pax_table import PaxTable, address


@pytest.fixture
def pax(tmp_path, monkeypatch):
    return PaxTable(tmp_path, monkeypatch)


def between(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0] if start in text else ""


# -- 2: help on what a player may do ------------------------------------------------

def test_help_answers_orders_prices_the_map_and_places_without_repeating_the_order_list(pax):
    reply = pax.say("France", "HELP BUY")
    assert "There is no help on" not in reply
    assert "BUY <INTEREST|INFLUENCE|PROTECTORATE|POSSESSION|STATE|DOMINION> <area>" in reply
    assert "Example: BUY INFLUENCE Tunis" in reply
    assert "MOVE NAVY <strength>" not in reply  # the whole order list is not repeated
    reply = pax.say("France", "HELP PRICES")
    assert "Did you mean HELP PRESS" not in reply
    assert re.search(r"Protectorate\s+£20\s+upkeep\s+£10", reply)
    assert "Army Units: (1) £2, (3) £6, (10) £20" in reply
    reply = pax.say("France", "HELP MAP")
    assert "Sea Zones:" in reply and "HELP <place>" in reply
    reply = pax.say("France", "HELP Algiers")
    assert "Algiers: unorganized Area" in reply and "France possession" in reply
    reply = pax.say("France", "HELP PRICS")
    assert "Did you mean HELP PRICES?" in reply
    reply = pax.say("France", "HELP ORDERS")
    assert "MOVE NAVY <strength> <from> TO <to>" in reply


def test_help_index_and_the_games_diplomacy_topics_read_as_one(pax):
    """The game's own topics (NEGOTIATION, CONGRESS, CLAUSES) sit in the same index as
    its orders and places; a topic both know gets both answers, one only the game knows
    gets the game's alone, a misspelt one the nearest."""
    index = pax.say("France", "HELP")
    more = flat(between(index, "More on Pax Britannica:", "\n\n"))
    assert "HELP BUY" in more and "HELP NEGOTIATION, HELP CONGRESS, HELP CLAUSES" in more
    assert index.count("HELP NEGOTIATION") == 1  # said once, in the index
    assert "HELP NEGOTIATION" in pax.say("France", "HELP ORDERS")
    congress = pax.say("France", "HELP CONGRESS")
    assert "VOTE <id> YES|NO|ABSTAIN" in congress and "There is no help" not in congress
    assert "SIGNON <power>@<game>" not in congress and "MOVE NAVY" not in congress
    treaty = pax.say("France", "HELP TREATY")
    assert "TREATY PROPOSE <id>" in treaty and "MAX NAVY <n>" in treaty
    assert "Did you mean HELP NEGOTIATION?" in pax.say("France", "HELP NEGOTATION")
    assert "There is no help on 'ZORK'" in pax.say("France", "HELP ZORK")


def test_status_says_what_the_power_may_do_now(pax):
    status = between(pax.say("France", "STATUS"), "Status:", "Current phase:")
    assert "== France ==" in status  # the game's own account of the position
    guide = status.split("What you may do now", 1)[1]
    assert "BUY PROTECTORATE <area>" in guide and "BUILD ARMY <strength>" in guide


def flat(text: str) -> str:
    return " ".join(text.split())


def test_orders_for_austria_hungary_are_echoed_under_their_for_line(pax):
    reply = pax.say("Germany", "ORDERS", "BUILD ARMY 1", "FOR Austria-Hungary", "BUILD ARMY 3", "ENDORDERS")
    stored = between(reply, "Orders stored", "Cost")
    assert stored.split("\n")[1:4] == ["  BUILD ARMY 1", "  FOR Austria-Hungary", "  BUILD ARMY 3"]
    assert "Austria-Hungary: cost £6" in reply


def test_the_reply_totals_what_the_accepted_orders_cost_and_what_is_left(pax):
    pax.gm("GM SET TREASURY France 24")
    reply = pax.say("France", "ORDERS", "BUY INFLUENCE Tunis", "BUILD ARMY 3", "ENDORDERS")
    assert "Cost £16 (BUY INFLUENCE Tunis £10; BUILD ARMY 3 £6) of the Treasury's £24: £8 left." in reply


def test_every_report_says_what_the_power_may_do_now_with_names_and_prices(pax):
    pax.all_order()
    report = pax.text(pax.mails("France", "turn report")[-1])
    guide = between(report, "What you may do now", "Your orders are due")
    assert "BUY PROTECTORATE <area>" in guide and "Tunis £20" in guide
    assert "BUILD ARMY <strength>" in guide and "1 £2" in guide
    assert re.search(r"MOVE ARMY <strength> Algiers TO <to>", guide)
    assert "SIGNON France@pax <your secret>" in report and "...one order a line..." in report
    # the board as anyone may see it, nearest France first
    board = between(report, "The board, nearest you first", "What concerned")
    assert board.index("Algiers") < board.index("Kashmir")
    assert "Britain possession" in board
    html = pax.html(pax.mails("France", "turn report")[-1])
    assert "What you may do now" in html and "<table" in html and "<pre" not in html.split("What you may")[0]


def test_a_power_that_sent_no_orders_is_told_which_default_applied(pax):
    for p in ("Britain", "France", "Germany"):
        pax.say(p, "ORDERS", "BUILD ARMY 1", "ENDORDERS")
    pax.loop.clock.advance(hours=73)
    assert pax.loop.tick()
    pax.loop.flush()
    us = pax.text(pax.mails("United-States", "turn report")[-1])
    assert "You sent no orders for 1880 Movement/Status Change: the default applied" in us
    assert "You sent no orders" not in pax.text(pax.mails("France", "turn report")[-1])


# -- 3: money is charged only for orders that stand ----------------------------------

def test_a_refused_purchase_costs_nothing(pax):
    """The issue's case: France with £24, Marocco refused, Tunis accepted; Madagascar
    was refused for money the refused Marocco had been charged."""
    pax.gm("GM SET TREASURY France 24", "GM SET MARKER Britain protectorate Marocco")
    reply = pax.say("France", "ORDERS", "BUY INFLUENCE Marocco", "BUY INFLUENCE Tunis",
                    "BUY INTEREST Madagascar", "ENDORDERS")
    assert "[blocked-by-control]" in reply
    assert "insufficient-funds" not in reply
    stored = between(reply, "Orders stored", "Refused")
    assert "BUY INFLUENCE Tunis" in stored and "BUY INTEREST Madagascar" in stored
    assert "£9 left" in stored


# -- 4: error replies that help -----------------------------------------------------

@pytest.mark.parametrize("header", ["ORDERS 1880", "ORDERS 1880 Movement/Status Change",
                                    "ORDERS 1880/movement", "orders 1880 movement"])
def test_orders_naming_the_current_phase_in_any_printed_form_are_stored(pax, header):
    reply = pax.say("France", header, "BUILD ARMY 1", "ENDORDERS")
    assert "Orders stored for 1880 Movement/Status Change" in reply and "phase]" not in reply


def test_orders_for_another_phase_say_how_to_send_them(pax):
    reply = pax.say("France", "ORDERS 1884", "BUILD ARMY 1", "ENDORDERS")
    assert "[orders-for-other-phase] these orders are written for 1884, but the game is at 1880 Movement/Status Change" \
           in reply and "ORDERS 1880 Movement/Status Change" in reply


def test_problems_quote_their_line_and_suggest_names_of_the_right_kind(pax):
    reply = pax.say("France", "ORDERS", "BUY INFLUENCE Orange Rivr Free State", "BUY INTEREST Bosnia",
                    "GIVE albania 3", "BUILD ARMY 1", "ENDORDERS")
    assert "[unknown-area] 'Orange Rivr Free State' is not a known Area (did you mean Orange River " \
           "Free State?)" in reply
    assert "Abyssinia" not in reply and "Britain?" not in reply
    assert "you wrote: BUY INTEREST Bosnia" in reply and "you wrote: GIVE albania 3" in reply


def test_a_line_that_is_no_order_gets_one_short_line_even_inside_orders(pax):
    reply = pax.say("France", "ORDERS", "BUILD ARMY 1", "cheers, Alice", "ENDORDERS")
    problems = between(reply, "Refused or not understood", "Current phase")
    assert "[not-understood] 'cheers, Alice' is neither a command nor an order" in problems
    assert len(problems) < 200 and "MOVE ARMY" not in problems


def test_notes_on_kept_orders_are_listed_apart_from_refusals(pax):
    reply = pax.say("France", "ORDERS", "BUY PROTECTORATE Tunis", "BUILD ARMY 3",
                    "MOVE ARMY 3 HOME TO Tunis", "BUY INTEREST Nowhere", "ENDORDERS")
    refused = between(reply, "Refused or not understood", "Notes on accepted orders")
    notes = between(reply, "Notes on accepted orders", "Current phase")
    assert "[unknown-area]" in refused and "uses-earlier-order" not in refused
    assert "[uses-earlier-order]" in notes and "you wrote: MOVE ARMY 3 HOME TO Tunis" in notes


def test_a_move_that_needed_a_refused_purchase_says_so(pax):
    pax.gm("GM SET TREASURY France 5")
    reply = pax.say("France", "ORDERS", "BUY PROTECTORATE Tunis", "MOVE ARMY 3 HOME TO Tunis", "ENDORDERS")
    assert "[insufficient-funds]" in reply
    assert "it needs line 3 (BUY PROTECTORATE Tunis), which is refused above" in reply


def test_via_a_sea_the_shortest_way_passes_is_accepted(pax):
    pax.gm("GM SET MARKER Britain protectorate Egypt UNESTABLISHED")
    reply = pax.say("Britain", "ORDERS", "BUILD ARMY 3", "MOVE ARMY 3 HOME TO Egypt VIA Mediterranean Sea",
                    "ENDORDERS")
    assert "MOVE ARMY 3 Britain TO Egypt VIA Mediterranean Sea" in between(reply, "Orders stored", "Notes")
    assert "no-path" not in reply


# -- 5: grey press --------------------------------------------------------------------

def grey_batch(pax) -> None:
    """Grey press goes out with the next batch, apart from its sender's reply."""
    pax.loop.clock.advance(minutes=25)
    pax.loop.flush()


def test_grey_press_to_all_names_every_power_and_no_sender(pax):
    pax.say("United-States", "PRESS TO ALL GREY", "Someone is watching the Pacific.", "ENDPRESS")
    grey_batch(pax)
    for p in ("Britain", "France", "Germany"):
        mail = pax.mails(p, "press from")[-1]
        assert "United States" not in mail["Subject"] and "anonymous" in mail["Subject"]
        text = pax.text(mail)
        assert "to every power (Britain, France, Germany, United States)" in text
    assert not pax.mails("United-States", "press from")


def test_grey_press_to_some_powers_shows_no_list(pax):
    pax.say("United-States", "PRESS TO Britain, France GREY", "Beware Germany.", "ENDPRESS")
    grey_batch(pax)
    text = pax.text(pax.mails("Britain", "press from")[-1])
    assert "from an anonymous power:" in text and "France" not in text.split("Beware")[0]


# -- the player's own zone ------------------------------------------------------------

def test_set_zone_shows_deadlines_in_the_players_own_zone_too(pax):
    reply = pax.say("France", "SET ZONE America/New_York")
    assert "Time zone set:" in reply
    assert "Deadline: Thu 8 Jan 2026 12:00 UTC (07:00 your time, America/New_York)" in reply
    pax.all_order()
    report = pax.text(pax.mails("France", "turn report")[-1])
    assert "your time, America/New_York" in report
    assert "your time" not in pax.text(pax.mails("Britain", "turn report")[-1])
    reply = pax.say("France", "SET ZONE Mars/Olympus")
    assert "[bad-time]" in reply


def test_a_reply_to_an_address_not_of_record_still_reaches_its_sender(pax):
    reply = pax.say("France", "STATUS", sender="elsewhere@example.test")
    assert "Status:" in reply and pax.mails(address("France"))


def test_a_quoted_line_never_shows_a_secret(pax):
    pax.loop.mail(address("Germany"), "SIGNON Germany@pax not-the-secret\nSTATUS\n")
    pax.loop.flush()
    reply = pax.text([m for m in pax.mails("Germany") if "received" in m["Subject"]][-1])
    assert "[wrong-secret]" in reply and "not-the-secret" not in reply
    assert "you wrote: SIGNON Germany@pax ****" in reply
    reply = pax.say("France", "SET PASSWORD", "JOIN pax Italy my-new-secret")
    assert "my-new-secret" not in reply


def test_an_order_of_another_phase_says_so_and_help_on_it_answers(tmp_path, monkeypatch):
    """Played by hand: "DECLARE WAR ON France" in the Movement Phase was answered "is
    neither a command nor an order ... (did you mean DECLARE WAR ON <power>...?)", and
    "HELP DECLARE" had no help."""
    from pax_table import PaxTable

    table = PaxTable(tmp_path, monkeypatch)
    reply = table.say("Britain", "ORDERS", "DECLARE WAR ON France", "ENDORDERS")
    assert ("'DECLARE WAR ON France' is not an order of 1880 Movement/Status Change: DECLARE is "
            "written in another phase (HELP DECLARE says when)") in reply, reply
    reply = table.say("Britain", "HELP DECLARE")
    assert "Negotiation Phase orders" in reply and "War orders" in reply, reply
    # A misspelt verb gets the form of that verb its next word names, not the verb's last form.
    reply = table.say("Britain", "ORDERS", "BIULD ARMY 1", "BYU INTEREST Siam", "ENDORDERS")
    assert "(did you mean BUILD ARMY <1|3|10>?)" in reply, reply
    assert "(did you mean BUY <INTEREST|" in reply, reply


def test_orders_with_a_refused_line_do_not_close_the_phase_early_until_done(tmp_path, monkeypatch):
    """Played by hand: the last power to order wrote a typo beside a good order; the
    phase ran at once on the good one and the player never had the chance to correct
    the refused lines.  Such orders stand at the deadline, but only DONE (or a mail
    without refusals) closes the phase early."""
    from pax_table import POWERS, PaxTable
    from pbem.storage import store

    table = PaxTable(tmp_path, monkeypatch)
    *first, last = POWERS
    for p in first:
        table.say(p, "ORDERS", "BUILD ARMY 1", "ENDORDERS")
    reply = table.say(last, "ORDERS", "BUILD ARMY 1", "BUY INFLUENCE Atlantis", "ENDORDERS")
    assert "does not run early on these orders: send them again corrected, or DONE" in reply, reply
    table.loop.tick()
    assert store.get_game(table.ctx, "pax").row["phase_key"] == "1880/movement"
    table.say(last, "DONE")
    table.loop.tick()
    assert store.get_game(table.ctx, "pax").row["phase_key"] != "1880/movement"
