"""A tiny hidden-information game, only for the service tests.

Each seat holds a secret word dealt from the seed; on your turn you say a number
1-3 and the running total grows; whoever brings it to 12 or more wins. Seats see
their own word, never another's: if any message to a seat ever carries another
seat's word, the server leaked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines import ENGINES, register
from engines.base import Bot, Engine, IllegalMove, shared_ranks
from engines.prng import below, seed_state

WORDS = [f"secret{n:04d}word" for n in range(10_000)]
TARGET = 12


@dataclass(frozen=True)
class SecretState:
    players: int
    words: tuple[str, ...]
    total: int
    turn: int
    winner: int | None


class SecretEngine(Engine[SecretState]):
    name = "secret"
    title = "Secret count"
    version = "1"
    min_players = 2
    max_players = 4

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> SecretState:
        self.normalize_options(players, options)
        rng = seed_state(seed)
        words = []
        for _ in range(players):
            index, rng = below(rng, len(WORDS))
            words.append(WORDS[index])
        return SecretState(players, tuple(words), 0, 0, None)

    def to_act(self, state: SecretState) -> list[int]:
        return [] if state.winner is not None else [state.turn]

    def legal_moves(self, state: SecretState, seat: int) -> list[dict[str, Any]]:
        return [{"n": n} for n in (1, 2, 3)] if seat in self.to_act(state) else []

    def legal_moves_compact(self, state: SecretState, seat: int) -> bytes | None:
        """The moves as their largest number, signed with the word of the seat it was
        built for: a compact form built for the wrong seat leaks that seat's word."""
        most = 3 if seat in self.to_act(state) else 0
        return json.dumps({"form": "up_to", "most": most, "for": state.words[seat]}).encode()

    def expand_compact(self, compact: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"n": n} for n in range(1, compact["most"] + 1)]

    def play(self, state: SecretState, seat: int, move: Mapping[str, Any]) -> SecretState:
        if not isinstance(move, Mapping) or set(move) != {"n"} or move["n"] not in (1, 2, 3):
            raise IllegalMove("Say 1, 2 or 3.", code="bad_number", malformed=True)
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn.", code="not_your_turn")
        total = state.total + int(move["n"])
        winner = seat if total >= TARGET else None
        return SecretState(state.players, state.words, total, (seat + 1) % state.players, winner)

    def view(self, state: SecretState, seat: int | None) -> dict[str, Any]:
        return {
            "total": state.total,
            "turn": state.turn,
            "mine": state.words[seat] if seat is not None else None,
        }

    def result(self, state: SecretState) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        scores = [1 if s == state.winner else 0 for s in range(state.players)]
        return {"scores": scores, "ranks": shared_ranks(scores)}

    def resign(self, state: SecretState, seat: int) -> SecretState:
        """The game ends; the next seat wins (enough for the service tests)."""
        if state.winner is not None:
            raise IllegalMove("The game is over.", code="game_over")
        winner = (seat + 1) % state.players
        return SecretState(state.players, state.words, state.total, state.turn, winner)

    def dump(self, state: SecretState) -> dict[str, Any]:
        return {
            "players": state.players,
            "words": list(state.words),
            "total": state.total,
            "turn": state.turn,
            "winner": state.winner,
        }

    def load(self, data: Mapping[str, Any]) -> SecretState:
        return SecretState(
            data["players"], tuple(data["words"]), data["total"], data["turn"], data["winner"]
        )

    def bots(self) -> Mapping[str, Bot[SecretState]]:
        return {"one": Bot("one", "Always one", lambda state, seat, seed, budget: {"n": 1})}

    def log_line(
        self, before: SecretState, seat: int, move: Mapping[str, Any], after: SecretState
    ) -> dict[str, Any]:
        return {"seat": seat, "n": move["n"], "total": after.total}


def install() -> None:
    if "secret" not in ENGINES:
        register(SecretEngine())
