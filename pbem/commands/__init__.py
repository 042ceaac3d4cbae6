"""The command language players and GMs write in their mails."""
