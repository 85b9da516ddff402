"""Benchmarks for the M engine; prints JSON lines.

- random playouts per second, 3 and 5 players;
- the strong bot's win rate against two random bots in 3-player games, the strong
  seat rotating (target: at least 0.8 over 100 games or more).

Usage: ``python bench/bench_m.py [--games N] [--playouts N]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.m import ENGINE
from engines.m.bots import BOTS
from engines.m.state import State

MAX_MOVES = 5000


def play_out(players: int, seed: int, bots: list[str]) -> tuple[State, int]:
    """One game from ``seed`` with the named bot in each seat: the final state, the moves."""
    state = ENGINE.new_game(players, seed)
    for step in range(MAX_MOVES):
        acting = ENGINE.to_act(state)
        if not acting:
            return state, step
        seat = acting[0]
        move = BOTS[bots[seat]].choose(state, seat, seed * 100_003 + step)
        state = ENGINE.play(state, seat, move)
    raise RuntimeError(f"game {seed} did not end")


def playouts(players: int, games: int) -> dict[str, object]:
    start, cpu_start = time.perf_counter(), time.process_time()
    moves = 0
    for seed in range(games):
        moves += play_out(players, seed, ["random"] * players)[1]
    seconds = time.perf_counter() - start
    # CPU time too: on a shared machine it says more about the engine than the wall clock
    cpu = time.process_time() - cpu_start
    return {
        "bench": "m_random_playouts",
        "players": players,
        "games": games,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "playouts_per_second": round(games / seconds, 1),
        "playouts_per_cpu_second": round(games / cpu, 1),
        "moves_per_second": round(moves / seconds),
    }


def strong_vs_random(games: int, players: int = 3) -> dict[str, object]:
    """The strong bot in seat ``game % players``, random bots elsewhere; a win is rank 1."""
    start = time.perf_counter()
    wins = 0
    for game in range(games):
        seat = game % players
        bots = ["random"] * players
        bots[seat] = "strong"
        result = ENGINE.result(play_out(players, 10_000 + game, bots)[0])
        assert result is not None
        wins += result["ranks"][seat] == 1
    return {
        "bench": "m_strong_vs_random",
        "players": players,
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 3),
        "target": 0.8,
        "seconds": round(time.perf_counter() - start, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--playouts", type=int, default=200, help="random games per count")
    parser.add_argument("--games", type=int, default=150, help="strong-vs-random games")
    args = parser.parse_args()
    for players in (3, 5):
        print(json.dumps(playouts(players, args.playouts)), flush=True)
    print(json.dumps(strong_vs_random(args.games)), flush=True)


if __name__ == "__main__":
    main()
