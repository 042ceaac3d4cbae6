"""The mail command language: every command, every problem code."""
from datetime import date, datetime, timedelta

import pytest

from pbem.commands import model as m
from pbem.handlers.parse import parse_line
from pbem.handlers.reading import parse_mail

SIGN = "SIGNON France@pax1 s3cret\n"


def only(text: str):
    """The single command of a signed-on mail, checking nothing went wrong."""
    parsed = parse_mail(SIGN + text)
    assert parsed.problems == []
    assert len(parsed.commands) == 1, parsed.commands
    return parsed.commands[0]


def codes(text: str) -> list[str]:
    return [p.code for p in parse_mail(text).problems]


def problem(text: str):
    parsed = parse_mail(text)
    assert len(parsed.problems) == 1, parsed.problems
    assert parsed.problems[0].kind == "invalid"
    return parsed.problems[0]


# -- signing on ------------------------------------------------------------------

@pytest.mark.parametrize("line", ["SIGNON France@pax1 Pa55#word", "signon France pax1 Pa55#word",
                                  "SignOn   France @ pax1   Pa55#word"])
def test_signon_forms(line):
    parsed = parse_mail(line + "\nSTATUS")
    assert parsed.signon == m.SignOn("France", "pax1", "Pa55#word")
    assert parsed.signon.line == 1
    assert parsed.problems == []


def test_gm_signon_and_masking():
    parsed = parse_mail("signon gm@pax1 Top\nGM START")
    assert parsed.signon.power == "GM" and parsed.signon.is_gm
    assert parsed.signon.echo() == "SIGNON GM@pax1 ****"
    assert parsed.signon.canonical() == "SIGNON GM@pax1 Top"


def test_three_line_signon_any_order():
    parsed = parse_mail("Hello\nPASSWORD XyZ\ngame pax1\nPower Russia\nSTATUS")
    assert parsed.signon == m.SignOn("Russia", "pax1", "XyZ")
    assert parsed.signon.line == 2
    assert parsed.problems == []


def test_incomplete_signon():
    p = problem("GAME pax1\nPOWER Russia\nSTATUS")
    assert (p.code, p.line) == ("incomplete-signon", 1)
    assert "PASSWORD" in p.message


@pytest.mark.parametrize("text", [SIGN + "SIGNON Italy@pax1 x", SIGN + "GAME pax2",
                                  "GAME a\nGAME b\nPOWER p\nPASSWORD q"])
def test_duplicate_signon_keeps_the_first(text):
    parsed = parse_mail(text)
    assert [p.code for p in parsed.problems] == ["duplicate-signon"]
    assert parsed.signon is not None and parsed.signon.game in ("pax1", "a")


def test_a_missing_signon_is_left_to_the_dispatcher():
    parsed = parse_mail("ORDERS\nA Par H")
    assert parsed.signon is None and parsed.problems == []
    assert [type(c) for c in parsed.commands] == [m.Orders]


def test_help_and_join_need_no_signon():
    parsed = parse_mail("HELP orders\nJOIN pax1 France Secret")
    assert parsed.problems == []
    assert parsed.commands == [m.Help("orders"), m.Join("pax1", "France", "Secret")]


def test_no_commands():
    assert codes("Dear GM,\nI am on holiday.\n") == ["no-commands"]
    assert codes("") == ["no-commands"]


def test_signoff_ends_the_mail():
    parsed = parse_mail(SIGN + "STATUS\nSIGNOFF\nORDERS\nnonsense\n-- \nBob")
    assert parsed.commands == [m.Status(), m.SignOff()]
    assert parsed.problems == []


# -- comments, greetings, case ---------------------------------------------------------

def test_greeting_before_the_first_command_is_ignored():
    parsed = parse_mail("Hi all,\nGame night was fun, power to you.\n\n" + SIGN + "STATUS")
    assert parsed.problems == []
    assert parsed.signon.line == 4


def test_shouted_near_miss_before_the_first_command_is_reported():
    p = problem("SINGON France@pax1 x\n")
    assert (p.code, p.suggestion) == ("unknown-command", "SIGNON")


def test_text_after_a_command_is_reported_when_no_player_signed_on():
    p = problem("HELP\nThanks a lot")
    assert (p.code, p.line, p.suggestion) == ("unknown-command", 2, None)
    p = problem("SIGNON GM@pax1 s3cret\nGM START\nThanks a lot")
    assert (p.code, p.line, p.suggestion) == ("unknown-command", 3, None)


def test_a_player_s_lines_that_are_no_command_are_an_implicit_orders_block():
    """As the classic judges read them: orders after the sign-on, no ORDERS line.
    The game decides which are orders."""
    parsed = parse_mail(SIGN + "BUY INFLUENCE Tunis\nSTATUS\nBUILD ARMY 3\ncheers, Alice")
    assert parsed.problems == []
    assert parsed.commands == [m.Orders(((2, "BUY INFLUENCE Tunis"), (4, "BUILD ARMY 3"),
                                         (5, "cheers, Alice"))), m.Status()]
    assert parsed.commands[0].implicit and parsed.commands[0].line == 2


def test_comments():
    parsed = parse_mail("# a comment\nSIGNON France@pax1 pw#1 // secret may hold #\n"
                        "ORDERS # for this turn\nA Par H # hold\n// nothing\nEND")
    assert parsed.problems == []
    assert parsed.signon.secret == "pw#1"
    assert parsed.commands == [m.Orders(((4, "A Par H"),))]


def test_keywords_any_case_names_as_written():
    cmd = only("tReAtY pRoPoSe Pact1 with gerMANY, Russia secret\nText\nendtreaty")
    assert cmd == m.TreatyPropose("Pact1", ("gerMANY", "Russia"), True, "Text")


def test_quoted_lines_are_never_commands():
    parsed = parse_mail("> ORDERS\n> SIGNON x@y z\n>\n" + SIGN + "> STATUS\nCLEAR")
    assert parsed.problems == []
    assert parsed.commands == [m.Clear()]


def test_line_numbers_count_every_line_break_kind():
    parsed = parse_mail("Hi\r\n" + "SIGNON a@b c\r\rSTATUS\n")
    assert parsed.signon.line == 2
    assert parsed.commands[0].line == 4


# -- orders ---------------------------------------------------------------------

@pytest.mark.parametrize("end", ["END", "ENDORDERS", "end orders", "End   Orders"])
def test_orders_end_marker(end):
    parsed = parse_mail(SIGN + f"ORDERS\nA Par - Bur\n\nF Bre H\n{end}\nSTATUS")
    assert parsed.problems == []
    assert parsed.commands == [m.Orders(((3, "A Par - Bur"), (5, "F Bre H"))), m.Status()]


def test_orders_end_at_the_next_command_or_the_end_of_mail():
    parsed = parse_mail(SIGN + "ORDERS Spring  1901\nA Par H\nPRESS TO ALL\nhi\nENDPRESS\n"
                        "ORDERS\nF Bre H")
    assert parsed.problems == []
    first, press, second = parsed.commands
    assert first == m.Orders(((3, "A Par H"),), "Spring 1901")
    assert press == m.Press("ALL", False, "hi")
    assert second.lines == ((8, "F Bre H"),) and second.phase is None


def test_an_order_starting_with_a_keyword_stays_an_order():
    cmd = only("ORDERS\nStatus Egypt protectorate\nPower projection into Sudan")
    assert cmd.texts == ("Status Egypt protectorate", "Power projection into Sudan")


def test_a_closed_orders_block_keeps_a_line_that_reads_like_a_command():
    """JOIN WAR WITH France is a whole JOIN command's shape; inside ORDERS ... ENDORDERS it is
    an order; an unclosed block ends at a whole command other than JOIN."""
    parsed = parse_mail(SIGN + "ORDERS\nJOIN WAR WITH France\nENDORDERS\nSTATUS")
    assert parsed.problems == []
    assert parsed.commands == [m.Orders(((3, "JOIN WAR WITH France"),)), m.Status()]
    parsed = parse_mail(SIGN + "ORDERS\nA Par H\nSTATUS\nORDERS\nF Bre H\nEND")
    assert [type(c) for c in parsed.commands] == [m.Orders, m.Status, m.Orders]
    parsed = parse_mail(SIGN + "ORDERS\nJOIN WAR WITH France\nSTATUS")
    assert parsed.commands == [m.Orders(((3, "JOIN WAR WITH France"),)), m.Status()]


def test_orders_echo():
    cmd = only("ORDERS 1884/movement\nA Par H # why not\n")
    assert cmd.canonical() == "ORDERS 1884/movement\nA Par H\nENDORDERS"
    assert m.Orders(()).canonical() == "ORDERS\nENDORDERS"


def test_stray_end():
    p = problem(SIGN + "STATUS\nEND")
    assert (p.code, p.line) == ("unexpected-end", 3)


# -- texts ----------------------------------------------------------------------

def test_press_body_is_verbatim():
    body = "  Dear Kaiser, # not a comment\n// nor this\n> quoted\n\nSIGNOFF is just a word here"
    cmd = only(f"PRESS TO Germany Russia GRAY\n{body}\nEND PRESS")
    assert cmd == m.Press(("Germany", "Russia"), True, body)
    assert cmd.line == 2
    assert cmd.canonical() == f"PRESS TO Germany, Russia GREY\n{body}\nENDPRESS"


def test_press_to_all():
    assert only("press to all\nhello\nendpress") == m.Press("ALL", False, "hello")


@pytest.mark.parametrize("start,kind", [("PRESS TO ALL", "PRESS"), ("TREATY PROPOSE t WITH A", "TREATY"),
                                        ("GM ANNOUNCE", "ANNOUNCE")])
def test_unterminated_text(start, kind):
    parsed = parse_mail(SIGN + f"{start}\ntext\nORDERS\nA Par H")
    assert [(p.code, p.line) for p in parsed.problems] == [("unterminated-block", 2)]
    assert kind in parsed.problems[0].message
    assert parsed.commands == []


def test_unterminated_text_points_at_a_misspelt_end():
    p = problem(SIGN + "PRESS TO ALL\nhello\nENDPRES\nSTATUS")
    assert (p.code, p.line, p.suggestion) == ("unterminated-block", 2, "ENDPRESS")
    assert "line 4" in p.message


def test_announce():
    cmd = parse_mail("SIGNON GM@pax1 pw\nGM ANNOUNCE\nDeadline moved.\nENDANNOUNCE").commands[0]
    assert cmd == m.GmAnnounce("Deadline moved.")


# -- the other commands --------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("CLEAR", m.Clear()),
    ("STATUS", m.Status()),
    ("HELP", m.Help()),
    ("HELP set  address", m.Help("set address")),
    ("HISTORY", m.History()),
    ("RESEND", m.Resend()),
    ("RESEND 1884 movement", m.Resend("1884 movement")),
    ("SET ADDRESS a@b.org", m.SetAddress(("a@b.org",))),
    ("SET ADDRESS a@b.org, <c@localhost> e@f.g", m.SetAddress(("a@b.org", "c@localhost", "e@f.g"))),
    ("SET PASSWORD NeW#1", m.SetPassword("NeW#1")),
    ("SET ABSENCE 2026-02-01 2026-02-14", m.SetAbsence(date(2026, 2, 1), date(2026, 2, 14))),
    ("JOIN pax1 Japan Banzai", m.Join("pax1", "Japan", "Banzai")),
    ("TREATY PROPOSE t1 WITH Italy\nENDTREATY", m.TreatyPropose("t1", ("Italy",), True, "")),
    ("TREATY PROPOSE t1 WITH Italy SECRET\nENDTREATY", m.TreatyPropose("t1", ("Italy",), True, "")),
    ("TREATY PROPOSE t1 WITH Italy public\nENDTREATY", m.TreatyPropose("t1", ("Italy",), False, "")),
    ("TREATY SIGN t1", m.TreatySign("t1")),
    ("TREATY REFUSE t1", m.TreatyRefuse("t1")),
    ("TREATY WITHDRAW t1", m.TreatyWithdraw("t1")),
    ("TREATY REVEAL t1", m.TreatyReveal("t1")),
    ("TREATY LIST", m.TreatyList()),
    ("GM CREATE pax2 RULES pax_britannica", m.GmCreate("pax2", "pax_britannica")),
    ("GM CREATE pax2 RULES pb OPTION errata=yes OPTION seats=6 x=",
     m.GmCreate("pax2", "pb", (("errata", "yes"), ("seats", "6"), ("x", "")))),
    ("GM ADD PLAYER France f@x.org", m.GmAddPlayer("France", "f@x.org")),
    ("GM START", m.GmStart()),
    ("GM PAUSE", m.GmPause()),
    ("GM RESUME", m.GmResume()),
    ("GM RESUME now", m.GmResume(True)),
    ("SET ZONE america/new_york", m.SetZone("America/New_York")),
    ("set map Svg", m.SetMap("svg")),
    ("GM EXTEND 48h", m.GmExtend(timedelta(hours=48))),
    ("GM EXTEND 1D12H", m.GmExtend(timedelta(days=1, hours=12))),
    ("GM EXTEND 90m", m.GmExtend(timedelta(minutes=90))),
    ("GM EXTEND 1w", m.GmExtend(timedelta(weeks=1))),
    ("GM SET DEADLINE 2026-01-05 18:00", m.GmSetDeadline(datetime(2026, 1, 5, 18, 0), None)),
    ("GM SET DEADLINE 2026-01-05t8:05 utc", m.GmSetDeadline(datetime(2026, 1, 5, 8, 5), "UTC")),
    ("GM SET DEADLINE 2026-01-05 18:00 europe/london",
     m.GmSetDeadline(datetime(2026, 1, 5, 18, 0), "Europe/London")),
    ("GM PROCESS", m.GmProcess(False)),
    ("GM PROCESS NOW", m.GmProcess(True)),
    ("GM PREVIEW", m.GmPreview()),
    ("GM ROLLBACK 1884/movement", m.GmRollback("1884/movement")),
    ("GM REPLACE France new@x.org", m.GmReplace("France", "new@x.org")),
    ("GM REPLACE United States new@x.org", m.GmReplace("United States", "new@x.org")),
    ("GM ADD PLAYER  Austria Hungary  ah@x.org", m.GmAddPlayer("Austria Hungary", "ah@x.org")),
    ("GM BECOME United States", m.GmBecome("United States")),
    ("GM BECOME Russia", m.GmBecome("Russia")),
    ("GM RULE q7 The fleet may  pass.", m.GmRule("q7", "The fleet may pass.")),
    ("GM REVEAL SEED", m.GmRevealSeed()),
    ("GM SET TREASURY France 10", m.GmEdit("SET TREASURY France 10")),
    ("gm add army France Paris", m.GmEdit("add army France Paris")),
    ("GM REVEAL hand France", m.GmEdit("REVEAL hand France")),
])
def test_command(text, expected):
    cmd = only(text)
    assert cmd == expected
    assert type(cmd) is type(expected)
    assert cmd.line == 2
    assert only(cmd.canonical()) == cmd


def test_echo_masks_secrets_only():
    assert m.SetPassword("x").echo() == "SET PASSWORD ****"
    assert m.Join("g", "p", "x").echo() == "JOIN g p ****"
    assert m.GmStart().echo() == "GM START"


def test_parse_line_alone():
    assert parse_line("TREATY SIGN t9", 5) == m.TreatySign("t9")
    assert parse_line("TREATY SIGN t9", 5).line == 5
    assert parse_line("TREATY\xa0 SIGN\tt9") == m.TreatySign("t9")
    assert parse_line("  ").code == parse_line("hello").code == "unknown-command"


# -- problems ---------------------------------------------------------------------

@pytest.mark.parametrize("line,code,suggestion", [
    ("SET ADRESS a@b.c", "unknown-command", "SET ADDRESS"),
    ("TREATY SGIN t1", "unknown-command", "TREATY SIGN"),
    ("TREATY SINE t1", "unknown-command", None),  # two letters off in four: no plausible typo
    ("TREATY", "missing-argument", None),
    ("GM", "missing-argument", None),
    ("SET", "missing-argument", None),
    ("JOIN pax1 France", "missing-argument", None),
    ("PRESS", "missing-argument", None),
    ("TREATY SIGN", "missing-argument", None),
    ("GM ROLLBACK", "missing-argument", None),
    ("STATUS now please", "extra-argument", None),
    ("GM START today", "extra-argument", None),
    ("TREATY SIGN a b", "extra-argument", None),
    ("PRESS TO France, , Italy", "bad-syntax", None),
    ("GM EXTEND two days", "extra-argument", None),
    ("GM EXTEND 2x", "bad-duration", None),
    ("GM EXTEND 0h", "bad-duration", None),
    ("GM EXTEND 12h1d", "bad-duration", None),
    ("GM EXTEND 9999999w", "bad-duration", None),
    ("GM SET DEADLINE tomorrow", "bad-time", None),
    ("GM SET DEADLINE 2026-02-30 18:00", "bad-time", None),
    ("GM SET DEADLINE 2026-01-05 25:00", "bad-time", None),
    ("GM SET DEADLINE 2026-01-05 18:00 Mars/Olympus", "bad-time", None),
    ("GM SET DEADLINE 2026-01-05 18:00 UTC extra", "bad-time", None),
    ("SET ABSENCE 2026-02-01 soon", "bad-date", None),
    ("SET ABSENCE 2026-02-10 2026-02-01", "bad-date", None),
    ("SET ADDRESS france.example.org", "bad-address", None),
    ("SET ADDRESS a@b.org, c@", "bad-address", None),
    ("GM ADD PLAYER France nobody", "bad-address", None),
    ("GM REPLACE France a@@b", "bad-address", None),
    ("GM CREATE g RULES pb OPTION errata", "bad-option", None),
])
def test_problem(line, code, suggestion):
    p = problem(SIGN + "STATUS\n" + line)
    assert (p.code, p.line, p.suggestion) == (code, 3, suggestion)
    assert p.message


def test_missing_argument_shows_the_syntax():
    p = problem(SIGN + "JOIN pax1 France")
    assert "JOIN <game> <power> <secret>" in p.message


def test_a_shouted_broken_command_before_any_other_is_reported():
    p = problem("SIGNON France@pax1")
    assert (p.code, p.line) == ("missing-argument", 1)


def test_a_broken_sign_on_in_lower_case_is_reported_too():
    p = problem("signon france@pax1 ukess ydkbb\nSTATUS")
    assert (p.code, p.line) == ("extra-argument", 1)


@pytest.mark.parametrize("line, suggestion", [("ODERS", "ORDERS"), ("STATSU", "STATUS"), ("Banana", None),
                                              ("extend 2h", "GM EXTEND"), ("PAUSE", "GM PAUSE")])
def test_an_unknown_command_in_a_gm_mail_is_named_with_the_nearest(line, suggestion):
    p = problem("SIGNON GM@pax1 s3cret\nGM START\n" + line)
    assert (p.code, p.line, p.suggestion) == ("unknown-command", 3, suggestion)


def test_every_problem_is_reported_in_one_pass():
    parsed = parse_mail(SIGN + "ODERS\nGM EXTEND 2x\nSET ADDRESS nobody\nSTATUS")
    assert [p.code for p in parsed.problems] == ["bad-duration", "bad-address"]
    assert parsed.commands == [m.Orders(((2, "ODERS"),)), m.Status()]


# -- help: one table for the parser, HELP and the README ---------------------------------

EXAMPLES = {
    "SIGNON": "SIGNON France@pax1 pw", "GAME": "GAME pax1", "POWER": "POWER France",
    "PASSWORD": "PASSWORD pw", "SIGNOFF": "SIGNOFF", "ORDERS": "ORDERS", "CLEAR": "CLEAR", "DONE": "DONE",
    "PRESS": "PRESS TO ALL", "STATUS": "STATUS", "HELP": "HELP", "HISTORY": "HISTORY",
    "RESEND": "RESEND", "SET ADDRESS": "SET ADDRESS a@b.c", "CONFIRM": "CONFIRM k7mqd-x3hrn",
    "SET PASSWORD": "SET PASSWORD x",
    "SET ABSENCE": "SET ABSENCE 2026-01-01 2026-01-02", "SET ZONE": "SET ZONE Europe/Paris",
    "SET MAP": "SET MAP png", "JOIN": "JOIN g p s",
    "TREATY PROPOSE": "TREATY PROPOSE t WITH A", "TREATY SIGN": "TREATY SIGN t",
    "TREATY REFUSE": "TREATY REFUSE t", "TREATY WITHDRAW": "TREATY WITHDRAW t",
    "TREATY REVEAL": "TREATY REVEAL t", "TREATY BREACH": "TREATY BREACH t France took Tunis",
    "TREATY LIST": "TREATY LIST",
    "GM CREATE": "GM CREATE g RULES r", "GM ADD PLAYER": "GM ADD PLAYER p a@b.c",
    "GM START": "GM START", "GM CANCEL": "GM CANCEL", "GM PAUSE": "GM PAUSE", "GM RESUME": "GM RESUME",
    "GM EXTEND": "GM EXTEND 1h", "GM SET DEADLINE": "GM SET DEADLINE 2026-01-01 10:00",
    "GM PROCESS": "GM PROCESS", "GM PREVIEW": "GM PREVIEW", "GM ROLLBACK": "GM ROLLBACK p",
    "GM REPLACE": "GM REPLACE p a@b.c", "GM BECOME": "GM BECOME p", "GM RULE": "GM RULE q yes",
    "GM ANNOUNCE": "GM ANNOUNCE", "GM REVEAL SEED": "GM REVEAL SEED", "GM": "GM SET UNIT x",
}


def test_every_table_entry_is_a_command_and_every_command_is_in_the_table():
    from pbem.handlers.catalogue import COMMANDS
    from pbem.kit.gameapi import Problem
    assert [c.keyword for c in COMMANDS] == list(EXAMPLES)
    built = {type(parse_line(EXAMPLES[c.keyword])) for c in COMMANDS}
    assert Problem not in built
    classes = {v for v in vars(m).values() if isinstance(v, type) and hasattr(v, "canonical")
               and v.__module__ == m.__name__ and not v.__name__.startswith("_")} - {m.ParsedMail}
    # the three sign-on lines build a SignOn together, not a class of their own
    assert classes <= built | {m.SignOn}
    assert all(c.who in ("player", "gm", "any") and "|" not in c.syntax for c in COMMANDS)


def test_help_text_overview_lists_every_syntax():
    from pbem.handlers.catalogue import COMMANDS
    from pbem.handlers.help import help_text
    text = help_text()
    assert all(c.syntax in text for c in COMMANDS)
    assert help_text("  ") == text


@pytest.mark.parametrize("topic,present,absent", [
    ("orders", "ORDERS [<phase>] ... ENDORDERS", "PRESS TO"),
    ("Set Address", "SET ADDRESS <email>", "SET PASSWORD"),
    ("set", "SET ABSENCE", "ORDERS"),
    ("treaty", "TREATY REVEAL <id>", "GM START"),
    ("gm", "GM REVEAL SEED", "TREATY"),
    ("durations", "1d12h", "ORDERS"),
    ("oders", "Did you mean HELP ORDERS?", "ENDORDERS"),
    ("xyzzy", "There is no help", "Did you mean"),
])
def test_help_topics(topic, present, absent):
    from pbem.handlers.help import help_text
    text = help_text(topic)
    assert present in text and absent not in text


def test_commands_markdown_is_a_table_of_every_syntax():
    from pbem.handlers.catalogue import COMMANDS
    from pbem.handlers.help import commands_markdown
    rows = commands_markdown().splitlines()
    assert rows[0].startswith("| Command |") and len(rows) == len(COMMANDS) + 2
    for row, c in zip(rows[2:], COMMANDS):
        assert row.startswith(f"| `{c.syntax}` | {c.who} |")
