"""Bots for Mensch ärgere Dich nicht: Das Kartenspiel, the levels a room offers
strongest first: ``hard``, ``medium`` and ``easy``.

All are deterministic for a budget without a time limit: the same state, seat and
seed give the same move, and their only randomness is ``engines.prng`` seeded from
``seed``. All look only at what the seat itself may see — the board and its own two
dice — never at the draw pile or another hand.

* ``hard`` is the search of ``engines.maedn.search``.
* ``easy`` plays like ``medium``, but half its moves (drawn by the seed) at random.
* ``RANDOM`` (not offered; for tests and benches) picks uniformly among the legal moves.
* ``medium`` (once called ``strong``) looks one move ahead: it lays each candidate figure on the board
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


# the easy level plays a random move this often in a hundred, else the greedy's
EASY_RANDOM_PERCENT = 50
_EASY_SALT = 0x5EA5_1DE5


def choose_easy(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    """The greedy's move, or (``EASY_RANDOM_PERCENT`` times in a hundred, by the seed)
    a uniformly random legal one."""
    coin, rest = prng.below(prng.seed_state(seed ^ _EASY_SALT), 100)
    if coin >= EASY_RANDOM_PERCENT:
        return choose_strong(state, seat, seed)
    moves = legal(state, seat)
    index, _ = prng.below(rest, len(moves))
    return moves[index].to_json()


def choose_hard(state: State, seat: int, seed: int, budget: Budget) -> JSON:
    return search.choose_hard(state, seat, seed, budget)


RANDOM: Bot[State] = Bot("random", "Random", choose_random)

# The search reads this module's greedy, so it is imported once that is defined (the
# package imports this module first).
from engines.maedn import search  # noqa: E402

BOTS: dict[str, Bot[State]] = {
    "hard": Bot(
        "hard",
        "Hard",
        choose_hard,
        search.HARD_BUDGET,
        "Looks ahead: tries its moves against the dice still to come.",
    ),
    "medium": Bot(
        "medium",
        "Medium",
        choose_strong,
        description="Finishes rows and steals from the leader.",
    ),
    "easy": Bot(
        "easy",
        "Easy",
        choose_easy,
        description="A beginner: plays like medium, but every other move at random.",
    ),
}
