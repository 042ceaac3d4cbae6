"""A fixture that counts the slow secret hashes computed (the real scrypt still runs)."""
from __future__ import annotations

import pytest

from pbem.base import identity


@pytest.fixture
def hashes(monkeypatch):
    """The secrets hashed with scrypt while the test runs, one entry per hash."""
    calls = []
    real = identity._scrypt

    def counting(*args, **kw):
        calls.append(args[0])
        return real(*args, **kw)

    monkeypatch.setattr(identity, "_scrypt", counting)
    return calls
