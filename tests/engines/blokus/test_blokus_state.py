"""The state: snapshots, incremental masks, and invariants along random games."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator

import pytest

from engines.base import BadOptions
from engines.blokus import BlokusEngine, rules
from engines.blokus.rules import State

Game = Callable[[str, int, bool, int], Iterator[State]]


def _masks(state: State) -> tuple[tuple[int, ...], ...]:
    return state.occupied, state.forbidden, state.attach


def test_dump_load_round_trip_keeps_the_masks(engine: BlokusEngine, positions: list[State]) -> None:
    for state in positions[::3]:
        data = json.loads(json.dumps(engine.dump(state)))
        loaded = engine.load(data)
        assert loaded == state
        assert _masks(loaded) == _masks(state)  # incremental masks equal the rebuilt ones
        assert engine.dump(loaded) == data


def test_dump_names_pieces_and_cells_not_internal_ids(engine: BlokusEngine) -> None:
    state = engine.new_game(2, 5, {"variant": "duo"})
    state = engine.play(state, 0, {"piece": "X", "cells": [[3, 4], [4, 3], [4, 4], [4, 5], [5, 4]]})
    assert engine.dump(state) == {
        "variant": "duo",
        "players": 2,
        "free_corners": False,
        "placed": [[{"piece": "X", "cells": [[3, 4], [4, 3], [4, 4], [4, 5], [5, 4]]}], []],
        "out": [False, False],
        "turn": 1,
    }


def test_load_refuses_an_unknown_variant(engine: BlokusEngine) -> None:
    data = engine.dump(engine.new_game(2, 5))
    with pytest.raises(ValueError, match="variant"):
        engine.load({**data, "variant": "trigon"})


def test_new_game_is_the_same_for_any_seed_and_keeps_no_seed(engine: BlokusEngine) -> None:
    seed = 4_611_686_018_427_387_905
    state = engine.new_game(4, seed)
    assert state == engine.new_game(4, 1)
    assert str(seed) not in json.dumps(engine.dump(state))


def test_player_counts_and_options(engine: BlokusEngine) -> None:
    assert engine.player_counts() == [2, 3, 4]
    assert engine.player_counts({"variant": "classic", "free_corners": True}) == [2, 3, 4]
    described = engine.describe()
    assert [o["name"] for o in described["options"]] == ["variant", "free_corners"]
    assert [b["name"] for b in described["bots"]] == ["hard", "medium", "easy"]
    for players, options in ((5, {}), (1, {}), (2, {"variant": "trigon"}), (2, {"speed": 1})):
        with pytest.raises(BadOptions):
            engine.new_game(players, 1, options)


def test_turn_colour_can_move_and_out_colours_cannot(positions: list[State]) -> None:
    for state in positions:
        for colour in range(state.colours):
            ids = rules.legal_placements(state, colour)
            assert rules.has_any_move(state, colour) == bool(ids)
            assert ids == sorted(set(ids))
            if state.out[colour]:
                assert ids == []
        if state.turn is not None:
            assert not state.out[state.turn] and rules.legal_placements(state)
        else:
            assert all(state.out)


def test_replaying_dict_moves_rebuilds_the_game(engine: BlokusEngine, game: Game) -> None:
    states = list(game("classic", 4, True, 6))
    replay = states[0]
    table = replay.table
    for before, after in itertools.pairwise(states):
        assert before.turn is not None
        pid = after.placed[before.turn][-1]
        seat = engine.to_act(replay)[0]
        move = {"piece": table.name[pid], "cells": table.coords(pid)}
        assert move in engine.legal_moves(replay, seat)
        replay = engine.play(replay, seat, move)
        assert replay == after and _masks(replay) == _masks(after)


def test_games_end_within_84_placements(game: Game) -> None:
    for seed, (variant, players) in enumerate((("classic", 4), ("classic", 2), ("duo", 2))):
        states = list(game(variant, players, False, seed))
        assert states[-1].turn is None
        assert len(states) - 1 == sum(len(ids) for ids in states[-1].placed) <= 84


@pytest.mark.parametrize(
    ("variant", "players", "free_corners"),
    [("duo", 2, False), ("classic", 4, False), ("classic", 3, True), ("classic", 2, False)],
)
def test_legal_lists_carried_from_move_to_move_are_the_fresh_ones(
    engine: BlokusEngine, variant: str, players: int, free_corners: bool
) -> None:
    """A state remembers the lists it was asked for, later states bring them up to date
    when asked: at every position of a game each one equals a search from scratch,
    whichever colours' lists were known before and how many moves ago (some asked for,
    some not; the first piece starts afresh)."""
    for seed in range(4):
        state = engine.new_game(players, seed, {"variant": variant, "free_corners": free_corners})
        moves = 0
        while engine.to_act(state):
            for colour in range(state.colours):
                if (seed + moves + colour) % 3:
                    rules.legal_placements(state, colour)
            for colour in range(state.colours):
                fresh = rules.generate(state.table, state.forbidden[colour], state.attach[colour])
                assert rules.legal_placements(state, colour) == fresh, (seed, moves, colour)
            seat = engine.to_act(state)[0]
            options = engine.legal_moves(state, seat)
            state = engine.play(state, seat, options[(seed * 7 + moves * 13) % len(options)])
            moves += 1


def test_a_list_handed_out_is_the_callers_own(engine: BlokusEngine) -> None:
    state = engine.new_game(2, 1, {"variant": "duo"})
    first = rules.legal_placements(state)
    first.clear()
    assert rules.legal_placements(state) == rules.generate(
        state.table, state.forbidden[0], state.attach[0]
    )
