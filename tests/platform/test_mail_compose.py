"""Outgoing mail: headers that keep robots quiet, threading, and bodies that survive any relay."""
import re
from datetime import datetime, timedelta, timezone
from email import message_from_bytes
from email.policy import default

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.compose import build_message, make_message_id
from pbem.mail.normalize import parse_message

WHEN = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)


def _build(**overrides):
    args = dict(from_addr="Pax Moderator <pbem@pbem.example.org>", to=["france@example.net"],
                subject="Re: orders", text="Orders received.\n",
                message_id=make_message_id("pbem.example.org", "ack:1"), date=WHEN)
    args.update(overrides)
    return build_message(**args)


def _reparse(msg):
    return message_from_bytes(msg.as_bytes(), policy=default)


def test_message_id_is_deterministic_and_well_formed():
    first = make_message_id("pbem.example.org", "game1:turn3:France")
    assert first == make_message_id("pbem.example.org", "game1:turn3:France")
    assert first != make_message_id("pbem.example.org", "game1:turn3:Germany")
    assert re.fullmatch(r"<[0-9a-f]{32}@pbem\.example\.org>", first)


def test_robot_headers_and_no_precedence():
    msg = _reparse(_build(loop_tag="pax1"))
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["X-PBEM-Loop"] == "pax1"
    assert msg["Precedence"] is None
    assert msg["Date"] == "Mon, 05 Jan 2026 12:00:00 +0000"
    assert msg["Message-ID"] == make_message_id("pbem.example.org", "ack:1")


def test_auto_submitted_can_be_changed_or_left_out():
    assert _reparse(_build(auto_submitted="auto-generated"))["Auto-Submitted"] == "auto-generated"
    assert _reparse(_build(auto_submitted=""))["Auto-Submitted"] is None


def test_date_keeps_its_offset_and_naive_is_utc():
    paris = timezone(timedelta(hours=1))
    assert _reparse(_build(date=WHEN.astimezone(paris)))["Date"].endswith("+0100")
    assert _reparse(_build(date=datetime(2026, 1, 5, 12, 0)))["Date"].endswith("+0000")


def test_date_defaults_to_now():
    sent = _reparse(_build(date=None))["Date"].datetime
    assert abs(sent - datetime.now(timezone.utc)) < timedelta(minutes=1)


def test_threading_headers():
    msg = _reparse(_build(in_reply_to="<b@example.net>", references=["<a@example.net>", "<b@example.net>"]))
    assert msg["In-Reply-To"] == "<b@example.net>"
    assert msg["References"] == "<a@example.net> <b@example.net>"
    msg = _reparse(_build(in_reply_to="<b@example.net>", references=["<a@example.net>"]))
    assert msg["References"] == "<a@example.net> <b@example.net>"
    msg = _reparse(_build())
    assert msg["In-Reply-To"] is None and msg["References"] is None


def test_recipients_and_cc():
    msg = _reparse(_build(to=["a@example.net", "b@example.net"], cc=["gm@example.org"]))
    assert [a.addr_spec for a in msg["To"].addresses] == ["a@example.net", "b@example.net"]
    assert [a.addr_spec for a in msg["Cc"].addresses] == ["gm@example.org"]
    assert _reparse(_build())["Cc"] is None


def test_plain_only_is_a_single_utf8_part():
    msg = _reparse(_build(text="Côte d'Ivoire costs £30\n"))
    assert msg.get_content_type() == "text/plain"
    assert msg.get_content_charset() == "utf-8"
    assert msg.get_content() == "Côte d'Ivoire costs £30\n"


def test_html_is_an_alternative_after_plain():
    msg = _reparse(_build(text="Turn 3\n", html="<p>Turn <b>3</b></p>"))
    assert msg.get_content_type() == "multipart/alternative"
    kinds = [part.get_content_type() for part in msg.iter_parts()]
    assert kinds == ["text/plain", "text/html"]
    assert msg.get_body(("plain",)).get_content() == "Turn 3\n"
    assert "<b>3</b>" in msg.get_body(("html",)).get_content()


def test_long_line_survives_round_trip():
    line = "MOVE ARMY 3 HOME TO Algiers; " * 69  # 2001 characters on one line
    text = f"Côte d'Ivoire\n{line[:2000]}\nend\n"
    raw = _build(text=text, html=f"<p>{line[:2000]}</p>").as_bytes()
    assert max(len(raw_line) for raw_line in raw.split(b"\n")) <= 998
    assert _reparse(_build(text=text)).get_content() == text
    assert line[:2000] in parse_message(raw).text


def test_non_ascii_subject_and_names_are_encoded():
    msg = _build(from_addr="Modérateur <pbem@pbem.example.org>", subject="Re: Côte d'Ivoire")
    raw = msg.as_bytes()
    raw.decode("ascii")  # headers and body are 7-bit clean
    back = _reparse(msg)
    assert back["Subject"] == "Re: Côte d'Ivoire"
    assert back["From"].addresses[0].display_name == "Modérateur"


def test_subject_is_flattened_to_one_line():
    msg = _reparse(_build(subject="Re: orders\r\nBcc: victim@example.net"))
    assert msg["Subject"] == "Re: orders Bcc: victim@example.net"
    assert msg["Bcc"] is None


def test_header_injection_in_other_fields_is_refused():
    with pytest.raises(ValueError):
        _build(to=["a@example.net\nBcc: victim@example.net"])
    with pytest.raises(ValueError):
        _build(extra_headers={"X-Game": "pax1\r\nBcc: victim@example.net"})


def test_extra_headers_cannot_replace_own_headers():
    msg = _reparse(_build(extra_headers={"X-PBEM-Game": "pax1", "List-Id": "<pax1.pbem.example.org>"}))
    assert msg["X-PBEM-Game"] == "pax1"
    with pytest.raises(ValueError):
        _build(extra_headers={"Message-ID": "<other@example.org>"})


def test_own_mail_coming_back_is_recognised_as_a_loop():
    raw = _build(loop_tag="pax1").as_bytes()
    assert parse_message(raw).automatic == "loop"
    untagged = _build(message_id="<x@elsewhere.example>", auto_submitted="").as_bytes()
    assert parse_message(untagged, own_domain="pbem.example.org").automatic is None
    assert parse_message(untagged, own_addresses=["PBEM@pbem.example.org"]).automatic == "loop"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r"),
               max_size=400))
def test_any_text_round_trips(text):
    expected = text if text.endswith("\n") else text + "\n"
    assert _reparse(_build(text=text)).get_content() == expected


def test_inline_parts_go_with_the_html_and_the_text_stays_first():
    from pbem.mail.compose import Inline, content_id

    cid = content_id("pbem.example.org", "report:g1:3:France:map")
    assert cid == content_id("pbem.example.org", "report:g1:3:France:map")
    drawing = b'<svg xmlns="http://www.w3.org/2000/svg"><title>map</title></svg>'
    msg = _reparse(_build(text="Your report.\n", html=f'<p><img src="cid:{cid}" alt="map"></p>',
                          related=[Inline(cid, "image/svg+xml", drawing, "map.svg")]))
    text, related = msg.iter_parts()
    assert msg.get_content_type() == "multipart/alternative"
    assert text.get_content_type() == "text/plain" and text.get_content() == "Your report.\n"
    assert related.get_content_type() == "multipart/related"
    html, image = related.iter_parts()
    assert html.get_content_type() == "text/html" and f"cid:{cid}" in html.get_content()
    assert image["Content-ID"] == f"<{cid}>" and image.get_content_type() == "image/svg+xml"
    assert image.get_content() == drawing and image.get_content_disposition() == "inline"


def test_inline_parts_without_html_are_refused():
    from pbem.mail.compose import Inline

    with pytest.raises(ValueError, match="need an HTML body"):
        _build(related=[Inline("x@y", "image/svg+xml", b"<svg/>", "map.svg")])


def test_a_mail_without_inline_parts_keeps_the_plain_alternative():
    msg = _reparse(_build(html="<p>hi</p>"))
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/html"]


# --- the plain-text mail written without the email package (compose_bytes) ---

_atext = st.sampled_from("abcxyzABZ019!#$%&'*+/=?^_`{|}~-")
_local = st.lists(st.text(_atext, min_size=1, max_size=6), min_size=1, max_size=3).map(".".join)
_domain = st.lists(st.text(st.sampled_from("abz09-"), min_size=1, max_size=8), min_size=1,
                   max_size=3).map(".".join)
_address = st.one_of(st.builds(lambda l, d: f"{l}@{d}", _local, _domain),
                     st.sampled_from(["a b@example.org", "ünï@example.org", '"q,x"@example.org']))
_line = st.text(st.characters(blacklist_categories=("Cs",)), max_size=90)
_header_text = st.one_of(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=90),
                         _line)
_ascii_words = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=12)


def _mostly(plain, wild):
    """``plain`` nine times in ten: the mail pbem sends is mostly of the plain kind, and
    the direct path is taken only when every part of a mail is."""
    return st.sampled_from(range(10)).flatmap(lambda n: wild if n == 0 else plain)


_plain_text = st.lists(st.one_of(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=70),
                                 st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)),
                       max_size=8).map("\n".join)


@settings(max_examples=500, deadline=None)
@given(from_name=_mostly(st.lists(st.text(_atext, min_size=1, max_size=8), max_size=3).map(" ".join),
                         _header_text),
       to=_mostly(st.lists(st.builds(lambda l, d: f"{l}@{d}", _local, _domain), min_size=1, max_size=2),
                  st.lists(_address, min_size=1, max_size=4)),
       cc=_mostly(st.just([]), st.lists(_address, max_size=2)),
       subject=_mostly(st.lists(_ascii_words, max_size=8).map(" ".join), _header_text),
       text=_mostly(_plain_text, st.lists(_line, max_size=6).map("\n".join)),
       in_reply_to=_mostly(st.sampled_from([None, "<q@example.net>"]), _header_text),
       references=st.lists(st.sampled_from(["<p@example.net>", "<r.s@example.net>", "x"]), max_size=6),
       extra=_mostly(st.just({}), st.dictionaries(st.sampled_from(["X-Foo", "X-Bar", "To", "X:Y"]),
                                                  _header_text, max_size=2)),
       date=st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1),
                         timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=-5)),
                                                    timezone(timedelta(hours=5, minutes=30))])))
def test_the_bytes_written_directly_are_the_email_packages_bytes(from_name, to, cc, subject, text,
                                                                 in_reply_to, references, extra, date):
    from pbem.mail.compose import compose_bytes
    args = dict(from_addr="pbem@pbem.example.org", from_name=from_name, to=to, cc=cc, subject=subject,
                text=text, message_id=make_message_id("pbem.example.org", "ack:1"), date=date,
                in_reply_to=in_reply_to, references=references, loop_tag="pbem", extra_headers=extra)
    try:
        expected = bytes(build_message(**args))
    except ValueError:
        with pytest.raises(ValueError):
            compose_bytes(**args)
        return
    assert compose_bytes(**args) == expected


@pytest.mark.parametrize("text", ["Orders received.\n", "Orders for Österreich:\n  A Wien - Tirol\n", "",
                                  "Orders:\n" + "A Paris - Burgundy, " * 12 + "\n",
                                  "Orders für Österreich: " * 12 + "\n"])
def test_an_ordinary_reply_is_written_directly(text):
    """The direct path is what an acknowledgement takes, or the comparison above proves
    nothing about the mail pbem sends."""
    from pbem.mail.compose import _plain_bytes
    raw = _plain_bytes(from_addr="pbem@pbem.example.org", from_name="Pax Moderator",
                       to=["france@example.net"], subject="Re: orders", text=text,
                       message_id=make_message_id("pbem.example.org", "ack:1"), date=WHEN,
                       in_reply_to="<q@example.net>", references=["<p@example.net>"], loop_tag="pbem")
    assert raw is not None
    msg = parse_message(raw)
    assert msg.subject == "Re: orders" and msg.full_text.strip() == text.strip()
