"""A concluded peace (10.1, 10.4): the wars it ends, the truce it places (10.4 Truces) and its
treaty record, whose text says the war's result and the term in words."""
from __future__ import annotations

import textwrap

from pbem.kit import treatybook

from . import state as st

TERM_WORDS = {"white_peace": "White Peace", "negotiated_peace": "Negotiated Peace",
              "keep_current_board_state": "Keep Current Board State", "humiliation": "Humiliation",
              "vassalization": "Vassalization", "force_conversion": "Force Conversion",
              "secure_desired_succession": "Secure Desired Succession", "full_annexation": "Full Annexation"}
HOW = {"enforced": "enforced by the victor", "automatic": "automatic, nothing being occupied",
       "negotiated": "negotiated by both sides", "offered and accepted": "White Peace offered and accepted",
       "succession": "on White Peace terms, the succession of the loser being secured by another realm"}


def peace_text(state: dict, v: str, loser: str, term: str, cond: str, how: str, lines: list[str],
               surrendered: bool = False, loser_standing: str | None = None) -> str:
    """The peace as its parties read it (10.1, 10.4): the war's result, the term and
    what it did, in words, then the truce and when it ends."""
    rnd = state["round"]
    result = _result(cond, v, loser)
    if how == "negotiated":
        result = _negotiated_result(v, loser, cond, loser_standing, term)
    if surrendered:
        result = f"{loser} surrendered to {v}"
    # 10.4: the truce lasts until the next Phase 3; in the last round that is after the end.
    # Choice (choices/peace.md): the record says the truce holds for the rest of the game.
    until = (f"until Phase 3 (Peace & Rebels) of round {rnd + 1}: neither may declare war on the other before then"
             if rnd + 1 <= state.get("rounds", rnd + 1) else
             f"for the rest of the game (it would last until Phase 3 of round {rnd + 1}, and the game ends with "
             f"round {state['rounds']}): neither may declare war on the other again")
    truce = (f"Truce between {v} and {loser} {until} (10.4)." if st.pair(v, loser) in state["truces"] else
             "No truce follows (10.4: never with a vassal or an annexed realm).")
    paras = [f"Peace between {v} and {loser}, round {rnd}.", f"The war: {result}.",
             f"Peace term: {TERM_WORDS.get(term, term)}, {HOW.get(how, how)}.", *lines, truce]
    return "\n".join(textwrap.fill(p, 76, subsequent_indent="  ") for p in paras)


def _result(cond: str, winner: str, other: str) -> str:
    return {"total": f"{winner} won a Total Victory over {other}",
            "partial": f"{winner} won a Partial Victory over {other}",
            "inconclusive": "neither side was victorious (inconclusive)",
            "white_peace": "neither side occupied any province of the other (automatic White Peace)"
            }.get(cond, cond)


def _negotiated_result(v: str, loser: str, cond: str, loser_standing: str | None, term: str) -> str:
    """10.4 Negotiated Peace: "Regardless of whether or not conditions for Victory have been
    met, players may negotiate ... [and] agree on who will be named as the Victor or Loser, if
    anyone": the board's result (whichever side won it: ``loser_standing`` is the loser's,
    taken before the peace changed the board), then whom the peace names."""
    if cond in ("total", "partial"):
        board = _result(cond, v, loser)
    elif loser_standing in ("total", "partial"):
        board = _result(loser_standing, loser, v)
    else:
        board = "neither side had won a victory on the board"
    if term == "white_peace":
        return f"{board}; the two agreed a White Peace"
    return f"{board}; by their negotiated peace {v} is named the Victor and {loser} the Loser"


def conclude(state: dict, v: str, loser: str, term: str, cond: str, how: str, lines: list[str],
             events: list, active_l: list[str] | None = None, loser_standing: str | None = None) -> dict:
    """End the war(s), place truces (10.4 Truces) and write the treaty record."""
    side_v = [v, *(st.active_allies(state, v) if st.is_player(state, v) else [])]
    side_l = [loser, *(active_l or [])]
    surrendered = [loser, v] in state["surrendered"]
    for a in side_v:
        for b in side_l:
            state["wars"] = [w for w in state["wars"] if w["pair"] != st.pair(a, b)]
    state["surrendered"] = [s for s in state["surrendered"] if set(s) != {v, loser}]
    if loser in state["realms"] and not state["realms"][loser].get("annexed_by") and \
            not st.overlord(state, loser) and st.pair(v, loser) not in state["truces"]:
        # never with vassals; not with former enemies' active allies
        state["truces"].append(st.pair(v, loser))
        events.append({"kind": "truce", "a": v, "b": loser, "until": state["round"] + 1,
                       **({"game_ends": state["rounds"]} if state["round"] + 1 > state.get("rounds", 10**6) else {})})
    tid = st.new_treaty_id(state, v, loser)
    rnd = state["round"]
    record = treatybook.concluded_record(tid, [v, loser], peace_text(state, v, loser, term, cond, how, lines,
                                                                                  surrendered, loser_standing),
                                         f"{HOW.get(how, how)} in Peace Resolution, round {rnd}")
    record.update({"term": term, "condition": cond, "victor": v, "loser": loser, "how": how,
                   "key": treatybook.free_key(state, tid, "game")})
    treatybook.store(state, record)
    events.append({"kind": "peace", "victor": v, "loser": loser, "condition": cond, "term": term, "how": how,
                   "treaty": tid, **({"surrendered": True} if surrendered else {})})
    events.append(treatybook.event(record, "concluded"))
    return record
