"""The codes Beacon's capabilities add to the minimal Beacon's (tests/testgame/problems.py)."""
from pbem.kit.problems import Catalogue, Code

CATALOGUE = Catalogue("beacon", "Beacon with every capability (the test game)", [
    Code("bad-gift", "the point is given to another player, not to oneself"),
    Code("bad-ruling", "the GM's ruling on a protest is not one the game takes", "rule UPHELD or DISMISSED"),
])
