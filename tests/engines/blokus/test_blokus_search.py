"""The hard bot's tree search: legal, deterministic, bounded by its budget, stronger
than the greedy bot, and its incremental move lists equal the rules' legal moves."""

from __future__ import annotations

import itertools

import pytest

from engines import prng
from engines.base import Budget
from engines.blokus import BlokusEngine, bots, rules, search
from engines.blokus.rules import State

from .conftest import SETUPS, duel, random_game

SMALL = Budget(iterations=8, seconds=None)


def test_hard_bot_chooses_legal_moves_and_repeats_itself(
    engine: BlokusEngine, positions: list[State]
) -> None:
    checked = set()
    for state in positions[::12]:
        if state.turn is None:
            continue
        seat = engine.to_act(state)[0]
        move = search.choose_hard(state, seat, 5, SMALL)
        assert move in engine.legal_moves(state, seat)
        assert search.choose_hard(state, seat, 5, SMALL) == move
        checked.add((state.variant, state.players))
    assert checked == {("duo", 2), ("classic", 2), ("classic", 3), ("classic", 4)}


def test_hard_bot_plays_whole_games_of_every_setup() -> None:
    # Every seat of every setup, through the shared green and blocked colours, to the end.
    for variant, players, free in SETUPS:
        state = rules.new_state(variant, players, free)
        move = 0
        while state.turn is not None:
            seat = rules.to_act(state)[0]
            chosen = search.choose_hard(state, seat, move, Budget(iterations=3, seconds=None))
            pid = rules.parse_move(state.table, chosen)
            rules.check_placement(state, seat, pid)
            state = rules.place(state, pid)
            move += 1
        assert all(state.out)


def test_the_seed_changes_what_the_search_draws() -> None:
    state = rules.new_state("duo", 2, False)
    for _ in range(6):
        state = rules.place(state, bots.strong_placement(state, 1))
    moves = {str(search.choose_hard(state, 0, seed, SMALL)) for seed in range(8)}
    assert len(moves) > 1


def test_a_time_limit_stops_a_search_of_many_iterations() -> None:
    state = rules.new_state("classic", 4, False)
    move = search.choose_hard(state, 0, 1, Budget(iterations=10**9, seconds=0.01))
    assert move in BlokusEngine().legal_moves(state, 0)
    only_time = search.choose_hard(state, 0, 1, Budget(iterations=None, seconds=0.01))
    assert only_time in BlokusEngine().legal_moves(state, 0)


def test_hard_bot_refuses_a_seat_not_to_move() -> None:
    state = rules.new_state("classic", 4, False)
    with pytest.raises(ValueError):
        search.choose_hard(state, 2, 1, SMALL)
    over = rules.rebuild("duo", 2, False, ((), ()), (True, True), None)
    with pytest.raises(ValueError):
        search.choose_hard(over, 0, 1, SMALL)


@pytest.mark.parametrize(("variant", "players", "free"), SETUPS)
def test_incremental_lists_equal_the_legal_placements(
    variant: str, players: int, free: bool
) -> None:
    # The search's own board follows seeded random games move by move; after each
    # move every colour still in play has exactly the rules' legal placements.
    table = rules.new_state(variant, players, free).table
    for seed in range(3):
        states = list(random_game(variant, players, free, seed))
        board = search.board_of(states[0])
        for before, after in itertools.pairwise(states):
            colour = before.turn
            assert colour is not None and board.turn == colour
            pid = after.placed[colour][-1]
            search.play(board, colour, pid, table)
            search.advance(board, colour, table)
            assert board.turn == after.turn
            for other in range(after.colours):
                # The search finds a colour out only when its turn comes round.
                assert not board.out[other] or after.out[other]
                found = [] if board.out[other] else sorted(search.legal(board, other, table))
                expected = [] if after.out[other] else rules.legal_placements(after, other)
                assert found == expected
            assert board.attach == list(after.attach)
            assert board.forbidden == list(after.forbidden)


def test_duo_playout_ends_the_game_when_fewer_moves_than_the_cut_are_left() -> None:
    # A late position: the colours still in play hold fewer pieces than the cut.
    state = next(
        state
        for seed in range(20)
        for state in random_game("duo", 2, False, seed)
        if state.turn is not None
        and sum(21 - len(state.placed[c]) for c in range(2) if not state.out[c]) < search._DUO_CUT
    )
    board = search.board_of(state)
    variant = search._Rules(state)
    values, _ = search._playout(board, state.table, variant, prng.seed_state(4))
    assert board.turn is None and all(board.out)
    assert len(values) == 2 and all(0.0 <= value <= 1.0 for value in values)


def test_duo_playout_stops_at_the_cut_and_evaluates() -> None:
    state = rules.new_state("duo", 2, False)
    board = search.board_of(state)
    variant = search._Rules(state)
    values, _ = search._playout(board, state.table, variant, prng.seed_state(4))
    assert sum(board.count) == search._DUO_CUT and board.turn == 0
    assert len(values) == 2 and all(0.0 <= value <= 1.0 for value in values)


def test_four_colour_playout_stops_at_the_cut_and_evaluates() -> None:
    state = rules.new_state("classic", 3, False)
    board = search.board_of(state)
    variant = search._Rules(state)
    values, _ = search._playout(board, state.table, variant, prng.seed_state(4))
    assert sum(board.count) == search._CUT and board.turn is not None
    assert len(values) == 3 and all(0.0 <= value <= 1.0 for value in values)


def _duel(game: int, iterations: int) -> bool:
    """One Duo game, the hard bot in seat ``game % 2`` against the greedy bot: won?"""
    budget = Budget(iterations=iterations, seconds=None)
    return duel(
        game, "duo", lambda state, seed: search.search(state, seed, budget), bots.strong_placement
    )


def test_hard_bot_beats_the_greedy_bot_in_duo() -> None:
    assert sum(_duel(game, 30) for game in range(4)) >= 3


def test_search_stops_early_only_when_no_root_move_can_catch_up() -> None:
    state = rules.new_state("duo", 2, False)
    root = search._Node(search.board_of(state), search._Rules(state))
    root.expand(state.table, search._Rules(state))
    root.edge_n = [0] * len(root.moves)
    root.edge_n[:3] = [40, 30, 2]
    assert search._settled(root, 72, 81, 0.0, None)
    assert not search._settled(root, 72, 82, 0.0, None)
    assert not search._settled(root, 72, None, 0.0, None)


def test_a_node_scores_its_moves_when_the_search_comes_back() -> None:
    state = rules.new_state("duo", 2, False)
    for _ in range(4):
        state = rules.place(state, bots.strong_placement(state, 1))
    variant = search._Rules(state)
    node = search._Node(search.board_of(state), variant)
    assert node.moves == [] and node.board is not None
    node.expand(state.table, variant)
    assert node.board is None and 0 < len(node.moves) <= search._WIDTH
    assert abs(sum(node.priors) - 1) < 1e-9
    legal = rules.legal_placements(state)
    assert set(node.moves) <= set(legal)
