"""Determinized search, the hard bots of the card games (M, MÄDN) share it.

A seat that cannot see the other hands nor the pile samples *worlds*: what it has not
seen, dealt at random into the hidden places at the sizes the view shows. Every
candidate move is played in every world (common random numbers: the comparison between
moves is fair with few worlds) and the best mean wins. Each game says what a seat may
see, how a world is dealt and how a position is valued; this module only runs the loop
within the budget and seeds it.

The sampling seed is the bot's seed mixed with the facts the seat may see, so two
states that differ only in hidden fields give the same worlds and the same move: the
bot cannot read what it must not, by construction.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from engines.base import Budget
from engines.prng import below, seed_state

World = TypeVar("World")
Card = TypeVar("Card")


def seeded(seed: int, public: tuple[object, ...]) -> int:
    """The PRNG state for a search: the bot's seed mixed with what the seat may see."""
    digest = hashlib.blake2b(repr((seed, public)).encode(), digest_size=8).digest()
    return seed_state(int.from_bytes(digest, "big"))


def deal(
    hands: Sequence[tuple[Card, ...]],
    seat: int,
    cards: Sequence[Card],
    arrange: Callable[[list[Card]], tuple[Card, ...]] = tuple,
) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """The other seats' hands dealt from ``cards`` at their sizes (``seat`` keeps its
    own), each put in order by ``arrange``, and how many cards that took."""
    dealt = []
    at = 0
    for other, hand in enumerate(hands):
        if other == seat:
            dealt.append(hand)
            continue
        dealt.append(arrange(list(cards[at : at + len(hand)])))
        at += len(hand)
    return tuple(dealt), at


def best(
    moves: int,
    budget: Budget,
    rng: int,
    sample: Callable[[int], tuple[World, int]],
    value: Callable[[World, int, int], float],
) -> int:
    """The index of the move with the best total over the worlds ``sample`` draws
    (``budget.iterations`` of them, or as many as ``budget.seconds`` allows, at least
    one); ``value(world, move, seed)`` plays move ``move`` in a world and values it."""
    worlds = budget.iterations if budget.iterations is not None else 1 << 30
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    totals = [0.0] * moves
    for world in range(worlds):
        if deadline is not None and world > 0 and time.perf_counter() >= deadline:
            break
        sampled, rng = sample(rng)
        play_seed, rng = below(rng, 1 << 32)
        for index in range(moves):
            totals[index] += value(sampled, index, play_seed)
    return max(range(moves), key=lambda index: totals[index])
