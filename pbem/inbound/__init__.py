"""Mail coming in: stored before it is acted on, poison mail set aside, handled in a sandbox."""
