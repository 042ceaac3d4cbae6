"""Turn a raw inbound mail into an :class:`Inbound`: headers decoded, body as plain text.

The moderator reads orders line by line, so whatever a mail client sent (HTML only, base64,
a forwarded message, an odd charset) ends up as plain text with the quoted earlier mail removed.
Nothing here raises on a malformed mail: a broken mail yields whatever could be read, because one
bad message must never stop the intake loop.

This module reads the envelope (addresses, Message-IDs, the headers the classifier needs);
the body is read by :mod:`pbem.mail.mime_body`, charsets and encoded words by
:mod:`pbem.mail.decoding`, HTML by :mod:`pbem.mail.html_text`.
"""
from __future__ import annotations

import email.policy
import hashlib
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses, parseaddr

from pbem.mail.classify import automatic_reason
from pbem.mail.decoding import decode_bytes, decode_header_value, raw_header, read_header
from pbem.mail.mime_body import Body, clean_text, read_body, strip_quoted

log = logging.getLogger(__name__)

_INTERESTING_HEADERS = (
    "to", "cc", "delivered-to", "auto-submitted", "precedence", "list-id", "x-pbem-loop",
    "x-auto-response-suppress", "x-mailer", "user-agent", "authentication-results",
    "dkim-signature", "received-spf", "content-type",
)
_MSG_ID = re.compile(r"<[^<>\s]+>")


@dataclass
class Inbound:
    message_id: str
    sender: str
    sender_name: str
    reply_to: str | None
    return_path: str | None
    subject: str
    date: str | None
    in_reply_to: str | None
    references: list[str]
    text: str
    full_text: str
    attachments: list[str] = field(default_factory=list)
    html_only: bool = False
    automatic: str | None = None
    too_large: bool = False
    size: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    too_deep: bool = False   # parts nested deeper than MAX_DEPTH were not read


def parse_message(raw: bytes, *, max_bytes: int = 1_000_000, own_addresses: Iterable[str] = (),
                  own_domain: str | None = None,
                  own_message_id: Callable[[str], bool] | None = None,
                  size: int | None = None) -> Inbound:
    """Parse ``raw`` into an :class:`Inbound`; never raises on a malformed mail.
    ``own_message_id`` tells whether a Message-ID is one pbem sent (see
    :func:`pbem.mail.classify.automatic_reason`); ``size``, the size of the
    mail as it came when ``raw`` is only its beginning (an oversized mail)."""
    size = len(raw) if size is None else size
    too_large = size > max_bytes
    # An oversized mail is answered with a refusal, which needs only its headers.
    msg = _message(_header_section(raw) if too_large else raw, size)
    body = Body() if too_large else read_body(msg)
    full_text = clean_text(body.text)
    sender_name, sender = _address(msg, "From")
    reply_to = _address(msg, "Reply-To")[1] or None
    try:
        automatic = automatic_reason(msg, own_addresses=own_addresses, own_domain=own_domain,
                                     own_message_id=own_message_id)
    except Exception:
        log.warning("could not classify mail", exc_info=True)
        automatic = None
    return Inbound(
        message_id=_message_id(msg, raw), sender=sender, sender_name=sender_name,
        reply_to=reply_to, return_path=_return_path(msg),
        subject=read_header(msg, "Subject") or "", date=read_header(msg, "Date"),
        in_reply_to=_first_msg_id(read_header(msg, "In-Reply-To")),
        references=_MSG_ID.findall(read_header(msg, "References") or ""),
        text=strip_quoted(full_text), full_text=full_text, attachments=body.attachments,
        html_only=body.html_only, automatic=automatic, too_large=too_large, size=size,
        headers=_interesting_headers(msg), too_deep=body.too_deep,
    )


def readable_texts(raw: bytes) -> list[str]:
    """The texts :func:`parse_message` reads from a whole mail (its body's text, the
    Subject, the headers it keeps), decoded the same way, without reading the
    addresses or classifying the mail: what a check that a secret is gone needs
    (:func:`pbem.outbound.secrets_at_rest.still_holds`), at half the cost."""
    msg = _message(raw)
    return [clean_text(read_body(msg).text), read_header(msg, "Subject") or "",
            *_interesting_headers(msg).values()]


def _message(raw: bytes, size: int | None = None) -> Message:
    """The mail parsed leniently; ``size``: the whole mail's, for the log, when ``raw`` is
    only its beginning."""
    try:
        return message_from_bytes(raw, policy=compat32)
    except Exception:  # the parser is lenient, but a crash here must still yield a result
        log.warning("unparseable mail of %d bytes", len(raw) if size is None else size, exc_info=True)
        return Message()


def _header_section(raw: bytes) -> bytes:
    ends = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    return raw[:min(ends)] + b"\n\n" if ends else raw[:65536]



def _address(msg: Message, name: str) -> tuple[str, str]:
    """(display name, bare lower-case address) of the first usable address in header ``name``.

    The library's address parser reads the header (it decodes RFC 2047 words after it has
    split the list, so an encoded comma cannot split a name in two).  A display name with an
    unbalanced parenthesis or quote swallows the address in a comment or a quoted string;
    read that way the header has no address at all, so it is read once more with the
    parentheses and quotes taken as spaces, which is what the writer meant.
    """
    raw = raw_header(msg, name)
    if not raw:
        return "", ""
    raw = _unfolded(raw)
    for candidate in (raw, _UNBALANCED.sub(" ", raw)):
        for real, addr in _library_addresses(candidate):
            addr = addr.strip().lower()
            if _USABLE.fullmatch(addr):
                return " ".join(real.split()).strip('"'), addr
    return "", ""


_UNBALANCED = re.compile(r'[()"]')
_USABLE = re.compile(r"[^\s@<>()\[\],;:\\\"]+@[^\s@<>()\[\],;:\\\"]+")


def _unfolded(value: str) -> str:
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        value = decode_bytes(value.encode("utf-8", "surrogateescape"), None)
    return re.sub(r"\r?\n([ \t])", r"\1", value).replace("\r", " ").replace("\n", " ")


def _library_addresses(value: str) -> list[tuple[str, str]]:
    """(display name, address) pairs as the email package's header parser reads them."""
    try:
        header = email.policy.default.header_factory("From", value)
        return [(a.display_name or "", a.addr_spec or "") for a in header.addresses]
    except Exception:  # the header parser has known crashes on odd input; fall back to the old one
        return [(real, addr) for real, addr in getaddresses([value]) if addr]


def _return_path(msg: Message) -> str | None:
    raw = raw_header(msg, "Return-Path")
    if raw is None:
        return None
    if raw.replace(" ", "").strip() in ("<>", ""):
        return ""
    return decode_header_value(parseaddr(raw)[1]).lower()


def _first_msg_id(value: str | None) -> str | None:
    if not value:
        return None
    found = _MSG_ID.search(value)
    return found.group(0) if found else value.strip() or None


def _message_id(msg: Message, raw: bytes) -> str:
    found = _first_msg_id(read_header(msg, "Message-ID"))
    if found:
        return found if found.startswith("<") else f"<{found}>"
    # Stable, so a redelivered copy of the same mail is still recognised as seen.
    return f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _interesting_headers(msg: Message) -> dict[str, str]:
    found = {name: read_header(msg, name) for name in _INTERESTING_HEADERS}
    return {name: value for name, value in found.items() if value is not None}
