"""Benchmark the hard bots of M and MÄDN against the greedy strong bot; one JSON line
per game and player count.

For each game and 2, 3 and 4 players: the hard bot (``engines.<game>.search``, its
``HARD_BUDGET``) in one seat, rotating with the game number, the ``strong`` bot in the
others. A first place is rank 1; a first place shared with another seat counts as
half a win (``ties`` says how many games ended so). Reported: the first places, the
win rate with its 95% Wilson interval, the share ratio (wins / (games / players): 1 is
what an equal bot gets), and the hard bot's time per move (p50, p99; moves with a
single legal choice included, they cost next to nothing).

``--iterations N`` plays the hard bot on N worlds a move with no time cap (M's search
takes ``CROWDED_WORLDS`` times as many from four players on, as with its budget), so
that the win rate does not depend on the load of the machine (the times per move then
say what those worlds cost); without it the bot plays its ``HARD_BUDGET``. ``--first S`` sets
the seed of the first game (31000), so that two settings can be compared on the same
games. Besides the wall time a move's CPU time is reported (``time.process_time``, p50,
p90 and the largest), which the load of other processes does not inflate; ``--cold``
empties the hard bot's caches before each of its moves (M's reading of the history,
``engines.m.beliefs.reading``), as for a bot worker that never saw the game before.

Usage: ``python bench/bench_card_levels.py [--games N] [--game m|maedn] [--players 2 3 4]
[--iterations N] [--first S] [--cold]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import percentile, say, wilson
from engines.base import Budget, Engine

MAX_MOVES = 20_000


def duel(
    game: str,
    players: int,
    games: int,
    iterations: int | None = None,
    first: int = 31_000,
    cold: bool = False,
) -> dict[str, object]:
    engine: Engine[object] = importlib.import_module(f"engines.{game}").ENGINE
    search = importlib.import_module(f"engines.{game}.search")
    budget: Budget = search.HARD_BUDGET
    if iterations is not None:
        budget = Budget(iterations=iterations, seconds=None)
    strong = engine.bots()["medium"]  # the greedy, once named "strong"
    wins = 0.0
    firsts = ties = 0
    times: list[float] = []
    cpu: list[float] = []
    # what the hard bot keeps between moves (M reads the history once per turn)
    beliefs = getattr(search, "beliefs", None)
    start = time.perf_counter()
    for number in range(games):
        hard = number % players
        seed = first + number
        state = engine.new_game(players, seed)
        for step in range(MAX_MOVES):
            acting = engine.to_act(state)
            if not acting:
                break
            seat = acting[0]
            move_seed = seed * 100_003 + step
            if seat == hard:
                if cold and beliefs is not None:
                    beliefs.reading.cache_clear()
                began, used = time.perf_counter(), time.process_time()
                move = search.choose_hard(state, seat, move_seed, budget)
                times.append(time.perf_counter() - began)
                cpu.append(time.process_time() - used)
            else:
                move = strong.choose(state, seat, move_seed)
            state = engine.play(state, seat, move)
        result = engine.result(state)
        assert result is not None, f"{game} game {seed} did not end"
        ranks = result["ranks"]
        if ranks[hard] == 1:
            firsts += 1
            shared = sum(1 for rank in ranks if rank == 1)
            ties += shared > 1
            wins += 1 / shared
        if number % 20 == 19:
            say(f"{game} {players}p: {number + 1} games, {wins:g} wins")
    low, high = wilson(wins, games)
    return {
        "bench": "card_levels_hard_vs_strong",
        "game": game,
        "players": players,
        "games": games,
        "budget": {
            "iterations": budget.iterations,
            "seconds": budget.seconds,
        },
        "first_seed": first,
        "first_places": firsts,
        "ties": ties,
        "wins": wins,
        "win_rate": round(wins / games, 3),
        "wilson95": [round(low, 3), round(high, 3)],
        "share_ratio": round(wins / (games / players), 2),
        "move_seconds_p50": round(percentile(times, 0.5), 4),
        "move_seconds_p99": round(percentile(times, 0.99), 4),
        "move_cpu_p50": round(percentile(cpu, 0.5), 4),
        "move_cpu_p90": round(percentile(cpu, 0.9), 4),
        "move_cpu_max": round(max(cpu, default=0.0), 4),
        "cold": cold,
        "hard_moves": len(times),
        "seconds": round(time.perf_counter() - start, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per game and count")
    parser.add_argument("--game", choices=("m", "maedn"), action="append", help="default both")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument(
        "--iterations", type=int, help="worlds a move with no time cap (default: HARD_BUDGET)"
    )
    parser.add_argument("--first", type=int, default=31_000, help="seed of the first game")
    parser.add_argument(
        "--cold", action="store_true", help="empty the hard bot's caches before each move"
    )
    args = parser.parse_args()
    machine = {"python": platform.python_version(), "machine": platform.machine()}
    for game in args.game or ["m", "maedn"]:
        for players in args.players:
            print(
                json.dumps(
                    {
                        **duel(game, players, args.games, args.iterations, args.first, args.cold),
                        **machine,
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
