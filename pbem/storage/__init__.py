"""The database and what is kept in it: games, players, the GM log, orders and history, backups."""
