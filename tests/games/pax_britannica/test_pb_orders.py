"""Pax Britannica orders: grammar, names, canonical round trip, suggestions."""
from __future__ import annotations

from hypothesis import given, settings, strategies as stx

from games.pax_britannica import GAME, load_data
from games.pax_britannica.phases import movement_orders as od

FOUR = ["Britain", "France", "Germany", "United States"]
STATE = GAME.setup(FOUR, {"setup": "empty"}, None)
STATE["phase"] = "movement"
DATA = load_data(STATE)

AREAS = sorted(DATA.areas)
SEAS = sorted(DATA.seas)
PLACES = AREAS + SEAS + sorted(h.name for h in DATA.homes.values())
POWERS = sorted(DATA.powers)
STRENGTH = stx.sampled_from([1, 3, 10])
STATUS = stx.sampled_from(["interest", "influence", "protectorate", "possession", "state", "dominion"])


def parse(power: str, *lines: str):
    return GAME.parse_orders(STATE, power, list(enumerate(lines, 1)))


def one(power: str, line: str):
    r = parse(power, line)
    assert r.problems == [], [p.render() for p in r.problems]
    assert len(r.orders) == 1
    return r.orders[0]


ORDERS = stx.one_of(
    stx.builds(lambda s, a: ("buy", {"status": s, "area": a}), STATUS, stx.sampled_from(AREAS)),
    stx.builds(lambda a, t: ("downgrade", {"area": a, "to": t}), stx.sampled_from(AREAS),
               stx.sampled_from(["interest", "none"])),
    stx.builds(lambda n: ("build_army", {"strength": n}), STRENGTH),
    stx.builds(lambda n, s: ("build_navy", {"strength": n, "sea": s}), STRENGTH, stx.sampled_from(SEAS)),
    stx.builds(lambda n, f, t, v: ("move_army", {"strength": n, "from": f, "to": t, "via": v}),
               STRENGTH, stx.sampled_from(PLACES), stx.sampled_from(PLACES),
               stx.lists(stx.sampled_from(PLACES), max_size=3)),
    stx.builds(lambda n, f, t: ("move_navy", {"strength": n, "from": f, "to": t}),
               STRENGTH, stx.sampled_from(PLACES), stx.sampled_from(PLACES)),
    stx.builds(lambda f, t: ("move_merchant", {"from": f, "to": t}),
               stx.sampled_from(SEAS), stx.sampled_from(SEAS)),
    stx.builds(lambda s: ("place_merchant", {"sea": s}), stx.sampled_from(SEAS)),
    stx.builds(lambda a: ("build_canal", {"area": a}), stx.sampled_from(["Panama", "Central America"])),
    stx.builds(lambda a: ("suppress", {"area": a}), stx.sampled_from(AREAS)),
    stx.builds(lambda p, n: ("give", {"to": p, "amount": n}), stx.sampled_from(POWERS),
               stx.integers(1, 999)),
    stx.builds(lambda s, a, p: ("transfer", {"status": s, "area": a, "to": p}), STATUS,
               stx.sampled_from(AREAS), stx.sampled_from(POWERS)),
    stx.builds(lambda s, a, p: ("accept", {"status": s, "area": a, "from": p}), STATUS,
               stx.sampled_from(AREAS), stx.sampled_from(POWERS)),
    stx.builds(lambda n, p: ("accept_money", {"amount": n, "from": p}), stx.integers(1, 999),
               stx.sampled_from(POWERS)),
    stx.builds(lambda t, n, w: ("remove", {"type": t, "strength": n, "where": w}),
               stx.sampled_from(["army", "navy"]), STRENGTH, stx.sampled_from(PLACES)),
    stx.builds(lambda n, a: ("eliminate", {"strength": n, "area": a}), STRENGTH, stx.sampled_from(AREAS)),
)


@settings(max_examples=300, deadline=None)
@given(ORDERS)
def test_canonical_text_parses_back_to_the_same_order(kind_args):
    kind, args = kind_args
    text = od.canonical(kind, args)
    order = one("France", text)  # France: no State/Dominion normalisation applies
    assert (order.kind, dict(order.args)) == (kind, args)
    assert order.canonical == text


@settings(max_examples=100, deadline=None)
@given(ORDERS)
def test_lower_case_text_parses_to_the_same_order(kind_args):
    kind, args = kind_args
    assert dict(one("France", od.canonical(kind, args).lower()).args) == args


def test_multi_word_names_need_no_quotes():
    o = one("Britain", "MOVE ARMY 3 Cape Colony TO Sudwest Afrika VIA South Atlantic")
    assert dict(o.args) == {"strength": 3, "from": "Cape Colony", "to": "Sudwest Afrika",
                            "via": ["South Atlantic Ocean"]}
    assert one("Britain", 'M A 3 "Cape Colony" - "Sudwest Afrika"').args["to"] == "Sudwest Afrika"
    assert one("Britain", "B PROT Orange River Free State").args["area"] == "Orange River Free State"


def test_aliases_and_home():
    assert one("Britain", "m f 10 home -> Egypt").canonical == "MOVE NAVY 10 Britain TO Egypt"
    assert one("United States", "B STATE Hawaii").canonical == "BUY STATE Hawaii"
    assert one("Britain", "BUY STATE Canada").canonical == "BUY DOMINION Canada"
    assert one("Britain", "BUILD NAVY 10").args["sea"] == "North Atlantic Ocean"
    assert one("Britain", "GIVE France £10").args == {"to": "France", "amount": 10}


def test_bare_downgrade_goes_one_step():
    state = GAME.gm_command(STATE, "SET MARKER Britain influence Egypt", None)[0]
    r = GAME.parse_orders(state, "Britain", [(1, "DOWNGRADE Egypt"), (2, "DOWNGRADE Persia")])
    assert [o.canonical for o in r.orders] == ["DOWNGRADE Egypt TO INTEREST", "DOWNGRADE Persia TO NONE"]


def test_unknown_names_suggest_the_nearest():
    r = parse("Britain", "BUY INTEREST Egipt", "GIVE Frnace 5", "MOVE ARMY 3 Cape Colny TO Egypt",
              "PLACE MERCHANT Indain Ocean")
    got = [(p.code, p.suggestion, p.kind, p.line) for p in r.problems]
    assert got == [("unknown-area", "Egypt", "invalid", 1), ("unknown-power", "France", "invalid", 2),
                   ("unknown-area", "Cape Colony", "invalid", 3), ("unknown-sea", "Indian Ocean", "invalid", 4)]
    assert r.orders == []


def test_not_understood_lines_list_the_forms_of_their_verb_only():
    r = parse("Britain", "BUY 3 Egypt", "dance a jig")
    assert [p.code for p in r.problems] == ["invalid-order", "not-an-order"]
    assert "BUY <INTEREST" in r.problems[0].message and "MOVE ARMY" not in r.problems[0].message
    # a line that is no order names the verbs, not every form of every order
    assert "MOVE ARMY" not in r.problems[1].message and len(r.problems[1].message) < 160


def test_suggestions_are_names_of_the_kind_the_order_wants():
    """Issue 7: "Bosnia -> Abyssinia?", "albania -> Britain?" offered names that
    merely shared letters, and a power for an Area; a name misspelt into a
    keyword ("Free State") got a grammar error with no suggestion."""
    r = parse("France", "BUY INTEREST Bosnia", "GIVE albania 3", "BUY INFLUENCE Orange Rivr Free State",
              "BUY INFLUENCE Frnce", "GIVE Frnace 3")
    got = [(p.code, p.suggestion) for p in r.problems]
    assert got == [("unknown-area", None), ("unknown-power", None),
                   ("unknown-area", "Orange River Free State"), ("unknown-area", None),
                   ("unknown-power", "France")]
    assert "'Orange Rivr Free State' is not a known Area" in r.problems[2].message


def test_for_austria_hungary_switches_the_power():
    r = parse("Germany", "BUILD ARMY 1", "FOR Austria-Hungary", "BUILD ARMY 3", "FOR Germany",
              "BUILD ARMY 10", "# a comment", "")
    assert [(o.power, o.args["strength"]) for o in r.orders] == [
        ("Germany", 1), ("Austria-Hungary", 3), ("Germany", 10)]
    assert [p.code for p in parse("France", "FOR Austria-Hungary").problems] == ["not-your-power"]


def test_validation_refuses_orders_outside_the_movement_phase():
    state = dict(STATE, phase="administrative")
    orders = parse("Britain", "BUILD ARMY 1").orders
    problems = GAME.validate(state, "Britain", orders)
    assert [p.code for p in problems] == ["wrong-phase"]
    assert "Administrative" in problems[0].message
