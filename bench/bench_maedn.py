"""Benchmark Mensch ärgere Dich nicht: Das Kartenspiel; prints one JSON line per measure.

* random playouts per second, 2 and 4 players (both sides the random bot);
* the strong bot's win rate against the random bot in 2-player games, seats
  alternating (a win is rank 1 alone; a stalled draw counts as no win).

Usage: ``python bench/bench_maedn.py [--games N] [--duel N]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

# Runnable as a plain script from a checkout, with or without `pip install -e .`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.maedn import ENGINE, bots


def playout(players: int, seed: int) -> int:
    state = ENGINE.new_game(players, seed)
    moves = 0
    while ENGINE.to_act(state):
        seat = state.turn
        state = ENGINE.play(state, seat, bots.choose_random(state, seat, seed + moves))
        moves += 1
    return moves


def bench_playouts(players: int, games: int) -> dict[str, object]:
    start = time.perf_counter()
    moves = sum(playout(players, 7_000 + game) for game in range(games))
    seconds = time.perf_counter() - start
    return {
        "bench": "maedn_random_playouts",
        "players": players,
        "games": games,
        "seconds": round(seconds, 3),
        "playouts_per_second": round(games / seconds, 1),
        "moves_per_second": round(moves / seconds),
        "mean_moves": round(moves / games, 1),
    }


def bench_duel(games: int) -> dict[str, object]:
    wins = draws = 0
    start = time.perf_counter()
    for game in range(games):
        state = ENGINE.new_game(2, 90_000 + game)
        strong = game % 2
        turn = 0
        while ENGINE.to_act(state):
            seat = state.turn
            choose = bots.choose_strong if seat == strong else bots.choose_random
            state = ENGINE.play(state, seat, choose(state, seat, game * 1_000 + turn))
            turn += 1
        result = ENGINE.result(state)
        assert result is not None
        if result["ranks"][strong] == 1 and result["ranks"][1 - strong] == 2:
            wins += 1
        elif result["ranks"] == [1, 1]:
            draws += 1
    return {
        "bench": "maedn_strong_vs_random",
        "players": 2,
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": round(wins / games, 3),
        "seconds": round(time.perf_counter() - start, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random playouts per count")
    parser.add_argument("--duel", type=int, default=200, help="strong-vs-random games")
    args = parser.parse_args()
    machine = {"python": platform.python_version(), "machine": platform.machine()}
    for players in (2, 4):
        print(json.dumps({**bench_playouts(players, args.games), **machine}), flush=True)
    print(json.dumps({**bench_duel(max(args.duel, 100)), **machine}), flush=True)


if __name__ == "__main__":
    main()
