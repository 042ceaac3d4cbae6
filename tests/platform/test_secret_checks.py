"""Secrets pbem made are vouched for at rest, under the host's check key, so a
player's mail skips the slow hash even in a new process; a secret a player
chose never is, and the database without the key vouches for nothing."""
from __future__ import annotations

import os
import stat

from helpers_hashes import hashes  # noqa: F401 (the fixture)
from helpers_loop import Loop
from pbem.base.identity import SecretCache, hash_made_secret, hash_secret, new_secret
from pbem.storage import secret_checks


def _process(loop: Loop, database) -> SecretCache:
    """The secret cache of a freshly started process on the same database and key."""
    loop.ctx.secret_cache = SecretCache()
    secret_checks.attach(loop.ctx, database)
    return loop.ctx.secret_cache


def test_a_made_secret_is_never_slow_hashed_again_even_in_a_new_process(tmp_path, hashes):
    loop = Loop(tmp_path)
    database = tmp_path / "pbem.sqlite"
    cache = _process(loop, database)
    secret = new_secret()
    stored = hash_made_secret(cache, secret)
    hashes.clear()
    assert cache.verify(secret, stored)
    assert _process(loop, database).verify(secret.upper().replace("-", " "), stored)
    assert hashes == []
    assert not _process(loop, database).verify("wrong-secret", stored)
    assert len(hashes) == 1  # a wrong secret pays the slow hash, as always


def test_a_chosen_secret_is_not_kept_at_rest(tmp_path, hashes):
    loop = Loop(tmp_path)
    database = tmp_path / "pbem.sqlite"
    cache = _process(loop, database)
    stored = hash_secret("my own password")  # SET PASSWORD, JOIN: never vouched for
    assert cache.verify("my own password", stored)
    assert loop.db["secret_checks"].count == 0
    hashes.clear()
    assert _process(loop, database).verify("my own password", stored)
    assert len(hashes) == 1


def test_the_database_without_its_key_vouches_for_nothing(tmp_path, hashes):
    loop = Loop(tmp_path)
    database = tmp_path / "pbem.sqlite"
    secret = new_secret()
    stored = hash_made_secret(_process(loop, database), secret)
    assert loop.db["secret_checks"].count == 1
    os.remove(secret_checks.key_path(database))  # the database copied elsewhere: a new key
    hashes.clear()
    assert _process(loop, database).verify(secret, stored)
    assert len(hashes) == 1  # the kept row did not match under another key: the slow hash decided
    # Nor does a kept row let a wrong secret in.
    assert not _process(loop, database).verify(new_secret(), stored)


def test_the_key_file_is_private_whole_and_the_same_for_every_process(tmp_path):
    path = tmp_path / "var" / "pbem.sqlite.checkkey"
    first = secret_checks.load_key(path)
    assert first is not None and len(first) == secret_checks.KEY_BYTES
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert secret_checks.load_key(path) == first
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no spare file left behind
    path.write_bytes(b"short")
    assert secret_checks.load_key(path) is None  # a damaged key vouches for nothing


def test_players_seated_by_the_gm_sign_on_without_the_slow_hash(tmp_path, hashes):
    loop = Loop(tmp_path)
    secret_checks.attach(loop.ctx, tmp_path / "pbem.sqlite")
    loop.start_beacon()
    _process(loop, tmp_path / "pbem.sqlite")
    hashes.clear()
    assert loop.mail("north@example.test", f"SIGNON North@g1 {loop.secrets['North']}\nORDERS\nBID 1\n") == "done"
    assert hashes == []
    assert [o["power"] for o in loop.db["orders"].rows_where("current = 1")] == ["North"]
