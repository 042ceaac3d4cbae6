"""Writes the hostile corpus: odd and malicious mails, each with its expected
outcome in expected.toml (read by tests/platform/test_loop_hostile.py).

    .venv/bin/python tests/hostile/make_corpus.py

Most mails are short and written out below; the big ones (floods, bombs,
deep nesting) are built by code, which is why the corpus is generated.  The
mails are templates: {NORTH}, {SOUTH} and {GM} stand for the secrets of the
test game, filled in when a test delivers the mail.  The game: Beacon
(tests/beacon), g1 running with North (north@example.test) and South
(south@example.test), g2 forming; the moderator is pbem@example.test.
"""
from __future__ import annotations

import base64
import io
import quopri
import zipfile
from pathlib import Path

HERE = Path(__file__).parent
CASES: dict[str, tuple[bytes, dict]] = {}


def head(sender: str = "north@example.test", subject: str = "orders", n: str = "1", extra: str = "") -> str:
    return (f"From: {sender}\nTo: pbem@example.test\nSubject: {subject}\n"
            f"Date: Mon, 05 Jan 2026 10:00:00 +0000\nMessage-ID: <hostile-{n}@players.test>\n{extra}")


def case(name: str, raw: str | bytes, **expected) -> None:
    data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
    CASES[name] = (data, expected)


def plain(body: str, **kw) -> str:
    return head(**kw) + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n" + body


SIGN = "SIGNON North@g1 {NORTH}\n"

# -- amplification ---------------------------------------------------------------------------
case("help_flood_forged.eml", plain("HELP\n" * 2500, sender="victim@elsewhere.test"),
     status="done", replies=1, reply_contains=["Commands"], reply_max_factor=1.0,
     why="a mail of nothing but HELP lines from a forged sender gets one help text")
case("help_topics_flood.eml", plain("".join(f"HELP {t}\n" for t in
                                            ["ORDERS", "SIGNON", "PRESS", "DONE", "CLEAR", "STATUS", "JOIN",
                                             "HISTORY", "RESEND", "DURATIONS", "TIMES", "COMMENTS"] * 40),
                                    sender="victim@elsewhere.test"),
     status="done", replies=1, reply_contains=["[too-much-help]"], reply_max_factor=1.0)
case("unknown_command_flood.eml", plain("ODERS\n" * 4000, sender="victim@elsewhere.test"),
     status="done", replies=1, reply_contains=["more problems are not listed one by one"],
     reply_max_factor=1.0)
case("orders_flood_signed_on.eml", plain(SIGN + "ORDERS\n" + "BID banana\n" * 3000),
     status="done", replies=1, reply_contains=["more problems are not listed one by one"],
     reply_max_bytes=64_000)
case("five_hundred_recipients.eml",
     head(extra="Cc: " + ", ".join(f"p{i}@elsewhere.test" for i in range(500)) + "\n")
     + "\n" + SIGN + "STATUS\n",
     status="done", replies=1, reply_to_only=["north@example.test"])
case("reply_to_third_party.eml", head(extra="Reply-To: victim@elsewhere.test\n") + "\nHELP\n",
     status="done", replies=1, reply_to_only=["north@example.test"])
case("base64_help_bomb.eml", head(sender="victim@elsewhere.test")
     + "MIME-Version: 1.0\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
     + base64.encodebytes(b"HELP\n" * 12000).decode(),
     status="done", replies=1, reply_max_factor=1.0)

# -- poison and files ---------------------------------------------------------------------------
for name, target in (("dev_zero", "/dev/zero"), ("dotdot_shadow", "../../../../etc/shadow"),
                     ("proc_environ", "/proc/self/environ"), ("pbem_toml", "../pbem.toml"),
                     ("dotdot_config", "..%2fpbem.toml"), ("absolute_passwd", "/etc/passwd")):
    case(f"gm_option_data_{name}.eml",
         plain(f"SIGNON GM@x{name} {{GM}}\nGM CREATE x{name} RULES pax_britannica OPTION data={target}\n",
               sender="gm@example.test"),
         status="done", replies=1, reply_contains=["[bad-data-file]", "the game was not created"],
         no_game=f"x{name}")

# -- silent loss -------------------------------------------------------------------------------------
case("set_password_dashes.eml", plain(SIGN + "ORDERS\nBID 2\nSET PASSWORD ---\n"),
     status="done", replies=1, reply_contains=["[empty-secret]", "BID 2"], orders={"North": "BID 2"})
case("join_dash_secret.eml", plain("JOIN g2 West -\n", sender="west@example.test"),
     status="done", replies=1, reply_contains=["[empty-secret]"])
case("set_password_huge.eml", plain(SIGN + "ORDERS\nBID 3\nSET PASSWORD " + "x" * 500 + "\n"),
     status="done", replies=1, reply_contains=["[secret-too-long]"], orders={"North": "BID 3"})
case("unbalanced_paren_name.eml", plain(SIGN + "ORDERS\nBID 4\n", sender="Smith (home <north@example.test>"),
     status="done", replies=1, orders={"North": "BID 4"}, sender="north@example.test")
case("unbalanced_quote_name.eml", plain(SIGN + "ORDERS\nBID 5\n", sender='"Smith <north@example.test>'),
     status="done", replies=1, orders={"North": "BID 5"}, sender="north@example.test")
case("paren_comment_only.eml", plain(SIGN + "ORDERS\nBID 6\n", sender="north@example.test (Smith (home)"),
     status="done", replies=1, orders={"North": "BID 6"}, sender="north@example.test")
case("message_id_in_our_domain.eml",
     plain(SIGN + "ORDERS\nBID 7\n").replace("<hostile-1@players.test>", "<abc123@example.test>"),
     status="done", replies=1, orders={"North": "BID 7"})
case("message_id_our_form_not_sent.eml",
     plain(SIGN + "ORDERS\nBID 8\n").replace("<hostile-1@players.test>", "<" + "ab" * 16 + "@example.test>"),
     status="done", replies=1, orders={"North": "BID 8"})
case("message_id_broken.eml", plain(SIGN + "ORDERS\nBID 2\n").replace("<hostile-1@players.test>", "<<>>"),
     status="done", replies=1, orders={"North": "BID 2"})
case("message_id_missing.eml", plain(SIGN + "STATUS\n").replace("Message-ID: <hostile-1@players.test>\n", ""),
     status="done", replies=1)


def nested(depth: int, inner: str) -> str:
    text = "Content-Type: text/plain\n\n" + inner
    for level in range(depth):
        text = (f'Content-Type: multipart/mixed; boundary="b{level}"\n\n--b{level}\n{text}\n--b{level}--\n')
    return text


case("nested_100_levels.eml", head(sender="deep@elsewhere.test") + "MIME-Version: 1.0\n" + nested(100, "HELP\n"),
     status="done", replies=1, reply_contains=["[too-deep]"])
case("nested_forwards.eml", head(sender="fwd@elsewhere.test") + "MIME-Version: 1.0\n"
     + "Content-Type: message/rfc822\n\n" * 30 + "From: x@y.test\nSubject: inner\n\nHELP\n",
     status="done", replies=1)
case("thousand_parts.eml", head(sender="parts@elsewhere.test") + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="p"\n\n'
     + "".join("--p\nContent-Type: text/plain\n\nXYZZY\n" for _ in range(1000)) + "--p--\n",
     status="done", replies=1, reply_max_factor=1.0)
case("empty_body.eml", head(sender="nobody@elsewhere.test") + "\n",
     status="done", replies=1, reply_contains=["[no-commands]"])
case("only_greeting.eml", plain("Hello there,\njust saying hi.\n-- \nBob\n", sender="bob@elsewhere.test"),
     status="done", replies=1, reply_contains=["[no-commands]"])
case("nul_bytes.eml", head() + "\n" + SIGN + "ORDERS\nBID\x00 2\nBID 2\n", status="done", replies=1,
     orders={"North": "BID 2"})
case("invalid_utf8.eml", head().encode() + b"Content-Type: text/plain; charset=utf-8\n\n"
     + SIGN.encode() + b"ORDERS\nBID 2\n\xc3\x28\xff\xfe caf\xe9\n",
     status="done", replies=1, orders={"North": "BID 2"})
case("unknown_charset.eml", head() + 'Content-Type: text/plain; charset="x-klingon"\n\n' + SIGN + "ORDERS\nBID 2\n",
     status="done", replies=1, orders={"North": "BID 2"})
case("charset_with_nul.eml", head().encode() + b'Content-Type: text/plain; charset="utf\x008"\n\n'
     + SIGN.encode() + b"ORDERS\nBID 2\n", status="done", replies=1, orders={"North": "BID 2"})
case("utf7_body.eml", head() + 'Content-Type: text/plain; charset="utf-7"\n\n' + SIGN + "ORDERS\nBID 2\n",
     status="done", replies=1, orders={"North": "BID 2"})
case("header_injection_subject.eml",
     head(subject="orders =?utf-8?q?=0D=0ABcc=3A_victim=40elsewhere=2Etest?=") + "\n" + SIGN + "STATUS\n",
     status="done", replies=1, reply_to_only=["north@example.test"], reply_header_lacks=["Bcc"])
case("sql_like_names.eml", plain("SIGNON North';DROP-TABLE-players;--@g1 x\nSTATUS\n", sender="sql@elsewhere.test"),
     status="rejected", replies=1, reply_contains=["[unknown-power]"])
case("sql_like_game.eml", plain("SIGNON North@g1'--OR-1 x\nSTATUS\n", sender="sql@elsewhere.test"),
     status="rejected", replies=1, reply_contains=["[unknown-game]"])
case("very_long_line.eml", plain(SIGN + "ORDERS\nBID 2\n" + "A" * 80_000 + "\n"),
     status="done", replies=1, reply_max_bytes=64_000, orders={"North": "BID 2"})
case("very_long_subject.eml", plain(SIGN + "STATUS\n", subject="orders " + "x" * 50_000),
     status="done", replies=1, reply_max_bytes=64_000)
case("rtl_override_names.eml", plain("SIGNON \u202eNorth@g1 x\nSTATUS\n", sender="rtl@elsewhere.test"),
     status="rejected", replies=1)
case("bare_cr_lines.eml", head().replace("\n", "\r") + "\r" + SIGN.replace("\n", "\r") + "ORDERS\rBID 2\r",
     status="done", replies=1, orders={"North": "BID 2"})
case("mixed_line_endings.eml", head().replace("\n", "\r\n") + "\r\n" + SIGN + "ORDERS\r\nBID 2\n",
     status="done", replies=1, orders={"North": "BID 2"})
case("eight_bit_headers.eml", head(sender="Ærøskøbing Ünïcødé <north@example.test>") + "\n" + SIGN + "STATUS\n",
     status="done", replies=1, sender="north@example.test")
case("encoded_comma_name.eml", head(sender="=?utf-8?q?Doe=2C_John?= <north@example.test>") + "\n" + SIGN + "STATUS\n",
     status="done", replies=1, sender="north@example.test")
case("two_from_addresses.eml", head(sender="north@example.test, south@example.test") + "\n" + SIGN + "STATUS\n",
     status="done", replies=1, sender="north@example.test")

zipped = io.BytesIO()
with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("orders.txt", b"HELP\n" * 2_000_000)  # 10 MB from a few KB
case("zip_bomb_attachment.eml", head(sender="zip@elsewhere.test") + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="z"\n\n'
     "--z\nContent-Type: text/plain\n\nHELP\n--z\nContent-Type: application/zip\n"
     'Content-Disposition: attachment; filename="orders.zip"\nContent-Transfer-Encoding: base64\n\n'
     + base64.encodebytes(zipped.getvalue()).decode() + "--z--\n",
     status="done", replies=1, reply_contains=["Attachments are not read"])
case("html_script.eml", head(sender="html@elsewhere.test") + "MIME-Version: 1.0\nContent-Type: text/html\n\n"
     "<html><head><script>alert(1)</script></head><body><p>HELP</p><img src=x onerror=alert(2)></body></html>\n",
     status="done", replies=1, reply_lacks=["<script>", "alert(1)"])
case("attachment_only.eml", head(sender="att@elsewhere.test") + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="a"\n\n'
     '--a\nContent-Type: text/plain\nContent-Disposition: attachment; filename="orders.txt"\n\nSIGNON North@g1 x\n--a--\n',
     status="done", replies=1, reply_contains=["Attachments are not read"])
case("malformed_base64_body.eml", head() + "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n!!!not base64!!!\n"
     + SIGN, status="done", replies=1)

# -- automatic, replays and loops (already handled: kept under test) ----------------------------
case("replayed_message_id.eml", plain(SIGN + "ORDERS\nBID 9\n"), status="duplicate", replies=0, deliver_twice=True,
     orders={"North": "BID 9"})
case("our_loop_header.eml", head(extra="X-PBEM-Loop: pbem\n") + "\nHELP\n", status="ignored", replies=0)
case("auto_submitted.eml", head(extra="Auto-Submitted: auto-replied\n") + "\nHELP\n", status="ignored", replies=0)
case("mailer_daemon.eml", plain("HELP\n", sender="MAILER-DAEMON@elsewhere.test"), status="ignored", replies=0)
case("empty_return_path.eml", head(extra="Return-Path: <>\n") + "\nHELP\n", status="ignored", replies=0)
case("no_from.eml", "To: pbem@example.test\nSubject: s\nMessage-ID: <nofrom@players.test>\n\nHELP\n",
     status="ignored", replies=0)
case("from_without_at.eml", plain("HELP\n", sender="not-an-address"), status="ignored", replies=0)
case("our_own_address.eml", plain("HELP\n", sender="pbem@example.test"), status="ignored", replies=0)

# -- identity and secrets --------------------------------------------------------------------
case("cross_game_gm.eml", plain("SIGNON GM@g1 wrong-gm-secret\nGM START\n", sender="mallory@elsewhere.test"),
     status="rejected", replies=1, reply_contains=["[wrong-secret]"], notice_to="gm@example.test")
case("player_tries_gm_command.eml", plain(SIGN + "GM PAUSE\n"), status="done", replies=1,
     reply_contains=["[not-gm]"])
case("forged_wrong_secret.eml", plain("SIGNON North@g1 guess1\nORDERS\nBID 9\n", sender="mallory@elsewhere.test"),
     status="rejected", replies=1, reply_contains=["[wrong-secret]"], notice_to="north@example.test")
case("right_secret_foreign_address.eml", plain(SIGN + "ORDERS\nBID 1\n", sender="north-phone@elsewhere.test"),
     status="done", replies=1, copy_to="north@example.test", orders={"North": "BID 1"})
case("secret_in_subject.eml", plain("SIGNON North@g1 {NORTH}\nSTATUS\n", subject="SIGNON North@g1 {NORTH}"),
     status="done", replies=1, secret_nowhere="{NORTH}")
case("secret_in_subject_no_body.eml", plain("hello\n", subject="SIGNON North@g1 {NORTH}", sender="n2@elsewhere.test"),
     status="done", replies=1, secret_nowhere="{NORTH}")
case("secret_quoted_earlier.eml", plain(SIGN + "STATUS\n\nOn Monday you wrote:\n> SIGNON North@g1 {NORTH}\n> ORDERS\n"),
     status="done", replies=1, secret_nowhere="{NORTH}")
case("secret_in_base64_body.eml", head() + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
     + base64.encodebytes(b"SIGNON North@g1 {NORTH}\nORDERS\nBID 2\n").decode(),
     status="done", replies=1, secret_nowhere="{NORTH}", orders={"North": "BID 2"}, encode_secret="base64")
case("secret_in_qp_body.eml", head() + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
     + "SIGNON North@g1 {NORTH}\nORDERS\nBID 2\n", status="done", replies=1, secret_nowhere="{NORTH}",
     orders={"North": "BID 2"}, encode_secret="qp-split")
case("secret_in_html_body.eml", head() + "MIME-Version: 1.0\nContent-Type: text/html\n\n"
     "<p>SIGNON North@g1 {NORTH}</p><p>ORDERS</p><p>BID 2</p>\n", status="done", replies=1,
     secret_nowhere="{NORTH}", orders={"North": "BID 2"})
case("gm_secret_at_rest.eml", plain("SIGNON GM@g1 {GM}\nGM EXTEND 1h\n", sender="gm@example.test"),
     status="done", replies=1, secret_nowhere="{GM}")
case("new_password_at_rest.eml", plain(SIGN + "SET PASSWORD brand-new-secret-42\n"), status="done", replies=1,
     secret_nowhere="brand-new-secret-42", signs_on_with="brand-new-secret-42")
case("three_line_signon.eml", plain("GAME g1\nPOWER North\nPASSWORD {NORTH}\nORDERS\nBID 2\n"),
     status="done", replies=1, secret_nowhere="{NORTH}", orders={"North": "BID 2"})
case("wrong_secret_three_lines.eml", plain("GAME g1\nPOWER North\nPASSWORD nope-nope\nSTATUS\n", sender="m@elsewhere.test"),
     status="rejected", replies=1, reply_contains=["[wrong-secret]"])

# -- addresses -----------------------------------------------------------------------------------
case("set_address_three_hundred.eml", plain(SIGN + "SET ADDRESS " + ", ".join(f"a{i}@elsewhere.test" for i in range(300)) + "\n"),
     status="done", replies=1, reply_contains=["[too-many-addresses]"], addresses={"North": ["north@example.test"]},
     mails_to_none="a1@elsewhere.test")
case("set_address_unconfirmed.eml", plain(SIGN + "SET ADDRESS north@example.test, spy@elsewhere.test\n"),
     status="done", replies=1, reply_contains=["waiting for confirmation: spy@elsewhere.test"],
     addresses={"North": ["north@example.test"]})
case("confirm_unknown_token.eml", plain("CONFIRM abcde-fghjk\n", sender="spy@elsewhere.test"),
     status="done", replies=1, reply_contains=["[unknown-token]"])

# -- odd but honest ------------------------------------------------------------------------------
case("orders_for_wrong_phase.eml", plain(SIGN + "ORDERS 9/tally\nBID 2\n"), status="done", replies=1,
     reply_contains=["[orders-for-other-phase]"])
case("unterminated_announce.eml", plain("SIGNON GM@g1 {GM}\nGM ANNOUNCE\nhello all\n", sender="gm@example.test"),
     status="done", replies=1, reply_contains=["[unterminated-block]"])
case("thousand_options.eml", plain("SIGNON GM@g3 {GM}\nGM CREATE g3 RULES beacon"
                                   + "".join(f" OPTION k{i}=v" for i in range(1000)) + "\n", sender="gm@example.test"),
     status="done", replies=1, reply_contains=["[unknown-option]"], reply_max_bytes=64_000, no_game="g3")
case("huge_treaty_text.eml", plain(SIGN + "TREATY PROPOSE t1 WITH South\n" + "We agree.\n" * 5000 + "ENDTREATY\n"),
     status="done", replies=1, reply_max_bytes=64_000)
case("press_script_to_all.eml", plain(SIGN + "PRESS TO ALL\n<script>alert('x')</script>\nENDPRESS\n"),
     status="done", replies=1, reply_lacks=["alert('x')"])
case("token_line_spoof.eml", plain(SIGN + "TOKEN aaaaaaaa\nTOKEN bbbbbbbb\nSTATUS\n"), status="done", replies=1)
case("oversized.eml", plain(SIGN + "PRESS TO ALL\n" + "The Republic will not be intimidated.\n" * 200 + "ENDPRESS\n"),
     status="rejected", replies=1, reply_contains=["[too-large]"], max_bytes=4000, secret_nowhere="{NORTH}")
case("signoff_then_garbage.eml", plain(SIGN + "STATUS\nSIGNOFF\n" + "XYZZY\n" * 100), status="done", replies=1,
     reply_lacks=["[unknown-command]"])
case("control_characters.eml", plain(SIGN + "ORDERS\nBID\x1b[31m 2\x07\nBID 2\n"), status="done", replies=1,
     orders={"North": "BID 2"})
case("tab_and_nbsp.eml", plain("SIGNON\tNorth@g1\u00a0{NORTH}\nORDERS\nBID\u00a02\n"), status="done", replies=1,
     orders={"North": "BID 2"})

# -- one inbound mail, a bounded outbound cost ----------------------------------------------------
case("press_flood_to_all.eml", plain(SIGN + "PRESS TO ALL\nnews\nENDPRESS\n" * 200), status="done", replies=1,
     reply_contains=["[over-limit]", "PRESS x195"], notice_to="south@example.test")
case("treaty_flood.eml", plain(SIGN + "".join(f"TREATY PROPOSE t{i} WITH South\nPeace.\nENDTREATY\n"
                                              for i in range(60))),
     status="done", replies=1, reply_contains=["[over-limit]", "TREATY x55"])
case("set_address_flood.eml", plain(SIGN + "".join(f"SET ADDRESS a{i}@far.test, b{i}@far.test\n" for i in range(50))),
     status="done", replies=1, reply_contains=["only the first SET ADDRESS of a mail is done"],
     mails_to_none="a1@far.test")
case("set_password_flood.eml", plain(SIGN + "".join(f"SET PASSWORD new-secret-{i:04d}\n" for i in range(200))),
     status="done", replies=1, reply_contains=["only the first SET PASSWORD of a mail is done"],
     signs_on_with="new-secret-0000")
case("short_new_secret.eml", plain(SIGN + "SET PASSWORD ab\n"), status="done", replies=1,
     reply_contains=["[secret-too-short]"])
case("forged_from_status.eml", plain(SIGN + "STATUS\n" * 10, sender="victim@elsewhere.test"), status="done",
     replies=1, reply_max_bytes=12_000, copy_to="north@example.test")
case("x_loop_autoresponder.eml", plain("I am on holiday until Monday.\n", sender="robot@elsewhere.test",
                                       extra="X-Loop: robot@elsewhere.test\n"), status="ignored", replies=0)
case("endless_absence.eml", plain(SIGN + "SET ABSENCE 0001-01-01 9999-12-31\n"), status="done", replies=1,
     reply_contains=["[bad-absence]"])
case("long_game_name.eml", plain("SIGNON GM@x {GM}\nGM CREATE " + "g" * 300 + " RULES beacon\n",
                                 sender="gm@example.test"),
     status="done", replies=1, reply_contains=["[bad-game-name]"], no_game="g" * 300)
case("huge_name_echoed.eml", plain(SIGN + "PRESS TO " + "Z" * 200_000 + "\nhi\nENDPRESS\nSTATUS\n"),
     status="done", replies=1, reply_contains=["[unknown-power]", "Status:"], reply_max_bytes=16_000)
case("help_and_a_huge_word.eml", plain("HELP " + "a" * 300_000 + "\n", sender="stranger@elsewhere.test"),
     status="done", replies=1)
case("bounce_report_without_type.eml",
     head(sender="notify@relay.example.net", subject="Message status", n="b1")
     + 'MIME-Version: 1.0\nContent-Type: multipart/report; boundary="b1"\n\n--b1\nContent-Type: text/plain\n\n'
       "Not delivered.\n\n--b1\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; relay\n\n"
       "Final-Recipient: rfc822; south@example.test\nAction: failed\nStatus: 5.1.1\n\n--b1--\n",
     status="ignored", replies=0)
case("bounce_mailer_daemon_return_path.eml",
     plain("A message that you sent could not be delivered.\n\n  south@example.test\n    550 No such user\n",
           sender="noreply@mx.players.test", subject="Returned message",
           extra="Return-Path: <MAILER-DAEMON@mx.players.test>\n"), status="ignored", replies=0)
case("bounce_gateway_subject.eml",
     plain("Your message to south@example.test could not be delivered: mailbox full.\n",
           sender="gateway@corp.example.org", subject="Delivery failed: [g1] South turn report"),
     status="ignored", replies=0)


def write() -> None:
    import tomllib  # noqa: F401  (the reader's format)

    lines = ["# Written by make_corpus.py: what each hostile mail must lead to, proven through the whole",
             "# loop by tests/platform/test_loop_hostile.py.  Keys: see that test's docstring.", ""]
    for name, (data, expected) in sorted(CASES.items()):
        (HERE / name).write_bytes(data)
        lines.append(f'["{name}"]')
        for key, value in expected.items():
            lines.append(f"{key} = {_toml(value)}")
        lines.append("")
    (HERE / "expected.toml").write_text("\n".join(lines), encoding="utf-8")
    print(f"{len(CASES)} mails written to {HERE}")


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f'"{k}" = {_toml(v)}' for k, v in value.items()) + " }"
    raise TypeError(value)


if __name__ == "__main__":
    write()
