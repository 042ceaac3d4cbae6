"""Beacon's own problem codes (the codes every game shares are in pbem.kit.problems)."""
from pbem.kit.problems import Catalogue, Code

CATALOGUE = Catalogue("testgame", "Beacon, minimal (the test game)", [
    Code("insufficient-gold", "the bid is more gold than the power has", "the reply says how much it has"),
    Code("one-order-a-phase", "only one order a phase counts; the later ones were not taken"),
])
