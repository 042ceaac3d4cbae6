"""The GM's state edits: the scenario ``GM`` vocabulary, as a GM sends it by email.

Each command edits the state copy it is given and returns events describing
the edit.  Bad commands raise :class:`pbem.kit.gameapi.GMError` with a message a
human understands.  The words are read by ``args.py``; the edits of the board are in
``board_edits.py``, those of the play (Wars, treaties, the Congress, options) in
``play_edits.py``.
"""
from __future__ import annotations

import re

from pbem.kit.gameapi import GMError
from pbem.kit.names import nearest

from ..core.reading import tokenize
from .args import Args, KEYWORDS
from .board_edits import (add_eti, clear_unrest, remove_marker, remove_merchant, remove_unit, set_canal,
                          set_cb, set_deficit, set_forced, set_headline, set_index, set_marker, set_merchant,
                          set_permission, set_pool, set_spendcap, set_treasury, set_unit, set_unrest, set_vp)
from .play_edits import (assign, set_congress, set_conquered, set_defeated, set_last_turn, set_option,
                         set_rebellion, set_step, set_treaty, set_war, treaty_action)

#: SET TREATY's clauses follow the word CLAUSES
CLAUSES = re.compile(r"\s+CLAUSES\s+", re.I)


def apply(state: dict, text: str, dice, data) -> list[dict]:
    """Apply one GM command to ``state`` (mutated); returns the events."""
    # The clauses of SET TREATY are read by the clause grammar, not as edit words.
    parts = CLAUSES.split(text, 1)
    text, clause_text = parts[0], (parts[1] if len(parts) > 1 else "")
    toks = tokenize(text, data, KEYWORDS)
    # HOME needs the power named in the command: tokenize again once it is known.
    a = Args(toks, data, text)
    a.clauses = clause_text
    if a.peek_kw("TREATY"):
        a.kw("TREATY")
        return [e for e in treaty_action(state, a, data) if e]
    if a.peek_kw("ASSIGN"):
        a.kw("ASSIGN")
        events = assign(state, a, data)
        a.end()
        return events
    verb = a.kw("SET", "REMOVE", "CLEAR", "ADD")
    whats = sorted(w for v, w in _HANDLERS if v == verb)
    if not a.peek_kw(*whats):
        word = a.toks[a.i].text if a.more() else ""
        # A word another verb takes ("SET BLAME") is no typo of this verb's words: nothing offered.
        near = nearest(word, whats, others={w for _, w in _HANDLERS})
        raise GMError(f"unknown GM command {verb} {word}".rstrip() + f": {verb} is followed by one of "
                      f"{', '.join(whats)}" + (f" (did you mean {verb} {near}?)" if near else ""))
    what = a.kw(*whats)
    handler = _HANDLERS.get((verb, what))
    if handler is None:
        raise GMError(f"unknown GM command: {text}")
    events = handler(state, a, data) or []
    a.end()
    return [e for e in events if e]


_HANDLERS = {
    ("SET", "TREASURY"): set_treasury, ("SET", "VP"): set_vp,
    ("SET", "MARKER"): set_marker, ("REMOVE", "MARKER"): remove_marker,
    ("SET", "ARMY"): set_unit("army"), ("SET", "NAVY"): set_unit("navy"),
    ("REMOVE", "ARMY"): remove_unit("army"), ("REMOVE", "NAVY"): remove_unit("navy"),
    ("SET", "MERCHANT"): set_merchant, ("REMOVE", "MERCHANT"): remove_merchant,
    ("SET", "UNREST"): set_unrest, ("CLEAR", "UNREST"): clear_unrest,
    ("SET", "ETI"): set_index("eti"), ("SET", "CRI"): set_index("cri"),
    ("SET", "CB"): set_cb, ("SET", "WAR"): set_war, ("SET", "TREATY"): set_treaty,
    ("SET", "CANAL"): set_canal, ("SET", "POOL"): set_pool, ("SET", "DEFICIT"): set_deficit,
    ("SET", "HEADLINE"): set_headline, ("SET", "PERMISSION"): set_permission,
    ("SET", "SPENDCAP"): set_spendcap, ("SET", "FORCED"): set_forced,
    ("SET", "LAST"): set_last_turn,
    ("ADD", "ETI"): add_eti, ("SET", "CONGRESS"): set_congress, ("SET", "STEP"): set_step,
    ("SET", "OPTION"): set_option, ("SET", "REBELLION"): set_rebellion,
    ("SET", "DEFEATED"): set_defeated, ("SET", "CONQUERED"): set_conquered,
}

#: every command, for the help text and the documentation test
COMMANDS = sorted([f"{v} {w}" + (" TURN" if w == "LAST" else "") for v, w in _HANDLERS] + ["TREATY", "ASSIGN"])
