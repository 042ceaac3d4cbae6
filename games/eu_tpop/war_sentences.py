"""The sentences of battles (9.6-9.9), moves, recruiting and sieges (9.3, 9.8): one small
renderer per event kind, registered with sentences.py's others (sentence_words.py)."""
from __future__ import annotations

from . import battle_explain as explain
from .sentence_words import damaged, lost, plural, says

# -- battles (9.6-9.9) ----------------------------------------------------------------

@says("battle_start")
def _battle_start(e):
    return f"Battle {'at sea ' if e['naval'] else ''}in {e['area']}: {e['attacker']} attacks ({e['why']})."


@says("battle_round")
def _battle_round(e):
    """What the table sees: the numbers rolled (the dice table gives their faces), hits, losses."""
    led = [f"{e[side]}'s {e[side + '_leader']}" for side in ("attacker", "defender")
           if e.get(side + "_leader", "none") != "none" and e["round"] == 1]
    rolls = e.get("rolls") or {}
    said = {side: " ".join(str(n) for n in rolls.get(side, [])) or "no dice" for side in ("attacker", "defender")}
    return (f"  Round {e['round']}: {e['attacker']} rolled {said['attacker']} ({plural(e['hits']['attacker'], 'hit')}); "
            f"{e['defender']} rolled {said['defender']} ({plural(e['hits']['defender'], 'hit')}). {lost(e['casualties'])}."
            + damaged(e.get("damaged") or [])
            + (f" Wounded: {', '.join(e['wounds'])}." if e.get("wounds") else "")
            + (f" Leading: {' and '.join(led)}." if led else ""))


@says("battle_detail")
def _battle_detail(e):
    """To the realms that fought: strengths, each die's cause, icons matched to units (battle_explain.py)."""
    return "\n".join(f"    {explain.side_words(e[side], role, e['sides'][side], e['naval'])}."
                     for side, role in (("attacker", "attacked"), ("defender", "defended")))


@says("casualties_chosen")
def _casualties_chosen(e):
    return (f"    Your losses in {e['area']} round {e['round']} ({', '.join(k.replace('_', ' ') for k in e['lost'])}) "
            f"were chosen by {e['by']}.")


@says("battle")
def _battle(e):
    return f"Battle in {e['area']} over after {plural(e['round'], 'round')}: winner {e['winner']}."


@says("retreat")
def _retreat(e):
    return f"{e['realm']} retreats from {e['area']} to {e['to']} ({lost(e['lost'])})."


@says("leader_died")
def _leader_died(e):
    return f"{e['realm']}'s leader {e['leader']} dies" + (" (the ruler: Interregnum)." if e.get("ruler") else ".")


@says("captured")
def _captured(e):
    return f"{e['realm']} captures {plural(e['ships'], 'ship')} in {e['sea']}."


@says("appointed")
def _appointed(e):
    return f"{e['realm']} appoints {e['leader']} to lead its forces in {e['at']}" + (
        " as the battle begins." if e.get("battle") else ".")


# -- movement, recruiting and sieges (9.3, 9.8) ---------------------------------------

@says("move")
def _move(e):
    return f"{e['realm']} moves {plural(e['units'], 'unit')}: {' -> '.join(e['path'])}."


@says("military_access")
def _military_access(e):
    # 9.5 Military Access: 1 Influence removed from the Area, or 3 Ducats paid.
    if e.get("paid") == "influence":
        return f"{e['realm']} removes 1 Influence from {e['area']} for Military Access (9.5)."
    return f"{e['realm']} pays 3 Ducats for Military Access into {e['area']} (9.5)."


@says("naval_move")
def _naval_move(e):
    return f"{e['realm']} sails {plural(e['ships'], 'ship')} from {e['from']} to {e['to']}."


@says("recruit")
def _recruit(e):
    cat = "" if e["category"] == "regular" else f" {e['category']}"
    return f"{e['realm']} recruits {e['n']}{cat} {e['unit']} in {e['where']} for {e['ducats']} Ducats."


@says("siege")
def _siege(e):
    # 9.8 steps 2-3: the units taking part need a strength of at least the tax value sieged; the
    # engine uses the fewest, as each beyond the first costs 1 military power.
    if "units" not in e:
        return f"{e['realm']} besieges {e['area']} (strength {e['strength']}): {', '.join(e['provinces'])}."
    return (f"{e['realm']} besieges {e['area']}: {', '.join(e['provinces'])} (tax value {e['tax']}; "
            f"{plural(e['units'], 'unit')} {'takes' if e['units'] == 1 else 'take'} part, of the army's "
            f"siege strength {e['strength']}).")


@says("siege_skipped")
def _siege_skipped(e):
    return f"No siege in {e['area']}: {e['why']}"


@says("occupied")
def _occupied(e):
    return f"  {e['province']} is occupied by {e['by']}."


@says("returned")
def _returned(e):
    return f"  {e['province']} returns to {e['owner']}."


@says("relocated")
def _relocated(e):
    ties = e.get("ties") or []
    return (f"{e['realm']} brings its units home from {e['from']} to {e['to']}: at peace, its units leave a "
            f"Neutral Area for the nearest Friendly Area (10.1 step 4)"
            + (f"; {', '.join(ties)} {'is' if len(ties) == 1 else 'are'} as near, and the first in alphabetical "
               "order is taken (the rule lets the player choose: ask the GM to move them)" if ties else "") + ".")


@says("ships_left_port")
def _ships_left_port(e):
    return f"{e['realm']}'s ships leave the port of {e['port']}, no longer friendly: " + (
        "disbanded." if e["to"] == "disbanded" else f"to {e['to']}.")


@says("repaired")
def _repaired(e):
    return f"{e['realm']}: {plural(e['ships'], 'damaged Heavy Ship')} repaired in the port of {e['port']}."
