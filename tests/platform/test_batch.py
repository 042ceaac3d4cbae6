"""One mail per recipient (pbem.outbound.batch): who gets what, and how parts merge."""
from pbem.outbound import batch


def item(key, to, kind="notice", cc=(), subject=None, text="", **extra):
    return {"key": key, "to": list(to), "cc": list(cc), "kind": kind, "subject": subject or key,
            "text": text or f"text of {key}", **extra}


def test_each_recipient_is_in_one_group_with_the_reply_first():
    items = [item("treaty", ["n@x"], kind="treaty"), item("press", ["s@x"]),
             item("reply", ["n@x"], kind="reply", cc=["rec@x"]), item("press2", ["s@x"])]
    groups = {tuple(sorted(a)): i for a, i in batch.plan(items)}
    assert groups == {("n@x",): [2, 0], ("s@x",): [1, 3], ("rec@x",): [2]}


def test_recipients_who_get_the_same_share_one_mail():
    items = [item("report", ["a@x", "b@x"], kind="report")]
    assert batch.plan(items) == [(["a@x", "b@x"], [0])]


def test_a_merged_mail_says_every_part_under_its_subject_and_masks_every_secret():
    parts = [item("reply", ["n@x"], kind="reply", subject="[g1] North received: 1 Orders", text="ack\n"),
             item("welcome", ["n@x"], kind="welcome", subject="[g1] you play North", text="secret s1\n",
                  secrets=("s1",)),
             item("report", ["n@x"], kind="report", subject="[g1] North turn report", text="report\n",
                  html="<html><body><p>map</p></body></html>", related=["img"])]
    merged = batch.merge(parts)
    assert merged["subject"] == "[g1] North received: 1 Orders (with: you play North, and 1 more)"
    assert batch.parts(merged["text"]) == ["ack", "[g1] you play North\n\nsecret s1",
                                           "[g1] North turn report\n\nreport\n"]
    assert merged["secrets"] == ("s1",) and merged["related"] == ["img"] and merged["kind"] == "reply"
    assert "<p>map</p>" in merged["html"] and "secret s1" in merged["html"]


def test_of_several_records_of_one_treaty_only_the_last_goes():
    items = [item("t1", ["s@x"], kind="treaty", subject="[g1] treaty pact: proposed"),
             item("t2", ["s@x"], kind="treaty", subject="[g1] treaty pact: in force"),
             item("t3", ["s@x"], kind="treaty", subject="[g1] treaty other: in force")]
    assert [i["key"] for i in batch.latest_records(items)] == ["t2", "t3"]


def test_a_copy_of_a_reply_that_no_longer_reaches_its_sender_is_a_notice():
    reply = item("reply", ["stranger@x"], kind="reply", cc=["rec@x"], stranger=True)
    copy = batch.addressed_to(reply, ["rec@x"], "k")
    assert copy["to"] == ["rec@x"] and copy["kind"] == "notice" and not copy["stranger"]
