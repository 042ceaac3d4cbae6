"""What every part of the moderator stands on: settings, the clock, the context, identities, deadlines, the game registry, file permissions, logging."""
