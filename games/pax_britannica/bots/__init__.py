"""The bots that play a power in the demo and the random games: one for the Movement/Status
Change orders, one for diplomacy, one for a War.  Each sends only what the game accepts."""
