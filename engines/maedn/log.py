"""The public log line of a move: what everyone at the table saw happen.

Dice are played face up, so the dice of a start or extend and the die of a
discard are public once played; the dice drawn afterwards are not, and never
appear here. Shape, for ``start`` and ``extend``::

    {"seat": 1, "type": "extend", "dice": [3],
     "row": 0,                 # extend: the row named in the move (numbered before it);
                               # start: the index the new row has after the move
     "figure": 12,
     "taken_from": "stolen",   # "middle", "own_row" or "stolen"
     "from_seat": 0,           # whose row gave the figure (null from the middle)
     "from_row": 0,            # that row's index before the move (null from the middle)
     "row_vanished": false,    # the row the figure came from had no other figure
     "finished": null,         # or {"figures": [...], "points": 11} when it took the 40
     "score": 0,               # the mover's score after the move
     "end": null}              # or {"reason": "target" | "stalled", "winner": seat | null}

and for ``discard``: ``{"seat", "type": "discard", "die", "score", "end"}``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engines.maedn import cards
from engines.maedn.moves import DISCARD, EXTEND
from engines.maedn.rules import MIDDLE, check, settle
from engines.maedn.state import State


def log_line(before: State, seat: int, move: Mapping[str, Any], after: State) -> dict[str, Any]:
    """Describe ``move`` by ``seat`` from ``before`` to ``after`` with public facts only."""
    parsed, take = check(before, seat, move)
    end = {"reason": after.end, "winner": after.winner} if after.end else None
    if parsed.kind == DISCARD or take is None:
        return {
            "seat": seat,
            "type": DISCARD,
            "die": parsed.dice[0],
            "score": after.scores[seat],
            "end": end,
        }
    board = settle(before, seat, parsed, take)
    vanished = False
    if take.source != MIDDLE and take.owner is not None and take.row is not None:
        vanished = len(before.rows[take.owner][take.row]) == 1
    finished = None
    if board.completed is not None:
        finished = {"figures": list(board.completed), "points": cards.row_points(board.completed)}
    return {
        "seat": seat,
        "type": parsed.kind,
        "dice": list(parsed.dice),
        "row": parsed.row if parsed.kind == EXTEND else board.row,
        "figure": take.figure,
        "taken_from": take.source,
        "from_seat": take.owner,
        "from_row": take.row,
        "row_vanished": vanished,
        "finished": finished,
        "score": after.scores[seat],
        "end": end,
    }


def draws(before: State, seat: int, move: Mapping[str, Any], after: State) -> list[dict[str, Any]]:
    """The dice the mover drew back after playing ``move``: what the hand holds now
    beyond what was left of it. Hidden while the game runs (the replay of a
    finished game shows them); the winning move draws nothing."""
    parsed, _ = check(before, seat, move)
    left = Counter(before.hands[seat])
    left.subtract(parsed.dice)
    drawn = Counter(after.hands[seat])
    drawn.subtract(left)
    return [{"seat": seat, "card": die} for die in sorted(drawn.elements())]
