"""Bots at the table: the runner that notices a bot's turn after each commit, thinks in
a supervised worker pool off the event loop and plays through the same path as people,
and the worker's entry point (kept light: it imports engines, not the server)."""
