"""Files a GM attaches to a mail: only small TOML data files are ever read."""
from __future__ import annotations

from email import message_from_bytes, policy

from pbem.base.gamedata import MAX_BYTES


def toml_files(raw: bytes) -> dict[str, str]:
    """``name -> text`` of the ``.toml`` attachments of a mail (UTF-8, small);
    anything else is left alone."""
    found: dict[str, str] = {}
    msg = message_from_bytes(raw, policy=policy.default)
    for part in msg.walk():
        name = part.get_filename()
        if not name or not name.lower().endswith(".toml") or part.is_multipart():
            continue
        payload = part.get_payload(decode=True) or b""
        if len(payload) > MAX_BYTES:
            continue
        try:
            found[name.rsplit("/", 1)[-1]] = payload.decode("utf-8")
        except UnicodeDecodeError:
            continue
    return found
