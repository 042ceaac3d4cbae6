"""Beacon's own problem codes (the codes every game shares are in pbem.kit.problems)."""
from pbem.kit.problems import Catalogue, Code

CATALOGUE = Catalogue("testgame", "Beacon (the test game)", [
    Code("insufficient-gold", "the bid is more gold than the power has", "the reply says how much it has"),
    Code("one-order-a-phase", "only one order a phase counts; the later ones were not taken"),
    Code("bad-gift", "the point is given to another player, not to oneself"),
    Code("bad-ruling", "the GM's ruling on a protest is not one the game takes", "rule UPHELD or DISMISSED"),
])
