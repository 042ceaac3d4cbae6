"""Hashed secrets, typeable new secrets, reply tokens, address normalisation."""
import base64
import re

import pytest

from pbem.base.identity import check_reply_token, hash_secret, is_secret_hash, new_secret, normalize_address, reply_token, verify_secret

STORED = hash_secret("Gladstone-1880")


def test_hash_encodes_its_parameters_and_a_random_salt():
    assert re.fullmatch(r"scrypt\$16384\$8\$1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+", STORED)
    again = hash_secret("Gladstone-1880")
    assert again != STORED                      # a fresh salt every time
    assert verify_secret("Gladstone-1880", again)
    assert "Gladstone" not in STORED and "gladstone" not in STORED


def test_verify_secret_accepts_only_the_secret():
    assert verify_secret("Gladstone-1880", STORED)
    assert not verify_secret("Gladstone-1881", STORED)
    assert not verify_secret("Disraeli", STORED)


def test_verify_ignores_case_spaces_and_hyphens():
    assert verify_secret("gladstone1880", STORED)
    assert verify_secret("  GLADSTONE 1880\n", STORED)


def test_verify_uses_the_parameters_stored_with_the_hash():
    import hashlib
    salt = b"0123456789abcdef"
    digest = hashlib.scrypt(b"cheap", salt=salt, n=1024, r=4, p=1, dklen=32)
    stored = "scrypt$1024$4$1$" + base64.b64encode(salt).decode() + "$" + \
        base64.b64encode(digest).decode()
    assert verify_secret("cheap", stored)
    assert not verify_secret("dear", stored)


@pytest.mark.parametrize("stored", [
    "", "plain-text-secret", "scrypt$16384$8$1$abc", "bcrypt$16384$8$1$YWJjZGVmZ2g$YWJjZGVmZ2g",
    "scrypt$x$8$1$YWJjZGVmZ2g$YWJjZGVmZ2hpamtsbW5vcA", "scrypt$1000$8$1$YWJjZGVmZ2g$YWJjZGVmZ2hpamtsbW5vcA",
    "scrypt$16384$8$1$!!!$YWJjZGVmZ2hpamtsbW5vcA", "scrypt$16384$8$1$YWJjZGVmZ2g$?",
    "scrypt$1073741824$8$1$YWJjZGVmZ2g$YWJjZGVmZ2hpamtsbW5vcA",
    "scrypt$16384$999$1$YWJjZGVmZ2g$YWJjZGVmZ2hpamtsbW5vcA", None, 42,
    "scrypt$1048576$32$1$YWJjZGVmZ2g$YWJjZGVmZ2hpamtsbW5vcA",   # 4 GiB: refused, not tried
])
def test_verify_is_false_for_malformed_stored_values(stored):
    assert verify_secret("anything", stored) is False
    assert is_secret_hash(stored) is False


def test_verify_is_false_for_an_empty_or_non_text_secret():
    assert verify_secret("", STORED) is False
    assert verify_secret(" - ", STORED) is False
    assert verify_secret(None, STORED) is False
    with pytest.raises(ValueError):
        hash_secret("  ")


def test_is_secret_hash():
    assert is_secret_hash(STORED)


def test_new_secret_is_typeable_and_random():
    made = {new_secret() for _ in range(200)}
    assert len(made) == 200
    for secret in made:
        assert re.fullmatch(r"[a-hj-km-np-z2-9]{5}-[a-hj-km-np-z2-9]{5}", secret)
    one = new_secret()
    assert verify_secret(one.upper().replace("-", " "), hash_secret(one))


def test_reply_token_is_eight_chars_stable_and_specific():
    token = reply_token("k", "pax1", "1880-spring-orders", "Britain")
    assert re.fullmatch(r"[a-z2-7]{8}", token)
    assert token == reply_token("k", "pax1", "1880-spring-orders", "Britain")
    assert token == reply_token("k", "PAX1", "1880-spring-orders", "britain")
    others = {reply_token("k", "pax2", "1880-spring-orders", "Britain"),
              reply_token("k", "pax1", "1880-autumn-orders", "Britain"),
              reply_token("k", "pax1", "1880-spring-orders", "France"),
              reply_token("other key", "pax1", "1880-spring-orders", "Britain")}
    assert token not in others and len(others) == 4


def test_check_reply_token_is_case_insensitive():
    token = reply_token("k", "pax1", "1880-spring-orders", "Britain")
    assert check_reply_token("k", "pax1", "1880-spring-orders", "Britain", token)
    assert check_reply_token("k", "pax1", "1880-spring-orders", "Britain", f" {token.upper()} ")
    assert not check_reply_token("k", "pax1", "1880-spring-orders", "France", token)
    assert not check_reply_token("k", "pax1", "1880-spring-orders", "Britain", token[:-1])
    assert not check_reply_token("k", "pax1", "1880-spring-orders", "Britain", "")
    assert not check_reply_token("k", "pax1", "1880-spring-orders", "Britain", None)


@pytest.mark.parametrize("raw, expected", [
    ('"Lord Salisbury" <Salisbury@Example.ORG>', "salisbury@example.org"),
    ("<gm@Pbem.Example>", "gm@pbem.example"),
    ("Player@Example.org", "player@example.org"),
    ("  Name <a@b.example>  ", "a@b.example"),
    ("a@b.example (comment)", "a@b.example"),
    ("=?utf-8?q?J=C3=B6rg?= <Joerg@X.de>", "joerg@x.de"),
    ("", ""),
    (None, ""),
])
def test_normalize_address(raw, expected):
    assert normalize_address(raw) == expected
