"""Europa Universalis: The Price of Power's orders are read with a grammar file
(games/eu_tpop/orders.lark): every form the README and HELP list is in it, every value
it declares has a reader, and a bad line gets the reply it has always had (the table
below was taken from the hand-written parser the grammar replaced)."""
from __future__ import annotations

import re

import pytest

from pbem.base import registry
from pbem.kit.dice import ScriptedDice

from games.eu_tpop import orders

GAME = registry.get("eu_tpop")


@pytest.fixture(scope="module")
def state():
    return GAME.setup(["Valmont", "Corvia", "Ostmark"], {}, ScriptedDice())


def test_every_order_form_begins_with_a_verb_of_the_grammar():
    verbs = {form.split()[0] for form in orders.FORMS}
    assert verbs - {"DIPLOMACY", "NEGOTIATE"} == set(orders.ORDER_VERBS)
    assert {"DIPLOMACY", "NEGOTIATE"} == orders.GRAMMAR.starts("deal")


def test_every_keyword_of_the_grammar_is_in_an_order_form_or_a_listed_choice():
    written = set(re.findall(r"[A-Z][A-Z_]+", " ".join(orders.FORMS)))
    listed = set(orders.LISTED) | {w for ws in orders.OPTIONAL.values() for w in ws}
    # FOR: EXCHANGE <province> FOR <province>, one of ENFORCE's [details]
    assert orders.GRAMMAR.keywords() - written - listed == {"FOR"}


@pytest.mark.parametrize("line,code,message,suggestion", [
    ("DECLARE WAR ON Brenn Tarvo", "invalid-order", "unexpected 'Tarvo' at the end of the line", None),
    ("DECLARE WAR ON Brenn,Brenn", "duplicate-realm", "Brenn is named twice; name each realm once", None),
    ("declare war on", "invalid-order", "name the realm(s) you declare war on", None),
    ("DECLARE WAR ON Brenn CB nonsense", "unknown-cb", "unknown CB type 'nonsense' (one of claim, cta, token, "
     "event, disputed, excommunication, holy_war, imperial_liberation)", None),
    ("ACTIVATE Valmont SIEGE", "invalid-order", "ACTIVATE <area> [WITH <n> INF|CAV|ART ...] TO <area> [TO <area>] [SIEGE]", None),
    ("ACTIVATE Valmont x", "invalid-order", "expected TO, found x", None),
    # a misspelt keyword is named, one the form only may have too
    ("ACTIVATE Valmont TO Marches SEIGE", "invalid-order", "expected TO, found SEIGE", "SIEGE"),
    ("STANDING RETREAT NEVR", "invalid-order", "expected NEVER or ASK or OUTNUMBERED, found NEVR", "NEVER"),
    ("ACTIVATE Valmont TO", "invalid-order", "expected an area name", None),
    ("RECRUIT two INF IN Valmont", "invalid-order", "expected how many units, found two", None),
    ("RECRUIT 2 FOO IN Valmont", "unknown-unit", "unknown unit 'FOO' (INF, CAV, ART, LIGHT or HEAVY)", None),
    ("RECRUIT 3 ART IN Valmont ALLIED x", "invalid-order", "unexpected 'x' at the end of the line", None),
    ("STANDING RETREAT IF", "invalid-order", "expected OUTNUMBERED, found the end of the line", None),
    ("STANDING CASUALTIES FOO", "invalid-order",
     "STANDING CASUALTIES lists MERC, REGULAR, ALLIED and/or INF, CAV, ART and/or LIGHT, HEAVY (not ['FOO'])", None),
    ("STANDING x", "invalid-order", "expected CTA or RETREAT or CASUALTIES or CALL or LEADER, found x", None),
    ("STANDING RETREAT x", "invalid-order", "expected NEVER or ASK or OUTNUMBERED, found x", None),
    ("LEADER ask", "invalid-order", "LEADER names a leader, BEST or NONE (ASK is for STANDING LEADER)", None),
    ("ENFORCE whte_peace ON Corvia", "unknown-term", "unknown peace term 'whte_peace' (one of white_peace, "
     "negotiated_peace, keep_current_board_state, humiliation, vassalization, force_conversion, "
     "secure_desired_succession, full_annexation)", "white_peace"),
    ("ENFORCE kcbs ON Corvia FOO", "invalid-order",
     "expected RETURN or EXCHANGE or LIBERATE or ALLY or CLAIM, found FOO", None),
    ("ENFORCE kcbs ON Corvia EXCHANGE Dauvin", "invalid-order", "expected FOR, found the end of the line", None),
    ("RETREAT TO Corvia x", "invalid-order", "unexpected 'x' at the end of the line", None),
    ("APPOINT TO Valmont", "invalid-order", "expected a name", None),
    ("INFLUENCE Brenn x", "invalid-order", "expected a number, found x", None),
    ("SIEGE Brenn Hlom", "unknown-province", "there is no province called 'Hlom'", "Holm"),
    ("OFFER WHITE PEACE Brenn", "invalid-order", "expected TO, found Brenn", None),
    ("ACCEPT foo", "invalid-order", "unexpected 'foo' at the end of the line", None),
    ("CUT Lusca", "invalid-order", "expected TIES, found Lusca", None),
    ("NAVAL Western Sea TO Midle Sea", "unknown-sea", "there is no sea or province called 'Midle'", "Middle Sea"),
    ("DIPLOMACY Corvia Brenn", "invalid-order", "unexpected 'Brenn' at the end of the line", None),
    # a misspelt name is offered names of its kind only
    ("DECLARE WAR ON Far Shor", "unknown-realm", "there is no realm called 'Far'", None),
    ("INFLUENCE Far Shor 1", "unknown-area", "there is no area called 'Far'", "Far Shore"),
    ("DECLARE WAR ON Marchs", "unknown-realm", "there is no realm called 'Marchs'", None),
    ("ACTIVATE Valmont TO Marchs", "unknown-area", "there is no area called 'Marchs'", "Marches"),
    ("NAVAL Westrn Sea TO Middle Sea", "unknown-sea", "there is no sea or province called 'Westrn'", "Western Sea"),
    ("ENFORCE vasalize ON Corvia", "unknown-term", "unknown peace term 'vasalize' (one of white_peace, "
     "negotiated_peace, keep_current_board_state, humiliation, vassalization, force_conversion, "
     "secure_desired_succession, full_annexation)", "vassalization"),
])
def test_a_bad_line_gets_its_reply(state, line, code, message, suggestion):
    problems = GAME.parse_orders(state, "Valmont", [(3, line)]).problems
    assert [(p.code, p.message, p.line, p.suggestion, p.kind) for p in problems] == \
        [(code, message, 3, suggestion, "invalid")]


def test_names_with_spaces_hyphens_or_quotes_and_keywords_in_any_case(state):
    lines = ["naval western-sea to middle_sea", 'Naval "Western Sea" To Middle Sea', "NAVAL Western Sea TO Middle Sea"]
    parsed = GAME.parse_orders(state, "Valmont", list(enumerate(lines, 1)))
    assert not parsed.problems
    assert {o.canonical for o in parsed.orders} == {"NAVAL Western Sea TO Middle Sea"}


def test_negotiation_details_are_read_by_the_same_grammar(state):
    assert orders.details(state, ["RETURN", "Salera", "exchange", "Dauvin", "for", "Belcourt"]) == \
        [["RETURN", "Salera"], ["EXCHANGE", "Dauvin", "Belcourt"]]
    assert orders.details(state, []) == []


def test_deal_lines_are_read_by_their_grammar(state):
    from pbem.kit.gameapi import Refused

    from games.eu_tpop import deal_lines
    assert deal_lines.read_term(state, "alliance and more words") == ("alliance", [["and", "more", "words"]])
    assert deal_lines.read_term(state, "valmont pays 5") == ("pays", ["valmont", 5])
    assert deal_lines.read_term(state, "Corvia SELLS Far Shore FOR 4 FOR 6") == ("sells", ["Corvia", "Far Shore FOR 4", 6])
    for bad in ("Valmont PAYS five", "Valmont Corvia PAYS 5", "Corvia SELLS FOR 6", ""):
        with pytest.raises(Refused) as err:
            deal_lines.read_term(state, bad)
        assert err.value.code == "deal-line" and str(err.value).startswith(f"cannot read the deal line {bad!r}")


@pytest.fixture(scope="module")
def at_war(state):
    from pbem.kit.gameapi import Edit
    for edit in ("SET WAR Valmont VS Corvia", "SET PROVINCE Dauvin CONTROLLER Valmont"):
        state, _ = GAME.apply(state, Edit(edit), ScriptedDice())
    return state


@pytest.mark.parametrize("lines,read", [
    (["keep_current_board_state", "VICTOR Valmont"], ("keep_current_board_state", "Valmont", [], [])),
    (["TERM kcbs RETURN Salera", "victor valmont"], ("keep_current_board_state", "Valmont", [["RETURN", "Salera"]], [])),
    (["white_peace", "", "Corvia CUTS TIES WITH Lusca", "corvia pays 5"],
     ("white_peace", "Valmont", [], [("cut", "Corvia", "Lusca"), ("pay", "Corvia", "Valmont", 5)])),
    (["white_peace", "Valmont PAYS 3"], ("white_peace", "Valmont", [], [("pay", "Valmont", "Corvia", 3)])),
])
def test_the_lines_of_a_negotiated_peace_are_read(at_war, lines, read):
    from games.eu_tpop import negotiated_peace as resolution
    assert resolution.read_negotiation(at_war, "Valmont", "Corvia", lines) == read


@pytest.mark.parametrize("lines,code,message,suggestion", [
    (["frobnicate", "VICTOR Valmont"], "negotiation-line", "cannot read 'frobnicate' in the negotiated peace", None),
    (["TERM"], "negotiation-line", "cannot read 'TERM' in the negotiated peace", None),
    (["VICTOR Valmont"], "negotiation-line", "the negotiated peace names no term", None),
    (["kcbs", "VICTOR Valmnt"], "unknown-realm", "there is no realm called 'Valmnt'", "Valmont"),
    (["kcbs", "VICTOR"], "gm-edit", "expected a realm name", None),
    (["kcbs", "VICTOR Valmont Corvia"], "gm-edit", "unexpected 'Corvia' at the end of the line", None),
    (["kcbs"], "negotiation-line", "a negotiated peace with a term other than white peace names its VICTOR", None),
    (["kcbs FOO", "VICTOR Valmont"], "gm-edit", "expected RETURN or EXCHANGE or LIBERATE or ALLY or CLAIM, found FOO",
     None),
    (["full_annexation", "VICTOR Valmont"], "negotiation-term", "a negotiated peace may not use full_annexation (10.4)",
     None),
    (["white_peace", "Lusca PAYS 5"], "negotiation-line", "the extra action is taken by one of the two parties only "
     "(10.4)", None),
    (["white_peace", "Corvia PAYS 5", "Valmont PAYS 5"], "negotiation-line",
     "the extra action is taken by one of the two parties only (10.4)", None),
    (["white_peace", "Corvia PAYS 500"], "negotiation-line", "Corvia has 15 Ducats", None),
    (["white_peace", "Corvi CUTS TIES WITH Lusca"], "unknown-realm", "there is no realm called 'Corvi'", "Corvia"),
    (["white_peace", "Corvia CUTS TIES WITH Lusa"], "unknown-realm", "there is no realm called 'Lusa'", "Lusca"),
])
def test_a_bad_negotiated_peace_gets_its_reply(at_war, lines, code, message, suggestion):
    from pbem.kit.gameapi import Refused

    from games.eu_tpop import negotiated_peace as resolution
    with pytest.raises(Refused) as err:
        resolution.read_negotiation(at_war, "Valmont", "Corvia", lines)
    assert (err.value.code, str(err.value), getattr(err.value, "suggestion", None)) == (code, message, suggestion)


@pytest.mark.parametrize("line,targets,cb", [
    ("DECLARE WAR ON Brenn, Tarvo CB claim", ["Brenn", "Tarvo"], "claim"),
    ("declare war on brenn,tarvo cb Holy-War", ["Brenn", "Tarvo"], "holy_war"),
    ("DOW Brenn", ["Brenn"], None),
])
def test_a_declaration_names_its_realms_up_to_the_cb(state, line, targets, cb):
    parsed = GAME.parse_orders(state, "Valmont", [(1, line)])
    assert not parsed.problems, [p.render() for p in parsed.problems]
    assert (parsed.orders[0].args["targets"], parsed.orders[0].args["cb"]) == (targets, cb)


def test_a_misspelt_name_in_a_negotiated_peace_gets_its_suggestion(at_war):
    from pbem.kit.gameapi import Edit
    peace, _ = GAME.apply(at_war, Edit("SET STEP D"), ScriptedDice())
    parsed = GAME.parse_orders(peace, "Valmont", [(2, "NEGOTIATE Corvia"), (3, "kcbs"), (4, "VICTOR Valmnt"),
                                                  (5, "ENDNEGOTIATE")])
    problems = GAME.validate(peace, "Valmont", parsed.orders)
    assert [(p.code, p.suggestion) for p in problems] == [("unknown-realm", "Valmont")]


def test_a_block_order_is_written_back_one_line_each(state):
    """The reply quotes a NEGOTIATE block line by line, each indented like any order."""
    text = ["NEGOTIATE Corvia", "white_peace", "VICTOR Corvia", "Valmont PAYS 3", "ENDNEGOTIATE"]
    parsed = GAME.parse_orders(state, "Valmont", list(enumerate(text, 1)))
    assert GAME.as_written(parsed.orders, "Valmont") == text


@pytest.mark.parametrize("order, warned", [
    ("STANDING CASUALTIES REGULAR,MERC,CAV", True), ("STANDING CASUALTIES ALLIED,MERC", True),
    ("STANDING CASUALTIES MERC,REGULAR,ALLIED,CAV", False), ("STANDING CASUALTIES MERC,ALLIED", False),
    ("STANDING CASUALTIES CAV,INF,HEAVY", False)])
def test_standing_casualties_in_another_category_order_than_the_rules_is_kept_with_a_warning(state, order, warned):
    """9.7 step 4: casualties alternate Mercenary, Regular and Allied units "in that order"."""
    parsed = GAME.parse_orders(state, "Corvia", [(1, order)])
    problems = GAME.validate(state, "Corvia", parsed.orders)
    assert [(p.code, p.kind) for p in problems] == ([("casualty-categories", "warning")] if warned else [])
