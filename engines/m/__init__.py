"""M, Martin Schlegel's card-laying game (2-6 players), behind the engine contract.

The rules live in ``rules`` (with ``table`` for the geometry and ``scoring`` for
the final count), the deck in ``cards``, the position in ``state``, what a seat
sees in ``view``, the bots in ``bots``. This module only binds them to
``engines.base.Engine``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import JSON, Bot, Engine, is_resign
from engines.m import rules
from engines.m.bots import BOTS, RANDOM
from engines.m.moves import parse
from engines.m.state import State, dump, load
from engines.m.view import draws, log_line, result, view


class MEngine(Engine[State]):
    name = "m"
    title = "M"
    version = "2"  # 2: a jammed table ends the game; a ten-round guard, not two
    min_players = 2
    max_players = 6
    hidden_information = True  # the hands and the shuffled pile

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        self.normalize_options(players, options)
        return rules.new_game(players, seed)

    def to_act(self, state: State) -> list[int]:
        return rules.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[JSON]:
        return [move.json() for move in rules.legal_moves(state, seat)]

    def play(self, state: State, seat: int, move: Mapping[str, Any]) -> State:
        return rules.play(state, seat, parse(move))

    def view(self, state: State, seat: int | None) -> JSON:
        return view(state, seat)

    def result(self, state: State) -> JSON | None:
        return result(state)

    def resign(self, state: State, seat: int) -> State:
        return rules.resign(state, seat)

    def undoable(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> bool:
        """A move that left every hand, the pile and the chance as they were: a pass
        without a swap, a line chosen, a take that does not end its phase
        (docs/rules.md M-24)."""
        return (
            not is_resign(move)
            and before.hands == after.hands
            and before.pile == after.pile
            and before.removed == after.removed
            and before.rng == after.rng
        )

    def dump(self, state: State) -> JSON:
        return dump(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return load(data)

    def bots(self) -> Mapping[str, Bot[State]]:
        return BOTS

    def random_bot(self) -> Bot[State]:
        return RANDOM

    def log_line(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> JSON:
        return log_line(before, seat, parse(move), after)

    def draws(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> list[JSON]:
        return draws(before, after)


ENGINE = MEngine()

__all__ = ["ENGINE", "MEngine", "State"]
