"""The hard bot for Mensch ärgere Dich nicht: Das Kartenspiel: a determinized search.

The seat knows its own two dice, the board and the dice played onto the discard pile
since the last reshuffle (each was played face up and shows in the log, docs/rules.md
MAEDN-18); it does not know the other hands nor the order of the draw pile. So it
counts cards: the dice still to come are the 130 dice cards minus its hand and the
discard pile, and a *world* deals those, shuffled, into the other hands and the pile
at the sizes the view shows (with a fresh PRNG state for a reshuffle). In every world
each legal move is played, then ``PLAYOUT_ROUNDS`` rounds of the greedy ``strong``
bot for every seat, and the position is valued for the seat against the leading
opponent (points banked, open rows by how near they are to 40; a reached target
wins). The move with the best mean over the worlds is played.

Fair by construction: a world is built from public facts and the seat's own dice
alone (every hidden field of the state is replaced), and the sampling seed is the
bot's seed mixed with those facts, so two states that differ only in what the seat
cannot see give the same move. Every world is shared by all moves (common random
numbers).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engines import determinized
from engines.base import JSON, Budget
from engines.maedn import bots, cards
from engines.maedn.moves import Move
from engines.maedn.rules import legal, play
from engines.maedn.state import State
from engines.prng import next_u64, shuffled

HARD_BUDGET = Budget(iterations=8, seconds=1.0)
"""Worlds sampled per move: on a quiet machine about 0.04 s a move at 2 players and 0.1 s
at 4, below the 0.1-0.3 s aimed at, since it already wins nearly every game against
the strong bot and the bench plays long games (docs/benchmarks.md)."""

PLAYOUT_ROUNDS = 1  # full rounds of greedy play after the move, before valuing
WIN = 1000.0  # a reached target outweighs any standing


def _public(state: State, seat: int) -> tuple[object, ...]:
    """The facts ``seat`` may see (docs/rules.md MAEDN-18): what the sampling seed mixes in."""
    return (
        state.players,
        seat,
        state.hands[seat],
        tuple(len(hand) for hand in state.hands),
        len(state.pile),
        state.discard,
        state.middle,
        state.rows,
        state.finished,
        state.scores,
        state.quiet,
        state.turn,
    )


def still_to_come(state: State, seat: int) -> Counter[int]:
    """The dice ``seat`` has not seen since the last reshuffle, by face: the dice cards
    minus its own hand and the discard pile (the other hands and the draw pile)."""
    left = Counter(cards.dice_deck())
    left.subtract(state.hands[seat])
    left.subtract(state.discard)
    return left


def sample_world(state: State, seat: int, rng: int) -> tuple[State, int]:
    """One world: the dice still to come dealt into the other hands and the draw pile,
    every hidden field of ``state`` replaced."""
    dice, rng = shuffled(rng, sorted(still_to_come(state, seat).elements()))
    hands, at = determinized.deal(state.hands, seat, dice, lambda dealt: tuple(sorted(dealt)))
    pile = tuple(dice[at:])
    world_rng, rng = next_u64(rng)
    return replace(state, hands=hands, pile=pile, rng=world_rng), rng


def _standing(state: State, seat: int) -> float:
    return bots.SCORE_WEIGHT * state.scores[seat] + sum(
        bots._row_value(row) for row in state.rows[seat]
    )


def _value(state: State, seat: int) -> float:
    """The seat against the leading opponent (a little against the rest), as the greedy
    bot values a board; a reached target decides."""
    if state.winner is not None:
        return WIN if state.winner == seat else -WIN
    mine = _standing(state, seat)
    others = [_standing(state, other) for other in range(state.players) if other != seat]
    leader = max(others)
    return mine - leader - 0.25 * (sum(others) - leader)


def _playout(state: State, seat: int, seed: int) -> float:
    """Greedy moves for everyone for ``PLAYOUT_ROUNDS`` rounds, then the value."""
    for ply in range(PLAYOUT_ROUNDS * state.players):
        if state.over:
            break
        mover = state.turn
        state = play(state, mover, bots.choose_strong(state, mover, seed + ply))
    return _value(state, seat)


def choose_hard(state: State, seat: int, seed: int, budget: Budget) -> JSON:
    """The move the search picks for ``seat`` within ``budget``, from what the seat may see."""
    moves: list[Move] = legal(state, seat)
    if len(moves) == 1:
        return moves[0].to_json()
    best = determinized.best(
        len(moves),
        budget,
        determinized.seeded(seed, _public(state, seat)),
        lambda rng: sample_world(state, seat, rng),
        lambda world, index, play_seed: _playout(
            play(world, seat, moves[index].to_json()), seat, play_seed
        ),
    )
    return moves[best].to_json()
