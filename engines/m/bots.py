"""Bots for M, the levels a room offers strongest first: "hard" (the search of
``engines.m.search``), "medium" (the greedy below, once called "strong") and "easy"
(the greedy, but half its moves, drawn by the seed, a random legal one). The uniformly
random bot (``RANDOM``) is kept for tests and benches.

All are deterministic for a budget without a time limit (same state, seat and seed,
same move) and draw randomness only from ``engines.prng``. They play fair: they read
the public table, tokens and collections and their own hand, never another hand or
the pile order.

The greedy (medium) bot scores each legal move in points (a token is 10):
- placing: the tokens it earns now; for a placement that starts a scoring phase,
  what the phase brings it when every taker picks greedily; minus what the new
  card exposes — empty cells beside it that the next player (who takes tokens from
  this seat) could fill to earn tokens, weighted by the chance that a card they
  may hold fits there;
- passing costs the token it gives away; a swap gets rid of the hand card with the
  fewest places to go;
- taking: the card that raises its own score most, which keeps its collection in
  two colours.
"""

from __future__ import annotations

from engines.base import JSON, Bot, Budget
from engines.m import rules, table
from engines.m.cards import CLASHES, DECK
from engines.m.moves import Line, Move, Pass, Place, Take
from engines.m.scoring import TOKEN_POINTS, score
from engines.m.state import State
from engines.m.table import Cell
from engines.prng import below, seed_state

HAND_OF_OTHERS = 4  # what the next player probably holds, for the exposure estimate
TOKEN_VALUE = 1.5 * TOKEN_POINTS  # a token won from the right is also one they lose


def _random(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    """A uniformly random legal move."""
    moves = rules.legal_moves(state, seat)
    index, _ = below(seed_state(seed), len(moves))
    return moves[index].json()


def _gain(state: State, seat: int, card: int) -> int:
    """How much ``seat``'s final score rises by collecting ``card``."""
    held = state.collections[seat]
    return score(0, (*held, card)) - score(0, held)


def _greedy_take(state: State) -> Take:
    """The take that raises the taker's own score most (first in run order on ties)."""
    options = rules.legal_moves(state, state.taker)
    best = max(
        options, key=lambda m: _gain(state, state.taker, m.card if isinstance(m, Take) else 0)
    )
    assert isinstance(best, Take)
    return best


def _phase_value(state: State, seat: int) -> float:
    """What a scoring phase (phase "line" or "take") is worth to ``seat`` if every taker
    picks greedily and ``seat`` chooses the line that suits it best."""
    if state.phase == "line":
        return max(
            _phase_value(rules.play(state, state.turn, Line(line)), seat) for line in state.lines
        )
    before = score(state.tokens[seat], state.collections[seat])
    while state.phase == "take":
        state = rules.play(state, state.taker, _greedy_take(state))
    return score(state.tokens[seat], state.collections[seat]) - before


def _unseen(state: State, seat: int) -> int:
    """The cards ``seat`` cannot see (other hands, the pile, the removed), as a bitmask."""
    seen = set(state.grid.values()) | set(state.hands[seat])
    seen.update(card for cards in state.collections for card in cards)
    return sum(1 << card for card in range(len(DECK)) if card not in seen)


class _Exposure:
    """The expected tokens the next player could win at a cell, cached per neighbour set."""

    def __init__(self, state: State, unseen: int) -> None:
        self.box = table.bounds(state.grid)
        self.unseen = unseen
        self.count = max(unseen.bit_count(), 1)
        self.cache: dict[tuple[int, ...], float] = {}

    def at(self, grid: dict[Cell, int], cell: Cell) -> float:
        near = tuple(sorted(card for _, card, _ in table.neighbours(grid, cell)))
        if len(near) < 2:
            return 0.0
        if near not in self.cache:
            clash = 0
            for card in near:
                clash |= CLASHES[card]
            miss = 1.0 - (self.unseen & ~clash).bit_count() / self.count
            self.cache[near] = (1.0 - miss**HAND_OF_OTHERS) * (len(near) - 1)
        return self.cache[near]


def _place_value(state: State, seat: int, move: Place, exposure: _Exposure) -> float:
    """Tokens earned, plus what a scoring phase brings, minus the exposure the new card
    adds beside it (cells the next player could fill for tokens taken from this seat)."""
    grid = dict(state.grid)
    top, left, bottom, right = exposure.box
    r, c = move.at
    box_after = (min(top, r), min(left, c), max(bottom, r), max(right, c))
    grid[move.at] = move.card
    owed = len(table.neighbours(grid, move.at)) - 1
    _, paid = rules.pay(state.tokens, seat, owed)
    value = TOKEN_VALUE * sum(paid)
    if rules.qualifying_lines(grid, move.at):
        value += _phase_value(rules.play(state, seat, move), seat)
    beside = [
        (r + dr, c + dc)
        for dr, dc, _ in table.ORTHOGONAL
        if (r + dr, c + dc) not in grid and table.fits(box_after, (r + dr, c + dc))
    ]
    risk = sum(exposure.at(grid, cell) for cell in beside)
    del grid[move.at]
    risk -= sum(exposure.at(grid, cell) for cell in beside)
    return value - TOKEN_VALUE * risk


def _strong(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    """The best move by the estimate in the module doc; ties broken by ``seed``."""
    moves = rules.legal_moves(state, seat)
    if state.phase == "take":
        return _greedy_take(state).json()
    if state.phase == "line":
        return max(moves, key=lambda m: _phase_value(rules.play(state, seat, m), seat)).json()
    exposure = _Exposure(state, _unseen(state, seat))
    places = {m.card for m in moves if isinstance(m, Place)}
    spare = min(state.hands[seat], key=lambda card: (card in places, DECK[card].value))
    scored: list[tuple[float, Move]] = []
    for move in moves:
        if isinstance(move, Place):
            scored.append((_place_value(state, seat, move, exposure), move))
        elif isinstance(move, Pass):
            cost = -TOKEN_VALUE if state.tokens[seat] else 0.0
            bonus = 1.0 if move.swap == spare and spare not in places else 0.0
            scored.append((cost + bonus - (0.5 if move.swap is not None else 0.0), move))
    top = max(value for value, _ in scored)
    best = [move for value, move in scored if value >= top - 1e-9]
    index, _ = below(seed_state(seed), len(best))
    return best[index].json()


# the easy level plays a random move this often in a hundred, else the greedy's
EASY_RANDOM_PERCENT = 50
_EASY_SALT = 0x5EA5_1DE5


def _easy(state: State, seat: int, seed: int, budget: Budget | None = None) -> JSON:
    """The greedy's move, or (``EASY_RANDOM_PERCENT`` times in a hundred, by the seed)
    a uniformly random legal one."""
    coin, rest = below(seed_state(seed ^ _EASY_SALT), 100)
    if coin >= EASY_RANDOM_PERCENT:
        return _strong(state, seat, seed)
    moves = rules.legal_moves(state, seat)
    index, _ = below(rest, len(moves))
    return moves[index].json()


def _hard(state: State, seat: int, seed: int, budget: Budget) -> JSON:
    return search.choose_hard(state, seat, seed, budget)


RANDOM: Bot[State] = Bot("random", "Random", _random)

# The search reads this module's greedy, so it is imported once that is defined (the
# package imports this module first).
from engines.m import search  # noqa: E402

# The hard bot comes first: it is the default, the one that plays for a seat
# whose player ran out of time.
BOTS: dict[str, Bot[State]] = {
    "hard": Bot(
        "hard",
        "Hard",
        _hard,
        search.HARD_BUDGET,
        "Looks ahead: guesses the hands it can't see from what the others played, and plays"
        " each guess out.",
    ),
    "medium": Bot(
        "medium",
        "Medium",
        _strong,
        description="Greedy: takes the tokens it can now and exposes little.",
    ),
    "easy": Bot(
        "easy",
        "Easy",
        _easy,
        description="A beginner: plays like medium, but every other move at random.",
    ),
}
