"""Every mail in tests/corpus/ normalises to what tests/corpus/expected.toml says."""
import sys
from pathlib import Path

import pytest

from pbem.mail.normalize import parse_message

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
EXPECTED = tomllib.loads((CORPUS / "expected.toml").read_text(encoding="utf-8"))
MAILS = sorted(p.name for p in CORPUS.glob("*.eml"))
OWN_ADDRESSES = ["pbem@pbem.example.org"]
OWN_DOMAIN = "pbem.example.org"

_FIELDS = {"sender", "sender_name", "reply_to", "return_path", "subject", "in_reply_to", "text"}
_KNOWN_KEYS = _FIELDS | {"automatic", "attachments", "html_only", "too_large", "max_bytes",
                         "text_contains", "text_lacks", "full_text_contains", "headers"}


def test_every_mail_has_an_expectation_and_every_expectation_a_mail():
    assert MAILS, "the corpus is empty"
    assert sorted(EXPECTED) == MAILS


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_expectation_is_well_formed(name):
    expected = EXPECTED[name]
    assert set(expected) <= _KNOWN_KEYS, f"unknown keys: {set(expected) - _KNOWN_KEYS}"
    assert "automatic" in expected, "say automatic = \"\" for a person's mail"


@pytest.mark.parametrize("name", MAILS)
def test_mail_normalises_as_expected(name):
    expected = EXPECTED.get(name)
    assert expected is not None, f"{name} has no table in expected.toml"
    raw = (CORPUS / name).read_bytes()
    got = parse_message(raw, max_bytes=expected.get("max_bytes", 1_000_000),
                        own_addresses=OWN_ADDRESSES, own_domain=OWN_DOMAIN)
    assert (got.automatic or "") == expected["automatic"]
    assert got.html_only is expected.get("html_only", False)
    assert got.too_large is expected.get("too_large", False)
    assert got.attachments == expected.get("attachments", [])
    assert got.size == len(raw)
    assert got.message_id.startswith("<") and got.message_id.endswith(">")
    for field in _FIELDS & set(expected):
        assert getattr(got, field) == expected[field], field
    for snippet in expected.get("text_contains", []):
        assert snippet in got.text
    for snippet in expected.get("text_lacks", []):
        assert snippet not in got.text
    for snippet in expected.get("full_text_contains", []):
        assert snippet in got.full_text
    for header, snippet in expected.get("headers", {}).items():
        assert snippet in got.headers.get(header, ""), header


@pytest.mark.parametrize("name", MAILS)
def test_mail_survives_truncation_anywhere(name):
    """A mail cut off mid-transfer still yields an Inbound rather than an exception."""
    raw = (CORPUS / name).read_bytes()
    for cut in range(0, len(raw), max(1, len(raw) // 23)):
        got = parse_message(raw[:cut])
        assert got.size == cut


@pytest.mark.parametrize("name", MAILS)
def test_the_texts_a_secret_check_reads_are_those_the_parser_reads(name):
    """readable_texts (what pbem.outbound.secrets_at_rest re-reads after masking) gives
    the very texts parse_message decodes: body, Subject and kept headers."""
    from pbem.mail.normalize import readable_texts

    raw = (CORPUS / name).read_bytes()
    mail = parse_message(raw, max_bytes=len(raw) + 1)
    assert readable_texts(raw) == [mail.full_text, mail.subject, *mail.headers.values()]
