"""Quoted text in replies: pbem's own rules against two reply-parsing libraries.

Reads every reply in tests/replies/ (the plain-text bodies real mail clients write
when a player answers a report: Gmail, Outlook, Hotmail, Windows Mail in Russian,
Gmail's rendering of Outlook's header block, Yandex, mail.ru, iPhone, Android,
Thunderbird, German, French and Spanish clients, split attributions, bottom
posting) and counts, for each way of removing what the player did not write, the
replies it gets right: the player's own lines kept, no line of the quoted report
left, and no other line (an attribution left over is read as an order and refused).
Prints one line per way and the replies each gets wrong.

    .venv/bin/python bench/quotes.py

The libraries are optional here (pip install mail-parser-reply email-reply-parser).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.mail.quotes import strip_quotes  # noqa: E402

OWN = ("SIGNON France@pax1 my-secret-1", "BUY INFLUENCE Persia")


def right(text: str) -> bool:
    """The player's own lines and nothing else: a line left over from the quote (an
    attribution, a header) would be read as an order and refused."""
    return [line.strip() for line in text.splitlines() if line.strip()] == list(OWN)


def ways():
    yield "pbem.mail.quotes (hand-written rules)", strip_quotes
    try:
        from mailparser_reply import EmailReplyParser as MultiLanguage
        parser = MultiLanguage(languages=["en", "de", "fr", "es", "it", "nl", "pl", "sv", "da", "cs"])
        yield "mail-parser-reply (en de fr es it nl pl sv da cs)", parser.parse_reply
    except ImportError:
        print("mail-parser-reply is not installed: skipped")
    try:
        from email_reply_parser import EmailReplyParser
        yield "email-reply-parser", EmailReplyParser.parse_reply
    except ImportError:
        print("email-reply-parser is not installed: skipped")


def main() -> None:
    replies = sorted((ROOT / "tests" / "replies").glob("*.txt"))
    for name, strip in ways():
        wrong, start = [], time.perf_counter()
        for path in replies:
            try:
                ok = right(strip(path.read_text(encoding="utf-8")))
            except Exception as exc:  # a library that fails counts as wrong
                ok = False
                print(f"  {name} failed on {path.name}: {type(exc).__name__}")
            if not ok:
                wrong.append(path.stem)
        took = (time.perf_counter() - start) * 1000
        print(f"{name}: {len(replies) - len(wrong)}/{len(replies)} right ({took:.1f} ms)"
              + (f"; wrong: {', '.join(wrong)}" if wrong else ""))


if __name__ == "__main__":
    main()
