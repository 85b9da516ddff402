"""A fourth game, made up for the tests: two seats take one to three stones in turn
from a pile, and whoever takes the last one wins. Nothing is hidden and nothing is
left to chance. Its games are also written as a ``.pile`` file, a format of its own::

    PILE 1
    size 10
    player Anna
    player Ben
    take 3
    take 1

The server knows none of this: the engine is registered at run time
(``engines.register``), as any engine of ``engines/`` is, and everything the server
asks of a game it asks through the contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.base import (
    JSON,
    Bot,
    Engine,
    IllegalMove,
    Option,
    RecordFormat,
    UnreadableFile,
    shared_ranks,
)

NAME = "pile"
MOST = 3
BAD_PILE = "bad_pile"
MAGIC = "PILE 1"


@dataclass(frozen=True)
class PileState:
    left: int
    turn: int
    winner: int | None


class PileEngine(Engine[PileState]):
    name = NAME
    title = "Pile"
    version = "1"
    min_players = 2
    max_players = 2
    hidden_information = False
    options = (Option("size", "choice", "10", ("10", "15"), "Stones in the pile at the start."),)

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> PileState:
        opts = self.normalize_options(players, options)
        return PileState(int(opts["size"]), 0, None)

    def to_act(self, state: PileState) -> list[int]:
        return [] if state.winner is not None else [state.turn]

    def legal_moves(self, state: PileState, seat: int) -> list[JSON]:
        if seat not in self.to_act(state):
            return []
        return [{"take": n} for n in range(1, min(MOST, state.left) + 1)]

    def play(self, state: PileState, seat: int, move: Mapping[str, Any]) -> PileState:
        take = move.get("take") if isinstance(move, Mapping) else None
        if set(move) != {"take"} or type(take) is not int or not 1 <= take <= MOST:
            raise IllegalMove("Take 1, 2 or 3 stones.", code="bad_take", malformed=True)
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn.", code="not_your_turn")
        if take > state.left:
            raise IllegalMove(f"Only {state.left} stones are left.", code="too_many")
        left = state.left - take
        return PileState(left, 1 - seat, seat if left == 0 else None)

    def view(self, state: PileState, seat: int | None) -> JSON:
        return {"left": state.left, "turn": state.turn}

    def result(self, state: PileState) -> JSON | None:
        if state.winner is None:
            return None
        scores = [1 if seat == state.winner else 0 for seat in range(2)]
        return {"scores": scores, "ranks": shared_ranks(scores)}

    def dump(self, state: PileState) -> JSON:
        return {"left": state.left, "turn": state.turn, "winner": state.winner}

    def load(self, data: Mapping[str, Any]) -> PileState:
        return PileState(data["left"], data["turn"], data["winner"])

    def bots(self) -> Mapping[str, Bot[PileState]]:
        return {"one": Bot("one", "Takes one", lambda state, seat, seed, budget: {"take": 1})}

    def log_line(
        self, before: PileState, seat: int, move: Mapping[str, Any], after: PileState
    ) -> JSON:
        return {"seat": seat, "take": move["take"], "left": after.left}

    def record_formats(self) -> tuple[RecordFormat, ...]:
        return (FORMAT,)


ENGINE = PileEngine()


def write(record: Mapping[str, Any]) -> str:
    """A game record as a ``.pile`` file."""
    lines = [MAGIC, f"size {record['options']['size']}"]
    lines += [f"player {name}" for name in record["names"]]
    lines += [f"take {entry['move']['take']}" for entry in record["moves"]]
    return "\n".join(lines) + "\n"


def read(text: str, name_max: int) -> JSON:
    """A ``.pile`` file as a game record; ``UnreadableFile`` for one that is none."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or lines[0] != MAGIC:
        raise UnreadableFile(f"This is no pile file: it starts with {MAGIC!r}.", code=BAD_PILE)
    size, names, takes = None, [], []
    for number, line in enumerate(lines[1:], start=2):
        key, _, value = line.partition(" ")
        if key == "size" and value in ("10", "15") and size is None:
            size = value
        elif key == "player":
            names.append(value[:name_max])
        elif key == "take" and value in ("1", "2", "3"):
            takes.append(int(value))
        else:
            raise UnreadableFile(f"Line {number} is no size, player or take.", code=BAD_PILE)
    if size is None or len(names) != 2:
        raise UnreadableFile("A pile file has a size and two players.", code=BAD_PILE)
    state = ENGINE.new_game(2, 0, {"size": size})
    moves = []
    for number, take in enumerate(takes, start=1):
        seat = (ENGINE.to_act(state) or [state.turn])[0]
        try:
            state = ENGINE.play(state, seat, {"take": take})
        except IllegalMove as exc:
            raise UnreadableFile(
                f"Move {number} is illegal: {exc.message}",
                code="illegal_move",
                move=number,
                reason=exc.code,
            ) from exc
        moves.append({"seat": seat, "move": {"take": take}})
    return {
        "format": "spieltisch-record",
        "format_version": 1,
        "engine": NAME,
        "version": ENGINE.version,
        "options": {"size": size},
        "players": 2,
        "names": names,
        "moves": moves,
        "result": None,
    }


FORMAT = RecordFormat(
    name="pile",
    title="Pile file (.pile)",
    media_type="text/x-pile",
    suffix=".pile",
    error_code=BAD_PILE,
    write=write,
    read=read,
)
