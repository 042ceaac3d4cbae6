"""An ATTACK that cannot be fought says why: no unit of one's own there, or no enemy there
(Rules: COMBAT DURING A WAR - "Units in one Area or Sea Zone can attack only enemy Units within
the same Area or Sea Zone")."""
from __future__ import annotations

from games.pax_britannica import GAME

PLAYERS = ["Britain", "France", "Germany", "United States"]


def problems(*edits, order):
    s = GAME.set_phase(GAME.setup(PLAYERS, {"setup": "empty"}, None), "war_attack_1", 1884)
    for e in ("SET WAR Britain VS France", *edits):
        s, _ = GAME.gm_command(s, e, None)
    parsed = GAME.parse_orders(s, "Britain", [(1, order)])  # the First Alliance's phase
    return [p.render() for p in parsed.problems + GAME.validate(s, "Britain", parsed.orders)]


def test_a_navy_at_sea_told_no_enemy_is_there_and_where_based_navies_are_fought():
    found = problems("SET NAVY Britain 10 North Atlantic Ocean AT SEA", "SET NAVY France 10 France",
                     order="ATTACK NAVY North Atlantic Ocean")
    assert len(found) == 1 and "[no-combat] no enemy unit is in North Atlantic Ocean to fight (navy combat)" \
        in found[0] and "a navy based in an Area is fought in that Area" in found[0], found


def test_no_unit_of_ones_own_there_is_said_so():
    found = problems("SET ARMY France 3 Egypt", order="ATTACK Egypt")
    assert len(found) == 1 and "Britain has no unit in Egypt facing enemy units there" in found[0], found
