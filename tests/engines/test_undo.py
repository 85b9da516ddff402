"""Which moves may be taken back, per game (docs/rules.md ALL-7, M-24, MAEDN-20 and
BLOKUS-15): only moves that showed nobody anything hidden, checked over random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engines import get_engine
from engines.base import RESIGN


def _walk(
    name: str, players: int, seed: int, limit: int = 400
) -> Iterator[tuple[Any, int, Any, Any]]:
    """``(before, seat, move, after)`` of each move of a random game."""
    engine = get_engine(name)
    chooser = random.Random(seed)
    state = engine.new_game(players, seed)
    for _ in range(limit):
        seats = engine.to_act(state)
        if not seats:
            return
        seat = seats[0]
        move = chooser.choice(engine.legal_moves(state, seat))
        after = engine.play(state, seat, move)
        yield state, seat, move, after
        state = after


@pytest.mark.parametrize(("name", "players"), [("m", 3), ("m", 5), ("maedn", 2), ("blokus", 4)])
def test_all7_a_move_that_may_be_taken_back_drew_nothing(name: str, players: int) -> None:
    engine = get_engine(name)
    for seed in range(3):
        for before, seat, move, after in _walk(name, players, seed):
            if engine.undoable(before, seat, move, after):
                assert engine.draws(before, seat, move, after) == []
                # the position before it is one every seat was shown already
                assert engine.load(engine.dump(before)) == before


@pytest.mark.parametrize("name", ["m", "maedn", "blokus"])
def test_all7_a_resignation_is_never_taken_back(name: str) -> None:
    engine = get_engine(name)
    state = engine.new_game(3, 5)
    seat = engine.to_act(state)[0]
    assert not engine.undoable(state, seat, RESIGN, engine.resign(state, seat))


def test_blokus15_every_placement_may_be_taken_back() -> None:
    engine = get_engine("blokus")
    moves = list(_walk("blokus", 2, 1))
    assert moves
    assert all(engine.undoable(*played) for played in moves)


def test_maedn20_no_move_may_be_taken_back() -> None:
    engine = get_engine("maedn")
    moves = list(_walk("maedn", 3, 2))
    assert moves
    assert not any(engine.undoable(*played) for played in moves)


def test_m24_a_pass_without_swap_may_be_taken_back_a_placement_or_swap_never() -> None:
    engine = get_engine("m")
    kinds: dict[tuple[str, bool, bool], int] = {}
    for seed in range(6):
        for before, seat, move, after in _walk("m", 3, seed):
            undoable = engine.undoable(before, seat, move, after)
            key = (move["type"], "swap" in move, undoable)
            kinds[key] = kinds.get(key, 0) + 1
            if move["type"] == "place" or "swap" in move:
                assert not undoable, move
            elif move["type"] in ("pass", "line"):
                assert undoable, move
            else:  # a take: unless it ended the phase and the placer drew
                assert undoable == (before.pile == after.pile), move
    assert kinds.get(("pass", False, True)) and kinds.get(("place", False, False))


@pytest.mark.parametrize(("name", "players"), [("m", 3), ("maedn", 2), ("blokus", 2)])
def test_all7_final_says_which_moves_could_not_be_taken_back(name: str, players: int) -> None:
    """What a room that confirms moves asks a second click for: exactly the moves
    ``undoable`` would refuse, whether the engine answers for all at once or not."""
    engine = get_engine(name)
    for step, (before, seat, _move, _after) in enumerate(_walk(name, players, 4, limit=60)):
        if step % 7:
            continue
        moves = engine.legal_moves(before, seat)
        finals = [not engine.undoable(before, seat, m, engine.play(before, seat, m)) for m in moves]
        assert [engine.final(before, seat, m) for m in moves] == finals
        same = engine.all_final(before, seat)
        assert same is None or finals == [same] * len(finals)
