"""Properties of the mail command language, over generated commands and junk."""
from dataclasses import replace
from datetime import date, datetime, timedelta

from hypothesis import given, settings, strategies as st

from pbem.commands import grammar, values
from pbem.commands import model as m
from pbem.base.identity import normalize_secret
from pbem.handlers.catalogue import COMMANDS
from pbem.handlers.parse import GROUPS
from pbem.handlers.reading import parse_mail

# Words the grammar reads as keywords in some position: never generated as names.
RESERVED = {w for c in COMMANDS for w in c.keyword.split()} | {
    "ALL", "GREY", "GRAY", "SECRET", "NOW", "OPTION", "WITH", "RULES", "TO", "PLAYER",
    "DEADLINE", "SEED", "END", "ENDORDERS", "ENDPRESS", "ENDTREATY", "ENDANNOUNCE"}
GM_SUBWORDS = {k.split()[0] for k in GROUPS["GM"]}
CODES = {"unknown-command", "missing-argument", "extra-argument", "bad-syntax", "bad-duration",
         "bad-time", "bad-date", "bad-address", "bad-option", "unterminated-block", "no-signon",
         "duplicate-signon", "incomplete-signon", "unexpected-end", "no-commands"}

names = st.from_regex(r"[A-Za-z][A-Za-z0-9_\-]{0,9}", fullmatch=True).filter(
    lambda s: s.upper() not in RESERVED)
secrets = st.from_regex(r"[!-~]{1,12}", fullmatch=True).filter(
    lambda s: not s.startswith(("#", "//")) and normalize_secret(s))
phrases = st.lists(st.from_regex(r"[A-Za-z0-9/_.\-]{1,8}", fullmatch=True).filter(
    lambda s: not s.startswith(("#", "//"))), min_size=1, max_size=4).map(" ".join)
addresses = st.builds("{}@{}".format, st.from_regex(r"[a-z0-9._+\-]{1,8}", fullmatch=True),
                      st.from_regex(r"[a-z0-9\-]{1,8}(\.[a-z]{2,4}){0,2}", fullmatch=True))
parties = st.lists(names, min_size=1, max_size=4).map(tuple)
# Text lines may hold anything but a line break; a line reading as an end marker
# would end the text, so none starts with END.
text_lines = st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)),
                     max_size=30).filter(lambda s: not s.strip().upper().startswith("END"))
texts = st.lists(text_lines, max_size=4).map("\n".join)
order_lines = st.builds("{} {}".format, st.sampled_from(["A", "F", "Army", "Fleet", "Build"]),
                        phrases)
zones = st.sampled_from([None, "UTC", "Europe/London", "America/New_York", "Asia/Tokyo"])
minutes = st.datetimes(datetime(1900, 1, 1), datetime(2999, 12, 31)).map(
    lambda d: d.replace(second=0, microsecond=0))
day_pairs = st.lists(st.dates(date(1900, 1, 1), date(2999, 12, 31)), min_size=2, max_size=2).map(
    sorted)
gm_edits = st.tuples(names.filter(lambda s: s.upper() not in GM_SUBWORDS), phrases).map(" ".join)

commands = st.one_of(
    st.builds(m.Orders, st.lists(order_lines, max_size=4).map(
        lambda ls: tuple((0, s) for s in ls)), st.none() | phrases),
    st.builds(m.Clear), st.builds(m.Status), st.builds(m.History), st.builds(m.TreatyList),
    st.builds(m.Press, st.just("ALL") | parties, st.booleans(), texts),
    st.builds(m.Help, st.none() | phrases),
    st.builds(m.Resend, st.none() | phrases),
    st.builds(m.SetAddress, st.lists(addresses, min_size=1, max_size=3).map(tuple)),
    st.builds(m.SetPassword, secrets),
    st.builds(m.Confirm, secrets),
    day_pairs.map(lambda ds: m.SetAbsence(*ds)),
    st.builds(m.SetZone, zones.filter(bool)),
    st.builds(m.Join, names, names, secrets),
    st.builds(m.TreatyPropose, names, parties, st.booleans(), texts),
    st.builds(m.TreatySign, names), st.builds(m.TreatyRefuse, names),
    st.builds(m.TreatyWithdraw, names), st.builds(m.TreatyReveal, names),
    st.builds(m.GmCreate, names, names, st.lists(st.tuples(
        names, st.from_regex(r"[A-Za-z0-9_.=\-]{0,6}", fullmatch=True)), max_size=3).map(tuple)),
    st.builds(m.GmAddPlayer, names, addresses),
    st.builds(m.GmStart), st.builds(m.GmPause), st.builds(m.GmResume, st.booleans()),
    st.builds(m.GmPreview), st.builds(m.GmRevealSeed),
    st.builds(m.GmExtend, st.integers(1, 10**6).map(lambda n: timedelta(minutes=n))),
    st.builds(m.GmSetDeadline, minutes, zones),
    st.builds(m.GmProcess, st.booleans()),
    st.builds(m.GmRollback, phrases),
    st.builds(m.GmReplace, names, addresses),
    st.builds(m.GmBecome, names),
    st.builds(m.GmRule, names, phrases),
    st.builds(m.GmAnnounce, texts),
    st.builds(m.GmEdit, gm_edits),
)
signons = st.builds(m.SignOn, names | st.just("GM"), names, secrets)
mails = st.tuples(signons, st.lists(commands, max_size=6))


def norm(cmd):
    """Line numbers apart, as the property compares meaning."""
    return replace(cmd, lines=tuple((0, t) for t in cmd.texts)) if isinstance(cmd, m.Orders) else cmd


def mail_text(signon, cmds) -> str:
    return m.ParsedMail(signon, cmds).canonical()


def assert_same(parsed, signon, cmds):
    assert parsed.problems == []
    assert parsed.signon == signon
    assert [norm(c) for c in parsed.commands] == [norm(c) for c in cmds]


@given(mails)
def test_canonical_text_parses_back(mail):
    signon, cmds = mail
    parsed = parse_mail(mail_text(signon, cmds))
    assert_same(parsed, signon, cmds)
    assert parse_mail(parsed.canonical()).canonical() == parsed.canonical()


@given(mails)
def test_line_numbers_point_at_the_command(mail):
    signon, cmds = mail
    text = mail_text(signon, cmds)
    lines = text.split("\n")
    for cmd in parse_mail(text).commands:
        assert lines[cmd.line - 1] == cmd.canonical().split("\n")[0]
        for n, order in getattr(cmd, "lines", ()):
            assert lines[n - 1] == order


@given(mails, st.sampled_from([str.lower, str.upper, str.swapcase]))
def test_keywords_in_any_case(mail, change):
    signon, cmds = mail
    # Only ASCII letters change: Unicode case mappings do not round-trip (µ -> Μ -> μ),
    # and every keyword, name and secret is ASCII.
    text = "".join(change(ch) if ch.isascii() else ch for ch in mail_text(signon, cmds))
    parsed = parse_mail(text)
    assert parsed.problems == []
    assert parsed.signon.canonical().lower() == signon.canonical().lower()
    assert [c.canonical().lower() for c in parsed.commands] == \
        [c.canonical().lower() for c in cmds]


def commented(cmd, note: str) -> str:
    """The command with a comment on every line that is not part of a text."""
    lines = cmd.canonical().split("\n")
    if isinstance(cmd, (m.Press, m.TreatyPropose, m.GmAnnounce)):
        return "\n".join([f"{lines[0]}  # {note}"] + lines[1:-1] + [f"{lines[-1]} // {note}"])
    return "\n".join(f"{line}\t# {note}" for line in lines)


@given(mails, st.text(st.characters(blacklist_characters="\r\n", blacklist_categories=("Cs",)),
                      max_size=10))
def test_comments_change_nothing(mail, note):
    signon, cmds = mail
    parts = [f"# {note}", f"{signon.canonical()} # {note}"]
    for cmd in cmds:
        parts += [commented(cmd, note), f"   // {note}", ""]
    assert_same(parse_mail("\n".join(parts)), signon, cmds)


prose = st.lists(st.from_regex(r"[a-z,.!']{1,8}", fullmatch=True), min_size=1, max_size=6).map(
    " ".join).filter(lambda s: s.split()[0].upper() not in grammar.top_keywords() | RESERVED)


@given(mails, st.lists(prose | st.just(""), max_size=4))
def test_text_before_the_first_command_is_ignored(mail, greeting):
    signon, cmds = mail
    parsed = parse_mail("\n".join(greeting + [mail_text(signon, cmds)]))
    assert_same(parsed, signon, cmds)
    assert parsed.signon.line == len(greeting) + 1


@given(mails, st.lists(st.text(max_size=20), max_size=3))
def test_quoted_lines_are_skipped(mail, quotes):
    signon, cmds = mail
    quoted = "\n".join("> " + q.replace("\r", " ").replace("\n", " ") for q in quotes)
    parts = [quoted, signon.canonical()]
    for cmd in cmds:
        parts += [cmd.canonical(), quoted]
    assert_same(parse_mail("\n".join(parts)), signon, cmds)


@given(signons, st.lists(order_lines, max_size=4), st.none() | commands,
       st.sampled_from(["END", "ENDORDERS", "END ORDERS", None]))
def test_orders_end_at_marker_next_command_or_end_of_mail(signon, orders, after, marker):
    lines = [signon.canonical(), "ORDERS"] + orders + ([marker] if marker else [])
    if after is not None:
        lines.append(after.canonical())
    parsed = parse_mail("\n".join(lines))
    assert parsed.problems == []
    if marker is None and isinstance(after, m.Join):
        # JOIN never ends an ORDERS block (a game's order may start with it: JOIN WAR WITH France)
        assert parsed.commands[0].texts == (*orders, after.canonical()) and len(parsed.commands) == 1
        return
    assert parsed.commands[0].texts == tuple(orders)
    assert [norm(c) for c in parsed.commands[1:]] == ([norm(after)] if after is not None else [])


junk_words = st.sampled_from(
    ["SIGNON", "GAME", "POWER", "PASSWORD", "ORDERS", "END", "ENDPRESS", "PRESS", "TO", "ALL",
     "GREY", "TREATY", "PROPOSE", "WITH", "SECRET", "SET", "ADDRESS", "ABSENCE", "GM", "CREATE",
     "RULES", "OPTION", "EXTEND", "DEADLINE", "SEED", "REVEAL", "@", ",", "=", "#", "//", ">",
     "x", "a@b", "2026-01-05", "18:00", "2026-02-30T25:61", "1d12h", "0m", "Europe/London",
     "\t", "\xa0", "\x0b", "\u2028", "é", "9" * 30])
junk_lines = st.lists(junk_words, max_size=8).map(" ".join) | st.text(max_size=40)


@settings(max_examples=300)
@given(st.lists(junk_lines, max_size=12).map("\n".join) | st.text())
def test_junk_never_raises(text):
    parsed = parse_mail(text)
    count = len(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    for p in parsed.problems:
        assert p.code in CODES and p.message and p.kind == "invalid"
        assert p.line is None or 1 <= p.line <= count
    for cmd in parsed.commands:
        assert 1 <= cmd.line <= count
        assert isinstance(cmd.canonical(), str) and isinstance(cmd.echo(), str)


@given(st.integers(1, 10**6))
def test_durations_written_back_read_the_same(n):
    duration = timedelta(minutes=n)
    text = values.format_duration(duration)
    assert values.parse_duration(text) == duration
    assert values.parse_duration(text.upper()) == duration
