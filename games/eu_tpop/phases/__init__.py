"""The phases of a round, in the order the rules play them (their table: ``sequence.py``):

* :mod:`.action` - the Action Phase: one action a turn, run at once through its queue of
  work (Calls to Arms, battles, sieges), until every realm has passed;
* :mod:`.peace_and_rebels` - Phase 3, Peace & Rebels (4.3), steps A to I;
* :mod:`.peace_resolution` - its step D, the Peace Resolution of 10.1.

Each imports the rules it plays (war, diplomacy, peace, battles ...) from the package; none
imports the sequence, the reports, the bots or the game object above it.
"""
