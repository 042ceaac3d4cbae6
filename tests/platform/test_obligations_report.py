"""What a power must do this phase (the game's ``obligations``), as the moderator shows it: each
line with its dice and rule, owed and capped first, only to the readers its audience admits."""
from __future__ import annotations

from pbem.kit import audience
from pbem.kit.gameapi import EFFECT, LIMIT, MUST, Game, Obligation
from pbem.reporting import reports


class Owing(Game):
    """A game whose every power owes one thing, is capped once and has one effect; the last
    power's cap is secret from it (seen by the GM alone), one effect is public."""

    def is_over(self, state):
        return False

    def obligations(self, state, power):
        return [Obligation(power, f"{power} must pay 3", audience.powers(power), MUST, "1.1", (2, 6)),
                Obligation(power, f"{power} may spend 10", audience.gm() if power == "C" else audience.powers(power),
                           LIMIT, "1.2"),
                Obligation(power, f"{power} income doubled", audience.public(), EFFECT, "", (4,))]


def test_an_obligation_reads_with_its_dice_as_numbers_and_its_rule():
    assert Obligation("A", "Pay", audience.powers("A"), dice=(2, 6), rule="4.3").render() == \
        "Pay (dice 2 and 6) [rules: 4.3]"
    assert Obligation("A", "Income", "public", EFFECT, dice=(4,)).render() == "Income (die 4)"
    assert Obligation("A", "Pay", audience.powers("A")).to_json()["audience"] == {"powers": ["A"]}


def test_a_power_reads_only_its_own_that_its_audience_admits_the_gm_everyones_the_public_none():
    game = Owing()
    assert [o["text"] for o in reports.obligations(game, {}, "A")] == \
        ["A must pay 3", "A may spend 10", "A income doubled"]
    assert [o["text"] for o in reports.obligations(game, {}, "C")] == ["C must pay 3", "C income doubled"]
    gm = [o["line"] for o in reports.obligations(game, {}, None, gm=True, seated=("A", "C"))]
    assert "C: C may spend 10 [rules: 1.2]" in gm and len(gm) == 6
    assert all(line.startswith(("A: ", "C: ")) for line in gm)
    assert reports.obligations(game, {}, None) == []


def test_what_is_owed_or_capped_comes_first_under_its_heading_then_what_else_is_in_force():
    game = Owing()
    blocks = reports.obligation_blocks(reports.obligations(game, {}, "A"), "A", "Turn 1")
    assert [b["title"] for b in blocks] == ["What you must do this phase (Turn 1)", "Also in force for you this phase"]
    assert [o["kind"] for o in blocks[0]["items"]] == [MUST, LIMIT]
    only = reports.obligation_blocks([o for o in reports.obligations(game, {}, "A") if o["kind"] == EFFECT], "A",
                                     "Turn 1")
    assert [b["title"] for b in only] == ["Also in force for you this phase (Turn 1)"]
    assert reports.obligation_blocks([], "A", "Turn 1") == []
