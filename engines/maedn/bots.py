"""Bots for Mensch ärgere Dich nicht: Das Kartenspiel.

Both are deterministic: the same state, seat and seed give the same move, and
their only randomness is ``engines.prng`` seeded from ``seed``. Both look only at
what the seat itself may see — the board and its own two dice — never at the
draw pile or another hand.

* ``random`` picks uniformly among the legal moves.
* ``strong`` looks one move ahead: it lays each candidate figure on the board
  (without drawing) and values the result for itself against the leading
  opponent — points banked, rows weighted by how near 40 they are and how much
  they would score, rows one die short of 40, the die it keeps fitting such a
  row — so it finishes rows, steals from the leader, and keeps rows reachable.
"""

from __future__ import annotations

from engines import prng
from engines.base import JSON, Bot, Budget
from engines.maedn import cards
from engines.maedn.moves import DISCARD, Move
from engines.maedn.rules import Board, Take, legal, plays, settle
from engines.maedn.state import Row, State

WIN = 1e9
SCORE_WEIGHT = 3.0
REACH_BONUS = 0.6
KEEP_BONUS = 2.0


def choose_random(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    """A uniformly random legal move."""
    moves = legal(state, seat)
    index, _ = prng.below(prng.seed_state(seed), len(moves))
    return moves[index].to_json()


def _row_value(row: Row) -> float:
    """What an open row is worth now: its points, discounted by the way still to go."""
    worth = cards.row_points((*row, cards.GOAL))
    progress = row[-1] / cards.GOAL
    value = worth * progress * progress
    if cards.GOAL - row[-1] <= max(cards.DIE_FACES):
        value += REACH_BONUS * worth
    return value


def _standing(board: Board, seat: int) -> float:
    rows = board.rows[seat]
    return SCORE_WEIGHT * board.scores[seat] + sum(_row_value(row) for row in rows)


def _evaluate(state: State, seat: int, board: Board, kept: tuple[int, ...]) -> float:
    if board.scores[seat] >= state.target:
        return WIN
    mine = _standing(board, seat)
    others = [_standing(board, other) for other in range(state.players) if other != seat]
    leader = max(others)
    # A kept die that exactly finishes a row is a likely finish next turn.
    ends = {cards.GOAL - row[-1] for row in board.rows[seat]}
    for die in set(kept):
        if die in ends:
            mine += KEEP_BONUS * max(
                cards.row_points((*row, cards.GOAL))
                for row in board.rows[seat]
                if cards.GOAL - row[-1] == die
            )
    # The leader matters most; the rest of the table a little.
    return mine - leader - 0.25 * (sum(others) - leader)


def _kept(hand: tuple[int, ...], move: Move) -> tuple[int, ...]:
    left = list(hand)
    for die in move.dice:
        left.remove(die)
    return tuple(left)


def choose_strong(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    """The move whose resulting board looks best for ``seat`` (ties broken by ``seed``)."""
    hand = state.hands[seat]
    candidates: list[tuple[Move, Take | None]] = list(plays(state, seat))
    if not candidates:
        candidates = [(move, None) for move in legal(state, seat) if move.kind == DISCARD]
    best: list[Move] = []
    best_value = -WIN * 10
    for move, take in candidates:
        board = settle(state, seat, move, take)
        value = _evaluate(state, seat, board, _kept(hand, move))
        if value > best_value + 1e-9:
            best, best_value = [move], value
        elif abs(value - best_value) <= 1e-9:
            best.append(move)
    index, _ = prng.below(prng.seed_state(seed), len(best))
    return best[index].to_json()


BOTS: dict[str, Bot[State]] = {
    "strong": Bot("strong", "Strong (finishes rows, steals from the leader)", choose_strong),
    "random": Bot("random", "Random", choose_random),
}
