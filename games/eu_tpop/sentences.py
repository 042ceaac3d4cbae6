"""What each event says to a reader: one small renderer per event kind.

:data:`SENTENCES` maps every kind the rules emit to a function from the event to
its sentence, or to ``None`` for a kind the report does not tell in a sentence
(:data:`UNTOLD`).
A kind the rules emit without an entry here fails the suite
(tests/games/eu_tpop/test_eu_report.py lists the kinds the code emits).  The reader is not
an argument: the moderator hands a report only the events its reader may see
(audiences.py), so a sentence never decides who reads it.

To add a kind: write a function of the event under ``@says("<kind>")`` here, or in
war_sentences.py for battles and moves (or add
the kind to :data:`UNTOLD`), give the kind its audience in audiences.py.
"""
from __future__ import annotations

from . import \
    war_sentences  # noqa: F401 - registers the sentences of battles and moves
from .peace_records import HOW, TERM_WORDS
from .sentence_words import SENTENCES, plural, says

#: kinds no sentence tells: the action queue's own items (dow_after, free, leader), a treaty
#: record (the platform mails the record itself), and facts the text report leaves to the
#: reader's status or to the sentences around them (a sale, a standing order, unrest removed)
UNTOLD = ("active_ally_ended", "allied_units_lost", "allied_units_returned", "dow_after", "free",
          "game_over", "leader", "province_sold", "standing", "tokens_removed",
          "treaty", "unrest_removed")

CONDITION = {"total": "{}'s Total Victory", "partial": "{}'s Partial Victory",
             "inconclusive": "an inconclusive war", "white_peace": "nothing occupied"}
DECISION = {"cta": "a Call to Arms", "retreat": "whether to retreat", "leader": "which leader commands in the battle",
            "peace": "its peace term, its enemy having surrendered (10.2)"}


def sentence(e: dict) -> str | None:
    """The event's sentence, or None (an untold kind, or a kind no renderer knows)."""
    fn = SENTENCES.get(str(e.get("kind")))
    return fn(e) if fn else None


def _signed(n: int) -> str:
    return f"{'+' if n > 0 else ''}{n}"


for _kind in UNTOLD:
    SENTENCES[_kind] = lambda e: None


# -- actions and war (9.1-9.5) --------------------------------------------------------

@says("action")
def _action(e):
    return f"{e['realm']}: {e['order']}"


@says("pass")
def _pass(e):
    return f"{e['realm']} passes."


@says("war")
def _war(e):
    return f"{e['aggressor']} declares war on {e['target']} (CB: {e['cb']})."


@says("cta")
def _cta(e):
    # A reason that only repeats the answer ("refused (refused)") says nothing more.
    why = f" ({e['why']})" if e.get("why") and e["answer"] != "accepted" and e["why"] != e["answer"] else ""
    kind = "Defensive" if e["defensive"] else "Offensive"
    return f"{kind} Call to Arms from {e['from']} to {e['to']}: {e['answer']}{why}."


@says("active_ally")
def _active_ally(e):
    return f"{e['npr']} becomes {e['pr']}'s Active Ally ({plural(e['allied_units'], 'allied unit')})."


@says("cb")
def _cb(e):
    if not e.get("reason"):
        return None
    return f"{e['holder']} gains a CB token against {e['against']} ({e['reason']})."


@says("free_action")
def _free_action(e):
    return f"Free action: {e['order']}" + (f" not taken ({e['skipped']})." if e.get("skipped") else ".")


@says("refused")
def _refused(e):
    return f"{e['realm']}'s {e['order']} could not be carried out: {e['message']}"


@says("decision_needed")
def _decision_needed(e):
    return f"{e['realm']} is asked by mail about {DECISION[e['decision']]} (no answer: {e['default']})."


@says("default_decision")
def _default_decision(e):
    return f"No answer from {e['realm']}: the default applies ({e['decision']})."


@says("phase")
def _phase(e):
    return "Every realm has passed: the Peace & Rebels phase begins."


# -- peace (10) -----------------------------------------------------------------------

@says("peace")
def _peace(e):
    return (f"Peace between {e['victor']} and {e['loser']}: {TERM_WORDS.get(e['term'], e['term'])}, "
            f"{HOW.get(e.get('how', ''), e.get('how') or 'concluded')} "
            # 10.2: after a surrender the victor enforces "as if" a Partial Victory: the cause is the surrender.
            f"({e['loser'] + ' surrendered' if e.get('surrendered') else CONDITION.get(e['condition'], '{}').format(e['victor'])})"
            + (f"; treaty record {e['treaty']}" if e.get("treaty") else "") + ".")


@says("truce")
def _truce(e):
    if e.get("game_ends"):   # a truce made in the last round outlasts the game (peace_records.py)
        return f"Truce between {e['a']} and {e['b']} for the rest of the game (it ends with round {e['game_ends']})."
    return f"Truce between {e['a']} and {e['b']}" + (f" until Phase 3 of round {e['until']}." if e.get("until") else ".")


@says("ally_joins_war")
def _ally_joins_war(e):
    return f"{e['npr']}, {e['pr']}'s Active Ally, is part of {e['pr']}'s war with {e['enemy']} (11.3)."


@says("negotiation_differs")
def _negotiation_differs(e):
    def quote(lines: list[str]) -> str:
        return "; ".join(lines) or "(empty)"
    return (f"The NEGOTIATE texts of {e['a']} and {e['b']} differ, so no peace is made yet: {e['a']} wrote "
            f"\"{quote(e['text_a'])}\", {e['b']} wrote \"{quote(e['text_b'])}\". Step D stays open for this war: "
            "send the same text, or decide the war otherwise.")


@says("peace_refused")
def _peace_refused(e):
    return f"{e['realm']}'s {e['term'].replace('_', ' ')} with {e['against']} did not happen: {e['why']}."


@says("peace_moot")
def _peace_moot(e):
    return f"{e['realm']}'s {e['order']}: the war with {e['against']} had already ended."


@says("surrender")
def _surrender(e):
    return f"{e['loser']} surrenders to {e['victor']}."


@says("vassal")
def _vassal(e):
    return f"{e['realm']} becomes a vassal of {e['overlord']}."


@says("annexed")
def _annexed(e):
    return f"{e['realm']} is annexed by {e['by']}."


@says("liberated")
def _liberated(e):
    return f"{e['province']} is liberated and goes to {e['to']}."


# -- diplomacy (11) -------------------------------------------------------------------

@says("alliance")
def _alliance(e):
    return f"Alliance between {e['a']} and {e['b']}."


@says("alliance_ended")
def _alliance_ended(e):
    return f"The alliance of {e['a']} and {e['b']} ends ({e['reason']})."


@says("marriage")
def _marriage(e):
    return f"Royal marriage: {e['a']} and {e['b']}."


@says("action_cards")
def _action_cards(e):
    return (f"{' and '.join(e['realms'])} each gain {plural(e['n'], 'Action Card')} of a type {e['chooser']} "
            f"chooses ({e['reason']}); they are drawn on the table.")


@says("influence")
def _influence(e):
    return f"{e['realm']}: {e['delta']:+d} Influence in {e['area']} ({e['reason']})."


@says("deal")
def _deal(e):
    return f"Deal between {e['a']} and {e['b']}: {'; '.join(e['lines'])}."


@says("deal_offered")
def _deal_offered(e):
    return (f"{e['from']} offers {e['to']} a deal: {'; '.join(e['lines'])} "
            f"(the same text from {e['to']} concludes it).")


@says("imperial_authority")
def _imperial_authority(e):
    return f"Imperial Authority {e['delta']:+d}, now {e['value']} ({e['reason']})."


@says("hre_dissolved")
def _hre_dissolved(e):
    return f"{e['by']} annexes the Emperor's realm: the Holy Roman Empire is dissolved."


# -- a realm's figures ----------------------------------------------------------------

@says("prestige", "stability", "ducats", "manpower")
def _figure(e):
    wanted = e.get("wanted")
    capped = f"; {_signed(wanted)}, but stability stays within -3 and +3" \
        if e["kind"] == "stability" and wanted is not None and wanted != e["delta"] else ""
    return f"{e['realm']}: {_signed(e['delta'])} {e['kind']} ({e['reason']}{capped})."


@says("monarch_power")
def _monarch_power(e):
    """The realm's own mat: its audience is the realm alone (audiences.PRIVATE)."""
    return f"{e['realm']}: {_signed(e['delta'])} {e['type']} power on its mat ({e['reason']})."


@says("loan")
def _loan(e):
    """NOTES 3.8 (choices/peace.md): a cost that cannot be paid takes a Loan."""
    return f"{e['realm']} cannot pay ({e['reason']}) and takes a Loan: {plural(e['loans'], 'Loan')} now."


@says("bankrupt")
def _bankrupt(e):
    """NOTES 3.8: 5 Loans mean bankruptcy (phases/peace_and_rebels.py applies it)."""
    return (f"{e['realm']} goes bankrupt: -3 stability, -5 prestige, its Ducats and mercenaries lost, "
            "3 Loans cleared.")


@says("manpower_refreshed")
def _manpower_refreshed(e):
    return f"{e['realm']}: {e['n']} exhausted manpower refreshed ({e['reason']})."


# -- Phase 3: peace and rebels (4.3) --------------------------------------------------

@says("rebels")
def _rebels(e):
    return f"Rebels in {e['area']}: {e['action']}" + (f" to {e['to']}" if e.get("to") else "") + "."


@says("rebel_dice")
def _rebel_dice(e):
    return f"Rebel dice for {e['realm']} in {e['area']}: {', '.join(e['results'])}."


@says("rebel_town")
def _rebel_town(e):
    return f"Rebels hold {e['province']}."


@says("npr_invasion")
def _npr_invasion(e):
    return f"{e['npr']} invades {e['area']} with {plural(e['units'], 'unit')}."


@says("unrest")
def _unrest(e):
    return f"Unrest in {', '.join(e['provinces'])} ({e['reason']})."


# -- the GM ---------------------------------------------------------------------------

@says("gm_edit")
def _gm_edit(e):
    return f"GM: {e['text']}"


@says("position_changed")
def _position_changed(e):
    return f"The GM changed {e['power']}'s position: {'; '.join(e['changes'])}."
