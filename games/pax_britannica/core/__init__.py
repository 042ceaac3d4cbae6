"""The rules core of Pax Britannica: what the rules know whatever the phase - the state and the
board, the map data, the powers, treaties and disputes, the combat table, reading a line of
orders.  It imports nothing else of the game (pyproject.toml, ``[tool.importlinter]``)."""
