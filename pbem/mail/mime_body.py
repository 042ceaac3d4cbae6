"""The text of a mail's MIME body: which part is the message, and what is only attached.

A mail may be plain text, HTML only, an alternative of both, a forward of another mail, or a
broken multipart; the player's orders are in one of those parts.  This module chooses that part
and lists the rest as attachments, and never raises: a malformed body yields what was read.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from email.policy import compat32

from pbem.mail.decoding import decode_bytes, decode_header_value, read_header
from pbem.mail.html_text import html_to_text
from pbem.mail.quotes import strip_quotes, unflow

log = logging.getLogger(__name__)

MAX_DEPTH = 12  # nested multiparts deeper than this are not worth reading, and could be a bomb


def strip_quoted(text: str) -> str:
    try:
        return strip_quotes(text)
    except Exception:
        log.warning("quote stripping failed; keeping the whole text", exc_info=True)
        return text.strip()


@dataclass
class Body:
    plain: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    forwards: list[Message] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    text: str = ""
    html_only: bool = False
    too_deep: bool = False


def read_body(msg: Message) -> Body:
    body = Body()
    try:
        _walk(msg, body, 0)
    except Exception:
        log.warning("malformed MIME structure; keeping what was read", exc_info=True)
    _settle(body)
    return body


def _settle(body: Body, depth: int = 0) -> None:
    """Choose the text of the message: its own plain text, its HTML, or what it forwards."""
    if body.plain:
        body.text = "\n".join(body.plain)
    elif body.html:
        body.text, body.html_only = html_to_text("\n".join(body.html)), True
    if body.forwards and not strip_quoted(clean_text(body.text)) and depth < MAX_DEPTH:
        # The mail is only a forward: what was forwarded is the message.
        inner = Body()
        try:
            forwarded = body.forwards[0].get_payload()
            if isinstance(forwarded, list) and forwarded:
                _walk(forwarded[0], inner, depth + 1)
        except Exception:
            log.warning("malformed forwarded message", exc_info=True)
        _settle(inner, depth + 1)
        body.text, body.html_only = inner.text, inner.html_only
        body.too_deep = body.too_deep or inner.too_deep
        body.attachments.extend(inner.attachments)
        body.forwards = body.forwards[1:]
    body.attachments.extend(_name(f) for f in body.forwards)


def _walk(part: Message, body: Body, depth: int) -> None:
    if depth > MAX_DEPTH:
        body.too_deep = True
        return
    ctype = part.get_content_type()
    if ctype == "message/rfc822":
        body.forwards.append(part)
        return
    if ctype.startswith("message/") or ctype == "text/rfc822-headers":
        body.attachments.append(_name(part))
        return
    if ctype.startswith("multipart/") and not part.is_multipart():
        # The declared boundary never appears.  Try the boundary the body actually uses; failing
        # that, the player's text is in there somewhere, so read the whole body as text.
        rescued = _rescue_multipart(part)
        if rescued is not None:
            _walk(rescued, body, depth + 1)
        else:
            body.plain.append(_decode_part(part))
        return
    if part.is_multipart():
        subparts = [p for p in part.get_payload() if isinstance(p, Message)]
        if ctype == "multipart/alternative":
            _walk_alternative(subparts, body, depth)
        else:
            for sub in subparts:
                _walk(sub, body, depth + 1)
        return
    if ctype not in ("text/plain", "text/html") or _is_attachment(part):
        body.attachments.append(_name(part))
        return
    text = _decode_part(part)
    if ctype == "text/html":
        body.html.append(text)
    else:
        body.plain.append(text)


def _rescue_multipart(part: Message) -> Message | None:
    payload = part.get_payload()
    if not isinstance(payload, str):
        return None
    found = re.search(r"^--([^\s]{1,70}?)(--)?[ \t]*\r?$", payload, re.MULTILINE)
    if not found:
        return None
    head = f'Content-Type: {part.get_content_type()}; boundary="{found.group(1)}"\n\n'
    rebuilt = message_from_bytes((head + payload).encode("utf-8", "surrogateescape"), policy=compat32)
    return rebuilt if rebuilt.is_multipart() else None


def _walk_alternative(subparts: list[Message], body: Body, depth: int) -> None:
    """Read the plain-text variant if there is one, else the HTML one; never both."""
    variants = []
    for sub in subparts:
        variant = Body()
        _walk(sub, variant, depth + 1)
        variants.append(variant)
    # Some clients send an empty text/plain beside the real HTML.
    chosen = (next((v for v in variants if "".join(v.plain).strip()), None)
              or next((v for v in variants if v.html), None)
              or (variants[0] if variants else None))
    if chosen is None:
        return
    body.plain.extend(chosen.plain)
    body.html.extend(chosen.html)
    body.forwards.extend(chosen.forwards)
    body.attachments.extend(chosen.attachments)


def _is_attachment(part: Message) -> bool:
    disposition = (part.get("Content-Disposition") or "").split(";", 1)[0].strip().lower()
    return disposition == "attachment" or bool(part.get_filename())


def _name(part: Message) -> str:
    try:
        filename = part.get_filename()
    except Exception:
        filename = None
    if filename:
        return decode_header_value(filename)
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload() if part.is_multipart() else None
        subject = read_header(inner[0], "Subject") if inner else None
        return f"message/rfc822: {subject}" if subject else "message/rfc822"
    return part.get_content_type()


def _decode_part(part: Message) -> str:
    try:
        data = part.get_payload(decode=True)
    except Exception:
        log.debug("undecodable payload", exc_info=True)
        data = None
    if data is None:
        payload = part.get_payload()
        data = payload.encode("utf-8", "surrogateescape") if isinstance(payload, str) else b""
    text = decode_bytes(data, part.get_content_charset())
    if (part.get_param("format") or "").lower() == "flowed":
        text = unflow(text, delsp=(part.get_param("delsp") or "").lower() == "yes")
    return text


def clean_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Non-breaking and zero-width spaces come from HTML editors and confuse a line parser.
    return text.replace("\xa0", " ").replace("\u200b", "").replace("\ufeff", "")
