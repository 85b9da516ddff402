"""How games of M end: a property run over random and bot games; prints JSON lines.

For each player count and each kind of table (every seat random, every seat the
strong bot) it plays games to the end and counts the end reasons of docs/rules.md
M-16 to M-20: final scoring (a), empty hands (b), all passed (c), a jammed table (d)
and the ten-round termination guard, with how many cards were left in the pile.

Usage: ``python bench/bench_m_ends.py [--random N] [--strong N]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_m import play_out
from engines.m.state import END_REASONS


def ends(players: int, bot: str, games: int, first_seed: int) -> dict[str, object]:
    start = time.perf_counter()
    reasons: Counter[str] = Counter()
    pile_left: Counter[str] = Counter()
    moves = 0
    for seed in range(first_seed, first_seed + games):
        state, played = play_out(players, seed, [bot] * players)
        assert state.ended is not None
        reasons[state.ended] += 1
        pile_left[state.ended] += len(state.pile)
        moves += played
    return {
        "bench": "m_end_reasons",
        "players": players,
        "bots": bot,
        "games": games,
        "seeds": [first_seed, first_seed + games - 1],
        "ends": {reason: reasons[reason] for reason in END_REASONS},
        "mean_pile_left": {
            reason: round(pile_left[reason] / reasons[reason], 1)
            for reason in END_REASONS
            if reasons[reason]
        },
        "mean_moves": round(moves / games, 1),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--random", type=int, default=500, help="random games per count")
    parser.add_argument("--strong", type=int, default=100, help="strong-bot games per count")
    args = parser.parse_args()
    for players in range(2, 7):
        print(json.dumps(ends(players, "random", args.random, 1_000_000)), flush=True)
        print(json.dumps(ends(players, "strong", args.strong, 1_000_000)), flush=True)


if __name__ == "__main__":
    main()
