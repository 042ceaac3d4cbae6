"""Inbound mail: quote stripping, robot detection and MIME-to-text, one behaviour per test."""
from email import message_from_string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.classify import automatic_reason
from pbem.mail.decoding import decode_bytes
from pbem.mail.html_text import html_to_text
from pbem.mail.normalize import parse_message
from pbem.mail.quotes import strip_quotes, unflow

ORDERS = "SIGNON France@pax1 secret\nORDERS\nBUY INFLUENCE Marocco\nMOVE ARMY 3 HOME TO Algiers"
REPORT = "Pax Britannica - game pax1 - Turn 3 report\nYour orders as received:\n  BUY INFLUENCE Egypt"
QUOTED_REPORT = "\n".join("> " + line for line in REPORT.split("\n"))


# --- strip_quotes ------------------------------------------------------------------------------

@pytest.mark.parametrize("header", [
    "On Sat, 10 Jan 2026 at 18:00, Pax Moderator <pbem@pbem.example.org> wrote:",
    "On Sat, 10 Jan 2026 at 18:00, Pax Moderator <\npbem@pbem.example.org> wrote:",
    "On Sat, 10 Jan 2026 at 18:00, Pax Moderator <pbem@pbem.example.org>\nwrote:",
    "On 10 Jan 2026, at 18:00, Pax Moderator <pbem@pbem.example.org> wrote:",
    "On 10/01/2026 18:00, Pax Moderator wrote:",
    "Am 10.01.2026 um 18:00 schrieb Pax Moderator <pbem@pbem.example.org>:",
    "Le sam. 10 janv. 2026 à 18:00, Pax Moderator <pbem@pbem.example.org> a écrit :",
    "Pax Moderator <pbem@pbem.example.org> wrote:",
])
def test_reply_headers_and_quoted_report_are_dropped(header):
    mail = f"{ORDERS}\n\n{header}\n\n{QUOTED_REPORT}\n"
    assert strip_quotes(mail) == ORDERS


@pytest.mark.parametrize("header", [
    "On Sat, 10 Jan 2026 at 18:00, Pax Moderator <pbem@pbem.example.org> wrote:",
    "On Sat, 10 Jan 2026 at 18:00, Pax Moderator <\npbem@pbem.example.org> wrote:",
])
def test_report_quoted_without_marks_below_a_reply_header_is_dropped(header):
    assert strip_quotes(f"{ORDERS}\n\n{header}\n\n{REPORT}\n") == ORDERS


def test_a_line_ending_in_wrote_without_quotes_after_it_is_kept():
    text = "PRESS TO Russia: the Kaiser wrote:\nwe shall see."
    assert strip_quotes(text) == text


def test_nested_quotes_at_any_depth_are_dropped():
    text = f"{ORDERS}\n> old\n> > older\n>> oldest\n  > indented\n"
    assert strip_quotes(text) == ORDERS


def test_bottom_posted_reply_is_kept_below_the_quote():
    text = f"On 10/01/2026 18:00, Pax Moderator wrote:\n{QUOTED_REPORT}\n\n{ORDERS}\n"
    assert strip_quotes(text) == ORDERS


def test_interleaved_answers_are_kept():
    text = "> Do you accept the treaty?\nYes.\n> And the loan?\nNo.\n"
    assert strip_quotes(text) == "Yes.\nNo."


def test_outlook_original_message_block_and_everything_after():
    text = (f"{ORDERS}\n\n-----Original Message-----\nFrom: Pax Moderator\n"
            f"Sent: Saturday, January 10, 2026 6:00 PM\nTo: x@example.de\n\n{REPORT}")
    assert strip_quotes(text) == ORDERS
    assert strip_quotes(f"{ORDERS}\n----- Original Message -----\n{REPORT}") == ORDERS


@pytest.mark.parametrize("block", [
    "From: Pax Moderator <pbem@pbem.example.org>\nSent: Saturday, January 10, 2026 6:00 PM\n"
    "To: Franz <franz@example.at>\nSubject: turn 3 report",
    "________________________________\nFrom: Pax Moderator <pbem@pbem.example.org>\n"
    "Sent: Saturday, January 10, 2026 6:00 PM\nTo: Franz\nSubject: turn 3 report",
    "Von: Pax Moderator <pbem@pbem.example.org>\nGesendet: Samstag, 10. Januar 2026 18:00\n"
    "An: Hans\nBetreff: turn 3 report",
])
def test_outlook_header_block(block):
    assert strip_quotes(f"{ORDERS}\n\n{block}\n\n{REPORT}") == ORDERS


def test_a_from_line_alone_is_not_a_header_block():
    text = "PRESS TO all:\nFrom: the Sultan, with regards."
    assert strip_quotes(text) == text


@pytest.mark.parametrize("signature", [
    "-- \nXavier\nParis", "--\nXavier", "Sent from my iPhone", "Sent from my Galaxy",
    "Get Outlook for Android", "Get Outlook for iOS", "Sent from Mail for Windows",
    "Von meinem iPhone gesendet",
])
def test_signatures_and_everything_after_are_dropped(signature):
    assert strip_quotes(f"{ORDERS}\n\n{signature}\n\n> quoted\n") == ORDERS


def test_a_mobile_signature_line_at_the_top_does_not_swallow_the_orders():
    assert strip_quotes(f"Sent from my phone, excuse typos\n{ORDERS}") == ORDERS


def test_an_order_line_starting_with_dashes_is_kept():
    text = f"{ORDERS}\n-- not a signature, a remark"
    assert strip_quotes(text) == text


def test_text_above_an_inline_forward_is_the_message():
    text = (f"{ORDERS}\n\n---------- Forwarded message ---------\nFrom: Someone <s@example.pt>\n"
            "Subject: offer\n\nI offer you Angola.")
    assert strip_quotes(text) == ORDERS


@pytest.mark.parametrize("marker", [
    "---------- Forwarded message ---------", "-------- Forwarded Message --------",
    "Begin forwarded message:",
])
def test_a_bare_forward_yields_the_forwarded_body(marker):
    text = (f"\n{marker}\n\nFrom: Carlos <carlos@work.example>\nDate: Fri, 9 Jan 2026\n"
            f"Subject: orders\nTo: <c@example.es>\n\n{ORDERS}\n\n-- \nCarlos\n")
    assert strip_quotes(text) == ORDERS


def test_blank_edges_and_trailing_spaces_are_trimmed_but_inner_blank_lines_kept():
    assert strip_quotes("\n\n  \nSIGNON x  \n\nORDERS\n\n\n") == "SIGNON x\n\nORDERS"
    assert strip_quotes("") == ""
    assert strip_quotes("SIGNON x\r\nORDERS\r\n") == "SIGNON x\nORDERS"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_strip_quotes_never_raises_and_only_removes(text):
    result = strip_quotes(text)
    kept = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    assert all(line in kept for line in result.split("\n") if line)


# --- automatic_reason ----------------------------------------------------------------------------

def _msg(headers: str, body: str = "hello\n"):
    return message_from_string(f"From: Player <p@example.net>\nSubject: orders\n{headers}\n{body}")


def _reason(headers: str, **kwargs):
    return automatic_reason(_msg(headers), own_addresses=kwargs.get("own", ()),
                            own_domain=kwargs.get("domain"))


@pytest.mark.parametrize("headers, reason", [
    ("", None),
    ("Auto-Submitted: no\n", None),
    ("Auto-Submitted: No (a person)\n", None),
    ("Auto-Submitted: auto-replied\n", "auto-submitted"),
    ("Auto-Submitted: auto-generated\n", "auto-submitted"),
    ("Auto-Submitted: auto-notified; owner-email=x@example.net\n", "auto-submitted"),
    ("X-Autoreply: yes\n", "auto-reply"),
    ("X-Autorespond: vacation\n", "auto-reply"),
    ("X-Autogenerated: Reply\n", "auto-reply"),
    ("Precedence: bulk\n", "precedence"),
    ("Precedence: junk\n", "precedence"),
    ("Precedence: list\n", "precedence"),
    ("Precedence: first-class\n", None),
    ("List-Id: <games.lists.example.org>\n", "list"),
    ("List-Unsubscribe: <mailto:u@lists.example.org>\n", "list"),
    ("List-Post: <mailto:games@lists.example.org>\n", "list"),
    ("Return-Path: <>\n", "empty-return-path"),
    ("Return-Path: < >\n", "empty-return-path"),
    ("Return-Path: <p@example.net>\n", None),
    ("X-PBEM-Loop: pax1\n", "loop"),
    ("Content-Type: multipart/report; report-type=delivery-status; boundary=b\n", "bounce"),
    ("Content-Type: multipart/report; report-type=disposition-notification; boundary=b\n",
     "auto-reply"),
])
def test_reasons(headers, reason):
    assert _reason(headers) == reason


@pytest.mark.parametrize("sender", [
    "MAILER-DAEMON@mx.example.net", "Mail Delivery System <MAILER-DAEMON@mx.example.net>",
    "postmaster@example.net", "MAILER-DAEMON (Mail Delivery System)",
])
def test_mail_from_the_mail_system_is_a_bounce(sender):
    msg = message_from_string(f"From: {sender}\nSubject: Undelivered Mail\n\nsorry\n")
    assert automatic_reason(msg, own_addresses=(), own_domain=None) == "bounce"


@pytest.mark.parametrize("subject", [
    "Automatic reply: turn 3", "Out of Office: turn 3", "Auto: turn 3",
    "Abwesenheitsnotiz: turn 3", "Automatische Antwort: turn 3",
])
def test_auto_reply_subject_counts_only_with_an_exchange_marker(subject):
    base = f"Subject: {subject}\n"
    msg = message_from_string(f"From: p@example.net\n{base}X-Auto-Response-Suppress: All\n\nx\n")
    assert automatic_reason(msg, own_addresses=(), own_domain=None) == "auto-reply"
    msg = message_from_string(f"From: p@example.net\n{base}X-Auto-Response-Suppress: OOF\n\nx\n")
    assert automatic_reason(msg, own_addresses=(), own_domain=None) == "auto-reply"
    msg = message_from_string(f"From: p@example.net\n{base}\nSIGNON France@pax1 s\n")
    assert automatic_reason(msg, own_addresses=(), own_domain=None) is None


def test_exchange_marker_without_auto_reply_subject_is_a_person():
    msg = message_from_string("From: p@example.net\nSubject: Re: turn 3\n"
                              "X-Auto-Response-Suppress: All\n\nORDERS\n")
    assert automatic_reason(msg, own_addresses=(), own_domain=None) is None


def test_loop_by_own_address_and_own_message_id():
    own_id = "<" + "0123456789abcdef" * 2 + "@pbem.example.org>"
    assert _reason("", own=["P@Example.NET"]) == "loop"
    assert _reason("", own=["pbem@pbem.example.org"]) is None
    assert _reason(f"Message-ID: {own_id}\n", domain="PBEM.example.org") == "loop"
    assert _reason(f"Message-ID: {own_id[:-1]}.evil>\n", domain="pbem.example.org") is None
    assert _reason(f"In-Reply-To: {own_id}\n", domain="pbem.example.org") is None


def test_a_player_s_message_id_in_the_moderator_s_domain_is_not_a_loop():
    # A player whose mail client runs on the moderator's domain makes such IDs.
    assert _reason("Message-ID: <abc@pbem.example.org>\n", domain="pbem.example.org") is None
    msg = _msg("Message-ID: <" + "0123456789abcdef" * 2 + "@pbem.example.org>\n")
    assert automatic_reason(msg, own_domain="pbem.example.org", own_message_id=lambda mid: False) is None
    assert automatic_reason(msg, own_domain="pbem.example.org", own_message_id=lambda mid: True) == "loop"


def test_most_specific_reason_wins():
    headers = "Auto-Submitted: auto-replied\nPrecedence: bulk\nReturn-Path: <>\nX-PBEM-Loop: pax1\n"
    assert _reason(headers) == "loop"
    assert _reason("Auto-Submitted: auto-replied\nPrecedence: bulk\nReturn-Path: <>\n") == "auto-submitted"
    assert _reason("Precedence: bulk\nList-Id: <l.example.org>\nReturn-Path: <>\n") == "precedence"


# --- parse_message -------------------------------------------------------------------------------

def _mail(headers: str = "", body: str = ORDERS + "\n", ctype: str = "text/plain; charset=utf-8") -> bytes:
    return (f"From: Xavier Dupont <xavier@example.fr>\nTo: pbem@pbem.example.org\nSubject: orders\n"
            f"Message-ID: <m1@example.fr>\nContent-Type: {ctype}\n{headers}\n{body}").encode("utf-8")


def test_basic_fields():
    got = parse_message(_mail("Reply-To: Other <Other@Example.net>\nReturn-Path: <Bounce@example.fr>\n"
                              "Date: Sun, 11 Jan 2026 10:00:00 +0100\n"
                              "In-Reply-To: <r2@pbem.example.org> (turn 3)\n"
                              "References: <r1@pbem.example.org>\n <r2@pbem.example.org>\n"))
    assert (got.sender, got.sender_name) == ("xavier@example.fr", "Xavier Dupont")
    assert got.reply_to == "other@example.net"
    assert got.return_path == "bounce@example.fr"
    assert got.date == "Sun, 11 Jan 2026 10:00:00 +0100"
    assert got.in_reply_to == "<r2@pbem.example.org>"
    assert got.references == ["<r1@pbem.example.org>", "<r2@pbem.example.org>"]
    assert got.message_id == "<m1@example.fr>"
    assert got.text == ORDERS and got.automatic is None and not got.too_large
    assert got.headers["to"] == "pbem@pbem.example.org"


def test_absent_headers():
    got = parse_message(b"Subject: x\n\nhello\n")
    assert (got.sender, got.sender_name, got.reply_to, got.return_path) == ("", "", None, None)
    assert (got.date, got.in_reply_to, got.references) == (None, None, [])


def test_missing_message_id_is_a_stable_hash():
    raw = b"From: a@example.net\nSubject: x\n\nhello\n"
    first = parse_message(raw).message_id
    assert first == parse_message(raw).message_id
    assert first.endswith("@pbem.invalid>") and len(first) == len("<@pbem.invalid>") + 64
    assert first != parse_message(raw + b"more\n").message_id


def test_message_id_without_brackets_gets_them():
    assert parse_message(b"Message-ID: abc@example.net\n\nx\n").message_id == "<abc@example.net>"


def test_unparseable_from_gives_empty_sender():
    assert parse_message(b"From: just some words\n\nx\n").sender == ""


def test_folded_and_encoded_subject():
    raw = b"Subject: =?utf-8?q?C=C3=B4te?=\n =?utf-8?q?_d=27Ivoire?= and\n\tmore\n\nx\n"
    assert parse_message(raw).subject == "Côte d'Ivoire and\tmore"


def test_generated_oversized_mail_is_flagged_without_reading_the_body():
    body = ORDERS + "\n" + ("PRESS TO all: " + "long " * 40 + "\n") * 12000
    raw = _mail(body=body)
    assert len(raw) > 2_000_000
    got = parse_message(raw)
    assert got.too_large and got.size == len(raw)
    assert (got.text, got.sender, got.subject) == ("", "xavier@example.fr", "orders")
    assert not parse_message(raw, max_bytes=len(raw)).too_large


def test_html_only_mail_is_converted():
    html = "<html><body><p>SIGNON France@pax1 secret</p><p><b>ORDERS</b></p></body></html>"
    got = parse_message(_mail(body=html, ctype="text/html; charset=utf-8"))
    assert got.html_only and got.text == "SIGNON France@pax1 secret\nORDERS"


def test_empty_plain_alternative_falls_back_to_html():
    body = ("--b\nContent-Type: text/plain\n\n \n--b\nContent-Type: text/html\n\n"
            "<p>SIGNON France@pax1 secret</p>\n--b--\n")
    got = parse_message(_mail(body=body, ctype='multipart/alternative; boundary="b"'))
    assert got.text == "SIGNON France@pax1 secret" and got.html_only


def test_plain_text_attachment_is_not_read_as_orders():
    body = ("--b\nContent-Type: text/plain\n\nSee attached.\n--b\nContent-Type: text/plain\n"
            "Content-Disposition: attachment; filename=\"old.txt\"\n\nBUY INFLUENCE Egypt\n--b--\n")
    got = parse_message(_mail(body=body, ctype='multipart/mixed; boundary="b"'))
    assert got.text == "See attached." and got.attachments == ["old.txt"]


def test_nbsp_and_zero_width_characters_become_plain():
    got = parse_message(_mail(body="BUY\u00a0INFLUENCE\u200b Marocco\n"))
    assert got.text == "BUY INFLUENCE Marocco"


def test_deeply_nested_multipart_does_not_recurse_forever():
    depth = 200
    body = "".join(f"--b{i}\nContent-Type: multipart/mixed; boundary=\"b{i + 1}\"\n\n" for i in range(depth))
    raw = _mail(body=body + "hello\n", ctype='multipart/mixed; boundary="b0"')
    assert parse_message(raw).sender == "xavier@example.fr"


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=600))
def test_random_bytes_never_raise(raw):
    got = parse_message(raw)
    assert got.size == len(raw) and got.message_id.startswith("<")


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_garbage_body_under_real_headers_never_raises(junk):
    for ctype in ("text/plain; charset=utf-8", 'multipart/mixed; boundary="b"', "text/html"):
        raw = _mail(body="", ctype=ctype) + junk
        assert parse_message(raw).sender == "xavier@example.fr"


# --- helpers -------------------------------------------------------------------------------------

def test_unflow_joins_soft_breaks_and_keeps_signature():
    text = "The Tsar notes \nwith concern.\n>quoted \n>line\n-- \nIvan"
    assert unflow(text) == "The Tsar notes with concern.\n> quoted line\n-- \nIvan"
    assert unflow("join \nme", delsp=True) == "joinme"
    assert unflow(" From space-stuffed") == "From space-stuffed"


@pytest.mark.parametrize("data, charset, expected", [
    ("Côte".encode("latin-1"), "iso-8859-1", "Côte"),
    ("“€”".encode("cp1252"), "iso-8859-1", "“€”"),
    ("Côte".encode("utf-8"), "no-such-charset", "Côte"),
    ("Côte".encode("cp1252"), None, "Côte"),
    ("Côte".encode("cp1252"), "utf-8", "Côte"),
    (b"\x81\x8d", "windows-1252", "\x81\x8d"),
])
def test_decode_bytes_falls_back_sensibly(data, charset, expected):
    assert decode_bytes(data, charset) == expected


def test_html_to_text_has_no_markup_noise():
    html = ("<head><title>t</title><style>p {color: red}</style><script>x()</script></head>"
            "<p>line one<br>line two</p><div><a href='https://x.example'>Marocco</a></div>"
            "<ul><li><em>first</em></li><li><strong>second</strong></li></ul>"
            "<p>&nbsp;</p><p>&nbsp;</p><p>&lt;tag&gt; &amp; more</p>"
            "<blockquote>quoted<blockquote>deeper</blockquote></blockquote>"
            "<table><tr><td>A</td><td>B</td></tr></table><pre>  keep\n   spacing</pre>")
    assert html_to_text(html) == ("line one\nline two\nMarocco\nfirst\nsecond\n\n<tag> & more\n"
                                  "> quoted\n> > deeper\nA B\n  keep\n   spacing")


def test_html_to_text_survives_broken_html():
    assert "orders" in html_to_text("<p>orders<div><b>unclosed <br/><p x='y>broken")
