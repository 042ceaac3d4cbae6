"""Every mail of the corpus through the whole loop: automatic mail is logged
and never answered, an oversized mail is answered with the limit and not
read, every other mail gets exactly one reply, and nothing stops the loop."""
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib

from helpers_loop import GM_SECRET, Loop
from pbem.inbound import intake
from pbem.mail.source import RawMail

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
EXPECTED = tomllib.loads((CORPUS / "expected.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def loop(tmp_path_factory):
    lp = Loop(tmp_path_factory.mktemp("corpus"))
    # The corpus mails were written to the moderator of pbem.example.org.
    lp.ctx.address, lp.ctx.domain = "pbem@pbem.example.org", "pbem.example.org"
    lp.mail("gm@example.test", f"SIGNON GM@pax1 {GM_SECRET}\nGM CREATE pax1 RULES beacon\n")
    return lp


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_mail_gets_the_right_treatment(loop, name):
    expected = EXPECTED[name]
    loop.ctx.max_message_bytes = expected.get("max_bytes", 1_000_000)
    before = loop.db["outbox"].count
    row = intake.store_raw(loop.ctx, RawMail(f"corpus:{name}", (CORPUS / name).read_bytes()))
    status = intake.process(loop.ctx, row)
    replies = list(loop.db["outbox"].rows_where("id > ? and kind = 'reply'", [before]))
    if expected.get("automatic"):
        assert status == "ignored" and not replies
    elif expected.get("too_large"):
        assert status == "rejected" and len(replies) == 1
        assert b"[too-large]" in replies[0]["raw"] or b"too-large" in replies[0]["raw"]
    else:
        assert status in ("done", "rejected"), status
        assert len(replies) == 1
    assert status != "error"
