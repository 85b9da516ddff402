"""Mensch ärgere Dich nicht: Das Kartenspiel (Kramer & Kiesling), behind ``engines.base``.

The rules live in ``rules`` (with ``moves`` for the shape of a move and
``state`` for the position), the cards in ``cards``, what a seat sees in
``view``, the public log line in ``log`` and the bots in ``bots``. This module
only binds them to the contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engines.base import JSON, BadOptions, Bot, Engine, IllegalMove, ranks_with_last, shared_ranks
from engines.maedn import bots, log, rules, view
from engines.maedn.state import END_RESIGNED, State, dump_state, load_state, new_state


class MaednEngine(Engine[State]):
    name = "maedn"
    title = "Mensch ärgere Dich nicht: Das Kartenspiel"
    version = "2"  # 2: the winning move ends the game without drawing back
    min_players = 2
    max_players = 4
    hidden_information = True  # the hands and the shuffled pile

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        self.normalize_options(players, options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOptions("The seed must be a whole number.", code="bad_seed")
        return new_state(players, seed)

    def to_act(self, state: State) -> list[int]:
        return [] if state.over else [state.turn]

    def legal_moves(self, state: State, seat: int) -> list[JSON]:
        return [move.to_json() for move in rules.legal(state, seat)]

    def play(self, state: State, seat: int, move: Mapping[str, Any]) -> State:
        return rules.play(state, seat, move)

    def view(self, state: State, seat: int | None) -> JSON:
        return view.view(state, seat)

    def result(self, state: State) -> JSON | None:
        """Scores and ranks once over. Whoever reached the target has the highest
        score (no one else had reached it), so ``shared_ranks`` makes them rank 1;
        after a stall, everyone is ranked by points, ties sharing a rank."""
        if not state.over:
            return None
        if state.resigned is not None:  # docs/rules.md MAEDN-19
            return {
                "scores": list(state.scores),
                "ranks": ranks_with_last(state.scores, state.resigned),
            }
        return {"scores": list(state.scores), "ranks": shared_ranks(state.scores)}

    def undoable(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> bool:
        """Never: every move shows a die from the hand and draws one (docs/rules.md MAEDN-20)."""
        return False

    def all_final(self, state: State, seat: int) -> bool | None:
        return True  # docs/rules.md MAEDN-20

    def resign(self, state: State, seat: int) -> State:
        """``seat`` resigns: the game ends at once, the seat ranks last and the others
        by their points now; nobody is the winner (docs/rules.md MAEDN-19)."""
        if state.over:
            raise IllegalMove("The game is over.", code="game_over")
        return replace(state, end=END_RESIGNED, resigned=seat)

    def dump(self, state: State) -> JSON:
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> State:
        return load_state(data)

    def bots(self) -> Mapping[str, Bot[State]]:
        return bots.BOTS

    def random_bot(self) -> Bot[State]:
        return bots.RANDOM

    def log_line(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> JSON:
        return log.log_line(before, seat, move, after)

    def draws(self, before: State, seat: int, move: Mapping[str, Any], after: State) -> list[JSON]:
        return log.draws(before, seat, move, after)


ENGINE = MaednEngine()

__all__ = ["ENGINE", "MaednEngine", "State"]
