"""What a Pax Britannica power may do now (the reports' guide), what its orders
cost (the reply's total), its HELP topics, and the HTML body of its reports."""
from __future__ import annotations

import random
import re

import pytest

from games.pax_britannica import GAME
from pbem.kit.dice import SeededDice
from pbem.kit.engine import run_phases
from pbem.reporting.render import report_html

FOUR = ["Britain", "France", "Germany", "United States"]


@pytest.fixture(scope="module")
def start():
    state = GAME.setup(FOUR, {"setup": "1880"}, SeededDice(seed="guide", context="setup"))
    for power in [*FOUR, "Austria-Hungary"]:  # as after an Administrative Phase
        state, _ = GAME.gm_command(state, f"SET TREASURY {power} 60", None)
    return GAME.set_phase(state, "movement", 1880)


def accepted(state, power, line: str) -> bool:
    parsed = GAME.parse_orders(state, power, [(1, line)])
    problems = parsed.problems + GAME.validate(state, power, parsed.orders)
    return bool(parsed.orders) and not [p for p in problems if p.kind != "warning"]


@pytest.mark.parametrize("power", FOUR)
def test_every_choice_offered_is_an_order_the_power_may_give_alone(start, power):
    options = GAME.options_now(start, power)
    assert options, power
    tried, who = 0, power
    for o in options:
        if o.form.startswith("FOR "):
            who = o.form[4:]  # the orders below it are Austria-Hungary's
        for choice in o.choices:
            if choice.startswith("and "):
                continue
            if o.form.startswith("BUY "):
                area, price = re.fullmatch(r"(.+) £(\d+)", choice).groups()
                line = o.form.replace("<area>", area)
                order = GAME.parse_orders(start, who, [(1, line)]).orders[0]
                assert GAME.order_summary(start, who, [order])[0].startswith(f"Cost £{price} "), line
            elif o.form.startswith("BUILD "):
                line = o.form.split("<")[0] + choice.split()[0]
            elif o.form.startswith("MOVE ARMY") or o.form.startswith("MOVE NAVY"):
                unit = o.note.split(": ")[1].split(", ")
                line = next(o.form.replace("<strength>", s).replace("<to>", choice) for s in unit
                            if accepted(start, who, o.form.replace("<strength>", s).replace("<to>", choice)))
            else:
                continue
            assert accepted(start, who, line), (who, line)
            tried += 1
    assert tried > 10


def test_germany_is_told_austria_hungarys_orders_too(start):
    forms = [o.form for o in GAME.options_now(start, "Germany")]
    assert "FOR Austria-Hungary" in forms
    assert forms.index("FOR Austria-Hungary") > forms.index("BUILD ARMY <strength>")


def test_nothing_is_offered_in_a_phase_that_asks_for_no_orders(start):
    assert GAME.options_now(GAME.set_phase(start, "colonial_combat", 1880), "France") == []


def test_prices_left_out_when_the_treasury_cannot_pay(start):
    poor, _ = GAME.gm_command(start, "SET TREASURY France 5", None)
    forms = {o.form: o.choices for o in GAME.options_now(poor, "France")}
    assert "BUY INFLUENCE <area>" not in forms and "BUY PROTECTORATE <area>" not in forms
    assert forms["BUILD ARMY <strength>"] == ("1 £2",) and "BUILD NAVY <strength> [<home sea box>]" in forms
    assert all(c.endswith("£5") for c in forms["BUY INTEREST <area>"] if not c.startswith("and "))


def test_the_summary_counts_only_orders_that_stand_and_money_accepted(start):
    state, _ = GAME.gm_command(start, "SET TREASURY France 24", None)
    orders = GAME.parse_orders(state, "France", [(1, "BUY INFLUENCE Tunis"), (2, "ACCEPT 10 FROM Britain"),
                                                 (3, "BUILD ARMY 10")]).orders
    assert GAME.order_summary(state, "France", orders) == [
        "Cost £30 (BUY INFLUENCE Tunis £10; BUILD ARMY 10 £20) of the Treasury's £24, with £10 accepted "
        "from other powers: £4 left. Money another power does not hand over is not there when the phase "
        "is resolved."]
    moving = GAME.parse_orders(state, "France", [(1, "MOVE MERCHANT Indian Ocean TO Black Sea")]).orders
    assert GAME.order_summary(state, "France", moving) == \
        ["These orders cost nothing; the Treasury stays at £24."]


@pytest.mark.parametrize("topic,expect", [("BUY", "BUY <INTEREST"), ("b", "BUY <INTEREST"),
                                          ("move", "VIA names places"), ("prices", "Possession"),
                                          ("Map", "Sea Zones:"), ("tunisia", "Tunis: unorganized Area"),
                                          ("mediterranean", "Mediterranean Sea: Sea Zone."),
                                          ("home", "the Home Country of France"), ("gm", "SET LAST TURN")])
def test_help_topics(start, topic, expect):
    assert expect in GAME.help_on(start, "France", topic)


def test_help_place_in_a_wars_resolution_explains_the_spoils_first(start):
    resolution = GAME.set_phase(start, "war_resolution", 1884)
    text = GAME.help_on(resolution, "France", "PLACE")
    assert text.startswith("PLACE (Resolution Phase after a War):\n  PLACE <marker> <area>")
    assert text.index("Areas their alliance conquered") < text.index("PLACE MERCHANT <sea>")
    elsewhere = GAME.help_on(start, "France", "PLACE")
    assert elsewhere.startswith("PLACE (Movement/Status Change Phase):") and "PLACE <marker> <area>" in elsewhere


def test_help_on_something_the_game_does_not_know_is_none(start):
    assert GAME.help_on(start, "France", "PRESS") is None
    assert GAME.help_on(None, None, "BUY").startswith("BUY (Movement/Status Change Phase)")
    assert "nobody holds" not in GAME.help_on(None, None, "Tunis")


def test_the_html_body_renders_for_every_phase_and_reader():
    """Every report of two turns of bots, for each power and the public, through the
    game's own template with strict undefined values."""
    rng = random.Random(5)
    state = GAME.setup(FOUR, {"setup": "1880"}, SeededDice(seed="html", context="setup"))
    kinds = set()
    while state["turn"] < 1888:
        orders = {p: GAME.parse_orders(state, p, list(enumerate(GAME.bot_orders(state, p, rng), 1))).orders
                  for p in GAME.phase(state).owes}
        for step in run_phases(GAME, state, orders, lambda ph: SeededDice(seed="html", context=ph.key)):
            kinds.add(step.phase.name)
            for power in [None, *FOUR]:
                rep = GAME.report(step.after, step.events, power)
                html = str(report_html(GAME, rep))
                assert "<table" in html and "{{" not in html
                if power:
                    assert "The board, nearest you first" in html and f"<h2>{power}</h2>" in html
            state = step.after
    assert len(kinds) >= 10


def test_the_areas_to_buy_are_listed_nearest_first_and_the_cut_says_the_rest_are_farther(start):
    from games.pax_britannica import guide, load_data

    near = guide.nearness(start, load_data(), "Germany")
    option = next(o for o in GAME.options_now(start, "Germany") if o.form == "BUY INTEREST <area>")
    listed = [c.rsplit(" ", 1)[0] for c in option.choices[:-1]]
    assert [near[a] for a in listed] == sorted(near[a] for a in listed)
    assert listed != sorted(listed)  # the Merchant Fleets' seas make most coasts one step: not by name
    assert option.choices[-1].endswith("more, farther off")


def test_suppress_is_offered_only_to_a_power_with_an_army_there_or_able_to_move_one_there():
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "movement", 1884)
    for edit in ("SET UNREST Sin-Kiang", "SET ARMY France 1 Sin-Kiang", "SET UNREST Tunis",
                 "SET MARKER Germany protectorate Tunis", "SET ARMY Germany 3 Germany",
                 'SET MERCHANT Germany "North Atlantic Ocean"', 'SET MERCHANT Germany "Mediterranean Sea"',
                 "SET ARMY France 3 Tunis"):
        s, _ = GAME.gm_command(s, edit, None)
    offered = {p: [o.choices for o in GAME.options_now(s, p) if o.form == "SUPPRESS <area>"] for p in FOUR}
    # France has an army in Sin-Kiang; Germany may move one into its Protectorate in Unrest;
    # Britain has no army near either; France may not intervene in Germany's Tunis.
    assert offered == {"Britain": [], "France": [("Sin-Kiang",)], "Germany": [("Tunis",)], "United States": []}


def test_a_deficit_offer_says_what_the_default_removes_and_marks_a_last_garrison():
    s = GAME.set_phase(GAME.setup(FOUR, {"setup": "empty"}, None), "movement", 1884)
    for edit in ("SET MARKER Britain possession Egypt", "SET ARMY Britain 1 Egypt", "SET MARKER Britain influence Persia",
                 'SET MERCHANT Britain "Indian Ocean"', 'SET MERCHANT Britain "Mediterranean Sea"',
                 'SET MERCHANT Britain "North Atlantic Ocean"'):
        s, _ = GAME.gm_command(s, edit, None)
    s.setdefault("pending", {})["deficit"] = {"Britain": 1}
    offer = next(o for o in GAME.options_now(s, "Britain") if o.form.startswith("REMOVE"))
    assert offer.note == ("meets your deficit of £1; without REMOVE lines the default: Britain's Influence in "
                          "Persia becomes an Interest (deficit: not maintained)")
    assert offer.choices == ("ARMY 1 Egypt (its last garrison)",)
    assert GAME.describe_defaults(s, "Britain").endswith(
        "Britain's deficit of 1 is met by the default removals: Britain's Influence in Persia becomes an Interest "
        "(deficit: not maintained)")
    # what the offer says is what the phase does with no orders
    after, events = GAME.resolve(s, {}, SeededDice(seed="deficit", context="movement"))
    assert after["markers"]["Persia"]["Britain"]["status"] == "interest"
    assert any(u["where"] == "Egypt" for u in after["units"])


def test_the_guide_with_links_found_once_per_power_is_the_guide_found_area_by_area(start, monkeypatch):
    """options_now finds each power's Communication Links once for all its Areas
    (mapgraph.components_kept); what it offers is what the checks offer Area by Area."""
    from games.pax_britannica import guide
    from games.pax_britannica.core import mapgraph
    from games.pax_britannica.core.data import load_data

    state = start
    for line in ("SET MARKER Britain protectorate Egypt", "SET MARKER France possession Senegal",
                 "SET MARKER Germany influence Kamerun", "SET MERCHANT France \"South Atlantic Ocean\""):
        state, _ = GAME.gm_command(state, line, None)
    data = load_data(state)
    found = []
    real = mapgraph._link_component
    monkeypatch.setattr(mapgraph, "_link_component", lambda *a: found.append(a[2]) or real(*a))
    for power in ("Britain", "France", "United States"):
        found.clear()
        kept = GAME.options_now(state, power)
        assert found == [power]  # once, not once per Area and status
        assert kept == guide.for_power(state, data, power)  # outside: no links are kept
        assert len(found) > 100
