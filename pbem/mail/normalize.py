"""Turn a raw inbound mail into an :class:`Inbound`: headers decoded, body as plain text.

The moderator reads orders line by line, so whatever a mail client sent (HTML only, base64,
a forwarded message, an odd charset) ends up as plain text with the quoted earlier mail removed.
Nothing here raises on a malformed mail: a broken mail yields whatever could be read, because one
bad message must never stop the intake loop.
"""
from __future__ import annotations

import codecs
import email.policy
import hashlib
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from email.policy import compat32
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from pbem.mail.classify import automatic_reason
from pbem.mail.quotes import strip_quotes, unflow

log = logging.getLogger(__name__)

_INTERESTING_HEADERS = (
    "to", "cc", "delivered-to", "auto-submitted", "precedence", "list-id", "x-pbem-loop",
    "x-auto-response-suppress", "x-mailer", "user-agent", "authentication-results",
    "dkim-signature", "received-spf", "content-type",
)
MAX_DEPTH = 12  # nested multiparts deeper than this are not worth reading, and could be a bomb
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
    source = _header_section(raw) if too_large else raw
    try:
        msg = message_from_bytes(source, policy=compat32)
    except Exception:  # the parser is lenient, but a crash here must still yield a result
        log.warning("unparseable mail of %d bytes", size, exc_info=True)
        msg = Message()
    body = _Body() if too_large else _read_body(msg)
    full_text = _clean_text(body.text)
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
        subject=_header(msg, "Subject") or "", date=_header(msg, "Date"),
        in_reply_to=_first_msg_id(_header(msg, "In-Reply-To")),
        references=_MSG_ID.findall(_header(msg, "References") or ""),
        text=_strip(full_text), full_text=full_text, attachments=body.attachments,
        html_only=body.html_only, automatic=automatic, too_large=too_large, size=size,
        headers=_interesting_headers(msg), too_deep=body.too_deep,
    )


def _header_section(raw: bytes) -> bytes:
    ends = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
    return raw[:min(ends)] + b"\n\n" if ends else raw[:65536]


def _strip(text: str) -> str:
    try:
        return strip_quotes(text)
    except Exception:
        log.warning("quote stripping failed; keeping the whole text", exc_info=True)
        return text.strip()



def _decode_header(value: str) -> str:
    """RFC 2047 words decoded; raw 8-bit bytes (not allowed, yet common) read as UTF-8 or cp1252."""
    if any("\udc80" <= ch <= "\udcff" for ch in value):
        value = decode_bytes(value.encode("utf-8", "surrogateescape"), None)
    # Unfold first: a folded header is one logical line.
    value = re.sub(r"\r?\n([ \t])", r"\1", value)
    return header_text(value).replace("\r", " ").replace("\n", " ").strip()


def header_text(value: str) -> str:
    """A header's RFC 2047 words decoded one by one: a word in a charset
    nobody knows is read as UTF-8 (else Windows-1252) instead of leaving
    every other word of the header encoded."""
    try:
        return str(make_header(decode_header(value)))
    except Exception:
        pass
    try:
        chunks = decode_header(value)
    except Exception:
        return value
    return "".join(decode_bytes(chunk, charset) if isinstance(chunk, bytes) else chunk
                   for chunk, charset in chunks)


def _raw_header(msg: Message, name: str) -> str | None:
    """The header as received, bypassing compat32's lossy handling of 8-bit bytes."""
    wanted = name.lower()
    try:
        for key, value in msg.raw_items():
            if key.lower() == wanted:
                return value if isinstance(value, str) else str(value)
    except Exception:
        log.debug("unreadable header %s", name, exc_info=True)
    return None


def _header(msg: Message, name: str) -> str | None:
    value = _raw_header(msg, name)
    return None if value is None else _decode_header(value)


def _address(msg: Message, name: str) -> tuple[str, str]:
    """(display name, bare lower-case address) of the first usable address in header ``name``.

    The library's address parser reads the header (it decodes RFC 2047 words after it has
    split the list, so an encoded comma cannot split a name in two).  A display name with an
    unbalanced parenthesis or quote swallows the address in a comment or a quoted string;
    read that way the header has no address at all, so it is read once more with the
    parentheses and quotes taken as spaces, which is what the writer meant.
    """
    raw = _raw_header(msg, name)
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
    raw = _raw_header(msg, "Return-Path")
    if raw is None:
        return None
    if raw.replace(" ", "").strip() in ("<>", ""):
        return ""
    return _decode_header(parseaddr(raw)[1]).lower()


def _first_msg_id(value: str | None) -> str | None:
    if not value:
        return None
    found = _MSG_ID.search(value)
    return found.group(0) if found else value.strip() or None


def _message_id(msg: Message, raw: bytes) -> str:
    found = _first_msg_id(_header(msg, "Message-ID"))
    if found:
        return found if found.startswith("<") else f"<{found}>"
    # Stable, so a redelivered copy of the same mail is still recognised as seen.
    return f"<{hashlib.sha256(raw).hexdigest()}@pbem.invalid>"


def _interesting_headers(msg: Message) -> dict[str, str]:
    found = {name: _header(msg, name) for name in _INTERESTING_HEADERS}
    return {name: value for name, value in found.items() if value is not None}



@dataclass
class _Body:
    plain: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)
    forwards: list[Message] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    text: str = ""
    html_only: bool = False
    too_deep: bool = False


def _read_body(msg: Message) -> _Body:
    body = _Body()
    try:
        _walk(msg, body, 0)
    except Exception:
        log.warning("malformed MIME structure; keeping what was read", exc_info=True)
    _settle(body)
    return body


def _settle(body: _Body, depth: int = 0) -> None:
    """Choose the text of the message: its own plain text, its HTML, or what it forwards."""
    if body.plain:
        body.text = "\n".join(body.plain)
    elif body.html:
        body.text, body.html_only = html_to_text("\n".join(body.html)), True
    if body.forwards and not _strip(_clean_text(body.text)) and depth < MAX_DEPTH:
        # The mail is only a forward: what was forwarded is the message.
        inner = _Body()
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


def _walk(part: Message, body: _Body, depth: int) -> None:
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


def _walk_alternative(subparts: list[Message], body: _Body, depth: int) -> None:
    """Read the plain-text variant if there is one, else the HTML one; never both."""
    variants = []
    for sub in subparts:
        variant = _Body()
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
        return _decode_header(filename)
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload() if part.is_multipart() else None
        subject = _header(inner[0], "Subject") if inner else None
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


def decode_bytes(data: bytes, charset: str | None) -> str:
    """Decode ``data`` in its declared charset, falling back sensibly when that is wrong or unknown."""
    # Mail without a declared charset, or mislabelled, is most often UTF-8, else Windows-1252.
    for name in (_codec(charset) or "utf-8", "utf-8", "cp1252"):
        try:
            return data.decode(name)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _codec(charset: str | None) -> str | None:
    if not charset:
        return None
    charset = charset.strip().strip('"').lower()
    if charset in ("us-ascii", "ascii", "iso-8859-1", "latin-1", "latin1", "iso_8859-1"):
        # Clients that say latin-1 or ascii routinely send Windows-1252 quotes and euro signs.
        charset = "cp1252"
    try:
        return codecs.lookup(charset).name
    except (LookupError, ValueError):  # unknown, or not a name at all (a NUL in it)
        return None


def _clean_text(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Non-breaking and zero-width spaces come from HTML editors and confuse a line parser.
    return text.replace("\xa0", " ").replace("\u200b", "").replace("\ufeff", "")



_BLOCK_TAGS = {
    "p", "div", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
    "address", "center", "dl", "dt", "dd", "section", "article", "header", "footer", "hr",
    "form", "fieldset", "blockquote",
}
_SKIP_TAGS = {"head", "style", "script", "title", "template"}


class _TextExtractor(HTMLParser):
    """HTML to plain lines: block elements and <br> end lines, blockquotes become "> " quotes.

    No markup survives (no emphasis, no link targets), so the order parser sees what a
    reader of the rendered mail saw.

    Not html2text: it writes Markdown, and even set up for plain text (no wrapping, links,
    emphasis or tables) it escaped a leading "-", so the "--" signature line and Outlook's
    "-----Original Message-----" were no longer recognised and signatures and quoted
    reports stayed in the orders of three corpus mails (gmail_html_only, outlook_html_only,
    outlook_web_html); it also turns <hr> into "* * *", list items into "  1. BUY ...",
    indents <pre> by four spaces and runs table cells together.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current = ""
        self.quote_depth = 0
        self.skip_depth = 0
        self.pre_depth = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in _SKIP_TAGS:
            self.skip_depth += 1
        elif tag == "br":
            self._end_line(force=True)
        elif tag in ("td", "th"):
            self.current += " "
        elif tag in _BLOCK_TAGS:
            self._end_line()
            if tag == "blockquote":
                self.quote_depth += 1
            elif tag == "pre":
                self.pre_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP_TAGS:
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag in _BLOCK_TAGS:
            self._end_line()
            if tag == "blockquote":
                self.quote_depth = max(0, self.quote_depth - 1)
            elif tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.pre_depth:
            chunks = data.replace("\r\n", "\n").split("\n")
            for chunk in chunks[:-1]:
                self.current += chunk
                self._end_line(force=True)
            self.current += chunks[-1]
            return
        text = re.sub(r"[ \t\r\n\f]+", " ", data)
        if not self.current.strip():
            text = text.lstrip(" ")
        self.current += text

    def _end_line(self, force: bool = False) -> None:
        line = self.current.rstrip()
        if self.current or force:
            prefix = "> " * self.quote_depth
            self.lines.append((prefix + line.strip(" ")).rstrip() if not self.pre_depth
                              else prefix + line)
        self.current = ""

    def text(self) -> str:
        self._end_line()
        collapsed: list[str] = []
        for line in self.lines:
            if not line.strip(" >") and collapsed and not collapsed[-1].strip(" >"):
                continue  # at most one blank line in a row
            collapsed.append(line)
        return "\n".join(collapsed).strip("\n")


def html_to_text(html: str) -> str:
    """Readable plain text from an HTML mail body."""
    parser = _TextExtractor()
    try:
        parser.feed(html)
        parser.close()
    except Exception:
        log.warning("HTML could not be fully read", exc_info=True)
    return parser.text()
