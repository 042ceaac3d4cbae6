"""Remove what a player did not write from a reply: quoted text, reply headers, signatures.

A player's orders sit above (or, for bottom-posters, below) the quoted turn report; the order
parser must never see the report again, or it would read our own echoed orders as new ones.
"""
from __future__ import annotations

import logging
import re

log = logging.getLogger(__name__)

# ">" quotes, and the initials some clients (Supercite, Gnus) put before it: "AB> text".
_QUOTED = re.compile(r"^\s*(?:[A-Za-z]{1,5})?>")

# "On Mon, 5 Jan 2026 at 12:00, X <x@y> wrote:" and friends.  German and French clients are common
# among our players, so their headers are recognised too.
# Yahoo writes it after a rule: "--- On Wed, 4/4/12, X <x@y> wrote:".
_RULE_BEFORE = r"(?:-{2,}\s*)?"
_REPLY_HEADER = re.compile(
    rf"^{_RULE_BEFORE}(On\s.{{1,300}}\swrote:|Am\s.{{1,300}}\sschrieb\s.{{0,200}}:|Le\s.{{1,300}}\sa\s+écrit\s?:)\s*$",
    re.IGNORECASE,
)
# A bare "X wrote:" is only a header when quoted lines follow it (checked by the caller).
_LOOSE_REPLY_HEADER = re.compile(r"^.{1,120}\s(wrote|writes|schrieb|a écrit)\s?:\s*$", re.IGNORECASE)
_REPLY_START = re.compile(rf"^{_RULE_BEFORE}(On|Am|Le)\s", re.IGNORECASE)
_REPLY_END = re.compile(r"(wrote|schrieb|a\s+écrit)\s?:\s*$", re.IGNORECASE)

_ORIGINAL_MESSAGE = re.compile(
    r"^-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine)\s*-{2,}\s*$",
    re.IGNORECASE,
)
_FORWARD_MARKER = re.compile(
    r"^(-{2,}\s*(Forwarded message|Weitergeleitete Nachricht|Message transféré)\s*-{2,}"
    r"|Begin forwarded message:)\s*$",
    re.IGNORECASE,
)
_SEPARATOR = re.compile(r"^\s*_{10,}\s*$")
# The labels of a quoted header block, as clients write them in the languages seen most, each
# optionally in *bold* the way Gmail renders an Outlook block: the sender, the date, the rest.
_LABEL = r"^\s*\*{0,2}(%s)\*{0,2}\s*:"
_HEADER_FROM = re.compile(_LABEL % "From|Von|De|Da|Van|Od|Från|Fra|От|Від", re.IGNORECASE)
_HEADER_SENT = re.compile(_LABEL % ("Sent|Date|Gesendet|Datum|Envoyé|Enviado|Fecha|Inviato|Data"
                                    "|Verzonden|Wysłano|Skickat|Sendt|Отправлено|Дата|Надіслано"),
                          re.IGNORECASE)
_HEADER_TO = re.compile(_LABEL % ("To|Subject|An|Betreff|À|Objet|Para|Asunto|A|Oggetto|Aan|Onderwerp"
                                  "|Do|Temat|Till|Ämne|Til|Emne|Кому|Тема|Копия|Кому"),
                        re.IGNORECASE)
_HEADER_LINE = re.compile(r"^\s*[\w-]{1,30}\s*:\s")

_SIGNATURE_DELIMITER = re.compile(r"^--\s?$")
_MOBILE_SIGNATURE = re.compile(
    r"^(Sent from my\s.{1,40}|Sent from (Mail|Outlook|Yahoo Mail)\b.{0,40}|Get Outlook for\s.{1,30}"
    r"|Von meinem\s.{1,40}\sgesendet|Envoyé de mon\s.{1,40})$",
    re.IGNORECASE,
)


def strip_quotes(text: str) -> str:
    """Return only what the sender wrote: no quoted lines, reply headers, forwards or signatures."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _QUOTED.match(line):
            i += 1
            continue
        if _SIGNATURE_DELIMITER.match(line):
            break
        if _MOBILE_SIGNATURE.match(stripped):
            # Only the line goes: "Sent from my phone, excuse typos" may well precede the orders,
            # and whatever a mobile client puts below it is a quote the other rules catch.
            i += 1
            continue
        if _ORIGINAL_MESSAGE.match(stripped) or _is_header_block(lines, i):
            break
        if _SEPARATOR.match(line) and _is_header_block(lines, _next_nonblank(lines, i + 1)):
            break
        if _FORWARD_MARKER.match(stripped):
            if _has_text(kept):
                break
            # Nothing written above the forward: the forwarded body is the message.
            i = _skip_forward_headers(lines, i + 1)
            continue
        header_len = _reply_header_length(lines, i)
        if header_len:
            following = _next_nonblank(lines, i + header_len)
            if following < len(lines) and _QUOTED.match(lines[following]):
                # Bottom-posting: the reply may continue below the quoted block.
                i += header_len
                continue
            # Text below a reply header that is not marked with ">" is still the earlier mail.
            break
        kept.append(line.rstrip())
        i += 1
    return _trim_blank_lines(kept)


def unflow(text: str, *, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: rejoin soft-broken lines, remove space-stuffing.

    Flowed quoting has no space after ">" and may break a quoted line anywhere; the result
    quotes every line as "> " so strip_quotes sees whole quoted lines.
    """
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]
        if pending is not None and depth != pending_depth:
            out.append(_quoted(pending_depth, pending))
            pending = None
        flowed = content.endswith(" ") and content != "-- "
        if pending is not None:
            content = pending + content
        if flowed:
            pending, pending_depth = (content[:-1] if delsp else content), depth
        else:
            out.append(_quoted(depth, content))
            pending = None
    if pending is not None:
        out.append(_quoted(pending_depth, pending))
    return "\n".join(out)


def _quoted(depth: int, content: str) -> str:
    return f"{'>' * depth} {content}" if depth else content


def _reply_header_length(lines: list[str], i: int) -> int:
    """How many lines the reply header starting at line i spans (0 if there is none)."""
    line = lines[i].strip()
    if not line:
        return 0
    if _REPLY_HEADER.match(line):
        return 1
    if i + 1 < len(lines) and _REPLY_START.match(line) and len(line) < 200:
        # Gmail wraps long headers: "On Mon, 5 Jan 2026 at 12:00, Xavier Player <\nx@y> wrote:"
        joined = line + " " + lines[i + 1].strip()
        # Joined only when the line was cut and the next does not start an attribution of its
        # own: the player's "On reflection..." above Gmail's "On Dec 8, ... wrote:" is the player's.
        if _REPLY_END.search(lines[i + 1]) and _REPLY_HEADER.match(joined) and _wrapped_attribution(lines[i:i + 2]):
            return 2
    if _LOOSE_REPLY_HEADER.match(line):
        following = _next_nonblank(lines, i + 1)
        if following < len(lines) and _QUOTED.match(lines[following]):
            return 1
    return _attribution_length(lines, i)


# Whatever the language, an attribution names who wrote (an address), when (a time) or says
# "wrote"; it ends with a colon, and quoted lines follow it.
_WROTE = re.compile(r"(wrote|writes|schrieb|écrit|escribió|ha scritto|schreef|napisał|skrev|kirjoitti"
                    r"|написал|написала|написав|napsal|írta|yazdı|escreveu)\b", re.IGNORECASE)
_WHO_OR_WHEN = re.compile(r"<?[^\s<>@]+@[^\s<>@]+>?|\b\d{1,2}[:.]\d{2}\b")
# Chinese and Japanese clients end an attribution with a full-width colon.
_COLONS = (":", "\uff1a")
# The words an attribution starts with in the clients' languages ("On", "Am", "Le", "El",
# "Il giorno", "Op", "W dniu", "Den", "Em", "Dne", "Pada", "在").
_ATTRIBUTION_START = re.compile(
    rf"^{_RULE_BEFORE}(On|Am|Le|El|Il|Op|W\s+dniu|Den|Em|Dne|Dňa|Pada|Στις|在)\s", re.IGNORECASE)
# ... or a date, or a weekday's short name and a date ("пн, 8 дек. 2013 г. в 14:10, X <").
_DATE_START = re.compile(r"^\W*\d|^[^\W\d_]{1,4}[.,]?\s+\d")
# ... or with the writer's name and address ("X <x@y>, 8 Ara 2013 tarihinde şunu yazdı:"); a
# wrapped attribution's second line starts at the address ("<x@y> wrote:") or within it.
_NAME_AND_ADDRESS = re.compile(r"^[^\W\d_][^<>@:]*<[^\s<>@]+@[^\s<>@]+>")
_NAME_FIRST = re.compile(_NAME_AND_ADDRESS.pattern + r".*[:\uff1a]$")
#: a client wraps an attribution only when it is longer than its line
_WRAP_WIDTH = 50


def _wrapped_attribution(part: list[str]) -> bool:
    """Whether ``part`` (two or three lines) may be one attribution a client wrapped: its first
    line opens one (:func:`_opens_attribution`), and no later line starts one of its own, unless
    the first was plainly cut (at a comma or an opening bracket).  When in doubt the first line
    is the player's: read, it is refused and named; taken for a quote, it would be lost."""
    first = part[0].strip()
    if not _opens_attribution(first) or any(_QUOTED.match(p) for p in part):
        return False
    # Plainly an attribution's beginning: cut at a comma or an opening bracket, or "On" and a time.
    cut = first.endswith((",", "<", "(")) or bool((_ATTRIBUTION_START.match(first) or _DATE_START.match(first))
                                                  and _WHO_OR_WHEN.search(first))
    return not any(_ATTRIBUTION_START.match(p.strip())
                   or (not cut and (_DATE_START.match(p.strip()) or _NAME_FIRST.match(p.strip())))
                   for p in part[1:])


def _opens_attribution(line: str) -> bool:
    """Whether ``line`` may be the first line of an attribution a client wrapped over several
    lines: it starts with an attribution's word ("On", "Am"...) or a name and an address in
    brackets (which no order has), or with a date and was cut, not
    ended (at a comma or an opening bracket, or near the client's line width) or names a time.  A player's line
    such as "BUILD ARMY 1" or "GM SET DEADLINE 2026-01-10 18:00" just above a one-line
    attribution is not one."""
    line = line.strip()
    if _ATTRIBUTION_START.match(line) or _NAME_AND_ADDRESS.match(line):
        return True
    return bool(_DATE_START.match(line)) and (line.endswith((",", "<", "(")) or len(line) >= _WRAP_WIDTH
                                               or bool(_WHO_OR_WHEN.search(line)))


def _attribution_length(lines: list[str], i: int) -> int:
    """How many lines (one to three, split wherever a client wraps them: Yandex's
    '12.01.2026, 10:00, "pbem" <pbem@x>:', mail.ru's '... от pbem <pbem@x>:',
    Thunderbird's 'On 12/01/2026 10:00,' / 'pbem' / 'wrote:') an attribution spans
    before quoted lines, or 0."""
    ends = [n for n in range(i, min(i + 3, len(lines))) if lines[n].rstrip().endswith(_COLONS)]
    if not ends:
        return 0
    for length in (1, 2, 3):
        part = lines[i:i + length]
        if len(part) < length or not all(p.strip() and not _QUOTED.match(p) for p in part):
            return 0
        if length > 1 and not _wrapped_attribution(part):
            # The line above an attribution is the player's last line, not its first part:
            # "BUILD ARMY 1" / "On 22 Aug 2015, at 19:21, X <x@y> wrote:" is an order and then
            # a one-line attribution.
            return 0
        joined = " ".join(p.strip() for p in part)
        if len(joined) > 400:
            return 0
        if not joined.endswith(_COLONS) or joined.upper().startswith("SIGNON"):
            continue
        following = _next_nonblank(lines, i + length)
        if following < len(lines) and _QUOTED.match(lines[following]) and (
                _WROTE.search(joined) or _WHO_OR_WHEN.search(joined)):
            return length
        return 0
    return 0


def _is_header_block(lines: list[str], i: int) -> bool:
    """A quoted header block (Outlook, Hotmail, Windows Mail, Android...): a sender, a
    date and a recipient or subject line within five lines, in any order (Hotmail puts
    Date: first), starting at this line."""
    if i >= len(lines) or ":" not in lines[i][:80] or not (
            _HEADER_FROM.match(lines[i]) or _HEADER_SENT.match(lines[i]) or _HEADER_TO.match(lines[i])):
        return False
    window = lines[i:i + 5]
    return (any(_HEADER_FROM.match(w) for w in window) and any(_HEADER_SENT.match(w) for w in window)
            and any(_HEADER_TO.match(w) for w in window))


def _skip_forward_headers(lines: list[str], i: int) -> int:
    i = _next_nonblank(lines, i)
    while i < len(lines) and _HEADER_LINE.match(lines[i]):
        i += 1
    return i


def _next_nonblank(lines: list[str], i: int) -> int:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def _has_text(lines: list[str]) -> bool:
    return any(line.strip() for line in lines)


def _trim_blank_lines(lines: list[str]) -> str:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return "\n".join(lines[start:end])
