"""The public archive: a static site of every game and every resolved phase."""
