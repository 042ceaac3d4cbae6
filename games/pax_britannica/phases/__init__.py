"""The phases of the Game Turn, one module each (``resolve(state, orders, dice, data)`` mutates
the copy it gets and returns the events), with the order readers and the rules they share.

The order they are played in is the table in ``sequence.py``; the War Phase and the War
Sequence's phases are played by ``war/`` (Rules: (20) WAR; THE WAR SEQUENCE).
"""
