"""Running games: starting them, running phases, the clock's reminders and deadlines, verifying replays."""
