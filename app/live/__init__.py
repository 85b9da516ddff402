"""Live play: the websocket hub that sends every socket the view for the seat its token
holds, the doorbell that tells other processes a room moved (in-process or Redis),
who has a room open (presence), the periodic catch-up, and each seat's message budget."""
