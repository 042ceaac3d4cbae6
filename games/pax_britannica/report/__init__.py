"""What the players read: the turn report (``compose``), its board, events, diplomacy and War
sections, and the map.  Above the rules and the sequence of play; nothing below imports it."""
