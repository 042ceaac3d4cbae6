"""A local mailbox as a person reads it (``pbem mail``): the Maildirs the embedded default
delivers into, one per recipient, shown mail by mail with From, To, Date and Subject, the
plain-text part decoded, the attachments and inline images listed, and the HTML part written
to a file a browser opens, its ``cid:`` images carried inside it as ``data:`` URLs.

Nothing here changes a Maildir: reading a mailbox marks nothing as read, so a program that
reads the same mailbox (the demo's bots) sees every mail still.
"""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import TextIO
from urllib.parse import unquote

from pbem.mail.maildir_source import MaildirDelivery, read_maildir
from pbem.mail.decoding import decode_bytes
from pbem.mail.html_text import html_to_text
from pbem.mail.source import PermanentFailure

RULE = "=" * 72
_CID = re.compile(r"cid:([^\"'\s)>]+)", re.I)
# The page written for a browser runs no script and loads nothing from outside: the images
# it shows are inside it.  A mail's HTML is someone else's page on the reader's disk.
_PAGE_HEAD = ('<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" '
              "content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">")


class MailboxError(Exception):
    """A mailbox that cannot be read as asked; the message says why and what to do."""


@dataclass(frozen=True)
class Attachment:
    name: str
    mime_type: str
    size: int
    shown_inline: bool    # the HTML part shows it (an image it names by cid:)

    def describe(self) -> str:
        where = "an image the HTML part shows" if self.shown_inline else "attached"
        return f"{self.name} ({self.mime_type}, {_size(self.size)}): {where}"


def mailbox(root: Path, address: str) -> Path:
    """The Maildir local delivery fills for ``address`` under ``root``."""
    try:
        return MaildirDelivery(root).maildir_for(address)
    except PermanentFailure:
        raise MailboxError(f"{address!r} is not a mail address") from None


def mailboxes(root: Path) -> list[tuple[str, list[EmailMessage]]]:
    """Every local mailbox under ``root`` with its mail, oldest first, by address."""
    if not root.is_dir():
        return []
    return [(folder.name, read(folder)) for folder in sorted(root.iterdir())
            if (folder / "cur").is_dir() or (folder / "new").is_dir()]


def read(folder: Path) -> list[EmailMessage]:
    """The mail of one Maildir, oldest first."""
    return [message_from_bytes(data, policy=policy.default) for data in read_maildir(folder)]


def text_body(msg: EmailMessage, *, prefer_html: bool = False) -> tuple[str, str]:
    """(what a reader sees as the mail's text, a note saying where it came from or "")."""
    plain, html = msg.get_body(("plain",)), msg.get_body(("html",))
    if html is not None and (prefer_html or plain is None):
        note = "the HTML part, read as text" if plain is not None else "no plain-text part: the HTML part, read as text"
        return html_to_text(_decoded(html)), note
    if plain is None:
        return "", "no text part"
    return _decoded(plain), ""


def attachments(msg: EmailMessage) -> list[Attachment]:
    """Every part besides the text and the HTML body, in the mail's order."""
    bodies = [b for b in (msg.get_body(("plain",)), msg.get_body(("html",))) if b is not None]
    shown = _cids_shown(msg)
    found = []
    for part in msg.walk():
        if part.is_multipart() or any(part is body for body in bodies):
            continue
        cid = _content_id(part)
        name = part.get_filename() or (f"<{cid}>" if cid else "(no name)")
        found.append(Attachment(name, part.get_content_type(), len(part.get_payload(decode=True) or b""),
                                bool(cid) and cid in shown))
    return found


def html_page(msg: EmailMessage) -> tuple[str, int] | None:
    """The HTML part as a page a browser opens from a file, with every ``cid:`` image it shows
    carried inside it as a ``data:`` URL, and how many images were carried; None without an
    HTML part."""
    html = msg.get_body(("html",))
    if html is None:
        return None
    parts = {cid: part for part in msg.walk() if not part.is_multipart() and (cid := _content_id(part))}
    carried = set()

    def inline(match: re.Match) -> str:
        cid = unquote(match.group(1))
        part = parts.get(cid)
        if part is None:
            return match.group(0)
        carried.add(cid)
        data = base64.b64encode(part.get_payload(decode=True) or b"").decode("ascii")
        return f"data:{part.get_content_type()};base64,{data}"

    page = _CID.sub(inline, _decoded(html))
    head = re.search(r"<head[^>]*>", page, re.I)
    page = (page[:head.end()] + _PAGE_HEAD + page[head.end():]) if head else _PAGE_HEAD + page
    return page, len(carried)


def render(msg: EmailMessage, number: int, total: int, *, prefer_html: bool = False) -> str:
    """One mail as a person reads it."""
    lines = [f"==== mail {number} of {total} " + "=" * max(4, 56 - len(f"{number}{total}"))]
    for name in ("From", "To", "Cc", "Date", "Subject"):
        if msg[name] is not None:
            lines.append(f"{name + ':':9}{' '.join(str(msg[name]).split())}")
    text, note = text_body(msg, prefer_html=prefer_html)
    lines.append("")
    if note:
        lines.append(f"({note})")
    lines.append(text.rstrip("\n"))
    found = attachments(msg)
    if found:
        lines += ["", "Attachments and images:"] + [f"  {a.describe()}" for a in found]
    page = html_page(msg)
    if page is not None:
        images = f", {page[1]} image{'s' if page[1] != 1 else ''} inside" if page[1] else ""
        lines += ["", f"HTML part: {_size(len(page[0].encode('utf-8')))}{images} (--open FILE writes it "
                      "for a browser)"]
    return "\n".join(lines) + "\n"


def show(root: Path, address: str | None, out: TextIO, *, last: int | None = None,
         prefer_html: bool = False, open_file: Path | None = None) -> int:
    """``pbem mail``: list the local mailboxes, or show one; 0 when all went as asked."""
    if last is not None and last < 1:
        raise MailboxError(f"--last {last}: give 1 or more")
    if address is None:
        return _list(root, out)
    folder = mailbox(root, address)
    messages = read(folder)
    if not messages:
        known = ", ".join(name for name, mail in mailboxes(root) if mail) or "none yet"
        raise MailboxError(f"no mail for {address} in {root} (mailboxes with mail: {known})")
    first = len(messages) - last if last is not None and last < len(messages) else 0
    for number in range(first, len(messages)):
        out.write(render(messages[number], number + 1, len(messages), prefer_html=prefer_html) + "\n")
    if open_file is None:
        return 0
    return _write_page(messages, first, open_file, out)


def _write_page(messages: list[EmailMessage], first: int, target: Path, out: TextIO) -> int:
    """The HTML part of the newest mail shown, into ``target``."""
    for number in range(len(messages) - 1, first - 1, -1):
        page = html_page(messages[number])
        if page is None:
            continue
        target = target.resolve()
        target.write_text(page[0], encoding="utf-8")
        images = f" with its {page[1]} image{'s' if page[1] != 1 else ''}" if page[1] else ""
        out.write(f"the HTML part of mail {number + 1}{images} is in {target}: open {target.as_uri()}\n")
        return 0
    out.write("no mail shown has an HTML part: nothing written\n")
    return 1


def _list(root: Path, out: TextIO) -> int:
    boxes = [(name, mail) for name, mail in mailboxes(root) if mail]
    if not boxes:
        out.write(f"no local mailbox in {root} has mail yet\n")
        return 0
    out.write(f"local mailboxes in {root} (read one with pbem mail ADDRESS):\n")
    width = max(len(name) for name, _ in boxes)
    for name, mail in boxes:
        newest = " ".join(str(mail[-1]["Subject"] or "").split())
        out.write(f"  {name:{width}}  {len(mail):4} mail{'s' if len(mail) != 1 else ' '}  newest: {newest}\n")
    return 0


def _decoded(part: EmailMessage) -> str:
    """A text part's content, decoded from its transfer encoding and charset."""
    return decode_bytes(part.get_payload(decode=True) or b"", part.get_content_charset())


def _content_id(part: EmailMessage) -> str:
    return str(part.get("Content-ID") or "").strip().strip("<>").strip()


def _cids_shown(msg: EmailMessage) -> set[str]:
    html = msg.get_body(("html",))
    return {unquote(m.group(1)) for m in _CID.finditer(_decoded(html))} if html is not None else set()


def _size(n: int) -> str:
    return f"{n} bytes" if n < 1024 else f"{n / 1024:.1f} KB"
