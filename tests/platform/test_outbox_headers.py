"""What every queued mail says of itself: RFC 3834's Auto-Submitted tells an
answer to a mail ("auto-replied") from a report or notice ("auto-generated"),
and From carries the site's name."""
import email
from email import policy

from helpers_loop import Loop
from pbem.outbound import outbox


def stored(loop, message_id):
    row = next(loop.db["outbox"].rows_where("message_id = ?", [message_id]))
    return email.message_from_bytes(row["raw"], policy=policy.default)


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
