"""What every queued mail says of itself: RFC 3834's Auto-Submitted tells an
answer to a mail ("auto-replied") from a report or notice ("auto-generated"),
and From carries the site's name."""
import email
from email import policy

from helpers_loop import Loop
from pbem.outbound import outbox
from pbem.storage import outbox_rows


def stored(loop, message_id):
    row = next(loop.db["outbox"].rows_where("message_id = ?", [message_id]))
    return email.message_from_bytes(outbox_rows.mail_bytes(loop.ctx, row), policy=policy.default)


def test_replies_are_auto_replied_and_reports_auto_generated_from_the_site_by_name(tmp_path):
    loop = Loop(tmp_path, site_name="Pax Club")
    reply = outbox.queue(loop.ctx, key="r", to=["a@example.test"], subject="Re: orders", text="ok",
                         kind="reply", in_reply_to="<m1@players.test>")
    report = outbox.queue(loop.ctx, key="p", to=["a@example.test"], subject="turn report", text="...",
                          kind="report")
    assert stored(loop, reply)["Auto-Submitted"] == "auto-replied"
    assert stored(loop, report)["Auto-Submitted"] == "auto-generated"
    sender = stored(loop, report)["From"]
    assert str(sender) == "Pax Club <pbem@example.test>"
    assert sender.addresses[0].addr_spec == "pbem@example.test"


def test_a_reply_to_a_mail_and_the_turn_reports_through_the_whole_loop(tmp_path):
    loop = Loop(tmp_path)
    loop.mail("someone@players.test", "HELP\n")
    [(_, reply)] = loop.flush()
    assert reply["Auto-Submitted"] == "auto-replied" and reply["In-Reply-To"]
    assert str(reply["From"]) == "pbem <pbem@example.test>"


def test_a_long_subject_is_cut_at_a_word_and_never_folded():
    from pbem.mail.compose import fit_subject
    long = "[autumn1880] Austria-Hungary turn report: 1884 War, sequence 1 (Britain, Germany)"
    short = fit_subject(long)
    assert len(short) < 60 and short.endswith("...") and short.startswith("[autumn1880] Austria-Hungary turn")
    assert " ".join(short[:-3].split()) == short[:-3] and long.startswith(short[:-3])
    assert fit_subject("  Re:\n orders  ") == "Re: orders"
    assert fit_subject("x" * 80) == "x" * 56 + "..."


def test_a_phase_is_named_short_in_a_subject():
    from pbem.base.phaselabels import short, short_label
    from pbem.kit.gameapi import PhaseInfo
    assert short_label("1884 War, sequence 1: First Alliance Maneuver (Britain, Germany)") == "1884 War, sequence 1"
    assert short_label("1884 Congress in Berlin (the Balkans)") == "1884 Congress in Berlin"
    assert short_label("1880 Movement/Status Change") == "1880 Movement/Status Change"
    assert short(PhaseInfo("k", "war", 1884, label="1884 War: x", short="1884 War 1")) == "1884 War 1"
    assert short(PhaseInfo("1884/war", "war", 1884)) == "1884/war"


def test_every_mail_subject_in_the_outbox_is_under_60_characters(tmp_path):
    loop = Loop(tmp_path)
    key = outbox.queue(loop.ctx, key="s", to=["a@example.test"], text="...",
                       subject="[longgamename] Austria-Hungary turn report: 1884 War, sequence 1: First "
                               "Alliance Maneuver (Britain, Germany)")
    raw = stored(loop, key)
    assert len(raw["Subject"]) < 60 and "\n" not in bytes(raw).split(b"Subject: ", 1)[1].split(b"\nDate", 1)[0].decode()
