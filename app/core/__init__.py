"""What every part of the server stands on, knowing nothing of rooms or games: the
settings, the clock, the error shapes and the text rules, the database connection,
its lock and its migrations, backups, the Redis link and the duty one process holds,
logging, request limits, and the cautions said at start-up."""
