"""The nearest name to a misspelling, by edit distance.

Replies suggest a name only when it is a plausible typo of what was written:
a few letters left out, doubled, swapped or wrong, in proportion to the
word's length ("Frnce" -> France, "Orange Rivr Free State" -> Orange River
Free State), never a name that merely shares letters ("Bosnia" is not
"Abyssinia").  Callers pass only names of the kind the place asks for (areas
where an area is wanted, powers where a power is), so a power is never
offered for a misspelt area; they may also pass the names of every other kind
(``others``), so that a word which is, or is nearer to, a name of another kind
gets no suggestion ("Spain" asked for as a player's power, where Spain is a
power nobody plays, is not a typo of "Japan").
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, Iterable


def words(text: str) -> list[str]:
    """The words of a name as names compare: without case or accents, ``&`` read as "and",
    and every other mark (space, hyphen, underscore, apostrophe, dot) a break between words.
    The one normaliser of names, phases and powers (:func:`key` joins the words)."""
    text = str(text).lower().replace("&", " and ")
    if not text.isascii():
        text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return _WORD.findall(text)


_WORD = re.compile(r"[^\W_]+")


def key(text: str) -> str:
    """Names compare without case, accents, spaces, hyphens, apostrophes or dots
    ("Far-Shore", "far shore", "FarShore"; "Münster", "Munster")."""
    text = str(text)
    if text.isascii():  # the usual case, and the hot one (nearest compares hundreds of names)
        return _NOT_ASCII_WORD.sub("", text.lower().replace("&", "and"))
    return "".join(words(text))


_NOT_ASCII_WORD = re.compile(r"[^0-9a-z]")


def distance(a: str, b: str, limit: int | None = None) -> int:
    """Edits (insert, delete, replace, swap two neighbours) from ``a`` to ``b``.  With
    ``limit``: exact up to ``limit``, else some number above it -- only the cells within
    ``limit`` of the diagonal are worked out, and the work stops once a row is all over it
    (a typo's suggestion compares each word with hundreds of names, nearly all far off)."""
    if limit is None:
        limit = max(len(a), len(b))
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    over, n = limit + 1, len(b)
    previous2: list[int] = []
    previous = [j if j <= limit else over for j in range(n + 1)]
    for i, ca in enumerate(a, 1):
        row = [over] * (n + 1)
        row[0] = low = i if i <= limit else over
        for j in range(max(1, i - limit), min(n, i + limit) + 1):
            cb = b[j - 1]
            cell = previous[j - 1] + (ca != cb)
            if previous[j] + 1 < cell:
                cell = previous[j] + 1
            if row[j - 1] + 1 < cell:
                cell = row[j - 1] + 1
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb and previous2[j - 2] + 1 < cell:
                cell = previous2[j - 2] + 1
            if cell > over:
                cell = over
            row[j] = cell
            if cell < low:
                low = cell
        if low > limit:
            return over
        previous2, previous = previous, row
    return previous[-1]


def tolerance(length: int) -> int:
    """How many edits a word of this length may be off and still be that name."""
    if length <= 2:
        return 0  # "uk", "us": too short to tell a typo from another word
    if length <= 4:
        return 1  # "Hom" -> Holm, "Frnc" -> ...: one letter out
    if length <= 8:
        return 2
    return max(3, length // 5)


#: a word longer than this is no typo of a name: it gets no suggestion (and the
#: comparison, which grows with the square of the length, is never made)
LONGEST = 64
#: the most characters of a player's word a reply echoes
ECHO = 60


def shown(text: str, limit: int = ECHO) -> str:
    """``text`` quoted for a reply, cut to ``limit`` characters: whatever a
    player wrote, a refusal that names it stays short."""
    text = str(text)
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")


def nearest(text: str, names: Iterable[str], normalise: Callable[[str], str] = key, *,
            others: Iterable[str] = ()) -> str | None:
    """The name closest to ``text`` within the tolerance of its length (ties: the
    first in alphabetical order), or None.  ``others``: names of the kinds not
    asked for; when one of them is at least as close as the best of ``names``,
    the word more likely means that one and nothing is suggested.  Only words of
    a plausible length are compared, and only with names whose length is within
    the tolerance, so the cost stays linear in what was written."""
    if len(text) > 4 * LONGEST:
        return None
    wanted = normalise(text)
    if not wanted or len(wanted) > LONGEST:
        return None
    best = _closest(wanted, names, normalise)
    if best is None:
        return None
    rival = _closest(wanted, set(others) - set(names), normalise)
    return None if rival is not None and rival[0] <= best[0] else best[1]


def _closest(wanted: str, names: Iterable[str], normalise: Callable[[str], str]) -> tuple[int, str] | None:
    """(edits, name) of the name nearest ``wanted`` within its tolerance, or None."""
    best: tuple[int, str] | None = None
    allowed = tolerance(len(wanted))
    for name in sorted(set(names)):
        other = normalise(name)
        if abs(len(other) - len(wanted)) > allowed:
            continue  # at least that many edits apart
        # Only a name nearer than the best so far can win (ties go to the first, by name).
        d = distance(wanted, other, allowed if best is None else best[0] - 1)
        if d <= allowed and (best is None or d < best[0]):
            best = (d, name)
            if d == 0:
                break
    return best


def join_words(words: Iterable[str], resolve: Callable[[str], str], known: Iterable[str]) -> list[str]:
    """Names a grammar split at spaces, put back together: ``TREATY PROPOSE t
    WITH United States, France`` arrives as ``United``, ``States``, ``France``.
    At each word the longest run of words that ``resolve`` turns into a
    ``known`` name wins; a word that starts none stays as written (the caller
    refuses it with a suggestion)."""
    words, known = list(words), set(known)
    # No name is longer than its longest known form: longer runs are never tried,
    # so a list of thousands of words costs a few calls per word, not their square.
    longest = max([4, *(len(k.split()) for k in known)])
    out, i = [], 0
    while i < len(words):
        for j in range(min(len(words), i + longest), i, -1):
            if j - i > 1 and resolve(" ".join(words[i:j])) in known:
                out.append(" ".join(words[i:j]))
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return out
