"""Mail going out: the outbox, one mail per recipient, held sending, undelivered and bounced mail, secrets kept out of stored mail."""
