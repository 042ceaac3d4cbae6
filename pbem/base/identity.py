"""Who sent this mail: hashed secrets, per-turn reply tokens, addresses.

Secrets are compared without regard to case, spaces or hyphens, because
players type them on phones whose mail apps capitalise the first letter of
a line and because :func:`new_secret` groups its characters with a hyphen.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import threading
import unicodedata
from collections import OrderedDict
from email.utils import parseaddr

SCHEME = "scrypt"
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
_SALT_BYTES, _HASH_BYTES = 16, 32
# Refuse stored parameters that would make a single check absurdly expensive.
_MAX_N, _MAX_R, _MAX_P, _MAX_MEMORY = 2 ** 20, 32, 4, 2 ** 28

# Lower-case letters and digits without the look-alikes i, l, o, 0 and 1.
SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
SECRET_LENGTH = 10
MAX_SECRET_LENGTH = 200  # a player's own secret (SET PASSWORD, JOIN)
TOKEN_LENGTH = 8


def normalize_secret(secret: str) -> str:
    """The form a secret is hashed and compared in."""
    text = unicodedata.normalize("NFKC", secret).casefold()
    return "".join(ch for ch in text if not ch.isspace() and ch != "-")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def _scrypt(secret: str, salt: bytes, n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(normalize_secret(secret).encode("utf-8"), salt=salt, n=n, r=r, p=p,
                          maxmem=128 * r * (n + p + 2) + 2 ** 20, dklen=length)


def hash_secret(secret: str) -> str:
    """``scrypt$16384$8$1$<salt>$<hash>`` (base64): the form stored at rest."""
    if not normalize_secret(secret):
        raise ValueError("a secret cannot be empty")
    salt = secrets.token_bytes(_SALT_BYTES)
    digest = _scrypt(secret, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P, _HASH_BYTES)
    return f"{SCHEME}${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def _parse_hash(stored: str) -> tuple[int, int, int, bytes, bytes] | None:
    if not isinstance(stored, str):
        return None
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        return None
    try:
        n, r, p = (int(x) for x in parts[1:4])
        salt, digest = _unb64(parts[4]), _unb64(parts[5])
    except (ValueError, binascii.Error):
        return None
    if not (1 < n <= _MAX_N and n & (n - 1) == 0 and 0 < r <= _MAX_R and 0 < p <= _MAX_P):
        return None
    if 128 * n * r > _MAX_MEMORY:
        return None
    if len(salt) < 8 or len(digest) < 16:
        return None
    return n, r, p, salt, digest


def is_secret_hash(stored: str) -> bool:
    """Whether *stored* is a well-formed value made by :func:`hash_secret`."""
    return _parse_hash(stored) is not None


def verify_secret(secret: str, stored: str) -> bool:
    """Whether *secret* matches *stored*; False (never an exception) for a
    malformed stored value or a secret that is not text."""
    parsed = _parse_hash(stored)
    if parsed is None or not isinstance(secret, str) or not normalize_secret(secret):
        return False
    n, r, p, salt, digest = parsed
    try:
        candidate = _scrypt(secret, salt, n, r, p, len(digest))
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(candidate, digest)


class SecretCache:
    """Right secrets already checked, so that a player's every mail does not
    pay the slow hash again.

    In this process only a match is remembered, and only as an HMAC of the
    stored hash and the secret under a key made when the process starts and
    never written anywhere.  Besides, a secret that pbem itself made (ten
    random characters, about 50 bits) is vouched for when it is handed out:
    an HMAC of it and its stored hash under the host's check key
    (:attr:`durable`, a key file beside the database, see
    :mod:`pbem.storage.secret_checks`) is kept in the database, so even a
    player's first mail after a restart skips the slow hash.  The database
    alone gives nothing to test guesses against (the entries need the key);
    with the key too, guessing a made secret means searching its 50 bits.  A
    secret a player chose (SET PASSWORD, JOIN) is never kept that way: it may
    be weak, and only the slow hash stands for it at rest.  A wrong secret
    always pays the full hash (and the wrong-secret throttle, checked before
    any of this); a new secret (a new stored hash) matches nothing kept.  At
    most ``size`` entries in memory, the least recently used dropped."""

    def __init__(self, size: int = 4096, durable=None):
        self.size = size
        self.durable = durable  # has .key (bytes), .known(entry) and .remember(entry), or None
        self._key = secrets.token_bytes(32)
        self._known: OrderedDict[bytes, None] = OrderedDict()
        self._lock = threading.Lock()

    def _entry(self, secret: str, stored: str) -> bytes:
        """What this process keeps of a right secret in memory."""
        return self._mac(self._key, secret, stored)

    @staticmethod
    def _mac(key: bytes, secret: str, stored: str) -> bytes:
        message = stored.encode("utf-8") + b"\x00" + normalize_secret(secret).encode("utf-8")
        return hmac.new(key, message, hashlib.sha256).digest()

    def verify(self, secret: str, stored: str) -> bool:
        """:func:`verify_secret`, remembering a match."""
        if not isinstance(secret, str) or not isinstance(stored, str):
            return False
        entry = self._entry(secret, stored)
        with self._lock:
            if entry in self._known:
                self._known.move_to_end(entry)
                return True
        vouched = self.durable is not None and self.durable.known(self._mac(self.durable.key, secret, stored))
        if not vouched and not verify_secret(secret, stored):
            return False
        with self._lock:
            self._known[entry] = None
            while len(self._known) > self.size:
                self._known.popitem(last=False)
        return True

    def vouch(self, secret: str, stored: str) -> None:
        """Keep, where it lasts, that *secret* (one pbem made, never one a
        player chose) matches *stored*, as it has just been hashed."""
        if self.durable is not None and normalize_secret(secret):
            self.durable.remember(self._mac(self.durable.key, secret, stored))


def hash_made_secret(cache: SecretCache, secret: str) -> str:
    """:func:`hash_secret` for a secret pbem made itself (:func:`new_secret`),
    vouched for in *cache* so that its checks skip the slow hash."""
    stored = hash_secret(secret)
    cache.vouch(secret, stored)
    return stored


def new_secret() -> str:
    """Ten random characters (about 50 bits) in two groups: ``"k7mqd-x3hrn"``."""
    chars = "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))
    return f"{chars[:5]}-{chars[5:]}"


def reply_token(key: str, game: str, phase_key: str, power: str) -> str:
    """An 8-character token (base32, compared case-insensitively) that a
    power quotes when it answers for this game and phase."""
    message = "\x00".join((game.casefold(), phase_key, power.casefold())).encode("utf-8")
    digest = hmac.new(key.encode("utf-8"), message, hashlib.sha256).digest()
    return base64.b32encode(digest[:5]).decode("ascii").lower()


def check_reply_token(key: str, game: str, phase_key: str, power: str, token: str) -> bool:
    if not isinstance(token, str):
        return False
    given = "".join(ch for ch in token.casefold() if not ch.isspace() and ch != "-")
    expected = reply_token(key, game, phase_key, power)
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("ascii"))


def normalize_address(addr: str) -> str:
    """``'"Lord Salisbury" <Salisbury@Example.ORG>'`` -> ``'salisbury@example.org'``.

    Returns "" when there is no address in *addr*.
    """
    if not isinstance(addr, str):
        return ""
    _name, spec = parseaddr(addr.strip())
    return spec.strip().strip("<>").strip().lower()
