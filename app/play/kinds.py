"""The kinds of event a room's log holds, named once (docs/protocol.md lists each
with what it carries), and the groups of them the code asks about."""

ROOM_CREATED = "room_created"
SEAT_CLAIMED = "seat_claimed"
SEAT_BOT = "seat_bot"  # a free seat becomes a bot before a game, or a bot seat free again
GAME_STARTED = "game_started"
MOVE = "move"
GAME_OVER = "game_over"
CHAT = "chat"
SEAT_STAND_IN = "seat_stand_in"  # a bot plays a person's running seat (left, timed out, handed)
SEAT_TAKEN_BACK = "seat_taken_back"  # the person plays their seat again
SEAT_RELEASED = "seat_released"  # the host freed a running seat for someone else
HOST_CHANGED = "host_changed"  # the host hands the host's role to the person in another seat
ALERTS_ON = "alerts_on"  # the room's first alert channel: from here on, turns may queue alerts
SEAT_VACATED = "seat_vacated"  # a person stands up from a waiting table; the seat is free
ROOM_SETTINGS = "room_settings"  # the host changes players, options or time of a waiting table
ABORT_VOTE = "abort_vote"  # a seated person proposes (or agrees) to abort the running game
UNDO = "undo"  # the game goes back to before a seat's last move (app/play/undo.py)
UNDO_REQUEST = "undo_request"  # a seat asks the others to let it take back its last move
UNDO_ANSWER = "undo_answer"  # a seated person agrees to a take-back, or declines it
SEAT_AWAY = "seat_away"  # a person is away until a time: their seat's clock is paused
SEAT_BACK = "seat_back"  # the person is back (they said so, or their away time ran out)


# events that change the game; only these make a move stale
GAME_EVENTS = frozenset({GAME_STARTED, MOVE, GAME_OVER, UNDO})
# events that hand a running seat to a bot and back
STAND_IN_EVENTS = frozenset({SEAT_STAND_IN, SEAT_TAKEN_BACK, SEAT_RELEASED})
