"""Build the mail the moderator sends: acknowledgements, turn reports, notices.

Every outgoing mail is marked ``Auto-Submitted`` (RFC 3834) so well-behaved autoresponders stay
quiet, and carries our ``X-PBEM-Loop`` header so our own mail is recognised if it ever comes back.
``Precedence`` is deliberately not set: it is non-standard, and some providers file such mail as
bulk or spam.
"""
from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from email.headerregistry import Address
from email import contentmanager
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import format_datetime

from pbem.mail.classify import LOOP_HEADER

log = logging.getLogger(__name__)

# Headers build_message owns; extra_headers may not silently replace them.
_OWN_HEADERS = {
    "from", "to", "cc", "subject", "date", "message-id", "in-reply-to", "references",
    "auto-submitted", LOOP_HEADER.lower(), "mime-version", "content-type",
    "content-transfer-encoding",
}


#: a subject this long or longer is shortened: mail clients show about this much in a list,
#: and a header line of "Subject: " and at most 59 characters is never folded (RFC 5322's 78).
SUBJECT_LIMIT = 60


def fit_subject(subject: str, limit: int = SUBJECT_LIMIT) -> str:
    """``subject`` on one line and shorter than ``limit``: cut at a word and marked "..."
    when it is too long."""
    subject = " ".join(subject.split())
    if len(subject) < limit:
        return subject
    cut = subject[:limit - 4]
    if subject[limit - 4] != " " and " " in cut[limit // 2:]:
        cut = cut.rsplit(" ", 1)[0]  # not in the middle of a word
    return cut.rstrip(" ,:;-(") + "..."


def make_message_id(domain: str, key: str) -> str:
    """A Message-ID derived from ``key``, so a resent reply keeps its Message-ID."""
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
    return f"<{digest}@{domain}>"


def build_message(*, from_addr: str, from_name: str = "", to: list[str], subject: str, text: str,
                  html: str | None = None, cc: Iterable[str] = (), message_id: str,
                  in_reply_to: str | None = None, references: Iterable[str] = (),
                  auto_submitted: str = "auto-replied", loop_tag: str | None = None,
                  date: datetime | None = None,
                  extra_headers: dict[str, str] | None = None,
                  related: Sequence[Inline] = ()) -> EmailMessage:
    """A complete UTF-8 mail: plain text first, with an HTML alternative when ``html`` is given.

    ``related`` are parts the HTML shows inline (``<img src="cid:...">``), such as a map: the HTML
    and they go together in a multipart/related part, so the plain text stays first and complete.

    Header values with line breaks raise ValueError (header injection); the subject, which often
    echoes a player's own subject line, is flattened to one line instead, and shortened to fewer
    than 60 characters (:func:`fit_subject`).
    """
    msg = EmailMessage(policy=default_policy)
    # A display name ("pbem <pbem@example.org>") reads better in a mail client's list.
    sender = Address(display_name=from_name, addr_spec=from_addr) if from_name else from_addr
    for name, value in _headers(sender, to, cc, subject, date, message_id, in_reply_to, references,
                                auto_submitted, loop_tag):
        msg[name] = value
    for name, value in (extra_headers or {}).items():
        if name.lower() in _OWN_HEADERS:
            raise ValueError(f"header {name} is set by build_message itself")
        msg[name] = value
    # The email package picks 7bit, quoted-printable or base64 per body, so long lines and any
    # character survive every relay.
    msg.set_content(text, charset="utf-8")
    if html is not None:
        msg.add_alternative(html, subtype="html", charset="utf-8")
        html_part = msg.get_payload()[-1]
        for part in related:
            maintype, subtype = part.mime_type.split("/", 1)
            html_part.add_related(part.data, maintype=maintype, subtype=subtype, cid=f"<{part.cid}>",
                                  filename=part.filename, disposition="inline")
    elif related:
        raise ValueError("inline parts need an HTML body to show them")
    return msg


def compose_bytes(**fields) -> bytes:
    """The bytes of :func:`build_message` for the same arguments.

    Most of what pbem sends is one short plain-text part with ASCII headers that need no
    folding; for that mail the bytes are written directly, the same bytes the email
    package writes (a test compares the two over generated mail), without building a
    header object for every header: that building was the largest single cost of
    answering a mail in a backlog.  Anything else goes through :func:`build_message`."""
    plain = _plain_bytes(**fields)
    return plain if plain is not None else bytes(build_message(**fields))


# What the email package writes as it is, unquoted and unencoded: a display name of
# atoms and spaces (RFC 5322 3.2.3, 3.2.5), a dot-atom address (3.4.1), an ASCII
# header value without a line break.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?: [A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                            r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_PLAIN_VALUE = re.compile(r"[\x21-\x7e]+(?: [\x21-\x7e]+)*")
_PLAIN_FIELD_NAME = re.compile(r"[\x21-\x39\x3b-\x7e]+")
#: the email package folds a header line longer than this
_LINE_LIMIT = 78
#: how the email package encodes a text body; should a later Python lack it, every mail
#: is built by the package itself
_encode_text = getattr(contentmanager, "_encode_text", None)


def _plain_bytes(*, from_addr: str, from_name: str = "", to: list[str], subject: str, text: str,
                 html: str | None = None, cc: Iterable[str] = (), message_id: str,
                 in_reply_to: str | None = None, references: Iterable[str] = (),
                 auto_submitted: str = "auto-replied", loop_tag: str | None = None,
                 date: datetime | None = None, extra_headers: dict[str, str] | None = None,
                 related: Sequence[Inline] = ()) -> bytes | None:
    """The mail as bytes when it is the plain kind :func:`compose_bytes` writes itself, else
    None.  The header order is :func:`build_message`'s."""
    if html is not None or related or _encode_text is None:
        return None
    cc = list(cc)
    if not all(_PLAIN_ADDRESS.fullmatch(a) for a in [from_addr, *to, *cc]):
        return None
    if from_name and not _PLAIN_NAME.fullmatch(from_name):
        return None
    headers = _headers(f"{from_name} <{from_addr}>" if from_name else from_addr, to, cc, subject, date,
                       message_id, in_reply_to, references, auto_submitted, loop_tag)
    for name, value in (extra_headers or {}).items():
        if name.lower() in _OWN_HEADERS or not _PLAIN_FIELD_NAME.fullmatch(name):
            return None  # build_message refuses it, or writes it its own way
        headers.append((name, value))
    lines = [f"{name}: {value}" for name, value in headers]
    if any(len(line) > _LINE_LIMIT or not _PLAIN_VALUE.fullmatch(value)
           for line, (_, value) in zip(lines, headers)):
        return None
    # The body as the email package encodes text content: 7bit or 8bit when every line is
    # short, else quoted-printable or base64, whichever is shorter.
    encoding, payload = _encode_text(text, "utf-8", None, default_policy)
    body = payload.encode("ascii", "surrogateescape")
    lines += ['Content-Type: text/plain; charset="utf-8"', f"Content-Transfer-Encoding: {encoding}",
              "MIME-Version: 1.0"]
    return ("\n".join(lines) + "\n\n").encode("ascii") + body


@dataclass(frozen=True)
class Inline:
    """A part the HTML body shows inline: ``cid`` without angle brackets (the HTML says
    ``src="cid:<cid>"``), a MIME type such as ``image/svg+xml``, the bytes, a file name."""

    cid: str
    mime_type: str
    data: bytes
    filename: str


def content_id(domain: str, key: str) -> str:
    """A Content-ID derived from ``key``, stable like the Message-ID of the mail it is in."""
    return f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}@{domain}"


def _headers(sender, to: list[str], cc: Iterable[str], subject: str, date: datetime | None,
             message_id: str, in_reply_to: str | None, references: Iterable[str],
             auto_submitted: str, loop_tag: str | None) -> list[tuple[str, object]]:
    """The headers :func:`build_message` sets itself, in its order, as (name, value)."""
    cc = list(cc)
    headers: list[tuple[str, object]] = [("From", sender), ("To", ", ".join(to))]
    if cc:
        headers.append(("Cc", ", ".join(cc)))
    headers += [("Subject", fit_subject(subject)),
                ("Date", format_datetime(_aware(date or datetime.now(timezone.utc)))),
                ("Message-ID", message_id)]
    if in_reply_to:
        headers.append(("In-Reply-To", in_reply_to))
    chain = _references(references, in_reply_to)
    if chain:
        headers.append(("References", " ".join(chain)))
    if auto_submitted:
        headers.append(("Auto-Submitted", auto_submitted))
    if loop_tag:
        headers.append((LOOP_HEADER, loop_tag))
    return headers


def _aware(date: datetime) -> datetime:
    # A naive datetime is taken as UTC: the moderator's clock runs in UTC.
    return date if date.tzinfo is not None else date.replace(tzinfo=timezone.utc)


def _references(references: Iterable[str], in_reply_to: str | None) -> list[str]:
    chain: list[str] = []
    for ref in [*references, *([in_reply_to] if in_reply_to else [])]:
        ref = ref.strip()
        if ref and ref not in chain:
            chain.append(ref)
    return chain
