"""The hard bot of M (engines/m/search.py): legal, deterministic, fair, and stronger."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from engines.base import Budget
from engines.m import ENGINE, rules, search
from engines.m.cards import DECK
from engines.m.moves import Place
from engines.m.state import State
from engines.prng import seed_state

Variants = Callable[[State, int | None], list[State]]
Positions = Callable[..., list[State]]

SMALL = Budget(iterations=2, seconds=None)


def _some(states: list[State], count: int) -> list[State]:
    """``count`` positions spread along the game, each with a seat to act."""
    acting = [state for state in states if ENGINE.to_act(state)]
    step = max(1, len(acting) // count)
    return acting[::step][:count]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_hard_bot_chooses_legal_moves_deterministically(
    players: int, positions: Positions
) -> None:
    for state in _some(positions(players, 700 + players, every=3), 5):
        seat = ENGINE.to_act(state)[0]
        move = search.choose_hard(state, seat, 9, SMALL)
        assert move in ENGINE.legal_moves(state, seat)
        assert search.choose_hard(state, seat, 9, SMALL) == move


@pytest.mark.parametrize("players", [3, 4, 6])
def test_from_four_players_on_the_search_keeps_more_placements(
    players: int, positions: Positions
) -> None:
    kept = search.CROWDED_CANDIDATES if players >= search.CROWDED else search.CANDIDATES
    widest = 0
    for state in positions(players, 730 + players, every=2):
        acting = ENGINE.to_act(state)
        if not acting or state.phase != "play":
            continue
        seat = acting[0]
        places = [m for m in search.candidates(state, seat) if isinstance(m, Place)]
        legal = [m for m in rules.legal_moves(state, seat) if isinstance(m, Place)]
        assert len(places) == min(kept, len(legal))
        widest = max(widest, len(places))
    assert widest == kept  # some position had more placements than the search keeps


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_world_deals_only_unseen_cards_at_the_sizes_the_view_shows(
    players: int, positions: Positions
) -> None:
    for state in _some(positions(players, 710 + players, every=4), 4):
        seat = ENGINE.to_act(state)[0]
        world, _ = search.sample_world(state, seat, seed_state(3))
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert (len(world.pile), len(world.removed)) == (len(state.pile), len(state.removed))
        hidden = [c for s, h in enumerate(world.hands) if s != seat for c in h]
        dealt = Counter([*hidden, *world.pile, *world.removed])
        assert dealt == Counter(search.unseen(state, seat))
        everything = sorted([*dealt.elements(), *world.hands[seat], *world.grid.values()])
        everything += [c for cards in world.collections for c in cards]
        assert sorted(everything) == list(range(len(DECK)))
        assert ENGINE.view(world, seat) == ENGINE.view(state, seat)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_hard_bot_uses_only_what_its_seat_may_see(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    for state in _some(positions(players, 720 + players, every=3), 4):
        seat = ENGINE.to_act(state)[0]
        move = search.choose_hard(state, seat, 5, SMALL)
        variants = hidden_variants(state, seat)
        assert variants
        for variant in variants:
            assert search.choose_hard(variant, seat, 5, SMALL) == move


@pytest.mark.parametrize("players", [2, 4])
def test_near_the_end_a_playout_plays_the_game_out_and_stays_fair(
    players: int, positions: Positions, hidden_variants: Variants
) -> None:
    late = [
        state
        for state in positions(players, 740 + players)
        if ENGINE.to_act(state) and state.phase == "play" and len(state.pile) <= search.ENDGAME_PILE
    ]
    assert late
    for state in _some(late, 3):
        seat = ENGINE.to_act(state)[0]
        world, _ = search.sample_world(state, seat, seed_state(4))
        # a finished game adds or takes away WIN, more than any margin of points
        assert abs(search._playout(world, seat, 6, to_end=True)) >= search.WIN / 4
        move = search.choose_hard(state, seat, 5, SMALL)
        for variant in hidden_variants(state, seat):
            assert search.choose_hard(variant, seat, 5, SMALL) == move


def test_the_time_limit_alone_still_gives_a_legal_move(positions: Positions) -> None:
    state = _some(positions(3, 730, every=3), 3)[1]
    seat = ENGINE.to_act(state)[0]
    move = search.choose_hard(state, seat, 1, Budget(iterations=None, seconds=0.05))
    assert move in ENGINE.legal_moves(state, seat)


@pytest.mark.slow  # ten full games: about 45 s of CPU
def test_the_hard_bot_beats_the_strong_bot_in_two_player_games() -> None:
    # bench/bench_card_levels.py plays the full sample (docs/benchmarks.md, "Bot levels:
    # M and MÄDN"); of these ten seeded games the search as committed wins seven (six
    # before the end was played out), a majority where an equal bot would get five; the
    # earlier setting (four worlds on eight placements) won five and fails here, as does
    # a search no better than greedy
    strong = ENGINE.bots()["medium"]  # the greedy, once named "strong"
    budget = Budget(iterations=search.HARD_BUDGET.iterations, seconds=None)
    wins = 0
    games = 10
    for game in range(games):
        hard = game % 2
        state = ENGINE.new_game(2, 41_000 + game)
        step = 0
        while acting := ENGINE.to_act(state):
            seat = acting[0]
            if seat == hard:
                move = search.choose_hard(state, seat, step, budget)
            else:
                move = strong.choose(state, seat, step)
            state = ENGINE.play(state, seat, move)
            step += 1
        result = ENGINE.result(state)
        assert result is not None
        wins += result["ranks"] == ([1, 2] if hard == 0 else [2, 1])
    assert wins > games // 2
