"""What a seat may see of a game — the only code that decides it (docs/rules.md MAEDN-18).

Public: every row of every player (figures lie face up, with their stars), the
middle, finished rows, scores, the target, how many dice each player holds, the
sizes of both piles and the top of the discard pile. Dice are played face up
onto the discard pile and announced in the log, so its top is public; its full
contents since the last reshuffle could be pieced together from the log, but
the table only shows the top card, and so does the view. Private: your own two
dice. Never shown: another hand, the order of the draw pile, the PRNG state.

The view is a JSON object of exactly this shape (``seat`` ``None`` = spectator)::

    {
      "game": "maedn",
      "players": 3,                     # 2..4
      "seat": 0,                        # the viewer, or null for a spectator
      "turn": 1,                        # seat to act, or null once the game is over
      "target": 35,                     # points that win at once (40/35/30)
      "max_open_rows": 3,
      "hand": [2, 6],                   # the viewer's dice, ascending; null for a spectator
      "hand_sizes": [2, 2, 2],          # dice held, per seat
      "rows": [                         # per seat, open rows oldest first:
        [{"figures": [8, 12, 15], "stars": [0, 0, 1]}],   # index = the move's "row"
        [], []
      ],
      "finished": [                     # per seat, finished rows in order
        [{"figures": [8, 15, 20, 28, 33, 38, 40], "stars": [0, 1, 1, 0, 0, 2, 0],
          "points": 11}],
        [], []
      ],
      "middle": [                       # all 40 figures, ascending
        {"figure": 1, "count": 2, "copies": 2, "stars": 0},   # count = copies lying there
        ...
      ],
      "scores": [11, 0, 0],
      "draw_pile": 117,                 # cards left to draw
      "discard_pile": {"size": 4, "top": 3},   # top is null when the pile is empty
      "quiet": {"turns": 5, "limit": 900},     # turns since a row was finished; at the
                                               # limit the game ends (stall rule, rules.py)
      "over": false,
      "winner": null,                   # seat that reached the target, else null
      "end": null,                      # null, "target", "stalled" or "resigned"
      "resigned": null                  # the seat that resigned (it ranks last), else null
    }
"""

from __future__ import annotations

from typing import Any

from engines.maedn import cards
from engines.maedn.rules import QUIET_ROUNDS
from engines.maedn.state import Row, State


def _row(row: Row) -> dict[str, Any]:
    return {"figures": list(row), "stars": [cards.stars(figure) for figure in row]}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see of ``state``; ``None`` is a spectator."""
    own = seat is not None and 0 <= seat < state.players
    return {
        "game": "maedn",
        "players": state.players,
        "seat": seat if own else None,
        "turn": None if state.over else state.turn,
        "target": state.target,
        "max_open_rows": cards.MAX_OPEN_ROWS,
        "hand": list(state.hands[seat]) if own and seat is not None else None,
        "hand_sizes": [len(hand) for hand in state.hands],
        "rows": [[_row(row) for row in rows] for rows in state.rows],
        "finished": [
            [{**_row(row), "points": cards.row_points(row)} for row in rows]
            for rows in state.finished
        ],
        "middle": [
            {
                "figure": figure,
                "count": state.middle[figure],
                "copies": cards.copies(state.players, figure),
                "stars": cards.stars(figure),
            }
            for figure in cards.FIGURES
        ],
        "scores": list(state.scores),
        "draw_pile": len(state.pile),
        "discard_pile": {
            "size": len(state.discard),
            "top": state.discard[-1] if state.discard else None,
        },
        "quiet": {"turns": state.quiet, "limit": QUIET_ROUNDS * state.players},
        "over": state.over,
        "winner": state.winner,
        "end": state.end,
        "resigned": state.resigned,
    }
