"""What a game may import: the contract (gameapi), audiences, dice, names, the treaty book, state copies, SVG, and the engine that runs a game's phases."""
