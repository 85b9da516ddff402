"""The hard bot's search (placeholder: it plays the greedy bot's move until the search
of issue 24 lands in this module; the "hard" level of ``bots.BOTS`` calls it)."""

from __future__ import annotations

from engines.base import JSON, Budget
from engines.maedn import bots
from engines.maedn.state import State

# what the hard level thinks with when the server gives no budget of its own
HARD_BUDGET = Budget(iterations=200, seconds=1.0)


def choose_hard(state: State, seat: int, seed: int, budget: Budget) -> JSON:
    """The move the search picks for ``seat`` within ``budget``, from what the seat may see."""
    return bots.choose_strong(state, seat, seed, budget)
