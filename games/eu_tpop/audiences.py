"""Who may see each fact of Europa Universalis (the contract's audiences, pbem.kit.audience).

What happens on the map and at the table is public: actions, battles, sieges, wars, peaces,
alliances, marriages and the deals concluded.  A realm's own mat is its own: the monarch
power an action costs or gains, and its standing orders.  Choice (choices/diplomacy.md): a
deal offered and not yet concluded is between the two realms; once both send it, the deal is
public.  A treaty's record and its changes are tagged by the platform's treaty book
(pbem.kit.treatybook): its parties while it is secret.  :data:`PUBLIC` and :data:`PRIVATE` give
a kind's audience when the code that made the event gave none; a kind in neither keeps none
(the GM's alone), and the suite fails (test_eu_rules checks every kind the rules emit).
"""
from __future__ import annotations

from pbem.kit import audience

#: event kinds that are their realms' own: the fields naming those realms
PRIVATE = {"monarch_power": ("realm",), "standing": ("realm",), "deal_offered": ("from", "to"),
           "negotiation_differs": ("a", "b")}
#: event kinds everyone sees
PUBLIC = frozenset({
    "action", "action_cards", "active_ally", "active_ally_ended", "ally_joins_war", "alliance", "alliance_ended", "allied_units_lost",
    "allied_units_returned", "annexed", "appointed", "bankrupt", "battle", "battle_round", "battle_start",
    "captured", "cb", "cta", "deal", "decision_needed", "default_decision", "dow_after", "ducats", "free",
    "free_action", "game_over", "gm_edit", "hre_dissolved", "imperial_authority", "influence", "leader",
    "leader_died", "liberated", "loan", "manpower", "manpower_refreshed", "marriage", "military_access", "move",
    "naval_move", "npr_invasion", "occupied", "returned", "pass", "peace", "peace_moot", "peace_refused",
    "phase", "prestige", "province_sold", "rebel_dice", "rebel_town", "rebels", "recruit", "refused",
    "relocated", "repaired", "retreat", "ships_left_port", "siege", "siege_skipped", "stability",
    "surrender", "tokens_removed", "truce", "unrest", "unrest_removed", "vassal", "war"})
#: event kinds whose audience is given where they are made (a treaty's record; a battle round
#: explained to the realms that fought it, and each one's casualty order, battle_explain.py;
#: what a GM edit changed in a realm's position, its player's: pbem.kit.positions)
MADE_WITH = frozenset({"treaty", "battle_detail", "casualties_chosen", "position_changed"})


def stamp(events: list[dict]) -> list[dict]:
    """Every event with its audience: the one it was made with, else its kind's (a kind this
    module does not know keeps none: the GM's alone)."""
    for e in events:
        if audience.KEY in e:
            continue
        kind = str(e.get("kind"))
        if kind in PRIVATE:
            audience.tag(e, audience.powers([e.get(f) for f in PRIVATE[kind]]))
        elif kind in PUBLIC:
            audience.tag(e, audience.public())
    return events
