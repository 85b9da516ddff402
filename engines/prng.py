"""A tiny deterministic PRNG whose whole state is one integer.

Engines keep that integer inside their game state, so a state can be dumped,
loaded and replayed bit for bit (docs/rules.md ALL-5). SplitMix64: fast, well distributed, and
trivially serialisable; not for anything that needs secrecy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The PRNG state for a game seed (any int, folded to 64 bits)."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """One 64-bit output and the next state."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)`` and the next state (rejection sampling)."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % n, state


def shuffled(state: int, items: Sequence[T]) -> tuple[list[T], int]:
    """A Fisher-Yates shuffle of ``items`` and the next state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state
