"""One inbound mail, one mail per recipient.

Whatever handling one inbound mail queues — its reply, the copy to the
address of record, press, treaty records, breach notices, confirmation
tokens, a GM's announcements and the reports a GM PROCESS NOW makes — is
collected while the mail is handled (:func:`collect`) and queued at the end
as at most one mail per recipient: a recipient who would get several gets
them merged into one, the reply first.  Grey press alone goes apart (one more
mail at most, sent later with the phase's date, so it cannot name its writer).  A player who writes a hundred press
blocks, treaties and breach claims costs each other player one mail.

A mail that reaches several recipients who all get the same things stays
one mail with all of them as recipients, as it was queued.
"""
from __future__ import annotations

import html as html_escape
import re
from contextlib import contextmanager
from typing import Iterator

from pbem.base.context import Context

#: how one merged part is introduced in the plain text
RULE = "=" * 66
#: the most of a merged part's subject that the mail's subject names
SUBJECT = 60

# The reply first, then a mail that hands the reader something to keep (a
# secret, a token), then the rest in the order they were queued.
_RANK = {"reply": 0, "welcome": 1, "confirm": 1}

_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S | re.I)


@contextmanager
def collect(ctx: Context, key: str) -> Iterator[None]:
    """Gather what :func:`pbem.outbound.outbox.queue` is asked to send inside the
    block, and queue it merged per recipient when the block ends without an
    error (``key`` names the inbound mail, for the merged mails' ids)."""
    outer, ctx.batch = ctx.batch, []
    try:
        yield
        gathered = ctx.batch
    finally:
        ctx.batch = outer
    flush(ctx, key, gathered)


def mark(ctx: Context) -> int:
    """Where the batch stands now, to undo a failed command with :func:`undo`."""
    return len(ctx.batch) if ctx.batch is not None else 0


def undo(ctx: Context, at: int) -> None:
    if ctx.batch is not None:
        del ctx.batch[at:]


def _recipients(item: dict) -> list[str]:
    return list(dict.fromkeys(a for a in [*item.get("to", ()), *item.get("cc", ())] if a))


def plan(items: list[dict]) -> list[tuple[list[str], list[int]]]:
    """Who gets what: groups of recipients, each with the items (by index)
    that all of them get, the reply (then a welcome) first.  Pure, for the tests."""
    by_address: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        for address in _recipients(item):
            got = by_address.setdefault(address, [])
            if index not in got:
                got.append(index)
    groups: dict[tuple[int, ...], list[str]] = {}
    for address, got in by_address.items():
        ordered = sorted(got, key=lambda i: (_RANK.get(items[i].get("kind"), 2), i))
        groups.setdefault(tuple(ordered), []).append(address)
    return [(addresses, list(indexes)) for indexes, addresses in groups.items()]


def latest_records(items: list[dict]) -> list[dict]:
    """Of several records of one treaty to the same readers (five breach claims in one
    mail), only the last: it holds what the earlier ones said."""
    last: dict[tuple, int] = {}
    for index, item in enumerate(items):
        if item.get("kind") == "treaty":
            last[(tuple(sorted(_recipients(item))), item["subject"].rsplit(":", 1)[0])] = index
    return [item for index, item in enumerate(items) if item.get("kind") != "treaty"
            or last[(tuple(sorted(_recipients(item))), item["subject"].rsplit(":", 1)[0])] == index]


def flush(ctx: Context, key: str, items: list[dict]) -> None:
    """Queue ``items`` merged per recipient.  Grey press (an item with a
    ``not_before``) goes apart, in one mail of its own per recipient: merged into
    the sender's other mail, or sent with it, it would name its writer."""
    items = latest_records(items)
    _flush(ctx, key, [i for i in items if not i.get("not_before")])
    _flush(ctx, f"apart:{key}", [i for i in items if i.get("not_before")])


def _flush(ctx: Context, key: str, items: list[dict]) -> None:
    from pbem.outbound.outbox import queue

    for addresses, indexes in plan(items):
        if len(indexes) == 1:
            item = items[indexes[0]]
            if set(addresses) == set(_recipients(item)):
                queue(ctx, **item)  # as it was asked for
                continue
            queue(ctx, **addressed_to(item, addresses, f"{item['key']}:{','.join(sorted(addresses))}"))
            continue
        parts = [items[i] for i in indexes]
        queue(ctx, **addressed_to(merge(parts), addresses, f"merged:{key}:{','.join(sorted(addresses))}"))


def addressed_to(item: dict, addresses: list[str], key: str) -> dict:
    """``item`` to ``addresses`` alone (each keeps its place: To or Cc).  A
    reply that no longer reaches its sender is a copy: a notice, never
    counted as a reply to a stranger."""
    cc = set(item.get("cc", ()))
    to = [a for a in addresses if a not in cc]
    out = {**item, "key": key, "to": to or addresses, "cc": [a for a in addresses if a in cc] if to else []}
    if item.get("kind") == "reply" and not to:
        out.update(kind="notice", stranger=False)
    return out


def merge(parts: list[dict]) -> dict:
    """One mail that says what ``parts`` say, in order: the first's subject
    and threading, every text under its own subject, one HTML body when any
    part has one (with every part in it), every secret to mask at rest."""
    first = parts[0]
    more = len(parts) - 1
    subject = _subject(first["subject"], parts[1]["subject"], more)
    texts = [first["text"].rstrip("\n")]
    for part in parts[1:]:
        texts.append(f"{RULE}\n{part['subject']}\n{RULE}\n\n{part['text'].rstrip()}")
    merged = {**first, "subject": subject, "text": "\n\n".join(texts) + "\n",
              "kind": "reply" if any(p.get("kind") == "reply" for p in parts) else first.get("kind", "notice"),
              "stranger": any(p.get("stranger") for p in parts),
              "secrets": tuple(s for p in parts for s in p.get("secrets", ())),
              "related": [r for p in parts for r in p.get("related", ())]}
    if any(p.get("html") for p in parts):
        merged["html"] = _html(parts)
    else:
        merged.pop("html", None)
    if not merged["related"]:
        merged.pop("related")
    if not merged["secrets"]:
        merged.pop("secrets")
    return merged


def _subject(first: str, second: str, more: int) -> str:
    """The first part's subject, naming the second without its game tag and without the
    words both begin with (the power): "[g1] North received: Round 3 (with: report again:
    Round 1)".  The mail's header is cut to under 60 characters
    (:func:`pbem.mail.compose.fit_subject`); each part's whole subject heads its text."""
    tag = re.compile(r"^\[[^\]]*\]\s*")
    second = tag.sub("", " ".join(second.split()))
    mine, theirs = tag.sub("", " ".join(first.split())).split(), second.split()
    same = 0
    while same < min(len(mine), len(theirs)) - 1 and mine[same] == theirs[same]:
        same += 1
    second = " ".join(theirs[same:])
    if len(second) > SUBJECT:
        second = second[:SUBJECT - 3].rstrip() + "..."
    return f"{first} (with: {second}" + (f", and {more - 1} more)" if more > 1 else ")")


def parts(text: str) -> list[str]:
    """The texts a merged mail's plain text holds, each with its subject line
    first (the first part's subject is the mail's own)."""
    pieces = text.split(f"\n\n{RULE}\n")
    return [pieces[0]] + [p.replace(f"\n{RULE}\n", "\n", 1) for p in pieces[1:]]


def _html(parts: list[dict]) -> str:
    bodies = []
    for n, part in enumerate(parts):
        if n:
            bodies.append(f"<hr><h2>{html_escape.escape(part['subject'])}</h2>")
        if part.get("html"):
            found = _BODY.search(part["html"])
            bodies.append(found.group(1) if found else part["html"])
        else:
            bodies.append("<pre style=\"white-space: pre-wrap\">"
                          f"{html_escape.escape(part['text'])}</pre>")
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>"
            + "\n".join(bodies) + "</body></html>")
