"""A right secret checked once is not hashed again by the same process; a
wrong one always is, and nothing the cache keeps reveals a secret."""
from __future__ import annotations

from helpers_hashes import hashes  # noqa: F401 (the fixture)
from pbem.base.identity import hash_secret, SecretCache


def test_a_right_secret_is_hashed_once(hashes):
    stored = hash_secret("k7mqd-x3hrn")
    hashes.clear()
    cache = SecretCache()
    assert cache.verify("k7mqd-x3hrn", stored)
    assert cache.verify("K7MQD X3HRN", stored)   # the same secret as players type it
    assert cache.verify("k7mqdx3hrn", stored)
    assert len(hashes) == 1


def test_a_wrong_secret_is_hashed_every_time_and_never_accepted(hashes):
    stored = hash_secret("right-one")
    hashes.clear()
    cache = SecretCache()
    assert cache.verify("right-one", stored)
    for _ in range(3):
        assert not cache.verify("wrong-one", stored)
    assert len(hashes) == 4


def test_a_new_secret_matches_nothing_remembered(hashes):
    cache = SecretCache()
    old = hash_secret("old-secret")
    assert cache.verify("old-secret", old)
    new = hash_secret("new-secret")   # SET PASSWORD: a new stored hash
    assert not cache.verify("old-secret", new)
    assert cache.verify("new-secret", new)


def test_malformed_input_is_refused_without_an_exception():
    cache = SecretCache()
    stored = hash_secret("abc")
    assert not cache.verify(None, stored)
    assert not cache.verify("abc", None)
    assert not cache.verify("abc", "plain-text")
    assert not cache.verify("", stored)


def test_the_cache_is_bounded_and_keeps_no_secret(hashes):
    cache = SecretCache(size=2)
    stored = {s: hash_secret(s) for s in ("alpha-1", "bravo-2", "charlie-3")}
    for secret, h in stored.items():
        assert cache.verify(secret, h)
    hashes.clear()
    assert cache.verify("charlie-3", stored["charlie-3"])
    assert hashes == []
    assert cache.verify("alpha-1", stored["alpha-1"])   # dropped: hashed again
    assert len(hashes) == 1
    kept = b"".join(cache._known)
    for secret in stored:
        assert secret.encode() not in kept and secret.replace("-", "").encode() not in kept
    assert all(len(entry) == 32 for entry in cache._known)


def test_two_processes_remember_differently():
    # The key is made per cache and written nowhere: an entry is no verifier elsewhere.
    a, b = SecretCache(), SecretCache()
    stored = hash_secret("same-secret")
    assert a._entry("same-secret", stored) != b._entry("same-secret", stored)
