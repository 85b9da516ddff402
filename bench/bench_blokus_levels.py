"""Blokus bot levels: the hard bot (search, HARD_BUDGET) against the strong (greedy) bot.

    nice -n 10 .venv/bin/python bench/bench_blokus_levels.py [--games N] [--classic N] [--procs P]
        [--iterations N]

Duo: N games, the hard bot in seat ``game % 2``. Classic, four players: the hard bot
in seat ``game % 4`` against three strong bots. A win is first place alone; a tie
for first counts half. One JSON line per figure; win rates carry a 95% Wilson
interval; hard's per-move time is wall clock (with the budget's 1 s cap).

``--iterations N`` plays the hard bot on N iterations a move with no time cap, so that the
win rate does not depend on how loaded the machine is (the move times then say what N
iterations cost there); without it the bot plays its ``HARD_BUDGET``.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time
from multiprocessing import Pool
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.common import wilson
from engines.base import Budget
from engines.blokus import bots, rules, search


def emit(bench: str, unit: str, **figures: Any) -> None:
    print(json.dumps({"bench": bench, "unit": unit, **figures}), flush=True)


def game(job: tuple[str, int, int, Budget]) -> tuple[float, int, list[float]]:
    """One game: (win 1 / tie for first 0.5 / loss 0, hard's margin over the best rival,
    hard's move times in ms)."""
    variant, players, number, budget = job
    hard = number % players
    state = rules.new_state(variant, players, False)
    times = []
    move = 0
    while state.turn is not None:
        seed = number * 1000 + move
        if rules.controller(state, state.turn) == hard:
            start = time.perf_counter()
            pid = search.search(state, seed, budget)
            times.append((time.perf_counter() - start) * 1000)
        else:
            pid = bots.strong_placement(state, seed)
        state = rules.place(state, pid)
        move += 1
    scores = rules.seat_scores(state)
    best = max(score for seat, score in enumerate(scores) if seat != hard)
    margin = scores[hard] - best
    return (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0), margin, times


def run(variant: str, players: int, games: int, procs: int, target: float, budget: Budget) -> None:
    started = time.perf_counter()
    jobs = [(variant, players, number, budget) for number in range(games)]
    results = []
    with Pool(procs) as pool:
        for result in pool.imap(game, jobs):
            results.append(result)
            if len(results) % 10 == 0:  # a running tally, in case a long run is cut short
                wins = sum(found[0] for found in results)
                print(f"{variant}{players}: {wins}/{len(results)}", file=sys.stderr, flush=True)
    wins = sum(result[0] for result in results)
    times = sorted(t for result in results for t in result[2])
    low, high = wilson(wins, games)
    emit(
        f"blokus.levels.{variant}{players}",
        "games",
        hard="search.HARD_BUDGET" if budget == search.HARD_BUDGET else "search",
        budget={"iterations": budget.iterations, "seconds": budget.seconds},
        opponent="strong",
        games=games,
        wins=wins,
        ties=sum(1 for result in results if result[0] == 0.5),
        win_rate=round(wins / games, 4),
        wilson95=[round(low, 4), round(high, 4)],
        mean_margin=round(sum(result[1] for result in results) / games, 2),
        hard_move_ms={
            "p50": round(times[len(times) // 2], 1),
            "p99": round(times[min(len(times) - 1, len(times) * 99 // 100)], 1),
            "max": round(times[-1], 1),
            "n": len(times),
        },
        target={"win_rate": target},
        seconds=round(time.perf_counter() - started, 1),
        procs=procs,
        cores=os.cpu_count(),
        load_avg=[round(x, 2) for x in os.getloadavg()],
        python=sys.version.split()[0],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="Duo games")
    parser.add_argument("--classic", type=int, default=100, help="four-player classic games")
    parser.add_argument("--procs", type=int, default=2, help="worker processes (at most 2 here)")
    parser.add_argument("--iterations", type=int, help="iterations a move, no time cap")
    args = parser.parse_args()
    budget = search.HARD_BUDGET
    if args.iterations is not None:
        budget = Budget(iterations=args.iterations, seconds=None)
    if args.games:
        run("duo", 2, args.games, args.procs, 0.9, budget)
    if args.classic:
        run("classic", 4, args.classic, args.procs, 0.6, budget)


if __name__ == "__main__":
    main()
