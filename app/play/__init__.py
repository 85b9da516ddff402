"""The rooms and their games: the tables and the append-only log (``store``), a room's
state folded from its events (``state``, ``kinds``, ``cache``), who a token is in a
room (``access``, ``actor``), the use cases that load, let the engine decide, append
and ring the doorbell (``rooms``, ``seats``, ``deadlines``), what each seat is sent
(``views``, ``schemas``), deals anyone can check (``fairness``), and retention."""
