"""The hard bot of MÄDN (engines/maedn/search.py): legal, deterministic, fair, stronger."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from engines.base import Budget
from engines.maedn import ENGINE, bots, cards, search
from engines.maedn.state import State
from engines.prng import seed_state
from tests.engines.levels import assert_every_level_blind

SMALL = Budget(iterations=2, seconds=None)


def _along_a_game(players: int, seed: int, count: int) -> list[State]:
    """``count`` positions spread along a game of the strong bot against itself."""
    state = ENGINE.new_game(players, seed)
    seen = [state]
    turn = 0
    while ENGINE.to_act(state):
        state = ENGINE.play(state, state.turn, bots.choose_strong(state, state.turn, turn))
        turn += 1
        seen.append(state)
    running = [state for state in seen if ENGINE.to_act(state)]
    step = max(1, len(running) // count)
    return running[::step][:count]


def _hidden_variants(state: State, seat: int) -> list[State]:
    """States that differ from ``state`` only in what ``seat`` cannot see: the order of
    the draw pile, the PRNG state, and which dice sit in another hand or the pile."""
    found = [dataclasses.replace(state, pile=state.pile[::-1], rng=state.rng ^ 0xBEEF)]
    for other in range(state.players):
        hand = state.hands[other]
        if other == seat or not hand:
            continue
        pile = list(state.pile)
        for index, die in enumerate(pile):
            if die not in hand:
                pile[index] = hand[0]
                hands = list(state.hands)
                hands[other] = tuple(sorted((die, *hand[1:])))
                found.append(dataclasses.replace(state, hands=tuple(hands), pile=tuple(pile)))
                break
    return found


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hard_bot_chooses_legal_moves_deterministically(players: int) -> None:
    for state in _along_a_game(players, 800 + players, 10):
        seat = state.turn
        move = search.choose_hard(state, seat, 4, SMALL)
        assert move in ENGINE.legal_moves(state, seat)
        assert search.choose_hard(state, seat, 4, SMALL) == move


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_world_deals_the_dice_still_to_come(players: int) -> None:
    for state in _along_a_game(players, 810 + players, 6):
        seat = state.turn
        world, _ = search.sample_world(state, seat, seed_state(11))
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        hidden = [d for s, h in enumerate(world.hands) if s != seat for d in h]
        assert Counter([*hidden, *world.pile]) == +search.still_to_come(state, seat)
        every = Counter([*hidden, *world.pile, *world.hands[seat], *world.discard])
        assert every == Counter(cards.dice_deck())
        assert ENGINE.view(world, seat) == ENGINE.view(state, seat)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hard_bot_uses_only_what_its_seat_may_see(players: int) -> None:
    for state in _along_a_game(players, 820 + players, 8):
        seat = state.turn
        move = search.choose_hard(state, seat, 6, SMALL)
        variants = _hidden_variants(state, seat)
        assert len(variants) >= 2
        for variant in variants:
            assert variant != state
            assert ENGINE.view(variant, seat) == ENGINE.view(state, seat)
            assert search.choose_hard(variant, seat, 6, SMALL) == move


@pytest.mark.parametrize("players", [2, 4])
def test_every_level_uses_only_what_its_seat_may_see(players: int) -> None:
    # every level a room offers, the searching one on a small budget
    for state in _along_a_game(players, 840 + players, 6):
        seat = state.turn
        assert_every_level_blind(ENGINE, state, seat, _hidden_variants(state, seat), SMALL)


def test_the_time_limit_alone_still_gives_a_legal_move() -> None:
    state = _along_a_game(3, 830, 4)[2]
    move = search.choose_hard(state, state.turn, 1, Budget(iterations=None, seconds=0.05))
    assert move in ENGINE.legal_moves(state, state.turn)


def test_the_hard_bot_beats_the_strong_bot_in_most_two_player_games() -> None:
    # bench/bench_card_levels.py plays the full sample; a handful of seeded games here
    budget = Budget(iterations=search.HARD_BUDGET.iterations, seconds=None)
    wins = 0
    games = 6
    for game in range(games):
        hard = game % 2
        state = ENGINE.new_game(2, 43_000 + game)
        turn = 0
        while ENGINE.to_act(state):
            seat = state.turn
            if seat == hard:
                move = search.choose_hard(state, seat, turn, budget)
            else:
                move = bots.choose_strong(state, seat, turn)
            state = ENGINE.play(state, seat, move)
            turn += 1
        wins += state.winner == hard
    assert wins >= 5
