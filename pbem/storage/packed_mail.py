"""How a report mail is kept in the outbox: once, small, and given back byte for byte.

Every reader's report of a phase carries the same map as an inline image (about 60 KB,
80 KB once base64-encoded), so a phase mailed to eight readers stored the same image eight
times.  A packed mail keeps each inline part's bytes apart, once for every mail that shows
them (content-addressed by SHA-256, table ``outbox_parts``), and the rest of the mail (its
headers, text and HTML) compressed with zlib.  :func:`unpack` puts the mail together again
exactly as it was built: the same bytes are sent on every try, so a mail sent again after a
crash is the very same mail.

Pure functions: :mod:`pbem.storage.outbox_rows` reads and writes the rows.
"""
from __future__ import annotations

import base64
import hashlib
import zlib
from collections.abc import Callable, Sequence

#: the first bytes of a packed mail (a mail as built starts with a header name, never NUL)
MAGIC = b"\x00pbem-packed-1\x00"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _encoded(data: bytes) -> bytes:
    # What the email package writes for a base64 part: lines of 76 characters, each ended by "\n".
    return base64.encodebytes(data)


def pack(raw: bytes, inline: Sequence[bytes]) -> tuple[bytes, list[list], dict[str, bytes]]:
    """``raw`` packed: (the rest of the mail compressed, where each inline part goes as
    [offset, digest], the parts by digest).  An inline part whose encoding is not found in
    ``raw`` exactly once stays in the rest; the result always unpacks to ``raw``."""
    cuts: list[tuple[int, int, str]] = []
    parts: dict[str, bytes] = {}
    for data in inline:
        body = _encoded(data)
        at = raw.find(body)
        if at < 0 or raw.find(body, at + 1) >= 0 or any(a < at + len(body) and at < a + n for a, n, _ in cuts):
            continue
        cuts.append((at, len(body), digest(data)))
        parts[digest(data)] = data
    cuts.sort()
    rest, where, last, removed = [], [], 0, 0
    for at, n, key in cuts:
        rest.append(raw[last:at])
        where.append([at - removed, key])
        last, removed = at + n, removed + n
    rest.append(raw[last:])
    packed = MAGIC + zlib.compress(b"".join(rest), 6)
    if unpack(packed, where, parts.__getitem__) != raw:  # never stored unless it gives the mail back
        return MAGIC + zlib.compress(raw, 6), [], {}
    return packed, where, parts


def is_packed(stored: bytes | None) -> bool:
    return bool(stored) and bytes(stored[:len(MAGIC)]) == MAGIC


def unpack(stored: bytes, where: Sequence[Sequence] | None, part: Callable[[str], bytes]) -> bytes:
    """The mail as it was built, from what :func:`pack` kept; ``part(digest)`` gives a part's
    bytes.  A mail that was never packed is given back as it is."""
    if not is_packed(stored):
        return stored
    rest = zlib.decompress(bytes(stored[len(MAGIC):]))
    out, last = [], 0
    for at, key in where or ():
        out += [rest[last:at], _encoded(part(key))]
        last = at
    out.append(rest[last:])
    return b"".join(out)
