"""A mail command is one declaration (pbem/handlers/declare.py): the grammar's
command rules and the declarations name each other one to one, and every
declaration carries its help, its guards and its handler."""
import re

from pbem.commands import grammar
from pbem.commands import model as m
from pbem.handlers import declare
from pbem.handlers.catalogue import BY_CLASS, COMMANDS, FAMILIES


def test_every_grammar_rule_has_exactly_one_declaration_and_every_declaration_a_rule():
    rules = grammar.command_rules()
    named = [d.rule for d in COMMANDS if d.rule is not None]
    assert sorted(named) == sorted(rules)
    assert len(set(named)) == len(named)
    # the only declaration without a rule is the GM's own edit, chosen by its keyword
    assert [d.cls for d in COMMANDS if d.rule is None] == [m.GmEdit]


def test_the_rules_of_the_grammar_file_are_its_command_rules_and_their_parts():
    text = grammar.text()
    defined = set(re.findall(r"^([a-z_]+):", text, re.M))
    assert defined == set(grammar.command_rules()) | {"recipients", "names", "option"}


def test_every_declaration_has_help_a_group_and_a_keyword_its_rule_starts_with():
    for d in COMMANDS:
        assert d.summary.strip() and d.syntax.startswith(d.keyword.split()[0]), d.keyword
        assert d.who in declare.WHO and "|" not in d.syntax
        if d.rule:
            assert d.rule == d.keyword.lower().replace(" ", "_")


def test_help_lists_the_commands_in_the_grammar_order():
    order = [d.rule for d in COMMANDS if d.rule]
    assert order == list(grammar.command_rules())
    assert COMMANDS[-1].keyword == "GM"


def test_every_command_a_mail_can_hold_has_a_handler_and_the_guards_it_needs():
    dispatched = {d.cls for d in COMMANDS if d.handler is not None}
    # read by the parser (the three-line sign-on) or the dispatcher (SIGNOFF), never run
    assert {d.cls for d in COMMANDS} - dispatched == {m.SignOnPart, m.SignOff}
    assert BY_CLASS[m.SignOn].handler is not None
    # the GM's are the GM's alone, and what others write is capped
    assert all(d.who == "gm" for d in COMMANDS if d.cls.__name__.startswith("Gm"))
    assert {d.keyword for d in COMMANDS if d.text and d.who != "gm"} == {
        "PRESS", "TREATY PROPOSE", "TREATY BREACH"}
    assert {d.keyword for d in COMMANDS if not d.signon} == {
        "SIGNON", "GAME", "POWER", "PASSWORD", "SIGNOFF", "HELP", "JOIN", "CONFIRM", "GM CREATE"}
    assert all(d.block in (None, "PRESS", "TREATY", "ANNOUNCE") and (d.block is None or d.text)
               for d in COMMANDS)


def test_each_family_module_declares_its_own_commands():
    by_module = {d.handler.__module__ for d in COMMANDS if d.handler is not None}
    assert by_module == {f.__name__ for f in FAMILIES}
